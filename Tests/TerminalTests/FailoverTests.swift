import Foundation
import NeonClientTestSupport
import NeonCore
import NeonTestSupport
import Testing

/// `--server A,B` against two real, independent neonsyncd: when A goes
/// away the client moves to B and keeps working there.
@Suite("failing over between two real servers", .serialized, .ownThreads)
struct FailoverTests {
    /// A reader in `room` of `server`, welcomed.
    func join(_ name: String, _ server: ServerProcess, room: String = "notes") async throws -> TestPeer {
        let peer = try await TestPeer.connect(server)
        _ = try await peer.hello(room: room, name: name, role: .reader)
        return peer
    }

    @Test("tail --server A,B moves to B when A is killed, says so, and prints what happens in B's room")
    func tailMovesToTheNextServer() async throws {
        let a = try ServerProcess()
        let b = try ServerProcess()
        let tail = try TailProcess(["tail", "notes", "--name", "watcher", "--server", "\(a.url),\(b.url)"])
        let first = try tail.waitForLines(1)
        #expect(first[0].hasSuffix(" watching notes: no readers; no document; draft rev 0, 0/280 ok"))
        #expect(a.waitForLog { $0["event"] as? String == "watch" || $0["event"] as? String == "join" } != nil)
        let ada = try await join("ada", a)
        _ = try tail.waitForLines(2)
        #expect(tail.lines[1].hasSuffix(" ada joined as reader"))

        _ = a.stop(signal: SIGKILL)
        try tail.waitForError(containing: "lost the connection to \(a.url) (")
        #expect(tail.errorLines.contains { $0.contains("; reconnecting to \(b.url) in 0.") })
        try tail.waitForError(containing: "reconnected to room \"notes\" on \(b.url); another server than before")
        let welcomeFromB = try tail.waitForLines(3)
        #expect(welcomeFromB[2].hasSuffix(" watching notes: no readers; no document; draft rev 0, 0/280 ok"))

        let bob = try await join("bob", b)
        bob.send(.document(title: "Beta", format: .markdown, text: "# One\nText.\n"))
        _ = try await bob.next("document")
        let lines = try tail.waitForLines(5)
        #expect(lines[3].hasSuffix(" bob joined as reader"))
        #expect(lines[4].hasSuffix(" bob published \"Beta\" (markdown, 1 section)"))
        #expect(tail.exitStatus(after: SIGTERM) == 0)
        ada.close()
        bob.close()
        #expect(b.stop() == 0)
    }

    @Test("tail --server DOWN,B starts on B: a failed first connect moves on at once, within the 5 s start limit (past it tail would exit 4)")
    func tailSkipsAServerThatIsDown() throws {
        // A port nothing listens on (a stopped server's could be reused).
        let down = "ws://127.0.0.1:\(try RedisProcess.freePort())/"
        let b = try ServerProcess()
        let tail = try TailProcess(["tail", "notes", "--json", "--server", "\(down),\(b.url)"])
        let lines = try tail.waitForLines(1, timeout: 10)
        #expect(ServerProcess.json(lines[0])?["type"] as? String == "welcome")
        #expect(b.waitForLog { $0["event"] as? String == "join" } != nil, "tail joined on B")
        #expect(tail.errorLines.isEmpty, "nothing to report before the first welcome: \(tail.errorLines)")
        #expect(tail.exitStatus(after: SIGTERM) == 0)
        #expect(b.stop() == 0)
    }

    @Test("tail with every server of its list down exits 4 naming them all")
    func tailWithNoServerUp() throws {
        // Ports nothing listens on (stopped servers' could be reused).
        let (urlA, urlB) = ("ws://127.0.0.1:\(try RedisProcess.freePort())/", "ws://127.0.0.1:\(try RedisProcess.freePort())/")
        let tail = try TailProcess(["tail", "notes", "--server", "\(urlA),\(urlB)"])
        #expect(tail.exitStatus(timeout: 30) == 4)
        try tail.waitForError(containing: "cannot reach any of \(urlA), \(urlB) within 5 s")
    }

    @Test("a bad --server list exits 2 naming the entry, for a screen command and for tail")
    func badList() throws {
        let join = try TailProcess(["join", "notes", "--server", "ws://127.0.0.1:1/,,ws://127.0.0.1:2/"])
        #expect(join.exitStatus() == 2)
        try join.waitForError(containing: "--server ws://127.0.0.1:1/,,ws://127.0.0.1:2/: entry 2 of 3 is empty;")
        let tail = try TailProcess(["tail", "notes", "--server", "ws://127.0.0.1:1/,https://127.0.0.1:2/"])
        #expect(tail.exitStatus() == 2)
        try tail.waitForError(containing: #"entry 2 of 2 is not a server URL: invalid WebSocket URL "https://127.0.0.1:2/""#)
    }

    @Test("a reader on A,B shows B's room, its document and readers, after A is killed")
    func readerMovesToTheNextServer() async throws {
        let a = try ServerProcess()
        let b = try ServerProcess()
        let ada = try await join("ada", a)
        ada.send(.document(title: "Alpha Notes", format: .markdown, text: "# Alpha\nOn server A.\n"))
        _ = try await ada.next("document")
        let bob = try await join("bob", b)
        bob.send(.document(title: "Beta Notes", format: .markdown, text: "# Beta\nOn server B.\n"))
        _ = try await bob.next("document")

        let tmux = try Tmux()
        try tmux.start("reader", columns: 100, rows: 30,
                       command: "\(TailProcess.binary.path) join notes --name carol --server \(a.url),\(b.url)")
        try tmux.waitFor("reader", "Alpha Notes")
        try tmux.waitFor("reader", "Readers (2)")
        _ = a.stop(signal: SIGKILL)
        let screen = try tmux.waitFor("reader", "Beta Notes")
        #expect(screen.contains { $0.contains("On server B.") })
        let joined = try await bob.next("joined")
        if case let .joined(info) = joined.payload { #expect(info.name == "carol") }
        try tmux.waitFor("reader", "Readers (2)")
        try tmux.sendKeys("reader", "q")
        try tmux.waitUntil("reader", "the client to exit") { _ in (try? tmux.exitStatus("reader")) == 0 }
        ada.close()
        bob.close()
        #expect(b.stop() == 0)
    }
}
