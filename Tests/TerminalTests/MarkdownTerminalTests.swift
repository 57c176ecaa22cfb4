import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// NeonSync's own docs/OPERATIONS.md and docs/PROTOCOL.md, mostly tables, co-read in
/// real terminals of two sizes: tables are drawn as tables, and a follower of
/// another width lands on the presenter's table row.
@Suite("Markdown in tmux", .serialized, .ownThreads)
struct MarkdownTerminalTests {
    static let client = TerminalEndToEndTests.client
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The rows inside the document box: the frame's first and last columns
    /// (and the gutter beside the last) left out, trailing blanks dropped.
    func documentRows(_ screen: [String]) -> [String] {
        guard let top = screen.firstIndex(where: { $0.hasPrefix("╭") }) else { return [] }
        return screen[(top + 1)...].prefix { $0.hasPrefix("│") }.map { line in
            var row = String(line.dropFirst().dropLast(2))
            while row.last == " " { row.removeLast() }
            return row
        }
    }

    /// The first word of a table row's first cell ("│ --port N │ …" →
    /// "--port"), or nil when the row is no table row or its first cell is
    /// blank (a wrapped row's continuation).
    func firstCellWord(_ row: String) -> String? {
        guard row.hasPrefix("│ ") else { return nil }
        return row.dropFirst(2).split(separator: " ").first.flatMap { $0 == "│" ? nil : String($0) }
    }

    @Test("co-reading a table-heavy document: tables drawn boxed at both sizes, the follower lands on the presenter's table row",
          arguments: [("docs/OPERATIONS.md", "--max-members", (120, 40), (60, 20)), ("docs/PROTOCOL.md", "tab_out_of_range", (60, 20), (120, 40))])
    func coReadTables(file: String, search: String, presenterSize: (Int, Int), followerSize: (Int, Int)) throws {
        do {
            try coRead(file: file, search: search, presenterSize: presenterSize, followerSize: followerSize)
        } catch {
            // Say where it stopped and what both screens showed, on standard
            // error, whatever the error's own text.
            FileHandle.standardError.write(Data("MarkdownTerminalTests \(file): \(error)\n".utf8))
            throw error
        }
    }

    func coRead(file: String, search: String, presenterSize: (Int, Int), followerSize: (Int, Int)) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let path = Self.root.appendingPathComponent(file).path
        try tmux.start("pat", columns: presenterSize.0, rows: presenterSize.1,
                       command: "\(Self.client) present \(path) --room docs --name pat --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
        // The document's first heading on the presenter's screen.
        let heading = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) } ?? "NeonSync"
        try tmux.waitFor("pat", heading, timeout: 30)
        try tmux.start("fay", columns: followerSize.0, rows: followerSize.1,
                       command: "\(Self.client) follow docs --name fay --server \(server.url)", environment: ["NO_COLOR": "1"])
        try tmux.waitFor("fay", "following pat", timeout: 30)

        try tmux.sendKeys("pat", "/")
        try tmux.sendLiteral("pat", search)
        try tmux.sendKeys("pat", "Enter")
        try tmux.waitUntil("pat", "the match on screen") { documentRows($0).contains { $0.contains(search) } }
        // n until the match on screen is the one in a table (an earlier one
        // may be in a code example).
        for _ in 0..<5 where !documentRows(try tmux.capture("pat")).contains(where: { $0.hasPrefix("│ ") && $0.contains(search) }) {
            try tmux.sendKeys("pat", "n")
            try tmux.waitUntilStill("pat")
        }
        // Scroll until a table row starts on the presenter's top row.
        var key: String?
        for _ in 0..<40 {
            let rows = documentRows(try tmux.capture("pat"))
            if let word = firstCellWord(rows.first ?? "") { key = word; break }
            try tmux.sendKeys("pat", "j")
            try tmux.waitUntil("pat", "the presenter one row further") { documentRows($0) != rows }
        }
        let seen = try tmux.capture("pat").joined(separator: "\n")
        let word = try #require(key, "no table row reached the presenter's top row:\n\(seen)")
        let presenter = try tmux.capture("pat")
        #expect(documentRows(presenter).contains { $0.hasPrefix("├") || $0.hasPrefix("┌") || $0.hasPrefix("│ ") },
                "the presenter sees a box-drawn table:\n\(presenter.joined(separator: "\n"))")
        let follower: [String]
        do {
            follower = try tmux.waitUntil("fay", timeout: 30, "the follower on the row of \(word)") { screen in
                firstCellWord(documentRows(screen).first ?? "") == word
            }
        } catch {
            let presenter = (try? tmux.capture("pat"))?.joined(separator: "\n") ?? "(no screen)"
            throw TmuxError("\(error)\nthe presenter's screen, whose top row is \(word)'s:\n\(presenter)")
        }
        #expect(documentRows(follower).filter { $0.hasPrefix("│ ") }.count >= 3,
                "the follower sees the table drawn as a table:\n\(follower.joined(separator: "\n"))")
        #expect(follower.allSatisfy { $0.count <= followerSize.0 })
        try tmux.sendKeys("pat", "q")
        try tmux.sendKeys("fay", "q")
        #expect(server.stop() == 0)
    }
}
