import Glibc
import NeonClient
import NeonCore
import NeonTransport

/// `neonsync` subcommands and their flags. The flags, and what each
/// command's `--help` says, come from NeonClient's `CommandOption` and
/// `CommandHelp` tables.
struct ClientOptions {
    static let defaultServer = CommandOption.defaultServer
    static let serverEnvironment = CommandOption.serverEnvironment
    static let tokenEnvironment = CommandOption.tokenEnvironment

    var command: CommandName
    /// `tail --json`: the protocol messages verbatim.
    var json = false
    /// `replay --summary`: print the summary instead of replaying.
    var summary = false
    /// `replay --speed X`: times real time.
    var speed = 1.0
    var profile: CountingProfile?
    var file: String?
    var room: String?
    var name: String
    var server: String
    /// The room token a server with a secret requires: from
    /// `--token-file FILE`, `--token T` or `NEONSYNC_TOKEN`.
    var token: String?
    /// `--token T` was given: the token is visible in `ps`; warn.
    var tokenOnCommandLine = false
    /// How a wss:// server's certificate is checked (--ca, --insecure).
    var trust: ServerTrust = .systemStore

    /// How the reader takes part: `read`, `present` and `follow` their own
    /// way, every other command as a plain member.
    var mode: ClientMode {
        switch command {
        case .read: .read
        case .present: .present
        case .follow: .follow
        case .join, .draft, .tail, .monitor, .replay: .join
        }
    }

    static let usage = """
    neonsync — read, present, follow and draft together from terminals, and
    watch rooms (tail, monitor, replay)

    USAGE:
      neonsync read FILE [--room R]      publish FILE to a room and read it
      neonsync join ROOM                 read a room's document
      neonsync present FILE|ROOM         lead: your scroll and tabs are followed
      neonsync follow ROOM               follow the presenter on any terminal size
      neonsync draft ROOM                compose the room's shared draft
      neonsync tail ROOM [--json]        print a room's events, no terminal needed
      neonsync monitor [ROOM]            a live dashboard of one room or of all
      neonsync replay LOGFILE            replay a neonsyncd log, or --summary
      neonsync rooms [--json]            list the rooms you may see
      neonsync bench SCENARIO            load-generate against a server

    neonsync COMMAND --help shows a command's arguments, options, keys, exit
    statuses and an example.

    A room name is \(RoomName.rule).

    OPTIONS (every command that connects):
      --name N       the name others see (default: your login name)
      --server URL   ws://HOST:PORT/, wss://HOST:PORT/ or unix:PATH (a Unix
                     socket) of neonsyncd (default \(defaultServer), or
                     $\(serverEnvironment)); a list URL1,URL2,… fails over to
                     the next URL
      --token-file FILE
                     room token for a server that requires one: the first
                     line of FILE, which must be chmod 600 (or
                     $\(tokenEnvironment))
      --token T      the token on the command line: other users see it in
                     ps, so it warns; prefer --token-file FILE
      --ca FILE      wss:// only: trust the CA certificate(s) in FILE (PEM)
      --insecure     wss:// only: do not check the certificate (testing only)
      -h, --help     show this help (also: neonsync COMMAND --help)

    EXIT STATUS:
      0  quit (or stopped by SIGINT, SIGTERM, SIGHUP)
      1  the client could not start
      2  bad usage: an unknown command or option, a bad room name, a file
         that cannot be read, a --token-file others can read or that is
         missing or empty, or no terminal that can draw a screen (output
         piped or redirected, TERM=dumb)
      3  the server refused this client, which ends instead of reconnecting:
         the room already has a presenter (the message names them and says
         how to follow them), a missing, wrong or expired token, a full room
         or server, a room or name the server does not take
      4  tail only: no server reached within 5 s of starting
      5  a wss:// server's certificate failed verification

    KEYS (press ? inside for the full list; F1 or Ctrl-G in the composer):
      j/k ↓/↑ scroll · space/PgDn b/PgUp page · g/Home G/End · Tab/Shift-Tab 1–9 tabs
      t back to top · / search, n/N next/previous · f follow · e draft · q quit
    """

    /// A usage error, said as `neonsync COMMAND: sentence`.
    struct Problem: Error, CustomStringConvertible {
        var command: CommandName?
        let description: String

        /// The line printed on standard error.
        var line: String { "neonsync\(command.map { " " + $0.rawValue } ?? ""): \(description)" }
    }

    /// Parses arguments; returns nil when help was printed.
    static func parse(_ arguments: [String]) throws(Problem) -> ClientOptions? {
        var rest = arguments[...]
        let commands = CommandName.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = rest.popFirst() else {
            throw Problem(description: "missing a command: \(commands), rooms or bench; see neonsync --help")
        }
        if first == "-h" || first == "--help" || first == "help" {
            if let topic = rest.first, let command = CommandName(rawValue: topic) {
                print(CommandHelp.of(command).text())
            } else {
                print(usage)
            }
            return nil
        }
        guard let command = CommandName(rawValue: first) else {
            throw Problem(description: "unknown command \(first); use \(commands), rooms or bench (see neonsync --help)")
        }
        do {
            return try parse(command, rest)
        } catch var problem {
            problem.command = command
            throw problem
        }
    }

    private static func parse(_ command: CommandName, _ arguments: ArraySlice<String>) throws(Problem) -> ClientOptions? {
        let env = ProcessEnvironment()
        var options = ClientOptions(command: command, name: LoginName.current(),
                                    server: env[serverEnvironment] ?? defaultServer)
        options.token = env[tokenEnvironment]
        let help = "see neonsync \(command.rawValue) --help"
        var rest = arguments
        var positional: [String] = []
        var given: Set<String> = []
        while let argument = rest.popFirst() {
            if argument == "-h" || argument == "--help" {
                print(CommandHelp.of(command).text())
                return nil
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            var flag = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = CommandOption.named(flag) else {
                throw Problem(description: "unknown option \(flag); \(help)")
            }
            guard option.commands.contains(command) else {
                throw Problem(description: "\(flag) belongs to \(owners(of: option)), not to neonsync \(command.rawValue); \(help)")
            }
            given.insert(flag)
            guard let placeholder = option.value else {
                if inline != nil { throw Problem(description: "\(flag) takes no value; \(help)") }
                switch flag {
                case "--json": options.json = true
                case "--summary": options.summary = true
                default: options.trust = .insecureAcceptAnything
                }
                continue
            }
            guard let value = inline ?? rest.popFirst() else {
                throw Problem(description: "\(flag) needs a value, \(flag) \(placeholder); \(help)")
            }
            try options.set(flag, value, help: help)
        }
        if given.contains("--token"), given.contains("--token-file") {
            throw Problem(description: "--token and --token-file both give the token; give one, preferably --token-file FILE (others on this machine can see --token in ps)")
        }
        if given.contains("--ca"), given.contains("--insecure") {
            throw Problem(description: "--ca and --insecure contradict each other: --ca checks the certificate against FILE, --insecure checks nothing; give one")
        }
        try options.take(positional, help: help)
        return options
    }

    /// `neonsync tail` or `neonsync read, present or replay`.
    private static func owners(of option: CommandOption) -> String {
        let names = CommandName.allCases.filter { option.commands.contains($0) }.map(\.rawValue)
        if names.count == 1 { return "neonsync \(names[0])" }
        if names.count == CommandName.allCases.filter(\.connects).count, !option.commands.contains(.replay) {
            return "the commands that connect to a server"
        }
        return "neonsync " + names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    private mutating func set(_ flag: String, _ value: String, help: String) throws(Problem) {
        switch flag {
        case "--room": room = value
        case "--name": name = value
        case "--server": server = value
        case "--profile":
            guard let chosen = CountingProfile(rawValue: value) else {
                throw Problem(description: "--profile needs one of \(CountingProfile.allCases.map(\.rawValue).joined(separator: ", ")); \(help)")
            }
            profile = chosen
        case "--speed":
            guard let number = Double(value), number > 0, number.isFinite else {
                throw Problem(description: "--speed needs a number above 0, e.g. --speed 10; \(help)")
            }
            speed = number
        case "--token":
            guard !value.isEmpty else {
                throw Problem(description: "--token needs a value (a room token from neonsyncd token); \(help)")
            }
            token = value
            tokenOnCommandLine = true
        case "--token-file":
            do {
                token = try TokenFile.read(value)
            } catch {
                throw Problem(description: error.description)
            }
        case "--ca": trust = .certificates(path: value)
        default: break
        }
    }

    /// Takes the command's arguments: FILE, ROOM, FILE|ROOM or LOGFILE, and
    /// checks the room by the server's rule.
    private mutating func take(_ positional: [String], help: String) throws(Problem) {
        let what: String
        switch command {
        case .read: what = "FILE"
        case .present: what = "FILE or ROOM"
        case .replay: what = "LOGFILE"
        case .join, .follow, .draft, .tail, .monitor: what = "ROOM"
        }
        if command == .monitor, positional.isEmpty { return }
        guard positional.count == 1 else {
            let got = positional.isEmpty ? "got none"
                : "got \(positional.count): " + positional.map { "\"\($0)\"" }.joined(separator: ", ")
            let hint = what.contains("ROOM") && positional.count > 1 ? " (a room name has no spaces)" : ""
            throw Problem(description: "takes exactly one \(what), \(got)\(hint); \(help)")
        }
        let target = positional[0]
        switch command {
        case .read, .replay:
            file = target
        case .present where access(target, F_OK) == 0:
            file = target
        case .present:
            guard room == nil else {
                throw Problem(description: "no file \"\(target)\" exists; with --room R the argument is the FILE to present; \(help)")
            }
            if let problem = Hub.problem(withRoom: target) {
                throw Problem(description: "no file \"\(target)\" exists, and as a room name: \(problem); give an existing FILE or a ROOM: neonsync present FILE|ROOM")
            }
            room = target
        case .join, .follow, .draft, .tail, .monitor:
            room = target
            // tail leaves the verdict to the server (its exit status 3).
            if command != .tail, let problem = RoomName.problem(target, given: "neonsync \(command.rawValue) ROOM") {
                throw Problem(description: problem)
            }
        }
        if let room, command == .read || command == .present,
           let problem = RoomName.problem(room, given: "--room R") {
            throw Problem(description: problem)
        }
        if room == nil, let file, command != .replay {
            room = RoomName.fromFile(file)
        }
    }
}

/// Reads environment variables without Foundation.
struct ProcessEnvironment {
    subscript(name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let s = String(cString: value)
        return s.isEmpty ? nil : s
    }
}

extension LoginName {
    /// This user's login name: getlogin(), then $USER, then the password
    /// database's entry of this user (see `choose`).
    static func current() -> String {
        var candidates: [String?] = [getlogin().map { String(cString: $0) }, ProcessEnvironment()["USER"]]
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
            candidates.append(String(cString: name))
        }
        return choose(candidates)
    }
}
