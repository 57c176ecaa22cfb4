import NeonClient
import NeonCore
import NeonTUI
import NeonTransport

/// What the user asked `neonsync` for: one case per command, each carrying
/// the options that command takes. `Subcommand.parse` reads them from the
/// arguments; the flags and every `--help` come from NeonClient's
/// `CommandOption` and `CommandHelp` tables (`rooms` and `bench` keep
/// their own beside their code).
enum Subcommand {
    /// `--help`, `help [COMMAND]` or `COMMAND --help`: the text to print.
    case help(String)
    /// `--version`: the version, the commit and the libraries' versions.
    case version
    /// `generate man|bash|zsh|fish`: the man page or a completion script;
    /// `config`: the effective settings. The text to print.
    case generated(String)
    /// `read FILE`: publish FILE to `room` (from --room R, or FILE's name)
    /// and read it.
    case read(file: String, room: String, ConnectOptions)
    /// `join ROOM`: read the room's document.
    case join(room: String, ConnectOptions)
    /// `present FILE|ROOM`: lead in `room`, publishing `file` when given.
    case present(file: String?, room: String, pointing: PointingRule, slides: Bool, snippets: SnippetPermission, ConnectOptions)
    /// `follow ROOM`: follow the presenter.
    case follow(room: String, ConnectOptions)
    /// `draft ROOM [--profile P]`: edit the room's shared draft.
    case draft(room: String, profile: CountingProfile?, ConnectOptions)
    /// `tail ROOM [--json]`: print the room's events as lines.
    case tail(room: String, json: Bool, ConnectOptions)
    /// `monitor [ROOM]`: the dashboard of one room, or of every room.
    case monitor(room: String?, ConnectOptions)
    /// `notes FILE [--room R]`: the speaker notes of FILE beside the room's presenter.
    case notes(file: String, room: String, ConnectOptions)
    /// `replay LOGFILE [--room R] [--speed X] [--summary]`.
    case replay(log: String, room: String?, speed: Double, summary: Bool)
    /// `rooms [--json]`: list the rooms the server lets this client see.
    case rooms(RoomsOptions)
    /// `bench SCENARIO …`: neonsync-bench runs, given the arguments after `bench`.
    case bench([String])
    /// `draft ROOM --print`: print the room's shared draft and exit.
    case draftPrint(room: String, ConnectOptions)

    /// Every command word, for suggesting the one meant.
    static var commandWords: [String] {
        CommandName.allCases.map(\.rawValue) + ["rooms", "bench", "help", "generate", "config"]
    }

    /// Who speaks in an error line: `neonsync COMMAND` when the arguments
    /// name a command, else `neonsync`.
    static func program(of arguments: [String]) -> String {
        guard let first = arguments.first,
              CommandName(rawValue: first) != nil || first == "rooms" || first == "bench" else { return "neonsync" }
        return "neonsync \(first)"
    }

    /// The command, for its sentences and its terminal check.
    var name: CommandName? {
        switch self {
        case .help, .version, .generated, .rooms, .bench: nil
        case .read: .read
        case .join: .join
        case .present: .present
        case .follow: .follow
        case .draft, .draftPrint: .draft
        case .tail: .tail
        case .monitor: .monitor
        case .replay: .replay
        case .notes: .notes
        }
    }
}

/// The options of every command that connects to a server.
struct ConnectOptions {
    /// The name the others see (--name N, or the login name).
    var name: String
    /// `--server URL[,URL…]`, or $NEONSYNC_SERVER, or the default.
    var server: String
    /// The room token a server with a secret requires: from
    /// `--token-file FILE`, `--token T` or `NEONSYNC_TOKEN`.
    var token: String?
    /// `--token T` was given: the token is visible in `ps`; warn.
    var tokenOnCommandLine = false
    /// How a wss:// server's certificate is checked (--ca, --insecure).
    var trust: ServerTrust = .systemStore
    /// The screen's look (--theme T, or $NEONSYNC_THEME).
    var theme = ThemeName.dark
    /// Whether links are written as OSC 8 hyperlinks (--hyperlinks WHEN).
    var hyperlinks = HyperlinkChoice.auto
    /// How pictures are drawn (--graphics P): "auto", "none" or a protocol.
    var graphics = "auto"
}
