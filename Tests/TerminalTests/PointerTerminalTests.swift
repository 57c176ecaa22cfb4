import Foundation
import NeonTestSupport
import Testing

/// The pointer in real terminals, read back with `capture-pane -e` so the
/// underlined passage can be told from the rest.
@Suite("A pointer everyone sees, in tmux", .serialized, .ownThreads)
struct PointerTerminalTests {
    static let client = TerminalEndToEndTests.client

    static func paragraph(_ n: Int) -> String {
        "Middle paragraph \(n) is a passage long enough to wrap on every narrow screen that follows the talk, so its rows differ by size."
    }

    static let talk = "# Opening\n\nOpening words for everyone in the room.\n\n# Middle\n\n"
        + (1...9).map(paragraph).joined(separator: "\n\n") + "\n\n# End\n\nThe last words.\n"

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    /// One screen cell: its character and whether it is underlined, bold.
    struct Cell {
        var character: Character
        var underline: Bool
        var bold: Bool
    }

    /// The screen of `name` with each cell's underline and bold, from
    /// `capture-pane -e` (SGR 0 resets, 1 bold, 4 underline, 22 and 24 end them).
    static func styledScreen(_ tmux: Tmux, _ name: String) throws -> [[Cell]] {
        let text = try tmux.run(["capture-pane", "-p", "-e", "-t", name])
        var rows: [[Cell]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var row: [Cell] = []
            var underline = false, bold = false
            var rest = Substring(line)
            while let character = rest.first {
                if character == "\u{1B}", rest.dropFirst().first == "[", let end = rest.firstIndex(of: "m") {
                    let parameters = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";", omittingEmptySubsequences: false)
                    for parameter in parameters.isEmpty ? [""] : parameters {
                        switch parameter.split(separator: ":").first.map(String.init) ?? "" {
                        case "", "0": underline = false; bold = false
                        case "1": bold = true
                        case "22": bold = false
                        case "4": underline = true
                        case "24": underline = false
                        default: break
                        }
                    }
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                row.append(Cell(character: character, underline: underline, bold: bold))
                rest = rest.dropFirst()
            }
            rows.append(row)
        }
        return rows
    }

    /// The text the document box underlines (its gutter left out), rows
    /// joined by spaces; `bold` asks for the presenter's pointer only.
    static func pointed(_ screen: [[Cell]], bold: Bool? = nil) -> String {
        guard let top = screen.firstIndex(where: { $0.first?.character == "╭" }),
              let corner = screen[top].firstIndex(where: { $0.character == "╮" }) else { return "" }
        var pieces: [String] = []
        for row in screen[(top + 1)...] {
            guard row.first?.character == "│", row.count > corner else { break }
            let marked = row[1..<corner - 1].filter { $0.underline && (bold == nil || $0.bold == bold) }
            let text = String(marked.map(\.character)).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { pieces.append(text) }
        }
        return pieces.joined(separator: " ")
    }

    /// The gutter marks of the document box, with the text of their row.
    static func gutter(_ screen: [[Cell]]) -> [(mark: Character, row: String)] {
        guard let top = screen.firstIndex(where: { $0.first?.character == "╭" }),
              let corner = screen[top].firstIndex(where: { $0.character == "╮" }) else { return [] }
        return screen[(top + 1)...].prefix { $0.first?.character == "│" && $0.count > corner }.compactMap { row in
            let mark = row[corner - 1].character
            return mark == " " ? nil : (mark, String(row[1..<corner - 1].map(\.character)))
        }
    }

    func waitForPointed(_ tmux: Tmux, _ name: String, _ text: String, bold: Bool = true) throws {
        let deadline = Date().addingTimeInterval(20)
        var last = ""
        repeat {
            last = Self.pointed(try Self.styledScreen(tmux, name), bold: bold)
            if last == text { return }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        throw TmuxError("\(name) underlines \"\(last)\", not \"\(text)\":\n" + (try tmux.capture(name)).joined(separator: "\n"))
    }

    @Test("a pointer set with a click at 120x40 marks the same text at 60x20 and 80x24, survives a resize, a late join and the presenter's reconnect; a reader's moves nobody")
    func pointerAcrossSizes() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let file = try ReadingTogetherTerminalTests.file(Self.talk, "pointer")
        defer { unlink(file) }
        try launch(tmux, "pat", columns: 120, rows: 40, "present \(file) --room ptr --name pat", server: server)
        try tmux.waitFor("pat", "Opening words")
        try launch(tmux, "fay", columns: 60, rows: 20, "follow ptr --name fay", server: server)
        try launch(tmux, "gus", columns: 80, rows: 24, "follow ptr --name gus", server: server)
        try launch(tmux, "rob", columns: 80, rows: 24, "join ptr --name rob", server: server)
        for name in ["fay", "gus"] { try tmux.waitFor(name, "following pat") }
        try tmux.waitFor("rob", "Opening words")

        try tmux.sendKeys("pat", "2")
        let presenter = try tmux.waitUntil("pat", "the Middle section at the top") { screen in
            screen.contains { $0.hasPrefix("│Middle ") } && screen.contains { $0.contains("Middle paragraph 5 ") }
        }
        // The presenter's eased jump has ended when the followers show its end.
        for name in ["fay", "gus"] {
            try tmux.waitUntil(name, "the Middle section at the top") { screen in
                screen.first { $0.hasPrefix("│") }?.hasPrefix("│Middle ") == true
            }
        }
        try tmux.waitUntilStill("pat")
        let row = try #require(try tmux.capture("pat").firstIndex { $0.contains("│Middle paragraph 5 ") })
        #expect(presenter.count == 40)
        try ReadingTogetherTerminalTests().click(tmux, "pat", x: 4, y: row)
        let target = Self.paragraph(5)
        // A detached reader is told (a notice of 4 s: read first, before the
        // other screens' waits can outlast it), and is not moved.
        try tmux.waitFor("rob", "pat points at “Middle paragraph 5 is a passage…” — ' goes there")
        #expect(Self.pointed(try Self.styledScreen(tmux, "rob")).isEmpty, "rob did not move")
        try waitForPointed(tmux, "pat", target)
        for name in ["fay", "gus"] {
            try waitForPointed(tmux, name, target)
            #expect(Self.gutter(try Self.styledScreen(tmux, name)).contains { $0.mark == "◆" && $0.row.hasPrefix("Middle paragraph 5") },
                    "\(name): ◆ on the pointer's first row")
        }
        #expect(server.waitForLog { $0["event"] as? String == "point" && $0["lead"] as? Bool == true && $0["length"] as? Int == target.count } != nil)

        // One key takes the detached reader there.
        try tmux.sendKeys("rob", "'")
        try waitForPointed(tmux, "rob", target)

        // A resize keeps it on the same text; a late joiner has it from the welcome.
        try tmux.resize("fay", columns: 100, rows: 30)
        try tmux.waitUntil("fay", "the new size") { $0.count == 30 && ($0.first?.count ?? 0) >= 99 }
        try waitForPointed(tmux, "fay", target)
        try launch(tmux, "kim", columns: 70, rows: 22, "follow ptr --name kim", server: server)
        try waitForPointed(tmux, "kim", target)

        // The presenter's pointer outlives the presenter's connection.
        try tmux.run(["kill-session", "-t", "pat"])
        try tmux.waitFor("rob", "pat left")
        try launch(tmux, "pat", columns: 120, rows: 40, "present ptr --name pat", server: server)
        // Presenting again under its name, it comes back where it left (issue 35).
        try tmux.waitUntil("pat", "the Middle section at the top, where it left") { screen in
            screen.first { $0.hasPrefix("│") }?.hasPrefix("│Middle ") == true
        }
        try tmux.sendKeys("pat", "'")
        try waitForPointed(tmux, "pat", target)

        // A reader's pointer shows with their initial and moves nobody.
        let gusTop = try tmux.waitUntilStill("gus").first { $0.hasPrefix("│") }
        let robRow = try #require(try tmux.capture("rob").firstIndex { $0.contains("│Middle paragraph 6 ") })
        try ReadingTogetherTerminalTests().click(tmux, "rob", x: 4, y: robRow)
        try waitForPointed(tmux, "rob", Self.paragraph(6), bold: false)
        #expect(Self.gutter(try Self.styledScreen(tmux, "rob")).contains { $0.mark == "R" && $0.row.hasPrefix("Middle paragraph 6") })
        #expect(server.waitForLog { $0["event"] as? String == "point" && $0["lead"] as? Bool == false } != nil)
        #expect(try tmux.capture("gus").first { $0.hasPrefix("│") } == gusTop)

        // P clears the presenter's pointer everywhere.
        try tmux.sendKeys("pat", "P")
        for name in ["pat", "fay", "gus", "kim"] { try waitForPointed(tmux, name, "") }
        #expect(server.stop() == 0)
    }
}
