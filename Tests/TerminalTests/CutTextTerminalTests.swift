import Foundation
import NeonClient
import NeonCore
import NeonTestSupport
import NeonTUI
import Testing

/// Every screen at 50x16 and 80x24 in a real terminal: text that does not
/// fit ends in "…", never at a box's border or a key list's edge as if it
/// were whole.
@Suite("Cut text in tmux", .serialized, .ownThreads)
struct CutTextTerminalTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path
    static let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/guide.md").path

    /// A screen row as cells: each character, then "" for each further
    /// column it covers.
    static func cells(_ line: String) -> [String] {
        line.flatMap { character in
            [String(character)] + Array(repeating: "", count: max(DisplayWidth.of(character) - 1, 0))
        }
    }

    /// The rows of every box whose text runs into its right border: the
    /// cell left of a `│` under a `╮` holds a letter, a digit or part of a
    /// wide character (a space, "…" or a symbol such as the draft's ring
    /// may stand there).
    static func cutAtBorders(_ screen: [String]) -> [String] {
        let grid = screen.map(cells)
        var found: [String] = []
        for (top, row) in grid.enumerated() {
            for (column, cell) in row.enumerated() where cell == "╮" && column > 0 {
                for y in (top + 1)..<grid.count {
                    guard column < grid[y].count, grid[y][column] == "│" else { break }
                    let before = grid[y][column - 1]
                    if before.isEmpty || before.contains(where: { $0.isLetter || $0.isNumber }) {
                        found.append(screen[y])
                    }
                }
            }
        }
        return found
    }

    /// The key list titled `title` on `screen`: each line inside its border
    /// (an action wrapped onto rows with a blank key column joined back),
    /// runs of spaces made one.
    static func keyListRows(_ screen: [String], title: String) -> [String] {
        let grid = screen.map(cells)
        // The list's own corners: the last ╭ before its title and the first
        // ╮ after it (another box's corner may share the row).
        guard let top = screen.firstIndex(where: { $0.contains("─ \(title) ") }),
              let titleColumn = (0..<grid[top].count).first(where: { grid[top][$0...].joined().hasPrefix("─ \(title) ") }),
              let left = grid[top][..<titleColumn].lastIndex(of: "╭"),
              let right = grid[top][titleColumn...].firstIndex(of: "╮") else { return [] }
        let rows = grid[(top + 1)...].prefix { $0.count > right && $0[left] == "│" }.map { $0[(left + 1)..<right].joined() }
        var lines: [String] = []
        for row in rows {
            if row.hasPrefix("  "), let last = lines.popLast() {
                lines.append(last + " " + row)
            } else {
                lines.append(row)
            }
        }
        return lines.map(collapse)
    }

    static func collapse(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Key-list lines that are neither a whole line of `lines` nor a line's
    /// start ending in "…" (the last may be a line's start, continued below
    /// the box).
    static func badKeyRows(_ rows: [String], lines: [HelpOverlay.Line]) -> [String] {
        let whole = lines.map { collapse("\($0.key) \($0.action)") }
        return rows.enumerated().filter { index, row in
            if whole.contains(row) { return false }
            if index == rows.count - 1, whole.contains(where: { $0.hasPrefix(row) }) { return false }
            guard row.hasSuffix("…") else { return true }
            let start = row.dropLast().trimmingCharacters(in: .whitespaces)
            return !whole.contains { $0.hasPrefix(start) }
        }.map(\.element)
    }

    func check(_ screen: [String], _ what: String, columns: Int) {
        #expect(Self.cutAtBorders(screen).isEmpty,
                "\(what) at \(columns) columns cuts text at a border:\n\(screen.joined(separator: "\n"))")
    }

    @Test("the reader, its key list, the draft editor, its key list and the monitor end every cut text in …", arguments: [(50, 16), (80, 24)])
    func everyScreen(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let room = "cut\(columns)"
        try tmux.start("ada", columns: columns, rows: rows,
                       command: "\(Self.client) read \(Self.guide) --room \(room) --name ada --server \(server.url)")
        try tmux.waitFor("ada", "Welcome", timeout: 20)
        try tmux.sendKeys("ada", "6")
        let last = try tmux.waitUntil("ada", "the last section's tab") { $0.contains { $0.contains("漢字") } }
        check(last, "the reader on its last tab", columns: columns)
        let titles = ["Welcome to NeonSync", "Reading", "Presenting", "Drafting", "Monitoring", "漢字と絵文字 🎉"]
        if let marker = last[1].firstIndex(of: "‹") {
            let first = last[1][last[1].index(after: marker)...].components(separatedBy: "  ")[0]
            let start = first.hasSuffix("…") ? String(first.dropLast()) : first
            #expect(titles.contains { $0.hasPrefix(start) }, "a title scrolled half out keeps its first letters: \(last[1])")
        }
        try tmux.sendKeys("ada", "?")
        let help = try tmux.waitFor("ada", "─ Keys ")
        check(help, "the reader's key list", columns: columns)
        #expect(Self.badKeyRows(Self.keyListRows(help, title: "Keys"), lines: ReaderModel.helpLines).isEmpty,
                "the reader's key list at \(columns) columns:\n\(help.joined(separator: "\n"))")

        try tmux.start("mon", columns: columns, rows: rows,
                       command: "\(Self.client) monitor \(room) --name mon --server \(server.url)")
        let monitor = try tmux.waitUntil("mon", timeout: 20, "ada on tab 6") { $0.contains { $0.contains("ada") && $0.contains("%") } }
        check(monitor, "the monitor", columns: columns)
        try tmux.sendKeys("mon", "?")
        let monitorHelp = try tmux.waitFor("mon", "─ Monitor keys ")
        #expect(Self.badKeyRows(Self.keyListRows(monitorHelp, title: "Monitor keys"), lines: MonitorModel.help).isEmpty,
                "the monitor's key list at \(columns) columns:\n\(monitorHelp.joined(separator: "\n"))")

        try tmux.start("bob", columns: columns, rows: rows,
                       command: "\(Self.client) draft \(room)-draft --name bob --server \(server.url)")
        try tmux.waitFor("bob", "1 here", timeout: 20)
        try tmux.sendLiteral("bob", String(repeating: "a long line of the draft ", count: 4))
        let draft = try tmux.waitFor("bob", "draft a long")
        check(draft, "the draft editor", columns: columns)
        try tmux.sendKeys("bob", "F1")
        let draftHelp = try tmux.waitFor("bob", "─ Draft keys ")
        check(draftHelp, "the draft editor's key list", columns: columns)
        #expect(Self.badKeyRows(Self.keyListRows(draftHelp, title: "Draft keys"), lines: DraftModel.helpLines).isEmpty,
                "the draft editor's key list at \(columns) columns:\n\(draftHelp.joined(separator: "\n"))")
        #expect(server.stop() == 0)
    }
}
