import NeonCore
import NeonRender
import Testing

@Suite struct CodeHighlighterTests {
    let highlighter = CodeHighlighter()

    private func classes(_ code: String, _ language: String) -> [(String, CodeClass)] {
        let bytes = Array(code.utf8)
        return (highlighter.runs(of: code, language: language) ?? []).map {
            (String(decoding: bytes[$0.bytes], as: UTF8.self), $0.kind)
        }
    }

    @Test("Swift code gets keywords, strings, numbers and comments at their UTF-8 bytes")
    func swift() {
        let found = classes("let answer: Int = 42 // the answer\nprint(\"héllo\")", "swift")
        #expect(found.contains { $0 == ("let", .keyword) })
        #expect(found.contains { $0 == ("42", .number) })
        #expect(found.contains { $0.1 == .comment && $0.0.hasPrefix("// the answer") })
        #expect(found.contains { $0.1 == .string && $0.0.contains("héllo") })
    }

    @Test("C code gets its types and preprocessor lines")
    func c() {
        let found = classes("#include <stdio.h>\nint main(void) { return 0; }", "c")
        #expect(found.contains { $0 == ("int", .type) }, "\(found)")
        #expect(found.contains { $0.1 == .preprocessor && $0.0.hasPrefix("#include") }, "\(found)")
        #expect(found.contains { $0 == ("return", .keyword) }, "\(found)")
    }

    @Test("aliases people write in fences resolve: sh, bash, shell; js, javascript; yml, yaml; py; ts")
    func aliases() {
        for (alias, name) in [("sh", "Bash"), ("bash", "Bash"), ("shell", "Bash"), ("js", "JavaScript"),
                              ("javascript", "JavaScript"), ("yml", "YAML"), ("yaml", "YAML"), ("py", "Python"),
                              ("Python", "Python"), ("ts", "TypeScript"), ("rust", "Rust"), ("json", "JSON")] {
            #expect(highlighter.definitionName(for: alias) == name, "\(alias)")
        }
    }

    /// docs/CLIENT.md's 30 languages, as a fence names them.
    static let thirty = ["javascript", "python", "typescript", "java", "csharp", "cpp", "php", "shell", "c", "go",
                         "ruby", "kotlin", "rust", "swift", "dart", "scala", "objc", "html", "css", "powershell",
                         "lua", "r", "perl", "haskell", "groovy", "elixir", "clojure", "julia", "sql", "yaml"]

    @Test("each of the 30 languages of docs/CLIENT.md resolves and gets tokens", arguments: thirty)
    func covered(language: String) {
        #expect(highlighter.definitionName(for: language) != nil, "\(language)")
        let code = [
            "php": "<?php $x = \"text\"; // 7", "html": "<p class=\"a\">text</p>", "css": "p { color: red; } /* c */",
        ][language] ?? "x = \"text\" # 42 // 7\n"
        #expect(!(highlighter.runs(of: code, language: language) ?? []).isEmpty, "\(language)")
    }

    @Test("an unknown or plain language gets no runs")
    func unknown() {
        #expect(highlighter.runs(of: "let x = 1", language: "no-such-language") == nil)
        #expect(highlighter.runs(of: "let x = 1", language: "text") == nil)
    }

    @Test("a document's highlights cover its fenced code with a known language, by block index")
    func document() throws {
        let markdown = "# Title\n\n```python\ndef f():\n    return 1\n```\n\nText.\n\n```\nplain\n```\n\n~~~ json\n{\"a\": 1}\n~~~\n"
        let document = try Document.parse(title: "t", format: .markdown, text: markdown)
        let highlights = highlighter.highlights(of: document)
        #expect(Set(highlights.runs.keys) == [1, 4])
        #expect(highlights.runs[1]?.first == CodeRun(bytes: 0..<3, kind: .keyword))
    }
}
