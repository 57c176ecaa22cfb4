extension CommandLineSpec {
    /// What `PROGRAM generate` makes: the man page or a completion script.
    public static let generatedKinds = ["man"] + Shell.allCases.map(\.rawValue)

    /// `PROGRAM generate man|bash|zsh|fish`, as help and the man page show it.
    public static func generateCommand(program: String) -> Command {
        Command(name: "generate", synopsis: "\(program) generate man|bash|zsh|fish",
                summary: "prints \(program)'s man page (roff), or its completion script for bash, zsh or fish, "
                    + "made from the same tables as --help",
                groups: [OptionGroup(nil, [OptionSpec.help()])], choices: generatedKinds,
                exitStatuses: [Entry("0", "printed"), Entry("2", "bad usage")])
    }

    /// What `PROGRAM generate ARGUMENTS` answers.
    public enum Generated: Equatable {
        /// The page or the script, to print.
        case text(String)
        /// A usage problem, as a sentence.
        case problem(String)
    }

    /// The answer to `generate` with `arguments`; `version` and `date` go in
    /// the man page.
    public func generated(_ arguments: [String], version: String, date: String) -> Generated {
        let kinds = Self.generatedKinds.joined(separator: ", ")
        guard arguments.count == 1, let kind = arguments.first else {
            return .problem("generate takes one of \(kinds); see \(program) generate --help")
        }
        if kind == "-h" || kind == "--help" {
            let command = Self.generateCommand(program: program)
            return .text("USAGE: \(command.synopsis)\n\n" + HelpText.wrap(command.summary, width: 80, indent: 2)
                .joined(separator: "\n") + "\n\nOPTIONS:\n"
                + HelpText.table(command.options.map { ($0.usage, $0.help) }, width: 80).joined(separator: "\n"))
        }
        if kind == "man" { return .text(manPage(version: version, date: date)) }
        guard let shell = Shell(rawValue: kind) else {
            let hint = Suggestion.sentence(for: kind, among: Self.generatedKinds).map { " (\($0))" } ?? ""
            return .problem("generate: unknown kind \(kind)\(hint); give one of \(kinds)")
        }
        return .text(completion(for: shell))
    }
}
