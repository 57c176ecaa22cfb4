import NeonCore

/// André Simon's `highlight` (Debian's `highlight` package, some 250
/// languages) run as a helper process: the client's highlighter when the
/// KSyntaxHighlighting plug-in is not installed. Each code block is one run
/// of `highlight --syntax=LANG --out-format=html --fragment`, with the code
/// on its standard input, bounded in time and output; its HTML spans are
/// read back as `CodeRun`s. An unknown language, a failure, a run past its
/// limits or output that is not the code given leave the block plain.
public struct HighlightProgram: Sendable {
    /// The program's name, looked for in `$PATH`.
    public static let name = "highlight"
    /// The Debian package that installs it.
    public static let package = "highlight"

    /// Its path.
    public let path: String
    /// Seconds one code block may take, and the output it may write.
    let timeLimit: Double
    let outputCap: Int

    /// The program at `path`, or the first `highlight` in `$PATH`; nil when
    /// there is none.
    public init?(path: String? = nil, timeLimit: Double = 2, outputCap: Int = 8 << 20) {
        guard let found = path ?? HelperProcess.find(Self.name) else { return nil }
        self.path = found
        self.timeLimit = timeLimit
        self.outputCap = outputCap
    }

    /// Its `--version` line ("highlight version 3.41" gives "highlight 3.41").
    public var version: String {
        let output = HelperProcess.run(path, ["--version"], input: [], timeLimit: timeLimit, outputCap: 1 << 16) ?? []
        let line = String(decoding: output, as: UTF8.self).split(separator: "\n").first { $0.contains("version") }
        guard let number = line?.split(separator: " ").last else { return "highlight" }
        return "highlight \(number)"
    }

    /// Fence names `highlight` knows by another name (its own names and
    /// file extensions, /etc/highlight/filetypes.conf, it resolves itself).
    static let aliases: [String: String] = [
        "rust": "rs", "shell": "sh", "bash": "sh", "zsh": "sh", "console": "sh", "shellsession": "sh",
        "golang": "go", "javascript": "js", "node": "js", "typescript": "ts", "python3": "python", "py3": "python",
        "c++": "cpp", "c#": "cs", "csharp": "cs", "objc": "m", "objective-c": "m", "objectivec": "m",
        "kotlin": "kt", "ruby": "rb", "perl": "pl", "powershell": "ps1", "pwsh": "ps1", "yml": "yaml",
        "docker": "dockerfile", "make": "makefile", "elixir": "ex", "erlang": "erl", "haskell": "hs",
        "clojure": "clj", "julia": "jl", "ocaml": "ml", "markdown": "md", "fsharp": "fs", "f#": "fs",
        "text": "", "plaintext": "", "txt": "", "plain": "",
    ]

    /// The `--syntax` a fence's language is asked for by, or nil for none.
    static func syntax(for language: String) -> String? {
        let lowered = language.lowercased()
        let name = aliases[lowered] ?? lowered
        // A name, not an option or a path: letters, digits and + # - _ .
        guard !name.isEmpty, !name.hasPrefix("-"),
              name.utf8.allSatisfy({ $0 < 0x80 && ($0 >= 0x30 || "+#-_.".utf8.contains($0)) && $0 != 0x2f })
        else { return nil }
        return name
    }

    /// The tokens of `code` in `language`, or nil when `highlight` does not
    /// highlight it.
    public func runs(of code: String, language: String) -> [CodeRun]? {
        guard let syntax = Self.syntax(for: language) else { return nil }
        let input = Array(code.utf8)
        guard let output = HelperProcess.run(path, ["--syntax=\(syntax)", "--out-format=html", "--fragment",
                                                    "--encoding=none"],
                                             input: input, timeLimit: timeLimit, outputCap: outputCap)
        else { return nil }
        return HighlightHTML.runs(of: output, code: input)
    }
}

extension CodeHighlighter {
    /// What `neonsync --version` says after "highlighting: ": the plug-in's
    /// library, else the helper program and why not the plug-in, else why
    /// neither.
    public static func summary(plugin: HighlighterPlugin = .shared,
                               program: @autoclosure () -> HighlightProgram? = HighlightProgram()) -> String {
        if case .loaded = plugin.state { return plugin.summary }
        guard let program = program() else {
            return "\(plugin.summary); no \(HighlightProgram.name) in PATH (apt install \(HighlightProgram.package))"
        }
        return "\(program.version) as a helper process (\(program.path)); plug-in \(plugin.summary)"
    }
}
