import Foundation
import NeonClientTestSupport
import NeonCore
import NeonTestSupport
import Testing

private let notes = """
# Intro
NeonSync shares reading positions across terminals.

# Usage
Start the server, then read.

# Details
The end.
"""

@Suite("neonsync tail against the real server", .serialized, .ownThreads)
struct TailTests {
    let codec = WireCodec()

    @Test("tail --json prints exactly the frames a participating reader received, and SIGTERM exits 0")
    func jsonEqualsReceived() async throws {
        let server = try ServerProcess(["--draft-limit", "25"])
        let tail = try TailProcess(["tail", "notes", "--json", "--name", "watcher", "--server", server.url])
        let welcome = try tail.waitForLines(1)
        #expect(ServerProcess.json(welcome[0])?["type"] as? String == "welcome")

        let carol = try await join("carol", server: server)
        _ = try tail.waitForLines(2)
        try await drive(server)

        var received: [String] = []
        while true {
            let frame = try await carol.nextText()
            received.append(frame)
            let message = try codec.decodeServer(Array(frame.utf8))
            if case let .left(reader) = message.payload, reader.name == "ada" { break }
        }
        let lines = try tail.waitForLines(2 + received.count)
        let watched = Array(lines.dropFirst(2).prefix(received.count))
        #expect(watched.map(parsed) == received.map(parsed))
        #expect(watched == received)
        #expect(Set(received.compactMap { ServerProcess.json($0)?["type"] as? String })
                == ["joined", "document", "progress", "tab", "follow", "edit", "cursor", "limit", "left"])
        #expect(tail.exitStatus(after: SIGTERM) == 0)
        carol.close()
        #expect(server.stop() == 0)
    }

    @Test("tail without --json prints one readable, timestamped line per event, and SIGINT exits 0")
    func readable() async throws {
        let server = try ServerProcess(["--draft-limit", "25"])
        let tail = try TailProcess(["tail", "notes", "--name", "watcher", "--server", server.url])
        _ = try tail.waitForLines(1)
        try await drive(server)
        let lines = try tail.waitForLines(12)
        #expect(lines.allSatisfy { $0.range(of: #"^\d\d:\d\d:\d\d "#, options: .regularExpression) != nil })
        let text = lines.map { String($0.dropFirst(9)) }
        #expect(text[0] == "watching notes: no readers; no document; draft rev 0, 0/25 ok")
        for expected in ["ada joined as reader", "ada published \"Notes\" (markdown, 3 sections)",
                         "ada 29% §2 \"Usage\"", "ada scrolled into tab 2 \"Usage\"", "ada chose tab 3 \"Details\"",
                         "bob joined as reader", "bob follows the presenter", "draft rev 1 by ada (+30 −0)",
                         "limit reached 30/25 by ada", "bob left at 0%", "ada left at 29%"] {
            #expect(text.contains(expected), "missing \(expected) in \(text)")
        }
        #expect(tail.exitStatus(after: SIGINT) == 0)
        #expect(server.stop() == 0)
    }

    @Test("a room the server would refuse exits 2 with the server's own sentence before connecting (exit 3 stays for refusals only the server can make, such as a missing token)")
    func refused() throws {
        let server = try ServerProcess()
        let tail = try TailProcess(["tail", "no spaces allowed", "--server", server.url])
        #expect(tail.exitStatus() == 2)
        #expect(tail.lines.isEmpty)
        try tail.waitForError(containing: "contains spaces or control characters")
        #expect(server.events("connect").isEmpty)
        #expect(server.stop() == 0)
    }

    @Test("a server that cannot be reached within 5 s of starting exits 4")
    func unreachable() throws {
        // A port nothing listens on, that no server of the suite is given:
        // a stopped server's port can be another test's server a moment later.
        let url = "ws://127.0.0.1:\(try RedisProcess.freePort())/"
        let tail = try TailProcess(["tail", "notes", "--server", url])
        #expect(tail.exitStatus(timeout: 30) == 4)
        try tail.waitForError(containing: "cannot reach \(url) within 5 s")
    }

    @Test("bad usage exits 2 with a sentence")
    func usage() throws {
        let tail = try TailProcess(["tail"])
        #expect(tail.exitStatus() == 2)
        try tail.waitForError(containing: "neonsync tail: takes exactly one ROOM, got none; see neonsync tail --help")
        let json = try TailProcess(["join", "notes", "--json"])
        #expect(json.exitStatus() == 2)
        try json.waitForError(containing: "--json belongs to neonsync tail")
    }

    @Test("tail reconnects by itself after the server restarts and says so on standard error")
    func reconnects() async throws {
        let first = try ServerProcess()
        let port = first.port
        let tail = try TailProcess(["tail", "notes", "--json", "--server", first.url])
        _ = try tail.waitForLines(1)
        #expect(first.stop() == 0)
        try tail.waitForError(containing: "lost the connection")
        let second = try ServerProcess(["--port", "\(port)", "--data", first.dataDirectory])
        try tail.waitForError(containing: "reconnected to room \"notes\"")
        let lines = try tail.waitForLines(2)
        #expect(lines.compactMap { ServerProcess.json($0)?["type"] as? String }.filter { $0 == "welcome" }.count == 2)
        #expect(tail.exitStatus(after: SIGTERM) == 0)
        #expect(second.stop() == 0)
    }

    /// ada publishes, scrolls, chooses a tab and writes past the limit; bob
    /// joins, follows, moves his cursor and leaves; then ada leaves.
    private func drive(_ server: ServerProcess) async throws {
        let ada = try await join("ada", server: server)
        ada.send(.document(title: "Notes", format: .markdown, text: notes))
        _ = try await ada.next("document")
        let document = try Document.parse(title: "Notes", format: .markdown, text: notes)
        ada.send(.scroll(top: 29, viewport: 20, content: 120, anchor: Anchor(block: document.sections[1].firstBlock, offset: 0)))
        _ = try await ada.next("tab")
        ada.send(.tab(section: 2))
        _ = try await ada.next("tab")
        let bob = try await join("bob", server: server)
        bob.send(.follow(on: true))
        _ = try await bob.next("follow")
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("Thirty characters, give or tak")])))
        _ = try await ada.next("limit")
        _ = try await bob.next("limit")
        bob.send(.cursor(position: 3, rev: 1))
        _ = try await ada.next("cursor")
        bob.close()
        _ = try await ada.next("left")
        ada.close()
    }





    private func parsed(_ line: String) -> NSDictionary {
        (ServerProcess.json(line) ?? [:]) as NSDictionary
    }
}

extension TailTests {
    /// A reader in the test's room, welcomed.
    private func join(_ name: String, server: ServerProcess) async throws -> TestPeer {
        let peer = try await TestPeer.connect(server)
        _ = try await peer.hello(room: "notes", name: name, role: .reader)
        return peer
    }
}
