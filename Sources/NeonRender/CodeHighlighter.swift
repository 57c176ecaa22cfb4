import CSyntaxHighlighting
import NeonCore

/// Highlights a document's fenced code with KDE's KSyntaxHighlighting (its
/// definitions for some 350 languages are compiled into the library): the
/// fence's language is resolved by the library's names and file extensions,
/// after the aliases people write in fences (`sh`, `shell`, `js`, `yml`,
/// `objc`…), and every token the library styles becomes a `CodeRun` of the
/// class it belongs to. Code in a language the library does not know, or
/// with none, gets no runs and is drawn as before.
///
/// Not Sendable: it holds the library's repository and one highlighter,
/// used from one thread (the client's main thread).
public final class CodeHighlighter {
    private let syntax: OpaquePointer
    /// Fence languages already resolved, to a definition or to none.
    private var resolved: [String: Int32] = [:]

    public init() {
        syntax = neon_syntax_new()
    }

    deinit {
        neon_syntax_free(syntax)
    }

    /// Fence names that are neither a definition's name nor a file
    /// extension the library knows, with the name to look up instead.
    static let aliases: [String: String] = [
        "shell": "sh", "console": "sh", "shellsession": "sh", "zsh": "zsh", "bash": "sh",
        "golang": "go", "javascript": "js", "node": "js", "typescript": "ts",
        "objc": "m", "objective-c": "m", "objectivec": "m", "c++": "cpp", "c#": "cs", "csharp": "cs",
        "f#": "fs", "fsharp": "fs", "kotlin": "kt", "rust": "rs", "ruby": "rb", "python": "py", "python3": "py",
        "py3": "py", "perl": "pl", "powershell": "ps1", "pwsh": "ps1", "ps": "ps1", "yml": "yaml",
        "dockerfile": "Dockerfile", "docker": "Dockerfile", "make": "Makefile", "makefile": "Makefile",
        "elixir": "ex", "erlang": "erl", "haskell": "hs", "clojure": "clj", "julia": "jl", "ocaml": "ml",
        "markdown": "md", "text": "", "plaintext": "", "txt": "", "plain": "",
    ]

    /// The library's definition for a fence's language, or nil.
    func definition(for language: String) -> Int32? {
        if let known = resolved[language] { return known >= 0 ? known : nil }
        let lowered = language.lowercased()
        let name = Self.aliases[lowered] ?? lowered
        var found: Int32 = -1
        if !name.isEmpty {
            found = neon_syntax_find(syntax, name)
            if found < 0, name != language { found = neon_syntax_find(syntax, language) }
        }
        resolved[language] = found
        return found >= 0 ? found : nil
    }

    /// The name of the definition a fence's language resolves to, or nil.
    public func definitionName(for language: String) -> String? {
        guard let index = definition(for: language) else { return nil }
        var bytes = [CChar](repeating: 0, count: 128)
        neon_syntax_name(syntax, index, &bytes, Int32(bytes.count))
        return String(cString: bytes)
    }

    /// The tokens of `code` in `language`, or nil for a language the library
    /// does not know.
    public func runs(of code: String, language: String) -> [CodeRun]? {
        guard let index = definition(for: language) else { return nil }
        var sink = TokenSink()
        var code = code
        code.withUTF8 { bytes in
            withUnsafeMutablePointer(to: &sink) { pointer in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    neon_syntax_highlight(syntax, index, chars.baseAddress, chars.count, { context, start, length, style in
                        context!.assumingMemoryBound(to: TokenSink.self).pointee.add(start, length, style)
                    }, pointer)
                }
            }
        }
        return sink.runs
    }

    /// Every fenced code block of `document` with a language the library
    /// knows, highlighted.
    public func highlights(of document: Document) -> CodeHighlights {
        var out: [Int: [CodeRun]] = [:]
        for request in CodeHighlights.requests(in: document) {
            if let runs = runs(of: request.code, language: request.language), !runs.isEmpty {
                out[request.block] = runs
            }
        }
        return CodeHighlights(runs: out)
    }
}

/// Collects the library's tokens as runs: adjacent tokens of one class
/// merged, styles the reader does not tell apart left out.
private struct TokenSink {
    var runs: [CodeRun] = []

    mutating func add(_ start: Int64, _ length: Int64, _ style: Int32) {
        guard let kind = Self.classes[Int(style)] else { return }
        let range = Int(start)..<Int(start + length)
        if let last = runs.last, last.kind == kind, last.bytes.upperBound == range.lowerBound {
            runs[runs.count - 1] = CodeRun(bytes: last.bytes.lowerBound..<range.upperBound, kind: kind)
        } else {
            runs.append(CodeRun(bytes: range, kind: kind))
        }
    }

    /// KSyntaxHighlighting::Theme::TextStyle, in its order, to a class.
    static let classes: [Int: CodeClass] = [
        1: .keyword,      // Keyword
        2: .function,     // Function
        3: .variable,     // Variable
        4: .keyword,      // ControlFlow
        6: .builtin,      // BuiltIn
        7: .builtin,      // Extension
        8: .preprocessor, // Preprocessor
        9: .attribute,    // Attribute
        10: .string,      // Char
        11: .escape,      // SpecialChar
        12: .string,      // String
        13: .string,      // VerbatimString
        14: .escape,      // SpecialString
        15: .preprocessor, // Import
        16: .type,        // DataType
        17: .number,      // DecVal
        18: .number,      // BaseN
        19: .number,      // Float
        20: .constant,    // Constant
        21: .comment,     // Comment
        22: .comment,     // Documentation
        23: .attribute,   // Annotation
        24: .comment,     // CommentVar
        26: .comment,     // Information
        27: .comment,     // Warning
        28: .comment,     // Alert
    ]
}
