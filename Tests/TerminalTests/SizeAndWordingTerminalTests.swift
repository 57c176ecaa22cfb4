import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// Issue 35's sizes and words in real terminals: the same deck's bar at
/// every size, a taller terminal never showing less, the offline status
/// line, and `rooms` in plain ASCII.
@Suite("Sizes and words in tmux: the slide bar, short terminals, offline, rooms", .serialized, .ownThreads)
struct SizeAndWordingTerminalTests {
    static let client = TerminalEndToEndTests.client
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let deck = root.appendingPathComponent("samples/deck.md").path
    static let guide = root.appendingPathComponent("samples/guide.md").path

    /// The rows inside the document box.
    func boxRows(_ screen: [String]) -> Int {
        guard let top = screen.firstIndex(where: { $0.hasPrefix("╭") }) else { return 0 }
        return screen[(top + 1)...].prefix { $0.hasPrefix("│") }.count
    }

    @Test("on slide 2 of 6 the bar reads 33% for the presenter at 80x24 and for followers at 50x16 and 80x24 (a 50x16 follower read 0%: the slide is taller than its screen)")
    func slideBarAtEverySize() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try tmux.start("pat", columns: 80, rows: 24, command: "\(Self.client) present \(Self.deck) --room deck --name pat --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
        _ = try tmux.waitFor("pat", "Slide 1 of 6")
        for (name, columns, rows) in [("fay", 50, 16), ("gus", 80, 24)] {
            try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) follow deck --name \(name) --server \(server.url)",
                           environment: ["NO_COLOR": "1"])
            _ = try tmux.waitFor(name, "Slide 1 of 6")
        }
        try tmux.sendKeys("pat", "Right")
        for name in ["pat", "fay", "gus"] {
            let screen = try tmux.waitFor(name, "Slide 2 of 6")
            let bar = try tmux.waitUntil(name, "the bar at 33%") { screen in
                screen.dropLast().suffix(3).contains { $0.contains("33%") }
            }
            #expect(!bar.dropLast().suffix(3).contains { $0.contains(" 0%") }, "\(name): \(screen.joined(separator: "\n"))")
        }
        #expect(server.stop() == 0)
    }

    @Test("a taller terminal shows no fewer rows of the document: 9 at 50x15, 50x16, 50x17 and 50x18, and a resize from 15 to 16 rows keeps them")
    func shortTerminals() throws {
        let port = try RedisProcess.freePort()
        let tmux = try Tmux()
        var rows: [Int: Int] = [:]
        for height in [15, 16, 17, 18] {
            try tmux.start("h\(height)", columns: 50, rows: height,
                           command: "\(Self.client) read \(Self.guide) --room guide --server ws://127.0.0.1:\(port)/", environment: ["NO_COLOR": "1"])
            let screen = try tmux.waitFor("h\(height)", "offline")
            rows[height] = boxRows(screen)
        }
        #expect(rows == [15: 9, 16: 9, 17: 9, 18: 9], "\(rows)")
        try tmux.resize("h15", columns: 50, rows: 16)
        let resized = try tmux.waitUntil("h15", "16 rows") { $0.count == 16 && boxRows($0) > 0 }
        #expect(boxRows(resized) == 9)
    }

    @Test("offline at 120 columns and wider, the status line ends `r retries now · offline, reconnecting`, a sentence not a fragment",
          arguments: [120, 160])
    func offlineStatusLine(columns: Int) throws {
        let port = try RedisProcess.freePort()
        let tmux = try Tmux()
        try tmux.start("ada", columns: columns, rows: 24,
                       command: "\(Self.client) read \(Self.guide) --room guide --server ws://127.0.0.1:\(port)/", environment: ["NO_COLOR": "1"])
        let screen = try tmux.waitFor("ada", "offline, reconnecting")
        let status = try #require(screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(status.hasSuffix("r retries now · offline, reconnecting"), "\(status)")
        #expect(!status.contains("r: now"))
    }

    @Test("`neonsync rooms` writes an empty cell as -, in plain ASCII")
    func roomsInASCII() async throws {
        let server = try ServerProcess()
        let bob = try await TestPeer.connect(server)
        _ = try await bob.hello(room: "plain", name: "bob", role: .reader)
        let listed = try runProgram(URL(fileURLWithPath: Self.client), ["rooms", "--server", server.url])
        #expect(listed.status == 0, "\(listed.err)")
        let lines = listed.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.contains("plain 1 0 - - just now"), "\(listed.out)")
        #expect(listed.out.allSatisfy { $0.isASCII }, "\(listed.out)")
        bob.close()
        #expect(server.stop() == 0)
    }
}
