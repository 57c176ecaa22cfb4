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
        var reading = BenchReading(options: options, program: program)
        try OptionRow.read(rest, by: BenchReading.rows, into: &reading, failing: { error in
            NeonError.usage(error.sentence(context: " for \(program) \(scenario.rawValue)", help: "\(program) --help"))
        }, positional: { _, word throws(NeonError) in
            throw NeonError.usage("unknown option \(word) for \(program) \(scenario.rawValue); see \(program) --help")
        })
        if reading.showHelp { return nil }
        return try reading.checked()
    }

    /// A variable of this process's environment; nil when unset or empty.
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

/// The options as the flags are read, one at a time.
struct BenchReading {
    var options: BenchOptions
    let program: String
    var tokenFromFile = false
    var showHelp = false

    var scenario: BenchScenario { options.scenario }

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
}
