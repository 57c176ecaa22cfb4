import Glibc
import NeonClient
import NeonCore
import NeonRender
import NeonSystem
import NeonTUI
import NeonTransport

extension Subcommand {
    /// Parses the arguments after `neonsync`: the command, then its flags
    /// and its one argument (FILE, ROOM, FILE|ROOM or LOGFILE).
    static func parse(_ arguments: [String]) throws(NeonError) -> Subcommand {
        switch arguments.first {
        case "bench":
            let rest = Array(arguments.dropFirst())
            return rest == ["--help"] || rest == ["-h"] ? .help(BenchHelp.usage(program: BenchHelp.launchedName)) : .bench(rest)
        case "rooms":
            return try RoomsOptions.parse(Array(arguments.dropFirst())).map(Subcommand.rooms) ?? .help(RoomsCommand.help)
        case "help" where arguments.count == 2 && arguments[1] == "rooms":
            return .help(RoomsCommand.help)
        case "help" where arguments.count == 2 && arguments[1] == "bench":
            return .help(BenchHelp.usage(program: BenchHelp.launchedName))
        case "generate":
            switch Client.spec.generated(Array(arguments.dropFirst()), version: BuildStamp.version, date: BuildStamp.date) {
            case let .text(text): return .generated(text)
            case let .problem(sentence): throw NeonError.usage(sentence)
            }
        default:
            break
        }
        var rest = arguments[...]
        let commands = CommandName.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = rest.popFirst() else {
            throw NeonError.usage("missing a command: \(commands), rooms or bench; see neonsync --help")
        }
        if first == "--version" {
            return .version
        }
        if first == "-h" || first == "--help" || first == "help" {
            if let topic = rest.first, let command = CommandName(rawValue: topic) {
                return .help(CommandHelp.of(command).text())
            }
            return .help(usage)
        }
        guard let command = CommandName(rawValue: first) else {
            let hint = Suggestion.sentence(for: first, among: commandWords).map { " (\($0))" } ?? ""
            throw NeonError.usage("unknown command \(first)\(hint); use \(commands), rooms or bench (see neonsync --help)")
        }
        return try Flags.parse(command, rest)
    }
}

/// The flags and arguments of one command as they are read, before they
/// become its `Subcommand`.
private struct Flags {
    let command: CommandName
    var connect: ConnectOptions
    var json = false
    var summary = false
    var speed = 1.0
    var profile: CountingProfile?
    var pointing = PointingRule.everyone
    var slides = false
    var file: String?
    var room: String?
    let help: String

    private init(command: CommandName) {
        let env = ProcessEnvironment()
        self.command = command
        connect = ConnectOptions(name: LoginName.current(),
                                 server: env[CommandOption.serverEnvironment] ?? CommandOption.defaultServer,
                                 token: env[CommandOption.tokenEnvironment])
        help = "see neonsync \(command.rawValue) --help"
    }

    static func parse(_ command: CommandName, _ arguments: ArraySlice<String>) throws(NeonError) -> Subcommand {
        var flags = Flags(command: command)
        let help = flags.help
        let read: [OptionSpec.Argument]
        do {
            read = try OptionSpec.parse(arguments, by: CommandOption.all.map(\.spec))
        } catch {
            switch error {
            case let .unknown(flag, _):
                let near = Suggestion.sentence(for: flag, among: CommandOption.of(command).map(\.flag))
                throw NeonError.usage("unknown option \(flag)\(near.map { " (\($0))" } ?? ""); \(help)")
            case let .missingValue(option):
                throw NeonError.usage("\(option.flag) needs a value, \(option.flag) \(option.value ?? ""); \(help)")
            case let .unexpectedValue(option):
                throw NeonError.usage("\(option.flag) takes no value; \(help)")
            }
        }
        var positional: [String] = []
        var given: Set<String> = []
        for argument in read {
            guard case let .option(spec, value) = argument else {
                if case let .positional(word) = argument { positional.append(word) }
                continue
            }
            let flag = spec.flag
            if flag == "--help" {
                return .help(CommandHelp.of(command).text())
            }
            let option = CommandOption.named(flag)!
            guard option.commands.contains(command) else {
                throw NeonError.usage("\(flag) belongs to \(owners(of: option)), not to neonsync \(command.rawValue); \(help)")
            }
            given.insert(flag)
            guard let value else {
                switch flag {
                case "--json": flags.json = true
                case "--summary": flags.summary = true
                case "--slides": flags.slides = true
                default: flags.connect.trust = .insecureAcceptAnything
                }
                continue
            }
            try flags.set(flag, value)
        }
        if given.contains("--token"), given.contains("--token-file") {
            throw NeonError.usage("--token and --token-file both give the token; give one, preferably --token-file FILE (others on this machine can see --token in ps)")
        }
        if !given.contains("--theme"), let value = ProcessEnvironment()[ThemeName.environment], !value.isEmpty {
            try flags.set("--theme", value, from: "$\(ThemeName.environment)")
        }
        if given.contains("--ca"), given.contains("--insecure") {
            throw NeonError.usage("--ca and --insecure contradict each other: --ca checks the certificate against FILE, --insecure checks nothing; give one")
        }
        try flags.take(positional)
        if command.connects, let problem = Hub.problem(withName: flags.connect.name) {
            throw NeonError.usage("--name \"\(flags.connect.name)\": \(problem); choose another with --name N")
        }
        return flags.subcommand
    }

    /// The command with what was given.
    private var subcommand: Subcommand {
        let room = self.room ?? "lobby"
        switch command {
        case .read: return .read(file: file ?? "", room: room, connect)
        case .join: return .join(room: room, connect)
        case .present: return .present(file: file, room: room, pointing: pointing, slides: slides, connect)
        case .follow: return .follow(room: room, connect)
        case .draft: return .draft(room: room, profile: profile, connect)
        case .tail: return .tail(room: room, json: json, connect)
        case .monitor: return .monitor(room: self.room, connect)
        case .replay: return .replay(log: file ?? "", room: self.room, speed: speed, summary: summary)
        case .notes: return .notes(file: file ?? "", room: room, connect)
        }
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

    private mutating func set(_ flag: String, _ value: String, from source: String? = nil) throws(NeonError) {
        switch flag {
        case "--theme":
            guard let theme = ThemeName(rawValue: value) else {
                let names = ThemeName.allCases.map(\.rawValue).joined(separator: ", ")
                throw NeonError.usage("\(source ?? "--theme") \"\(value)\" is not a theme; choose one of \(names); \(help)")
            }
            connect.theme = theme
        case "--hyperlinks":
            guard let choice = HyperlinkChoice(rawValue: value) else {
                throw NeonError.usage("--hyperlinks needs auto, always or never, not \"\(value)\"; \(help)")
            }
            connect.hyperlinks = choice
        case "--graphics":
            let names = ["auto", "none"] + GraphicsProtocol.allCases.map(\.rawValue)
            guard names.contains(value) else {
                throw NeonError.usage("--graphics needs one of \(names.joined(separator: ", ")), not \"\(value)\"; \(help)")
            }
            connect.graphics = value
        case "--room": room = value
        case "--name": connect.name = value
        case "--server": connect.server = value
        case "--profile":
            guard let chosen = CountingProfile(rawValue: value) else {
                throw NeonError.usage("--profile needs one of \(CountingProfile.allCases.map(\.rawValue).joined(separator: ", ")); \(help)")
            }
            profile = chosen
        case "--pointers":
            guard let rule = PointingRule(rawValue: value) else {
                throw NeonError.usage("--pointers needs everyone or presenter, not \"\(value)\"; \(help)")
            }
            pointing = rule
        case "--speed":
            guard let number = Double(value), number > 0, number.isFinite else {
                throw NeonError.usage("--speed needs a number above 0, e.g. --speed 10; \(help)")
            }
            speed = number
        case "--token":
            guard !value.isEmpty else {
                throw NeonError.usage("--token needs a value (a room token from neonsyncd token); \(help)")
            }
            connect.token = value
            connect.tokenOnCommandLine = true
        case "--token-file":
            do {
                connect.token = try PrivateFile.roomToken(value)
            } catch {
                throw error.exiting(with: NeonError.usageStatus)
            }
        case "--ca": connect.trust = .certificates(path: value)
        default: break
        }
    }

    /// Takes the command's arguments: FILE, ROOM, FILE|ROOM or LOGFILE, and
    /// checks the room by the server's rule.
    private mutating func take(_ positional: [String]) throws(NeonError) {
        let what: String
        switch command {
        case .read, .notes: what = "FILE"
        case .present: what = "FILE or ROOM"
        case .replay: what = "LOGFILE"
        case .join, .follow, .draft, .tail, .monitor: what = "ROOM"
        }
        if command == .monitor, positional.isEmpty, room == nil { return }
        let roomByName: Set<CommandName> = [.join, .follow, .draft, .tail, .monitor]
        if roomByName.contains(command), let room {
            // --room R names the ROOM as present and read take it.
            guard positional.allSatisfy({ $0 == room }) else {
                throw NeonError.usage("the room is given twice, as --room \"\(room)\" and as \(positional.map { "\"\($0)\"" }.joined(separator: ", ")); give one: neonsync \(command.rawValue) ROOM; \(help)")
            }
            if let problem = RoomName.problem(room, given: "--room R") { throw NeonError.usage(problem) }
            return
        }
        guard positional.count == 1 else {
            let got = positional.isEmpty ? "got none"
                : "got \(positional.count): " + positional.map { "\"\($0)\"" }.joined(separator: ", ")
            let hint = what.contains("ROOM") && positional.count > 1 ? " (a room name has no spaces)" : ""
            throw NeonError.usage("takes exactly one \(what), \(got)\(hint); \(help)")
        }
        let target = positional[0]
        switch command {
        case .read, .replay, .notes:
            file = target
        case .present where access(target, F_OK) == 0:
            file = target
        case .present:
            guard room == nil else {
                throw NeonError.usage("no file \"\(target)\" exists; with --room R the argument is the FILE to present; \(help)")
            }
            if let problem = Hub.problem(withRoom: target) {
                throw NeonError.usage("no file \"\(target)\" exists, and as a room name: \(problem); give an existing FILE or a ROOM: neonsync present FILE|ROOM")
            }
            room = target
        case .join, .follow, .draft, .tail, .monitor:
            room = target
            if let problem = RoomName.problem(target, given: "neonsync \(command.rawValue) ROOM") {
                throw NeonError.usage(problem)
            }
        }
        if let room, command == .read || command == .present || command == .notes,
           let problem = RoomName.problem(room, given: "--room R") {
            throw NeonError.usage(problem)
        }
        if room == nil, let file, command != .replay {
            room = RoomName.fromFile(file)
        }
    }
}
