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

    /// The options as the flags are read.
    struct Reading {
        var options: RoomsOptions
        var tokenFromFile = false
        var showHelp = false
    }

    /// Its flags and where their values go: the table `parse` reads and the help lists.
    static let rows: [OptionRow<Reading>] = [
        .value(OptionSpec("--server", value: "URL", help: """
            ws://, wss:// URL or unix:PATH (a Unix socket) of neonsyncd (default \(CommandOption.defaultServer), or \
            $\(CommandOption.serverEnvironment)); a list URL1,URL2 tries each in turn
            """), \.options.server, given),
        .optional(OptionSpec("--token-file", value: "FILE", help: """
            a room token, when the server requires one: the first line of FILE, which only you may read (chmod 600 \
            FILE); or $\(CommandOption.tokenEnvironment)
            """), \.options.token, ValueParser<String> { flag, path throws(NeonError) in
                do throws(NeonError) {
                    return try PrivateFile.roomToken(try given(flag, path))
                } catch {
                    throw error.exiting(with: NeonError.usageStatus)
                }
            }).checking { reading, _ in reading.tokenFromFile = true },
        OptionRow(OptionSpec("--token", value: "T", help: """
            the token on the command line, where other users see it (ps); warns. Prefer --token-file FILE
            """)) { reading, flag, text throws(NeonError) in
            reading.options.token = try given(flag, text ?? "")
            reading.options.tokenOnCommandLine = true
        },
        .switch(OptionSpec("--json", help: "print the server's overview as one JSON object"), \.options.json),
        .switch(OptionSpec.help(), \.showHelp, ends: true),
    ]

    /// The flags as help and the man page show them.
    static var table: [OptionSpec] { rows.map(\.spec) }

    /// A value that is not empty.
    private static let given = ValueParser<String> { flag, text throws(NeonError) in
        guard !text.isEmpty else { throw NeonError.usage("\(flag) needs a value; see neonsync rooms --help") }
        return text
    }

    /// Parses the arguments after `rooms`; nil when they ask for the help.
    static func parse(_ arguments: [String]) throws(NeonError) -> RoomsOptions? {
        // The server and token tail would use (the environment, then the
        // config file), which the flags replace.
        let env = ProcessEnvironment()
        var settled = CommandFlags(command: .tail)
        try settled.settle(file: CommandFlags.configFile(env), env)
        var reading = Reading(options: RoomsOptions(server: settled.connect.server, token: settled.connect.token))
        try OptionRow.read(arguments, by: rows, into: &reading,
                           failing: { NeonError.usage($0.sentence(unknown: "argument", help: "neonsync rooms --help")) },
                           positional: { _, word throws(NeonError) in
                               throw NeonError.usage("unknown argument \(word); see neonsync rooms --help")
                           })
        if reading.showHelp { return nil }
        if reading.options.tokenOnCommandLine, reading.tokenFromFile {
            throw NeonError.usage("--token and --token-file both give the token; give one, preferably --token-file FILE")
        }
        return reading.options
    }
}
