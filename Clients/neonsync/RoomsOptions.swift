import NeonClient
import NeonCore
import NeonSystem

/// `neonsync rooms` and its flags (`RoomsCommand.help`).
struct RoomsOptions {
    var server: String
    var token: String?
    /// `--token T` was given: the token is visible in `ps`; warn.
    var tokenOnCommandLine = false
    /// `--json`: the server's overview as one JSON object.
    var json = false

    /// Its flags: the table `parse` reads and the help lists.
    static let table = [
        OptionSpec("--server", value: "URL", help: """
            ws://, wss:// URL or unix:PATH (a Unix socket) of neonsyncd (default \(CommandOption.defaultServer), or \
            $\(CommandOption.serverEnvironment)); a list URL1,URL2 tries each in turn
            """),
        OptionSpec("--token-file", value: "FILE", help: """
            a room token, when the server requires one: the first line of FILE, which only you may read (chmod 600 \
            FILE); or $\(CommandOption.tokenEnvironment)
            """),
        OptionSpec("--token", value: "T", help: """
            the token on the command line, where other users see it (ps); warns. Prefer --token-file FILE
            """),
        OptionSpec("--json", help: "print the server's overview as one JSON object"),
        OptionSpec.help(),
    ]

    /// Parses the arguments after `rooms`; nil when they ask for the help.
    static func parse(_ arguments: [String]) throws(NeonError) -> RoomsOptions? {
        let env = ProcessEnvironment()
        var options = RoomsOptions(server: env[CommandOption.serverEnvironment] ?? CommandOption.defaultServer,
                                   token: env[CommandOption.tokenEnvironment])
        let read: [OptionSpec.Argument]
        do {
            read = try OptionSpec.parse(arguments, by: table)
        } catch {
            throw NeonError.usage(error.sentence(unknown: "argument", help: "neonsync rooms --help"))
        }
        var tokenFromFile = false
        for argument in read {
            switch argument {
            case let .positional(word):
                throw NeonError.usage("unknown argument \(word); see neonsync rooms --help")
            case let .option(option, nil) where option.flag == "--help":
                return nil
            case .option(_, nil):
                options.json = true
            case let .option(option, value?):
                guard !value.isEmpty else { throw NeonError.usage("\(option.flag) needs a value; see neonsync rooms --help") }
                switch option.flag {
                case "--server": options.server = value
                case "--token":
                    options.token = value
                    options.tokenOnCommandLine = true
                default:
                    do {
                        options.token = try PrivateFile.roomToken(value)
                        tokenFromFile = true
                    } catch {
                        throw error.exiting(with: NeonError.usageStatus)
                    }
                }
            }
        }
        if options.tokenOnCommandLine, tokenFromFile {
            throw NeonError.usage("--token and --token-file both give the token; give one, preferably --token-file FILE")
        }
        return options
    }
}
