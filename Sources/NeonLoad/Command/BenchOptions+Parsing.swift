import Glibc
import NeonClient
import NeonCore
import NeonServer
import NeonSystem

extension BenchOptions {
    /// The scenarios that connect to servers: every one but redis.
    static let connecting = BenchScenario.allCases.filter { $0 != .redis }

    /// Parses the arguments after the program's name (`program`: how it
    /// names itself in sentences); nil when they ask for the help.
    static func parse(_ arguments: [String], as program: String) throws(NeonError) -> BenchOptions? {
        var rest = arguments[...]
        let scenarios = BenchHelp.words.joined(separator: ", ")
        guard let first = rest.popFirst() else {
            throw NeonError.usage("needs a scenario: \(scenarios); see \(program) --help")
        }
        if first == "-h" || first == "--help" {
            return nil
        }
        guard let scenario = BenchScenario(rawValue: first) else {
            throw NeonError.usage("unknown bench scenario \(first); use \(scenarios) (see \(program) --help)")
        }
        var options = BenchOptions(scenario: scenario)
        if let server = environment(CommandOption.serverEnvironment) { options.server = server }
        options.token = environment(CommandOption.tokenEnvironment)
        let read: [OptionSpec.Argument]
        do {
            read = try OptionSpec.parse(rest, by: BenchHelp.table)
        } catch {
            throw NeonError.usage(error.sentence(context: " for \(program) \(scenario.rawValue)", help: "\(program) --help"))
        }
        var reader = Reader(options: options, program: program)
        for argument in read {
            switch argument {
            case let .positional(word):
                throw NeonError.usage("unknown option \(word) for \(program) \(scenario.rawValue); see \(program) --help")
            case let .option(option, nil) where option.flag == "--help":
                return nil
            case let .option(option, given):
                try reader.read(option.flag, given ?? "")
            }
        }
        return try reader.checked()
    }

    /// A variable of this process's environment; nil when unset or empty.
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

/// The options as the flags are read, one at a time.
private struct Reader {
    var options: BenchOptions
    let program: String
    var tokenFromFile = false

    var scenario: BenchScenario { options.scenario }

    mutating func read(_ flag: String, _ value: String) throws(NeonError) {
        let connecting = BenchOptions.connecting
        switch flag {
        case "--server":
            try only(flag, for: connecting)
            options.server = value
        case "--token":
            try only(flag, for: connecting)
            guard !value.isEmpty else { throw NeonError.usage("--token needs a value; see \(program) --help") }
            options.token = value
            options.tokenOnCommandLine = true
        case "--token-file":
            try only(flag, for: connecting)
            do {
                options.token = try PrivateFile.roomToken(value)
            } catch {
                throw error.exiting(with: NeonError.usageStatus)
            }
            tokenFromFile = true
        case "--peer":
            try only(flag, for: connecting)
            guard let peer = BenchOptions.Peer(rawValue: value) else {
                throw NeonError.usage("--peer needs one of \(BenchOptions.Peer.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            options.peer = peer
        case "--followers": options.count = try whole(flag, value, for: [.follow], minimum: 1)
        case "--readers": options.count = try whole(flag, value, for: [.coread], minimum: 1)
        case "--watchers": options.count = try whole(flag, value, for: [.draft], minimum: 0)
        case "--connections": options.count = try whole(flag, value, for: [.relay, .connect], minimum: 1)
        case "--editors": options.editors = try whole(flag, value, for: [.draft], minimum: 1)
        case "--senders": options.senders = try whole(flag, value, for: [.relay], minimum: 1)
        case "--window": options.window = try whole(flag, value, for: [.relay, .rooms, .redis], minimum: 1)
        case "--per-room": options.perRoom = try whole(flag, value, for: [.connect, .rooms], minimum: 1)
        case "--rooms": options.rooms = try whole(flag, value, for: [.rooms, .churn, .redis], minimum: 1)
        case "--ramp": options.ramp = try whole(flag, value, for: connecting, minimum: 1)
        case "--service-pause": options.servicePause = try whole(flag, value, for: connecting, minimum: 0)
        case "--size": options.size = try whole(flag, value, for: [.relay], minimum: 1)
        case "--rate":
            guard let rate = Double(value), rate >= 0, rate.isFinite else {
                throw NeonError.usage("--rate needs a number of events per second ≥ 0, e.g. --rate 60")
            }
            options.rate = rate
        case "--duration":
            guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
                throw NeonError.usage("--duration needs a number of seconds above 0, e.g. --duration 10")
            }
            options.duration = seconds
        case "--room": options.room = value
        case "--redis-pid":
            try only(flag, for: connecting)
            options.redisPIDs = try pids(flag, value, example: "$(pidof redis-server | tr ' ' ,)")
        case "--server-pid":
            try only(flag, for: connecting)
            options.serverPIDs = try pids(flag, value, example: "$(pidof neonsyncd | tr ' ' ,)")
        case "--redis":
            try only(flag, for: [.redis])
            options.redis = try RedisEndpoint.list(parsing: value)
        case "--redis-password-file":
            try only(flag, for: [.redis])
            do {
                options.redisPassword = try RedisPassword.load(path: value)
            } catch {
                throw error.at("--redis-password-file").exiting(with: NeonError.usageStatus)
            }
        default:
            throw NeonError.usage("unknown option \(flag) for \(program) \(scenario.rawValue); see \(program) --help")
        }
    }

    /// The options once every flag is read, checked together.
    func checked() throws(NeonError) -> BenchOptions {
        if options.tokenOnCommandLine, tokenFromFile {
            throw NeonError.usage("--token and --token-file both give the token; give one, preferably --token-file FILE")
        }
        if options.rate == 0, [.follow, .coread, .draft].contains(scenario) {
            throw NeonError.usage("--rate must be above 0 for \(scenario.rawValue); e.g. --rate \(Int(BenchOptions.defaultRate(scenario)))")
        }
        if options.peer != .neonsync, ![.relay, .connect].contains(scenario) {
            throw NeonError.usage("--peer \(options.peer.rawValue) works with relay and connect only; \(scenario.rawValue) needs neonsyncd")
        }
        if scenario == .relay, options.senders > options.count {
            throw NeonError.usage("--senders (\(options.senders)) cannot exceed --connections (\(options.count))")
        }
        return options
    }

    /// Refuses `flag` for a scenario it does not belong to.
    private func only(_ flag: String, for scenarios: [BenchScenario]) throws(NeonError) {
        guard scenarios.contains(scenario) else {
            throw NeonError.usage("\(flag) belongs to \(program) \(scenarios.map(\.rawValue).joined(separator: " or ")); see \(program) --help")
        }
    }

    /// A list of process ids, `PID[,PID…]`.
    private func pids(_ flag: String, _ value: String, example: String) throws(NeonError) -> [Int32] {
        let pids = value.split(separator: ",", omittingEmptySubsequences: false).map { Int32($0) }
        guard !pids.isEmpty, pids.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw NeonError.usage("\(flag) \(value) is not a list of process ids; give PID or PID,PID,… (commas, no spaces), e.g. \(flag) \(example)")
        }
        return pids.compactMap { $0 }
    }

    private func whole(_ flag: String, _ value: String, for scenarios: [BenchScenario], minimum: Int) throws(NeonError) -> Int {
        try only(flag, for: scenarios)
        guard let number = Int(value), number >= minimum, number <= 1_000_000 else {
            throw NeonError.usage("\(flag) needs a whole number from \(minimum) to 1000000, e.g. \(flag) \(max(minimum, 10))")
        }
        return number
    }
}
