import Foundation
import NeonCore
@testable import NeonRender
import Testing

/// Debian's `highlight` as the helper process: its HTML read back as runs
/// (on output recorded from highlight 3.41), and the real program on Rust
/// and Python.
@Suite struct HighlightProgramTests {
    /// The text of each run, with its class.
    static func classes(_ runs: [CodeRun]?, in code: String) -> [(String, CodeClass)] {
        let bytes = Array(code.utf8)
        return (runs ?? []).map { (String(decoding: bytes[$0.bytes], as: UTF8.self), $0.kind) }
    }

    static let rust = "fn main() {\n    // greet\n    let s = \"hi\\n\";\n    println!(\"{}\", s);\n}\n"
    /// `highlight --syntax=rs --out-format=html --fragment --encoding=none` on `rust`.
    static let rustHTML = """
        <span class="hl kwa">fn</span> <span class="hl kwd">main</span><span class="hl opt">() {</span>
            <span class="hl slc">// greet</span>
            <span class="hl kwa">let</span> s <span class="hl opt">=</span> <span class="hl str">&quot;hi</span><span class="hl esc">\\</span><span class="hl str">n&quot;</span><span class="hl opt">;</span>
            println<span class="hl opt">!(</span><span class="hl str">&quot;{}&quot;</span><span class="hl opt">,</span> s<span class="hl opt">);</span>
        <span class="hl opt">}</span>

        """

    static let python = "def f(x):\n    # café <b>\n    return \"s\" + str(0x1F) < 3 & 4"
    /// The same on `python` (no last newline: highlight ends the line).
    static let pythonHTML = """
        <span class="hl kwa">def</span> <span class="hl kwd">f</span><span class="hl opt">(</span>x<span class="hl opt">):</span>
            <span class="hl slc"># café &lt;b&gt;</span>
            <span class="hl kwa">return</span> <span class="hl str">&quot;s&quot;</span> <span class="hl opt">+</span> <span class="hl kwb">str</span><span class="hl opt">(</span><span class="hl num">0x1F</span><span class="hl opt">) &lt;</span> <span class="hl num">3</span> <span class="hl opt">&amp;</span> <span class="hl num">4</span>

        """

    @Test("recorded Rust output: keywords, the function name, the comment and the strings at their bytes; operators and names plain")
    func rustFixture() {
        let runs = HighlightHTML.runs(of: Array(Self.rustHTML.utf8), code: Array(Self.rust.utf8))
        let found = Self.classes(runs, in: Self.rust)
        #expect(found.map(\.0) == ["fn", "main", "// greet", "let", "\"hi", "\\", "n\"", "\"{}\""], "\(found)")
        #expect(found.map(\.1) == [.keyword, .function, .comment, .keyword, .string, .escape, .string, .string])
        #expect(runs?.first?.bytes == 0..<2)
    }

    @Test("recorded Python output: entities decoded, UTF-8 offsets past é, numbers and the built-in type")
    func pythonFixture() {
        let runs = HighlightHTML.runs(of: Array(Self.pythonHTML.utf8), code: Array(Self.python.utf8))
        let found = Self.classes(runs, in: Self.python)
        #expect(found.map(\.0) == ["def", "f", "# café <b>", "return", "\"s\"", "str", "0x1F", "3", "4"], "\(found)")
        #expect(found.map(\.1) == [.keyword, .function, .comment, .keyword, .string, .type, .number, .number, .number])
        #expect(runs?.last?.bytes == Self.python.utf8.count - 1..<Self.python.utf8.count)
    }

    @Test("recorded C output: the preprocessor line and its string, the block comment and the type")
    func cFixture() {
        let code = "#include \"x.h\"\n/* multi */ int x = 1;\n"
        let html = "<span class=\"hl ppc\">#include</span> <span class=\"hl pps\">&quot;x.h&quot;</span><span class=\"hl ppc\"></span>\n"
            + "<span class=\"hl com\">/* multi */</span> <span class=\"hl kwb\">int</span> x <span class=\"hl opt\">=</span> <span class=\"hl num\">1</span><span class=\"hl opt\">;</span>\n"
        let found = Self.classes(HighlightHTML.runs(of: Array(html.utf8), code: Array(code.utf8)), in: code)
        #expect(found.map(\.0) == ["#include", "\"x.h\"", "/* multi */", "int", "1"], "\(found)")
        #expect(found.map(\.1) == [.preprocessor, .string, .comment, .type, .number])
    }

    @Test("output that is not the code given, or not highlight's HTML, gives no runs")
    func mismatches() {
        let code = Array("let x = 1\n".utf8)
        #expect(HighlightHTML.runs(of: Array("<span class=\"hl kwa\">let</span> y = 1\n".utf8), code: code) == nil)
        #expect(HighlightHTML.runs(of: Array("<span class=\"hl kwa\">let</span> x = 1".utf8), code: Array("let x = 1 and more".utf8)) == nil)
        #expect(HighlightHTML.runs(of: Array("<b>let</b> x = 1\n".utf8), code: code) == nil)
        #expect(HighlightHTML.runs(of: Array("<span class=\"hl kwa\">let x = 1\n".utf8), code: code) == nil)
        #expect(HighlightHTML.runs(of: Array("let x &bogus; 1\n".utf8), code: code) == nil)
        #expect(HighlightHTML.runs(of: Array("let x = 1\n\n".utf8), code: code) == nil)
        #expect(HighlightHTML.runs(of: Array("let x = 1\n".utf8), code: code) == [])
    }

    @Test("fence names: aliases to highlight's names, and names that are not names are never passed on")
    func syntaxNames() {
        #expect(HighlightProgram.syntax(for: "rs") == "rs")
        #expect(HighlightProgram.syntax(for: "Rust") == "rs")
        #expect(HighlightProgram.syntax(for: "py") == "py")
        #expect(HighlightProgram.syntax(for: "bash") == "sh")
        #expect(HighlightProgram.syntax(for: "yml") == "yaml")
        #expect(HighlightProgram.syntax(for: "c++") == "cpp")
        #expect(HighlightProgram.syntax(for: "text") == nil)
        #expect(HighlightProgram.syntax(for: "--help") == nil)
        #expect(HighlightProgram.syntax(for: "../../etc/passwd") == nil)
        #expect(HighlightProgram.syntax(for: "a b") == nil)
    }

    static var program: HighlightProgram? { HighlightProgram(path: "/usr/bin/highlight") }

    @Test("the real highlight on Rust and Python: keyword, string and comment runs on the right characters")
    func realProgram() throws {
        let program = try #require(Self.program, "Debian's highlight is not installed (apt install highlight)")
        let rust = "fn main() {\n    let s = \"héllo\"; // say it\n}"
        let inRust = Self.classes(program.runs(of: rust, language: "rust"), in: rust)
        #expect(inRust.contains { $0 == ("fn", .keyword) } && inRust.contains { $0 == ("let", .keyword) }, "\(inRust)")
        #expect(inRust.contains { $0 == ("\"héllo\"", .string) }, "\(inRust)")
        #expect(inRust.contains { $0 == ("// say it", .comment) }, "\(inRust)")
        let python = "import os\n\ndef go(path):\n    return 'x' if path else None  # none\n"
        let inPython = Self.classes(program.runs(of: python, language: "py"), in: python)
        for keyword in ["import", "def", "return", "if"] {
            #expect(inPython.contains { $0 == (keyword, .keyword) }, "\(keyword): \(inPython)")
        }
        // highlight's Python takes `else None` as one keyword token.
        #expect(inPython.contains { $0.1 == .keyword && $0.0.hasPrefix("else") }, "\(inPython)")
        #expect(inPython.contains { $0 == ("'x'", .string) } && inPython.contains { $0 == ("# none", .comment) }, "\(inPython)")
        #expect(program.version.wholeMatch(of: /highlight [0-9]+\.[0-9]+/) != nil, "\(program.version)")
    }

    @Test("an unknown language, a missing program, one that fails and one past its time limit give plain code, promptly")
    func failures() throws {
        let program = try #require(Self.program)
        #expect(program.runs(of: "let x = 1", language: "no-such-language") == nil)
        #expect(HighlightProgram(path: "/nonexistent/highlight")?.runs(of: "let x = 1", language: "rs") == nil)
        #expect(HighlightProgram(path: "/bin/false")?.runs(of: "let x = 1", language: "rs") == nil)
        let script = NSTemporaryDirectory() + "neonsync-slow-\(UUID().uuidString)"
        try "#!/bin/sh\nexec sleep 30\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        chmod(script, 0o755)
        let started = Date()
        #expect(HighlightProgram(path: script, timeLimit: 0.5)?.runs(of: "let x = 1", language: "rs") == nil)
        #expect(Date().timeIntervalSince(started) < 5)
        // Output past the cap: `yes` never stops writing.
        #expect(HighlightProgram(path: "/usr/bin/yes", outputCap: 1 << 16)?.runs(of: "x", language: "rs") == nil)
    }

    @Test("without the plug-in the client's highlighter is highlight, and --version's line says so")
    func fallback() throws {
        let program = try #require(Self.program)
        let plugin = HighlighterPlugin(candidates: ["/nonexistent/libNeonSyntax.so"])
        let highlighter = CodeHighlighter(plugin: plugin, program: program)
        #expect(highlighter.isAvailable)
        let document = try Document.parse(title: "t", format: .markdown, text: "# Code\n\n```rust\nlet x = 1; // one\n```\n\n```zzz\nlet y\n```\n")
        let highlights = highlighter.highlights(of: document)
        #expect(highlights.runs.count == 1)
        #expect(highlights.runs.values.first?.first == CodeRun(bytes: 0..<3, kind: .keyword))
        let summary = CodeHighlighter.summary(plugin: plugin, program: program)
        #expect(summary.wholeMatch(of: /highlight [0-9.]+ as a helper process \(\/usr\/bin\/highlight\); plug-in not installed \(apt install neonsync-highlight\)/) != nil, "\(summary)")
        #expect(CodeHighlighter.summary(plugin: plugin, program: nil)
            == "not installed (apt install neonsync-highlight); no highlight in PATH (apt install highlight)")
    }
}
