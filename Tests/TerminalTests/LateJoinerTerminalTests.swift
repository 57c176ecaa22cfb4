import Foundation
import NeonTestSupport
import Testing

/// Issue 22, point 1, in real terminals: a follower who joins after the
/// presenter last moved, or who comes back after a server restart, shows
/// the presenter's text from its first frame, with the presenter's mark in
/// its gutter, on one node and through two cluster nodes.
@Suite("Late joiners in tmux", .serialized, .ownThreads)
struct LateJoinerTerminalTests {
    static let client = TerminalEndToEndTests.client

    /// Three parts of 120 one-row list items: every row is its own block, so
    /// "the same text" is the same item at every width.
    static let talk: String = (1...3).map { part in
        "# Part \(part)\n\n" + (1...120).map { "- item \((part - 1) * 120 + $0): a short line" }.joined(separator: "\n")
    }.joined(separator: "\n\n")

    static func file() throws -> String {
        let path = NSTemporaryDirectory() + "neonsync-late-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).md"
        try talk.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The number of the item on the first row of the document box.
    static func topItem(_ screen: [String]) -> Int? {
        guard let box = screen.firstIndex(where: { $0.hasPrefix("╭") }), box + 1 < screen.count else { return nil }
        return item(in: screen[box + 1])
    }

    static func item(in row: String) -> Int? {
        guard let range = row.range(of: #"item \d+:"#, options: .regularExpression) else { return nil }
        return Int(row[range].dropFirst(5).dropLast())
    }

    /// The percent under the document: the reading bar's or the wheel's
    /// (the status line's counter gives way to "offline" while offline).
    static func percent(_ screen: [String]) -> Int? {
        guard let end = screen.firstIndex(where: { $0.hasPrefix("╰") }) else { return nil }
        for line in screen[end...] {
            if let range = line.range(of: #"\d+%"#, options: .regularExpression) { return Int(line[range].dropLast()) }
        }
        return nil
    }

    func start(_ tmux: Tmux, _ name: String, _ size: (Int, Int), _ args: String, server: String) throws {
        try tmux.start(name, columns: size.0, rows: size.1, command: "\(Self.client) \(args) --server \(server)",
                       environment: ["NO_COLOR": "1"])
    }

    /// Scrolls the presenter past the middle and returns the item on its
    /// top row once its screen is still (the place sent).
    func scrollPastMiddle(_ tmux: Tmux, _ name: String) throws -> Int {
        for _ in 0..<60 {
            let screen = try tmux.waitUntilStill(name)
            if let percent = Self.percent(screen), percent >= 50, let item = Self.topItem(screen) { return item }
            try tmux.sendKeys(name, "d")
        }
        throw TmuxError("\(name) never reached the middle: \(try tmux.capture(name).joined(separator: "\n"))")
    }

    /// The follower shows the presenter's top item on its top row, with
    /// the presenter's mark on that row, and says whom it follows. The
    /// presenter's screen is read again each time: on a loaded machine its
    /// last scroll may still be easing when `scrollPastMiddle` returned.
    @discardableResult
    func expectLanded(_ tmux: Tmux, _ name: String, onTheItemOf presenter: String, past item: Int,
                      timeout: TimeInterval = 15) throws -> [String] {
        try tmux.waitUntil(name, timeout: timeout, "the presenter's top item (item \(item) or later) on the top row, marked, following pat") { screen in
            guard let box = screen.firstIndex(where: { $0.hasPrefix("╭") }), box + 1 < screen.count,
                  let theirs = (try? tmux.capture(presenter)).flatMap(Self.topItem), theirs >= item else { return false }
            return Self.item(in: screen[box + 1]) == theirs && screen[box + 1].contains("▶")
                && screen.last?.contains("following pat") == true
        }
    }

    @Test("a follower who joins after the presenter scrolled past the middle lands on the presenter's item at once",
          arguments: [((120, 40), (80, 24)), ((80, 24), (160, 45)), ((160, 45), (50, 16))])
    func lateFollower(sizes: ((Int, Int), (Int, Int))) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let talk = try Self.file()
        defer { unlink(talk) }
        try start(tmux, "pat", sizes.0, "present \(talk) --room late --name pat", server: server.url)
        try tmux.waitFor("pat", "item 1:")
        let item = try scrollPastMiddle(tmux, "pat")
        try start(tmux, "fay", sizes.1, "follow late --name fay", server: server.url)
        try expectLanded(tmux, "fay", onTheItemOf: "pat", past: item)
        #expect(server.stop() == 0)
    }

    @Test("after a server restart a follower lands on where the presenter scrolled while the server was down")
    func afterRestart() throws {
        let port = try RedisProcess.freePort()
        let data = NSTemporaryDirectory() + "neonsync-late-data-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let flags = ["--port", "\(port)", "--data", data]
        let first = try ServerProcess(flags)
        let tmux = try Tmux()
        let talk = try Self.file()
        defer { unlink(talk) }
        try start(tmux, "pat", (120, 40), "present \(talk) --room again --name pat", server: first.url)
        try tmux.waitFor("pat", "item 1:")
        try start(tmux, "fay", (80, 24), "follow again --name fay", server: first.url)
        try tmux.waitFor("fay", "following pat")
        // The follower comes back only after the presenter has rejoined and
        // placed itself: its process is held while the server restarts.
        let follower = try clientProcess(tmux, "fay")
        try ServerProcess.pause(pid: follower)
        #expect(first.stop() == 0)
        try tmux.waitUntil("pat", timeout: 15, "the presenter offline") { $0.last?.contains("offline") == true }
        let item = try scrollPastMiddle(tmux, "pat")
        let second = try ServerProcess(flags)
        let placed = second.waitForLog(timeout: 30) { line in
            line["event"] as? String == "progress" && (line["percent"] as? Int ?? 0) >= 50
        }
        kill(follower, SIGCONT)
        #expect(placed != nil, "the presenter rejoined and sent its place")
        try expectLanded(tmux, "fay", onTheItemOf: "pat", past: item, timeout: 30)
        #expect(second.stop() == 0)
    }

    /// The pid of the client running in tmux session `name` (the child of
    /// the pane's shell).
    func clientProcess(_ tmux: Tmux, _ name: String) throws -> pid_t {
        let shell = try tmux.run(["list-panes", "-t", name, "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return try #require(children.split(separator: " ").first.flatMap { pid_t($0) }, "no client under the pane's shell \(shell)")
    }

    @Test("through two cluster nodes: the presenter on one, a late follower on the other lands on the presenter's item")
    func throughTheCluster() async throws {
        let redis = try RedisProcess()
        let cluster = ["--redis", redis.url, "--max-rate", "0"]
        let a = try ServerProcess(cluster + ["--node", "a"])
        let b = try ServerProcess(cluster + ["--node", "b"])
        let tmux = try Tmux()
        let talk = try Self.file()
        defer { unlink(talk) }
        try start(tmux, "pat", (120, 40), "present \(talk) --room nodes --name pat", server: a.url)
        try tmux.waitFor("pat", "item 1:")
        let item = try scrollPastMiddle(tmux, "pat")
        try start(tmux, "fay", (80, 24), "follow nodes --name fay", server: b.url)
        try expectLanded(tmux, "fay", onTheItemOf: "pat", past: item)
        #expect(await a.stopped() == 0)
        #expect(await b.stopped() == 0)
    }
}
