import Foundation
import NeonTestSupport
import Testing

/// Highlighted code in a real terminal (tmux, read back with its escapes):
/// the colours each theme gives tokens, at two sizes, and the text the same
/// whatever the theme.
@Suite("Highlighted code in tmux", .serialized, .ownThreads)
struct HighlightTerminalTests {
    static let client = ScreenLookTerminalTests.client
    static let markdown = """
        # Code

        ```swift
        let answer = 42 // the answer
        ```

        ```no-such-language
        let plain = 1
        ```
        """

    /// Each character of the first row that contains `text`, with the
    /// foreground and boldness tmux has for it (from `capture-pane -e`).
    static func cells(_ screen: String, row text: String) -> [(character: Character, fg: String?, bold: Bool)] {
        guard let line = screen.split(separator: "\n").first(where: { Self.plain(String($0)).contains(text) }) else { return [] }
        var out: [(Character, String?, Bool)] = []
        var fg: String?
        var bold = false
        var rest = Substring(line)
        while let first = rest.first {
            if first == "\u{1B}", rest.dropFirst().first == "[", let end = rest.firstIndex(of: "m") {
                let parameters = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                var index = 0
                while index < parameters.count {
                    switch parameters[index] {
                    case "0", "": fg = nil; bold = false
                    case "1": bold = true
                    case "22": bold = false
                    case "39": fg = nil
                    case "38":
                        let count = parameters[safe: index + 1] == "5" ? 3 : 5
                        fg = parameters[index..<min(index + count, parameters.count)].joined(separator: ";")
                        index += count - 1
                    case "48": index += parameters[safe: index + 1] == "5" ? 2 : 4
                    case let p where (30...37).contains(Int(p) ?? 0) || (90...97).contains(Int(p) ?? 0): fg = p
                    default: break
                    }
                    index += 1
                }
                rest = rest[rest.index(after: end)...]
            } else {
                out.append((first, fg, bold))
                rest = rest.dropFirst()
            }
        }
        return out
    }

    static func plain(_ line: String) -> String {
        line.replacing(/\x1B\[[0-9;]*m/, with: "")
    }

    /// The foreground and boldness of the first character of `word` on the
    /// row that contains `row`.
    static func look(of word: String, in screen: String, row: String) -> (fg: String?, bold: Bool)? {
        let found = cells(screen, row: row)
        let text = String(found.map(\.character))
        guard let range = text.range(of: word) else { return nil }
        let cell = found[text.distance(from: text.startIndex, to: range.lowerBound)]
        return (cell.fg, cell.bold)
    }

    @Test("tokens take their theme's colours at 80×24 and 50×16: dark, light, 16 colours, and bold without colour; unknown languages stay plain",
          arguments: [(80, 24), (50, 16)])
    func themes(columns: Int, rows: Int) throws {
        let file = NSTemporaryDirectory() + "neonsync-code-\(UUID().uuidString).md"
        try Self.markdown.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        let looks: [(name: String, flags: String, environment: [String: String], keyword: String?, bold: Bool)] = [
            ("dark", "", ["TERM": "xterm-256color", "COLORTERM": ""], "38;5;212", false),
            ("light", "--theme light", ["TERM": "xterm-256color", "COLORTERM": ""], "38;5;160", false),
            ("lightenv", "", ["TERM": "xterm-256color", "COLORTERM": "", "NEONSYNC_THEME": "light"], "38;5;160", false),
            ("ansi", "", ["TERM": "xterm-color", "COLORTERM": ""], "35", false),
            ("mono", "", ["TERM": "xterm-256color", "NO_COLOR": "1"], nil, true),
        ]
        var texts: [String: [String]] = [:]
        for look in looks {
            let unset = look.environment["NO_COLOR"] == nil ? "env -u NO_COLOR " : ""
            try tmux.start(look.name, columns: columns, rows: rows,
                           command: "\(unset)\(Self.client) read \(file) --room code-\(look.name)-\(columns) --name ada --server \(server.url) \(look.flags)",
                           environment: look.environment)
            try tmux.waitFor(look.name, "let answer", timeout: 20)
            let screen = try tmux.waitUntil(look.name, "the keyword highlighted") { _ in
                let escaped = (try? tmux.run(["capture-pane", "-p", "-e", "-t", look.name])) ?? ""
                return Self.look(of: "let", in: escaped, row: "answer")?.fg == look.keyword
                    && Self.look(of: "let", in: escaped, row: "answer")?.bold == look.bold
            }
            texts[look.name] = screen
            let escaped = try tmux.run(["capture-pane", "-p", "-e", "-t", look.name])
            let number = Self.look(of: "42", in: escaped, row: "answer")
            let plain = Self.look(of: "let", in: escaped, row: "plain")
            #expect(number?.fg != Self.look(of: "answer", in: escaped, row: "answer")?.fg || look.keyword == nil, "\(look.name): \(escaped)")
            #expect(plain?.fg != look.keyword || look.keyword == nil, "an unknown language stays plain: \(look.name)")
            #expect(plain?.bold == false, "an unknown language stays plain: \(look.name)")
        }
        // Highlighting never changes a row's text.
        let documentRows = { (screen: [String]) in screen.filter { $0.contains("let ") } }
        for look in looks.dropFirst() {
            #expect(documentRows(texts[look.name] ?? []) == documentRows(texts["dark"] ?? []), "\(look.name)")
        }
        #expect(server.stop() == 0)
    }

    @Test("a theme that does not exist is refused with the names there are, from the flag and from NEONSYNC_THEME")
    func badTheme() throws {
        let tmux = try Tmux()
        try tmux.start("flag", columns: 100, rows: 10, command: "\(Self.client) join r --theme solarized")
        try tmux.waitFor("flag", "--theme \"solarized\" is not a theme; choose one of dark, light, ascii")
        _ = try tmux.waitUntil("flag", "the exit status") { _ in (try? tmux.exitStatus("flag")) != nil }
        #expect(try tmux.exitStatus("flag") == 2)
        try tmux.start("env", columns: 100, rows: 10, command: "\(Self.client) join r", environment: ["NEONSYNC_THEME": "blue"])
        try tmux.waitFor("env", "$NEONSYNC_THEME \"blue\" is not a theme")
        _ = try tmux.waitUntil("env", "the exit status") { _ in (try? tmux.exitStatus("env")) != nil }
        #expect(try tmux.exitStatus("env") == 2)
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
