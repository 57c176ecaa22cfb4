import Foundation
import NeonTestSupport
import Testing

/// How screens look in a real terminal (tmux, read back with escapes): the
/// colours a terminal asks for, the status line's hints, others' cursors.
@Suite("Screen look in tmux", .serialized, .ownThreads)
struct ScreenLookTerminalTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path
    static let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/guide.md").path

    /// The screen of `name` with its SGR escapes.
    func escaped(_ tmux: Tmux, _ name: String) throws -> String {
        try tmux.run(["capture-pane", "-p", "-e", "-t", name])
    }

    /// The SGR parameter lists of `screen`, e.g. `38;5;47`.
    static func sgr(_ screen: String) -> [String] {
        screen.components(separatedBy: "\u{1B}[").dropFirst().compactMap { part in
            guard let end = part.firstIndex(of: "m"), part[..<end].allSatisfy({ $0.isNumber || $0 == ";" }) else { return nil }
            return String(part[..<end])
        }
    }

    /// The test runner sets NO_COLOR, which tmux passes on: these screens
    /// run without it, so TERM alone decides.
    @Test("TERM=xterm-mono gets no colour, only attributes; a colour terminal keeps its own background")
    func colours() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try tmux.start("mono", columns: 80, rows: 24, command: "env -u NO_COLOR \(Self.client) read \(Self.guide) --room look --name ada --server \(server.url)",
                       environment: ["TERM": "xterm-mono"])
        try tmux.waitFor("mono", "Welcome", timeout: 20)
        let mono = Self.sgr(try escaped(tmux, "mono"))
        #expect(!mono.isEmpty, "a monochrome screen still marks headings and the status line")
        let coloured = mono.filter { params in
            let numbers = params.split(separator: ";").compactMap { Int($0) }
            return numbers.contains { (30...49).contains($0) && $0 != 39 && $0 != 49 || (90...107).contains($0) }
        }
        #expect(coloured.isEmpty, "colour escapes on a monochrome terminal: \(Set(coloured))")
        try tmux.start("colour", columns: 80, rows: 24, command: "env -u NO_COLOR \(Self.client) join look --name bob --server \(server.url)",
                       environment: ["TERM": "xterm-256color", "COLORTERM": ""])
        try tmux.waitFor("colour", "Welcome", timeout: 20)
        let colour = Self.sgr(try escaped(tmux, "colour"))
        #expect(colour.contains { $0.contains("38;5;47") }, "the accent colour is used: \(Set(colour))")
        #expect(!colour.contains { $0.contains("48;5;233") }, "the theme's background is painted over the terminal's")
        #expect(server.stop() == 0)
    }

    @Test("the status line's hints stay as the row counter grows, at every width from 78 to 90 columns")
    func stableHints() throws {
        let file = NSTemporaryDirectory() + "neonsync-rows-\(UUID().uuidString).md"
        try ("# Rows\n" + (1...400).map { "Line \($0) of the document." }.joined(separator: "\n\n")).write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        for columns in 78...90 {
            let name = "w\(columns)"
            try tmux.start(name, columns: columns, rows: 24,
                           command: "\(Self.client) read \(file) --room rows\(columns) --name ada --server \(server.url)")
            let top = try tmux.waitUntil(name, timeout: 20, "the first row of the document, joined") { screen in
                screen.last.map { $0.contains("row 1/") && $0.contains("1 here · 0%") } ?? false
            }
            try tmux.sendKeys(name, "G")
            let bottom = try tmux.waitFor(name, "100%", timeout: 20)
            func hints(_ screen: [String]) -> String { screen.last?.components(separatedBy: "  ").first ?? "" }
            #expect(hints(top) == hints(bottom), "at \(columns) columns: \(top.last ?? "") then \(bottom.last ?? "")")
        }
        #expect(server.stop() == 0)
    }

    @Test("another person's draft cursor is a cursor cell, never a letter in the text")
    func remoteCursorCell() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try tmux.start("ada", columns: 60, rows: 12, command: "\(Self.client) draft cells --name ada --server \(server.url)",
                       environment: ["TERM": "xterm-mono"])
        try tmux.waitFor("ada", "1 here", timeout: 20)
        try tmux.start("bob", columns: 60, rows: 12, command: "\(Self.client) draft cells --name bob --server \(server.url)")
        try tmux.waitFor("ada", "2 here", timeout: 20)
        try tmux.sendLiteral("bob", "hello")
        let screen = try tmux.waitFor("ada", "hello", timeout: 20)
        let index = try #require(screen.firstIndex { $0.contains("hello") })
        let row = screen[index]
        let text = row.dropFirst().prefix { $0 != "│" }.trimmingCharacters(in: .whitespaces)
        #expect(text == "hello", "bob's cursor shows as a letter: \(row)")
        let escapedRow = try escaped(tmux, "ada").components(separatedBy: "\n")[index]
        #expect(Self.sgr(escapedRow).contains { $0.split(separator: ";").contains("4") }, "bob's cursor cell is underlined: \(escapedRow)")
        #expect(server.stop() == 0)
    }
}
