extension CommandLineSpec {
    /// The man page, in roff with the man macros; `date` (YYYY-MM-DD) and
    /// `version` go in its footer.
    public func manPage(version: String, date: String) -> String {
        var out = [".TH \(program.uppercased()) \(section) \"\(date)\" \"\(Self.roff(program + " " + version))\" \"NeonSync\"",
                   ".SH NAME", "\(Self.roff(program)) \\- \(Self.roff(tagline))", ".SH SYNOPSIS"]
        for (index, command) in commands.enumerated() {
            if index > 0 { out.append(".br") }
            out.append(Self.roff(command.synopsis))
        }
        out.append(".SH DESCRIPTION")
        out += Self.paragraphs(description)
        if let topLevel {
            out += [".SH OPTIONS"] + Self.body(of: topLevel, heading: ".SS")
        }
        if !subcommands.isEmpty {
            out.append(".SH COMMANDS")
            for command in subcommands {
                out += [".SS \(Self.roff(command.synopsis))"] + Self.body(of: command, heading: ".PP\n.B")
            }
        }
        if !exitStatuses.isEmpty { out += [".SH EXIT STATUS"] + Self.entries(exitStatuses) }
        if !environment.isEmpty { out += [".SH ENVIRONMENT"] + Self.entries(environment) }
        if !files.isEmpty { out += [".SH FILES"] + Self.entries(files) }
        if !seeAlso.isEmpty {
            out += [".SH SEE ALSO", seeAlso.map { page -> String in
                guard let open = page.firstIndex(of: "(") else { return Self.roff(page) }
                return "\\fB\(Self.roff(String(page[..<open])))\\fR\(page[open...])"
            }.joined(separator: ",\n")]
        }
        // A paragraph right after a heading is one already.
        let lines = out.enumerated().filter { index, line in
            !(line == ".PP" && index > 0 && (out[index - 1].hasPrefix(".SH") || out[index - 1].hasPrefix(".SS")))
        }.map(\.element)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A command's summary, arguments, options, notes and exit statuses,
    /// each group under `heading` (`.SS` or a bold paragraph).
    private static func body(of command: Command, heading: String) -> [String] {
        var out = command.name == nil ? [] : paragraphs([command.summary])
        if !command.arguments.isEmpty {
            out += ["\(heading) Arguments"] + entries(command.arguments)
        }
        for group in command.groups {
            out.append("\(heading) \(roff(group.title ?? "Options"))")
            for option in group.options {
                let value = option.value.map { " \\fI\(roff($0))\\fR" } ?? ""
                let names = [option.short, option.flag].compactMap { $0 }.map { "\\fB\(roff($0))\\fR" }
                out += [".TP", names.joined(separator: ", ") + value, roff(option.help)]
            }
        }
        out += paragraphs(command.notes)
        if !command.exitStatuses.isEmpty {
            out += ["\(heading) Exit status"] + entries(command.exitStatuses)
        }
        return out
    }

    private static func paragraphs(_ texts: [String]) -> [String] {
        texts.flatMap { [".PP", roff($0)] }
    }

    private static func entries(_ entries: [Entry]) -> [String] {
        entries.flatMap { [".TP", "\\fB\(roff($0.term))\\fR", roff($0.text)] }
    }

    /// `text` as roff input text: backslashes and dashes escaped, every
    /// character outside ASCII as its Unicode escape, and no line that
    /// starts like a request.
    static func roff(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\n": out += "\n"
            case _ where scalar.value > 0x7E || scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}
