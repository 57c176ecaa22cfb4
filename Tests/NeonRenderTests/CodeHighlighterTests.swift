import Foundation
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

    @Test("the plug-in is found beside the executable of a development build (the tests' own, in .build/debug) and names the library's version")
    func pluginBesideTheExecutable() {
        guard case let .loaded(path, version) = HighlighterPlugin.shared.state else {
            Issue.record("the plug-in did not load: \(HighlighterPlugin.shared.summary)")
            return
        }
        #expect(path.hasSuffix("/libNeonSyntax.so"), "\(path)")
        #expect(version.wholeMatch(of: /KSyntaxHighlighting 5\.[0-9]+\.[0-9]+/) != nil, "\(version)")
        #expect(HighlighterPlugin.shared.summary == version)
        #expect(highlighter.isAvailable)
    }

    @Test("the places looked at: the environment's file alone when set, else beside the executable, then ../lib/neonsync (/usr/lib/neonsync for /usr/bin/neonsync)")
    func candidates() {
        #expect(HighlighterPlugin.candidates(environment: [:], executable: "/usr/bin/neonsync")
            == ["/usr/bin/libNeonSyntax.so", "/usr/lib/neonsync/libNeonSyntax.so"])
        #expect(HighlighterPlugin.candidates(environment: [:], executable: "/w/.build/x86_64-unknown-linux-gnu/debug/neonsync")
            == ["/w/.build/x86_64-unknown-linux-gnu/debug/libNeonSyntax.so", "/w/.build/x86_64-unknown-linux-gnu/lib/neonsync/libNeonSyntax.so"])
        #expect(HighlighterPlugin.candidates(environment: ["NEONSYNC_HIGHLIGHT_PLUGIN": "/opt/x/plugin.so"], executable: "/usr/bin/neonsync")
            == ["/opt/x/plugin.so"])
        #expect(HighlighterPlugin.candidates(environment: ["NEONSYNC_HIGHLIGHT_PLUGIN": ""], executable: "/usr/bin/neonsync").count == 2)
    }

    static let markdown = "# Title\n\n```swift\nlet x = 1 // one\n```\n\nText.\n"

    @Test("without the plug-in or the helper program nothing is highlighted and nothing fails: no runs, no definitions, no highlights; --version's line says how to install it, or for a development build how to build it")
    func missing() throws {
        let plugin = HighlighterPlugin(candidates: ["/nonexistent/libNeonSyntax.so", "/nonexistent/lib/neonsync/libNeonSyntax.so"])
        #expect(plugin.state == .missing(searched: ["/nonexistent/libNeonSyntax.so", "/nonexistent/lib/neonsync/libNeonSyntax.so"]))
        #expect(plugin.summary == "not installed (apt install neonsync-highlight)")
        // A development build's client is told how to build it instead.
        let development = HighlighterPlugin(candidates: HighlighterPlugin.candidates(
            environment: [:], executable: "/nonexistent/.build/x86_64-unknown-linux-gnu/debug/neonsync"))
        #expect(development.summary == "not built (swift build --product NeonSyntax)")
        let highlighter = CodeHighlighter(plugin: plugin, program: nil)
        #expect(!highlighter.isAvailable)
        #expect(highlighter.runs(of: "let x = 1", language: "swift") == nil)
        #expect(highlighter.definitionName(for: "swift") == nil)
        let document = try Document.parse(title: "t", format: .markdown, text: Self.markdown)
        #expect(highlighter.highlights(of: document).runs.isEmpty)
    }

    @Test("a file that is not a shared object, or a shared object that is not the plug-in, is reported with the loader's reason and highlights nothing")
    func unusable() throws {
        let garbage = NSTemporaryDirectory() + "neonsync-plugin-\(UUID().uuidString).so"
        try "not a shared object\n".write(toFile: garbage, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        let broken = HighlighterPlugin(candidates: [garbage])
        guard case let .unusable(path, reason) = broken.state else {
            Issue.record("\(broken.state)")
            return
        }
        #expect(path == garbage && reason.contains(garbage), "\(reason)")
        #expect(broken.summary.hasPrefix("off: \(garbage) could not be loaded: "), "\(broken.summary)")
        #expect(CodeHighlighter(plugin: broken, program: nil).runs(of: "let x = 1", language: "swift") == nil)

        // A real shared object without the plug-in's functions.
        let other = "/lib/x86_64-linux-gnu/libz.so.1"
        let foreign = HighlighterPlugin(candidates: [other])
        #expect(foreign.state == .unusable(path: other, reason: "it has no function neon_syntax_interface"), "\(foreign.state)")
        #expect(!CodeHighlighter(plugin: foreign, program: nil).isAvailable)
    }

    @Test("a file that cannot be used does not hide a later one that can; the later one highlights")
    func laterCandidate() throws {
        guard case let .loaded(path, _) = HighlighterPlugin.shared.state else {
            Issue.record("the plug-in did not load: \(HighlighterPlugin.shared.summary)")
            return
        }
        let plugin = HighlighterPlugin(candidates: ["/nonexistent/libNeonSyntax.so", "/lib/x86_64-linux-gnu/libz.so.1", path])
        #expect(plugin.state == .loaded(path: path, version: HighlighterPlugin.shared.summary))
        let highlighter = CodeHighlighter(plugin: plugin)
        let document = try Document.parse(title: "t", format: .markdown, text: Self.markdown)
        #expect(highlighter.highlights(of: document).runs[1]?.first == CodeRun(bytes: 0..<3, kind: .keyword))
    }
}
