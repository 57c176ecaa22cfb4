import Glibc
import NeonClient
import NeonCore
import NeonRender
import NeonSystem
import NeonTUI
import NeonTransportCore

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
        case "config":
            return try ConfigCommand.report(arguments.dropFirst())
        case "help" where arguments.count == 2 && arguments[1] == "config":
            return .help(ConfigCommand.help)
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
        return try CommandFlags.parse(command, rest)
    }
}

extension CommandFlags {
    static func parse(_ command: CommandName, _ arguments: ArraySlice<String>) throws(NeonError) -> Subcommand {
        assert(rows.map(\.spec) == CommandOption.all.map(\.spec), "every CommandOption has its row, in order")
        var flags = CommandFlags(command: command)
        let help = flags.help
        try OptionRow.read(arguments, by: rows, into: &flags, failing: { error in
            switch error {
            case let .unknown(flag, _):
                let near = Suggestion.sentence(for: flag, among: CommandOption.of(command).map(\.flag))
                return NeonError.usage("unknown option \(flag)\(near.map { " (\($0))" } ?? ""); \(help)")
            case let .missingValue(option):
                return NeonError.usage("\(option.flag) needs a value, \(option.flag) \(option.value ?? ""); \(help)")
            case let .unexpectedValue(option):
                return NeonError.usage("\(option.flag) takes no value; \(help)")
            }
        }, positional: { flags, word in flags.positional.append(word) })
        if flags.showHelp {
            return .help(CommandHelp.of(command).text())
        }
        try flags.checkToken()
        let env = ProcessEnvironment()
        try flags.settle(file: configFile(env), env)
        try flags.checkTrust()
        try flags.take()
        if command.connects, let problem = Hub.problem(withName: flags.connect.name) {
            throw NeonError.usage("--name \"\(flags.connect.name)\": \(problem); choose another with --name N")
        }
        return flags.subcommand
    }

    /// --token and --token-file do not go together.
    private func checkToken() throws(NeonError) {
        if given.contains("--token"), given.contains("--token-file") {
            throw NeonError.usage("--token and --token-file both give the token; give one, preferably --token-file FILE (others on this machine can see --token in ps)")
        }
    }

    /// --ca and --insecure do not go together.
    private func checkTrust() throws(NeonError) {
        if given.contains("--ca"), given.contains("--insecure") {
            throw NeonError.usage("--ca and --insecure contradict each other: --ca checks the certificate against FILE, --insecure checks nothing; give one")
        }
    }

    /// The command with what was given.
    private var subcommand: Subcommand {
        let room = self.room ?? "lobby"
        switch command {
        case .read: return .read(file: file ?? "", room: room, connect)
        case .join: return .join(room: room, connect)
        case .present: return .present(file: file, room: room, pointing: pointing, slides: slides, snippets: snippets, connect)
        case .follow: return .follow(room: room, connect)
        case .draft: return print ? .draftPrint(room: room, connect) : .draft(room: room, profile: profile, connect)
        case .tail: return .tail(room: room, json: json, connect)
        case .monitor: return .monitor(room: self.room, connect)
        case .replay: return .replay(log: file ?? "", room: self.room, speed: speed, summary: summary)
        case .notes: return .notes(file: file ?? "", room: room, connect)
        }
    }

    /// Takes the command's arguments: FILE, ROOM, FILE|ROOM or LOGFILE, and
    /// checks the room by the server's rule.
    private mutating func take() throws(NeonError) {
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
