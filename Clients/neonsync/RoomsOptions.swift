import NeonClient

/// `neonsync rooms` and its flags (`RoomsCommand.help`).
struct RoomsOptions {
    var server: String
    var token: String?
    /// `--token T` was given: the token is visible in `ps`; warn.
    var tokenOnCommandLine = false
    /// `--json`: the server's overview as one JSON object.
    var json = false

    /// Parses the arguments after `rooms`; nil when they ask for the help.
    static func parse(_ arguments: [String]) throws(UsageProblem) -> RoomsOptions? {
        let env = ProcessEnvironment()
        var options = RoomsOptions(server: env[CommandOption.serverEnvironment] ?? CommandOption.defaultServer,
                                   token: env[CommandOption.tokenEnvironment])
        var tokenFromFile = false
        var rest = arguments[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "-h", "--help":
                return nil
            case "--json": options.json = true
            case "--server", "--token", "--token-file":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    throw UsageProblem(command: "rooms", description: "\(arg) needs a value; see neonsync rooms --help")
                }
                switch arg {
                case "--server": options.server = value
                case "--token":
                    options.token = value
                    options.tokenOnCommandLine = true
                default:
                    do {
                        options.token = try TokenFile.read(value)
                        tokenFromFile = true
                    } catch {
                        throw UsageProblem(command: "rooms", description: error.description)
                    }
                }
            default:
                throw UsageProblem(command: "rooms", description: "unknown argument \(arg); see neonsync rooms --help")
            }
        }
        if options.tokenOnCommandLine, tokenFromFile {
            throw UsageProblem(command: "rooms", description: "--token and --token-file both give the token; give one, preferably --token-file FILE")
        }
        return options
    }
}
