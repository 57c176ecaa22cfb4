import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTestSupport
import Testing

/// Search across soft wraps, observers, remote cursors and tab titles in
/// real terminals (tmux) against the real server, each at two sizes.
@Suite("reading, finding and tabs in tmux", .serialized, .ownThreads)
struct ReadingFindTerminalTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess,
                environment: [String: String] = [:]) throws {
        try tmux.start(name, columns: columns, rows: rows,
                       command: "\(Self.client) \(args) --server \(server.url)", environment: environment)
    }

    /// Writes `text` to a temporary Markdown file; the caller unlinks it.
    static func file(_ text: String, _ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "neonsync-\(name)-\(getpid()).md"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The document box's rows (inside the border, without the gutter),
    /// trimmed.
    static func documentRows(_ screen: [String]) -> [String] {
        guard let top = screen.firstIndex(where: { $0.hasPrefix("╭") }) else { return [] }
        return screen[(top + 1)...].prefix { $0.hasPrefix("│") }.map { line in
            String(line.dropFirst().prefix { $0 != "│" }.dropLast()).trimmingCharacters(in: .whitespaces)
        }
    }

    /// The runs of text drawn in reverse video on each row of `name`, read
    /// from `capture-pane -e` (SGR 7 sets reverse video, 0 and 27 clear it).
    static func reversedRuns(_ tmux: Tmux, _ name: String) throws -> [[String]] {
        let text = try tmux.run(["capture-pane", "-p", "-e", "-t", name])
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var runs: [String] = []
            var reverse = false
            var run = ""
            var characters = Substring(line)
            while let character = characters.popFirst() {
                guard character == "\u{1B}" else {
                    if reverse { run.append(character) }
                    continue
                }
                guard characters.first == "[" else { continue }
                characters.removeFirst()
                var parameters = ""
                while let next = characters.popFirst(), next != "m" { parameters.append(next) }
                var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
                while let code = codes.popFirst() {
                    switch code {
                    case 0, 27: reverse = false
                    case 7: reverse = true
                    case 38, 48: codes = codes.first == 5 ? codes.dropFirst(2) : codes.dropFirst(4)
                    default: break
                    }
                }
                if !reverse, !run.isEmpty {
                    runs.append(run)
                    run = ""
                }
            }
            if !run.isEmpty { runs.append(run) }
            return runs
        }
    }

    /// glibc's `wcwidth`, looked up at run time: Swift's Glibc module does
    /// not import it.
    static let wcwidth: @convention(c) (Int32) -> Int32 = {
        typealias WCWidth = @convention(c) (Int32) -> Int32
        return unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth")!, to: WCWidth.self)
    }()

    /// The columns tmux 3.3 gives `text`: glibc's `wcwidth` of each code
    /// point, a code point after a zero width joiner joining the cell before
    /// it. Independent of NeonCore's `DisplayWidth`, which must agree.
    static func tmuxColumns(_ text: some StringProtocol) -> Int {
        let utf8 = newlocale(Int32(1) << LC_CTYPE, "C.UTF-8", nil)
        let previous = uselocale(utf8)
        defer {
            uselocale(previous)
            freelocale(utf8)
        }
        var columns = 0
        var joining = false
        for scalar in text.unicodeScalars {
            if joining {
                joining = false
            } else if scalar == "\u{200D}" {
                joining = true
            } else {
                columns += max(Int(wcwidth(Int32(bitPattern: scalar.value))), 0)
            }
        }
        return columns
    }

    // MARK: - Search across soft wraps (issue 13, item 4)

    @Test("/ finds a phrase the terminal wraps between two rows and highlights both rows, at 80 and 120 columns",
          arguments: [(80, 24), (120, 30)])
    func searchAcrossWraps(columns: Int, rows: Int) throws {
        let narrow = ScreenGeometry(columns: 80, rows: 24).wrapWidth
        let wide = ScreenGeometry(columns: 120, rows: 30).wrapWidth
        let text = "# Search\n\n" + paragraph(wrappingAt: narrow) + "\n\n" + paragraph(wrappingAt: wide)
        let path = try Self.file(text, "wraps-\(columns)")
        defer { unlink(path) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(path) --room wraps --name ada", server: server,
                   environment: ["NO_COLOR": "1"])
        try tmux.waitFor("ada", "three")
        try tmux.sendKeys("ada", "/")
        try tmux.sendLiteral("ada", "three seconds")
        try tmux.sendKeys("ada", "Enter")
        let screen = try tmux.waitFor("ada", "match 1 of 2 for “three seconds”")
        #expect(!screen.joined().contains("not found"))
        let top = try #require(screen.firstIndex { $0.hasPrefix("╭") })
        let documentRows = Self.documentRows(screen)
        let row = try #require(documentRows.indices.dropLast().first {
            documentRows[$0].hasSuffix("three") && documentRows[$0 + 1].hasPrefix("seconds")
        }, "a row ending in “three” above one starting “seconds”:\n\(screen.joined(separator: "\n"))")
        let wrapped = top + 1 + row
        let runs = try Self.reversedRuns(tmux, "ada")
        #expect(runs[wrapped].last == "three", "\(runs[wrapped])")
        #expect(runs[wrapped + 1].first == "seconds", "\(runs[wrapped + 1])")
        try tmux.sendKeys("ada", "n")
        try tmux.waitFor("ada", "match 2 of 2")
        let other = try Self.reversedRuns(tmux, "ada")
        #expect(other.joined().contains("three seconds"), "the match on one row is highlighted whole")
        try tmux.sendKeys("ada", "q")
        try tmux.waitUntil("ada", "exit") { _ in (try? tmux.exitStatus("ada")) == 0 }
        #expect(server.stop() == 0)
    }

    // MARK: - Observers are not readers (issue 13, item 6)

    @Test("observers are not readers: the reader's status and presence list and the monitor count them apart",
          arguments: [(100, 30), (70, 24)])
    func observers(columns: Int, rows: Int) throws {
        let path = try Self.file("# Watched\n\nA document some read and some watch.", "observers-\(columns)")
        defer { unlink(path) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(path) --room watched --name ada", server: server)
        try tmux.waitFor("ada", "some read and some watch")
        try launch(tmux, "olga", columns: 100, rows: 10, "tail watched --name olga", server: server)
        try launch(tmux, "mon", columns: columns, rows: rows, "monitor watched --name mon", server: server)
        let reader = try tmux.waitFor("ada", "1 here · 2 watching")
        if columns >= ScreenGeometry.presenceMinimumColumns {
            #expect(reader.contains { $0.contains("Readers (1) · 2 watching") })
            #expect(reader.contains { $0.contains("ada") && $0.contains("%") })
            for observer in ["olga", "mon"] {
                #expect(reader.contains { $0.contains(observer) && $0.contains("watching") && !$0.contains("%") },
                        "\(observer) without a percent:\n\(reader.joined(separator: "\n"))")
            }
        }
        #expect(!reader.contains { $0.contains("3 here") })
        let monitor = try tmux.waitFor("mon", "Readers (1) · 1 watching")
        #expect(monitor.contains { $0.contains("ada") && $0.contains("%") })
        #expect(monitor.contains { $0.contains("olga") && $0.contains("watching") && !$0.contains("%") })
        try tmux.sendKeys("mon", "q")
        try tmux.waitUntil("mon", "the monitor to exit") { _ in (try? tmux.exitStatus("mon")) == 0 }
        try tmux.waitFor("ada", "1 here · 1 watching")
        #expect(server.stop() == 0)
    }

    // MARK: - Remote cursors (issue 13, item 5, the client half)

    @Test("a draft editor sees the other's cursor as soon as they type; a reconnect clears it until they type again",
          arguments: [(70, 12), (50, 12)])
    func remoteCursors(columns: Int, rows: Int) throws {
        let data = NSTemporaryDirectory() + "neonsync-cursors-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        var server = try ServerProcess(["--data", data])
        let port = server.port
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: columns, rows: rows, "draft post --name ada", server: server)
        try launch(tmux, "bob", columns: columns, rows: rows, "draft post --name bob", server: server)
        try tmux.waitFor("ada", "2 here")
        try tmux.waitFor("bob", "2 here")
        #expect(!(try tmux.capture("ada")).joined().contains("bob"))
        try tmux.sendLiteral("bob", "hello")
        let typed = try tmux.waitUntil("ada", "bob's text with his cursor (a cell, not a letter) after it") { screen in
            screen.contains { $0.contains("│hello ") } && screen.contains { $0.contains("bob") && !$0.contains("hello") }
        }
        #expect(typed.contains { $0.hasSuffix("· 2 here") })
        #expect(server.stop() == 0)
        try tmux.waitFor("ada", "offline")
        server = try ServerProcess(["--data", data, "--port", String(port)])
        let resynced = try tmux.waitUntil("ada", timeout: 20, "the welcome after the reconnect") { screen in
            screen.contains { $0.contains("2 here") } && screen.contains { $0.contains("│hello") }
        }
        #expect(!resynced.joined().contains("bob"), "bob's cursor is gone after the resync:\n\(resynced.joined(separator: "\n"))")
        try tmux.waitFor("bob", "2 here", timeout: 20)
        try tmux.sendLiteral("bob", "!")
        try tmux.waitUntil("ada", "bob's cursor again") { screen in
            screen.contains { $0.contains("│hello! ") } && screen.contains { $0.contains("bob") && !$0.contains("hello") }
        }
        #expect(server.stop() == 0)
    }

    // MARK: - Tab titles and emoji (issue 13, item 12)

    /// Sections with long and emoji titles, long enough to reach the top.
    static func tabsDocument() -> String {
        ["Intro", "A remarkably long section title that keeps going", "👨‍👩‍👧 Family", "👩🏽‍💻 Pairing"].map { title in
            "# \(title)\n\n" + (1...10).map { "Paragraph \($0) of \(title), with 👩🏽‍💻 and 👨‍👩‍👧 in it." }.joined(separator: "\n\n")
        }.joined(separator: "\n\n")
    }

    @Test("the current tab's long title swings, the others end in …, and ZWJ emoji keep every border in line",
          arguments: [(100, 30), (60, 24)])
    func tabTitles(columns: Int, rows: Int) throws {
        let path = try Self.file(Self.tabsDocument(), "tabs-\(columns)")
        defer { unlink(path) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(path) --room tabs --name ada", server: server)
        let first = try tmux.waitFor("ada", "Paragraph 1 of Intro")
        #expect(first[1].contains("A remarkably long secti…"), "header: \(first[1])")
        try tmux.sendKeys("ada", "2")
        let chosen = try tmux.waitUntil("ada", "the long section at the top") {
            Self.documentRows($0).first == "A remarkably long section title that keeps going"
        }
        #expect(!chosen[1].contains("A remarkably long secti…"), "the current title does not end in …: \(chosen[1])")
        try tmux.waitUntil("ada", timeout: 10, "the current title swung to its end") { $0[1].contains("keeps going") }
        try tmux.waitUntil("ada", timeout: 10, "the current title swung back") { $0[1].contains("A remarkably long s") }
        try tmux.sendKeys("ada", "4")
        let screen = try tmux.waitUntil("ada", "the pairing section at the top") {
            Self.documentRows($0).first == "👩🏽‍💻 Pairing"
        }
        let header = screen[1]
        #expect(header.contains("A remarkably long secti…"), "header: \(header)")
        #expect(header.contains("👨‍👩‍👧 Family") && header.contains("👩🏽‍💻 Pairing"), "header: \(header)")
        let start = header.range(of: "👩🏽‍💻 Pairing")!
        let column = Self.tmuxColumns(header[..<start.lowerBound])
        let underline = Array(screen[2])
        #expect(underline.firstIndex(of: "━") == column, "the underline starts under 👩🏽‍💻:\n\(header)\n\(screen[2])")
        #expect(underline.count == columns && underline.filter { $0 == "━" }.count == Self.tmuxColumns("👩🏽‍💻 Pairing"))
        #expect(Self.documentRows(screen).contains("Paragraph 1 of 👩🏽‍💻 Pairing, with 👩🏽‍💻 and 👨‍👩‍👧 in it."))
        let boxTop = try #require(screen.firstIndex { $0.hasPrefix("╭") })
        let boxBottom = try #require(screen[boxTop...].firstIndex { $0.hasPrefix("╰") })
        for line in screen[boxTop...boxBottom] {
            #expect(Self.tmuxColumns(line) == columns, "every border row ends in the last column:\n\(line)")
        }
        try tmux.sendKeys("ada", "q")
        try tmux.waitUntil("ada", "exit") { _ in (try? tmux.exitStatus("ada")) == 0 }
        #expect(server.stop() == 0)
    }
}
