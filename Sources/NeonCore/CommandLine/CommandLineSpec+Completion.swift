extension CommandLineSpec {
    /// The shells completion scripts are made for.
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The completion script for `shell`: the commands, and after a command
    /// its options, completing file names where an option or argument
    /// takes one and an option's values where they are a fixed set.
    public func completion(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    private var function: String { "_" + program.replacing("-", with: "_") }

    private var bash: String {
        var out = ["# bash completion for \(program)", "\(function)() {",
                   "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
                   "    local words=\"\" paths=\"\" values=\"\" files=\"\"",
                   "    COMPREPLY=()",
                   "    case \"${COMP_WORDS[1]}\" in"]
        for command in subcommands {
            out += bashCase(command, pattern: command.name!, offset: 2)
        }
        let top = topLevel ?? Command(name: nil, synopsis: "", summary: "", groups: [])
        out += bashCase(top, pattern: "*", offset: 1, extra: subcommands.compactMap(\.name))
        out += ["    esac",
                "    if [[ \" $paths \" == *\" $prev \"* ]]; then COMPREPLY=($(compgen -f -- \"$cur\")); return; fi",
                "    if [[ \" $values \" == *\" $prev \"* ]]; then COMPREPLY=(); return; fi",
                "    if [[ \"$cur\" != -* && -n \"$files\" ]]; then COMPREPLY=($(compgen -f -- \"$cur\")); fi",
                "    COMPREPLY+=($(compgen -W \"$words\" -- \"$cur\"))",
                "    return 0",
                "}", "complete -o filenames -F \(function) \(program)", ""]
        return out.joined(separator: "\n")
    }

    private func bashCase(_ command: Command, pattern: String, offset: Int, extra: [String] = []) -> [String] {
        let options = command.options
        let words = (extra + command.choices + options.flatMap { [$0.short, $0.flag].compactMap { $0 } })
        let paths = options.filter(\.takesPath).map(\.flag)
        let values = options.filter { $0.value != nil && !$0.takesPath }.map(\.flag)
        // An option with a fixed set of values completes them.
        let choices = options.filter { !$0.choices.isEmpty }.map { option in
            "                \([option.short, option.flag].compactMap { $0 }.joined(separator: "|"))) "
                + "COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\")); return ;;"
        }
        return ["        \(pattern))",
                "            words=\"\(words.joined(separator: " "))\"",
                "            paths=\"\(paths.joined(separator: " "))\" values=\"\(values.joined(separator: " "))\""]
            + (choices.isEmpty ? [] : ["            case \"$prev\" in"] + choices + ["            esac"])
            + [command.takesFiles ? "            files=yes ;;" : "            ;;"]
    }

    private var zsh: String {
        var out = ["#compdef \(program)", "", "\(function)() {"]
        let names = subcommands.map { "'\($0.name!):\(Self.zshQuoted(Self.brief($0.summary)))'" }
        if !names.isEmpty {
            out += ["    local -a commands", "    commands=(\(names.joined(separator: " ")))",
                    "    if (( CURRENT == 2 )); then", "        _describe command commands"]
            if let topLevel { out += ["        _arguments \(zshSpecs(topLevel.options).joined(separator: " "))"] }
            out += ["        return", "    fi", "    case $words[2] in"]
            for command in subcommands {
                var specs = zshSpecs(command.options)
                if !command.choices.isEmpty { specs.append("'1:\(command.name!):(\(command.choices.joined(separator: " ")))'") }
                if command.takesFiles { specs.append("'*:file:_files'") }
                out += ["        \(command.name!))", "            shift words; (( CURRENT-- ))",
                        "            _arguments \(specs.joined(separator: " ")) ;;"]
            }
            if let topLevel { out += ["        *)", "            _arguments \(zshSpecs(topLevel.options).joined(separator: " ")) ;;"] }
            out.append("    esac")
        } else if let topLevel {
            out.append("    _arguments \(zshSpecs(topLevel.options).joined(separator: " "))")
        }
        out += ["}", "", "\(function) \"$@\"", ""]
        return out.joined(separator: "\n")
    }

    private func zshSpecs(_ options: [OptionSpec]) -> [String] {
        options.flatMap { option -> [String] in
            let text = Self.zshQuoted(Self.brief(option.help)).replacing("[", with: "\\[").replacing("]", with: "\\]")
            let action = option.takesPath ? "_files" : option.choices.isEmpty ? " " : "(\(option.choices.joined(separator: " ")))"
            let value = option.value.map { ":\(Self.zshQuoted($0).replacing(":", with: "\\:")):" + action } ?? ""
            return [option.short, option.flag].compactMap { $0 }.map { "'\($0)[\(text)]\(value)'" }
        }
    }

    private var fish: String {
        var out = ["# fish completion for \(program)", "complete -c \(program) -f"]
        let names = subcommands.compactMap(\.name)
        let outside = names.isEmpty ? nil : "not __fish_seen_subcommand_from \(names.joined(separator: " "))"
        for command in subcommands {
            out.append("complete -c \(program) -n '\(outside!)' -a \(command.name!) -d '\(Self.fishQuoted(Self.brief(command.summary)))'")
        }
        for command in commands {
            let condition = command.name.map { "__fish_seen_subcommand_from \($0)" } ?? outside
            let when = condition.map { " -n '\($0)'" } ?? ""
            for option in command.options {
                var line = "complete -c \(program)\(when)"
                if let short = option.short { line += " -s \(short.dropFirst())" }
                line += " -l \(option.flag.dropFirst(2))"
                if option.value != nil { line += option.takesPath ? " -r -F" : " -x" }
                if !option.choices.isEmpty { line += " -a '\(option.choices.joined(separator: " "))'" }
                out.append(line + " -d '\(Self.fishQuoted(Self.brief(option.help)))'")
            }
            if !command.choices.isEmpty {
                out.append("complete -c \(program)\(when) -a '\(command.choices.joined(separator: " "))'")
            }
            if command.takesFiles { out.append("complete -c \(program)\(when) -F") }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The first clause of a help paragraph, for a completion menu.
    static func brief(_ help: String) -> String {
        var clause = help
        for stop in ["; ", " (", ": ", ". "] {
            if let range = clause.range(of: stop) { clause = String(clause[..<range.lowerBound]) }
        }
        return clause.count <= 60 ? clause : String(clause.prefix(59)) + "…"
    }

    private static func zshQuoted(_ text: String) -> String { text.replacing("'", with: "'\\''") }

    private static func fishQuoted(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
    }
}
