import NeonCore
import NeonTUI

/// What `neonsync COMMAND --help` prints: how to call the command, what it
/// does, its arguments, its options (from `CommandOption.all`), the keys of
/// its screen, its exit statuses and an example.
public struct CommandHelp: Sendable {
    public let command: CommandName
    /// `neonsync join ROOM [OPTIONS]`.
    public let usage: String
    public let summary: String
    /// Each positional argument and what it is.
    public let arguments: [(name: String, help: String)]
    /// The keys inside the command's screen.
    public let keys: [HelpOverlay.Line]
    /// How the keys are reached, said above them.
    public let keysNote: String?
    /// Each exit status and when it happens.
    public let exitStatuses: [(status: Int32, meaning: String)]
    public let examples: [String]

    /// The options the command takes.
    public var options: [CommandOption] {
        CommandOption.all.filter { $0.commands.contains(command) }
    }

    /// The help of `command`.
    public static func of(_ command: CommandName) -> CommandHelp {
        all.first { $0.command == command }!
    }

    /// The text printed, at most `width` columns wide.
    public func text(width: Int = 80) -> String {
        var out = ["USAGE: " + usage, ""]
        out += HelpText.wrap(summary.prefix(1).uppercased() + summary.dropFirst() + ".", width: width, indent: 0)
        if !arguments.isEmpty {
            out += ["", "ARGUMENTS:"]
            out += HelpText.table(arguments.map { ($0.name, $0.help) }, width: width)
        }
        out += ["", "OPTIONS:"]
        out += HelpText.table(options.map { ($0.usage, $0.help) }, width: width)
        if !keys.isEmpty {
            out += ["", "KEYS:"]
            if let keysNote { out += HelpText.wrap(keysNote, width: width, indent: 2) }
            out += HelpText.table(keys.map { ($0.key, $0.action) }, width: width)
        }
        out += ["", "EXIT STATUS:"]
        out += HelpText.table(exitStatuses.map { (String($0.status), $0.meaning) }, width: width)
        out += ["", examples.count == 1 ? "EXAMPLE:" : "EXAMPLES:"]
        out += examples.map { "  " + $0 }
        return out.joined(separator: "\n")
    }
}

/// Exit statuses shared by the commands.
public enum ExitStatus {
    /// Quit, or stopped by a signal.
    public static let done: Int32 = 0
    /// The client itself could not start (no wake-up pipe, no socket context).
    public static let failed: Int32 = 1
    /// Bad usage: an unknown command or option, a bad value, a file that
    /// cannot be read, no terminal or one that cannot draw a screen.
    public static let usage: Int32 = 2
    /// The server refused this client (see `Refusal`).
    public static let refused = Refusal.exitStatus
    /// `tail` only: no server reached within its first 5 s.
    public static let unreachable: Int32 = 4
    /// The wss:// server's certificate failed verification.
    public static let untrusted: Int32 = 5

    /// The statuses of the commands that draw a screen and connect.
    public static let ofScreens: [(Int32, String)] = [
        (done, "you quit (q, or Esc in the draft editor), or SIGINT, SIGTERM or SIGHUP ended it"),
        (failed, "the client could not start (no wake-up pipe or network context)"),
        (usage, "bad usage: an unknown option, a bad room name, a FILE that cannot be read, a --token-file that "
            + "group or others can read or that is missing or empty, or no terminal that "
            + "can draw a screen (output piped or redirected, TERM=dumb)"),
        (refused, "the server refused this client, which then ends at once instead of reconnecting: the room "
            + "already has a presenter (present), the token is missing, wrong or expired, the room or the server "
            + "is full, or the server does not take the room, the name or the document (over its --max-document "
            + "or --max-message, or unreadable)"),
        (untrusted, "a wss:// server's certificate failed verification (no reconnecting, not even to the next "
            + "URL of a failover list)"),
    ]
}
