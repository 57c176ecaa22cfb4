import Foundation
import NeonClientTestSupport
import NeonCore
import NeonTestSupport
import Testing

/// Issue 13 in real terminals: chosen tabs that stay chosen, followers of
/// another size that see what the presenter sees, and back-to-top from the
/// wheel, read back with capture-pane.
@Suite("Reading together in tmux", .serialized, .ownThreads)
struct ReadingTogetherTerminalTests {
    static let client = TerminalEndToEndTests.client

    /// Writes `text` to a temporary Markdown file; the caller unlinks it.
    static func file(_ text: String, _ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "neonsync-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).md"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    /// The document box's rows, trimmed (as in TerminalEndToEndTests).
    func documentRows(_ screen: [String]) -> [String] {
        guard let top = screen.firstIndex(where: { $0.hasPrefix("╭") }) else { return [] }
        return screen[(top + 1)...].prefix { $0.hasPrefix("│") }.map { line in
            line.dropFirst().prefix { $0 != "│" }.dropLast().trimmingCharacters(in: .whitespaces)
        }
    }

    /// The title of the tab with the underline under its first column.
    func underlinedTab(_ screen: [String], among titles: [String]) -> String? {
        guard screen.count > 2 else { return nil }
        let header = Array(screen[1]), underline = Array(screen[2])
        return titles.first { title in
            guard let column = (0..<header.count).first(where: { header[$0...].starts(with: title) }) else { return false }
            return column < underline.count && underline[column] == "━"
        }
    }

    static let sections = ["Opening", "Middle", "Results", "Q&A", "Coda"]

    /// Waits until `name` underlines `tab` and its document rows satisfy `rows`.
    @discardableResult
    func waitForTab(_ tmux: Tmux, _ name: String, _ tab: String, rows: @escaping ([String]) -> Bool = { _ in true }) throws -> [String] {
        try tmux.waitUntil(name, "\(tab) underlined") { screen in
            underlinedTab(screen, among: Self.sections) == tab && rows(documentRows(screen))
        }
    }

    /// A left click at a 0-based cell, in the SGR mouse encoding the client
    /// asks the terminal for.
    func click(_ tmux: Tmux, _ name: String, x: Int, y: Int) throws {
        try tmux.sendLiteral(name, "\u{1B}[<0;\(x + 1);\(y + 1)M")
        try tmux.sendLiteral(name, "\u{1B}[<0;\(x + 1);\(y + 1)m")
    }

    @Test("a chosen short section stays chosen past its hold: the presenter's header, the server and the follower agree (5, 4, Tab, click, k, G)",
          arguments: followSizes)
    func chosenTabStays(sizes: (Int, Int, Int, Int)) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let talk = try Self.file(codaTalk.text, "coda")
        defer { unlink(talk) }
        try launch(tmux, "pat", columns: sizes.0, rows: sizes.1, "present \(talk) --room coda --name pat", server: server)
        try tmux.waitFor("pat", "Opening paragraph 1")
        try launch(tmux, "fay", columns: sizes.2, rows: sizes.3, "follow coda --name fay", server: server)
        try tmux.waitFor("fay", "following pat")
        let pat = try #require(server.events("join").first { $0["name"] as? String == "pat" }?["client"] as? String)

        let atEnd: ([String]) -> Bool = { $0.last(where: { !$0.isEmpty }) == "Thank you." }
        try tmux.sendKeys("pat", "5")
        for name in ["pat", "fay"] { try waitForTab(tmux, name, "Coda", rows: atEnd) }
        Thread.sleep(forTimeInterval: 2.5)
        for name in ["pat", "fay"] {
            let screen = try tmux.capture(name)
            #expect(underlinedTab(screen, among: Self.sections) == "Coda", "\(name) after the hold:\n\(screen.joined(separator: "\n"))")
        }
        let progress = server.events("progress").last { $0["client"] as? String == pat }
        #expect(progress?["section"] as? Int == 4 && progress?["atBottom"] as? Bool == true)
        #expect(!server.events("tab").contains { $0["client"] as? String == pat && $0["source"] as? String == "scrolled" },
                "the server's spy never took the presenter's tab back")

        try tmux.sendKeys("pat", "4")
        for name in ["pat", "fay"] { try waitForTab(tmux, name, "Q&A", rows: atEnd) }
        Thread.sleep(forTimeInterval: 2.5)
        for name in ["pat", "fay"] { #expect(underlinedTab(try tmux.capture(name), among: Self.sections) == "Q&A") }

        try tmux.sendKeys("pat", "Tab")
        for name in ["pat", "fay"] { try waitForTab(tmux, name, "Coda", rows: atEnd) }
        let header = Array(try tmux.capture("pat")[1])
        let column = try #require((0..<header.count).first { header[$0...].starts(with: "Q&A") })
        try click(tmux, "pat", x: column + 1, y: 1)
        for name in ["pat", "fay"] { try waitForTab(tmux, name, "Q&A", rows: atEnd) }
        #expect(server.waitForLog { $0["event"] as? String == "tab" && $0["client"] as? String == pat && $0["title"] as? String == "Q&A" } != nil)

        try tmux.sendKeys("pat", "k")
        for name in ["pat", "fay"] { try waitForTab(tmux, name, "Results") }
        try tmux.sendKeys("pat", "G")
        for name in ["pat", "fay"] { try waitForTab(tmux, name, "Coda", rows: atEnd) }
        #expect(server.stop() == 0)
    }

    @Test("a follower of another size is at its own bottom, top, or on the presenter's text, with the presenter's tab",
          arguments: followSizes)
    func followerSeesWhatPresenterSees(sizes: (Int, Int, Int, Int)) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let talk = try Self.file(codaTalk.text, "follow")
        defer { unlink(talk) }
        try launch(tmux, "pat", columns: sizes.0, rows: sizes.1, "present \(talk) --room sizes --name pat", server: server)
        try tmux.waitFor("pat", "Opening paragraph 1")
        try launch(tmux, "fay", columns: sizes.2, rows: sizes.3, "follow sizes --name fay", server: server)
        try tmux.waitFor("fay", "following pat")

        try tmux.sendKeys("pat", "G")
        try tmux.waitUntil("pat", "the presenter at 100%") { $0.last?.contains("100%") == true }
        let bottom = try tmux.waitUntil("fay", "the follower's last line and 100%") { screen in
            documentRows(screen).last(where: { !$0.isEmpty }) == "Thank you." && screen.last?.contains("100%") == true
        }
        #expect(underlinedTab(bottom, among: Self.sections) == "Coda")

        try tmux.sendKeys("pat", "g")
        try tmux.waitUntil("fay", "the follower at its top, 0%") { screen in
            documentRows(screen).first == "Opening" && screen.last?.contains(" 0%") == true
        }

        try tmux.sendKeys("pat", "2")
        try waitForTab(tmux, "pat", "Middle") { $0.first == "Middle" }
        try waitForTab(tmux, "fay", "Middle") { $0.first == "Middle" }
        try tmux.sendKeys("pat", "j", "j")
        let presenter = try tmux.waitUntil("pat", "two rows further") { documentRows($0).first?.hasPrefix("Middle paragraph 1") == true }
        let first = try #require(documentRows(presenter).first)
        let words = first.split(separator: " ").prefix(3).joined(separator: " ")
        try tmux.waitUntil("fay", "the presenter's top row on the follower's top row") { screen in
            documentRows(screen).first?.hasPrefix(words) == true && underlinedTab(screen, among: Self.sections) == "Middle"
        }
        #expect(server.stop() == 0)
    }

    @Test("at the bottom the wheel offers back-to-top: a click on the wheel or t eases to the top",
          arguments: [(100, 30), (64, 20)])
    func backToTopFromTheWheel(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let talk = try Self.file(codaTalk.text, "wheel")
        defer { unlink(talk) }
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(talk) --room wheel --name ada", server: server)
        try tmux.waitFor("ada", "Opening paragraph 1")
        for way in ["click", "t"] {
            try tmux.sendKeys("ada", "G")
            try tmux.waitUntil("ada", "the boxed button beside the bar") { screen in
                screen.suffix(4).contains { $0.contains("↑ top [t]") } && screen.suffix(4).contains { $0.contains("╭──") }
            }
            let wheel = try tmux.waitUntil("ada", timeout: 8, "the wheel with its button") { screen in
                !screen.suffix(4).contains { $0.contains("╭──") } && screen.suffix(4).contains { $0.contains("↑ top [t]") }
            }
            #expect(wheel.suffix(4).contains { $0.contains("100%") })
            if way == "click" {
                try click(tmux, "ada", x: columns - 5, y: rows - 3)
            } else {
                try tmux.sendKeys("ada", "t")
            }
            try tmux.waitUntil("ada", "the top after \(way)") { screen in
                documentRows(screen).first == "Opening" && screen.last?.contains(" 0%") == true
            }
        }
        #expect(server.stop() == 0)
    }

    @Test("a document that fits the screen offers no back-to-top, with the bar or the wheel", arguments: [(100, 30), (64, 20)])
    func noBackToTopWhenItFits(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let note = try Self.file("# Note\n\nShort enough to fit.\n\n# Later\n\nStill short.", "fits")
        defer { unlink(note) }
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(note) --room fits --name ada", server: server)
        try tmux.waitFor("ada", "Still short.")
        try tmux.sendKeys("ada", "G")
        let bar = try tmux.waitUntil("ada", "100% with the bar") { $0.suffix(4).contains { $0.contains("╭──") } && $0.last?.contains("100%") == true }
        #expect(!bar.joined().contains("↑ top"))
        let wheel = try tmux.waitUntil("ada", timeout: 8, "the wheel") { !$0.suffix(4).contains { $0.contains("╭──") } }
        #expect(!wheel.joined().contains("↑ top"), "\(wheel.joined(separator: "\n"))")
        #expect(underlinedTab(wheel, among: ["Note", "Later"]) == "Note", "a document that fits is at its top: the first tab")
        #expect(server.stop() == 0)
    }
}
