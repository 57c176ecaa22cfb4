import NeonClient
import NeonCore

/// `neonsync config`: the settings the commands would use, each with where
/// it came from (the environment, the config file, the default), printed
/// as YAML a config file could hold.
enum ConfigCommand {
    /// `neonsync config --help`.
    static let help = """
    neonsync config — print the effective settings and where each came from

    USAGE:
      neonsync config

    Prints server, name, theme, hyperlinks, graphics and token-file as the
    commands would use them, each followed by its source: an environment
    variable, a line of the config file, or the default. Flags given to a
    command win over the environment, which wins over the config file:
    $XDG_CONFIG_HOME/neonsync/config.yaml, or ~/.config/neonsync/config.yaml
    when XDG_CONFIG_HOME is not set. The token itself is never printed.

    OPTIONS:
      -h, --help   show this help

    EXIT STATUS:
      0  printed
      2  the config file is not a YAML mapping of known settings with values
         they take (the message names the file, the line and what is allowed)
    """

    /// The man page's and completions' entry.
    static let spec = CommandLineSpec.Command(
        name: "config", synopsis: "neonsync config", summary: "print the effective settings and where each came from",
        groups: [.init(nil, [OptionSpec.help("show this help")])],
        notes: ["The settings are those of the config file (see FILES): a flag given to a command wins over the "
            + "environment, which wins over the file. The token itself is never printed."],
        exitStatuses: [.init("0", "printed"), .init("2", "the config file is refused: the message names the file, the line and what is allowed")])

    /// The settings `join` would use, as `neonsync config` prints them.
    static func report(_ arguments: ArraySlice<String>) throws(NeonError) -> Subcommand {
        if arguments == ["--help"] || arguments == ["-h"] { return .help(help) }
        guard arguments.isEmpty else {
            throw NeonError.usage("neonsync config takes no arguments; it prints the settings the commands use (see neonsync config --help)")
        }
        let env = ProcessEnvironment()
        let file = try CommandFlags.configFile(env)
        var flags = CommandFlags(command: .join)
        try flags.settle(file: file, env)
        let location = ConfigFile.location { env[$0] }
        var lines = ["# config file: " + (location.map { file == nil ? "\($0) (none there)" : $0 } ?? "none (neither XDG_CONFIG_HOME nor HOME is set)")]
        let values: [(String, String?)] = [
            ("server", flags.connect.server), ("name", flags.connect.name), ("theme", flags.connect.theme.rawValue),
            ("hyperlinks", flags.connect.hyperlinks.rawValue), ("graphics", flags.connect.graphics),
            ("token-file", flags.sources["token-file"] == nil ? nil : file?.setting("token-file")?.value),
        ]
        var settings: [(line: String, source: String)] = []
        for (key, value) in values {
            let source = flags.sources[key] ?? (key == "name" ? "your login name" : "the default")
            if let value, flags.sources[key] != "$" + CommandOption.tokenEnvironment {
                settings.append(("\(key): \(quoted(value))", source))
            } else {
                settings.append(("# \(key): " + (flags.sources[key].map { "the token comes from \($0)" } ?? "none: no token is sent"), ""))
            }
        }
        let width = settings.filter { !$0.source.isEmpty }.map(\.line.count).max() ?? 0
        for (line, source) in settings {
            lines.append(source.isEmpty ? line : line + String(repeating: " ", count: width - line.count + 2) + "# " + source)
        }
        return .generated(lines.joined(separator: "\n"))
    }

    /// `value` as a YAML scalar: plain when YAML reads it back as written,
    /// else double-quoted.
    static func quoted(_ value: String) -> String {
        let special = "-?:,[]{}#&*!|>'\"%@`"
        let plain = !value.isEmpty && !special.contains(value.first!) && value.first != " " && value.last != " "
            && !value.contains(": ") && !value.contains(" #") && !value.hasSuffix(":") && !value.contains("\\")
            && value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        if plain { return value }
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default: escaped += scalar.value < 0x20 || scalar.value == 0x7F ? "\\x" + String(scalar.value, radix: 16).leftPadded(2) : String(scalar)
            }
        }
        return "\"" + escaped + "\""
    }
}

private extension String {
    func leftPadded(_ count: Int) -> String {
        String(repeating: "0", count: Swift.max(0, count - self.count)) + self
    }
}
