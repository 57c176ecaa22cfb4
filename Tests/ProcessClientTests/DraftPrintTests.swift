import Foundation
import NeonClientTestSupport
import NeonCore
import NeonTestSupport
import Testing

/// `neonsync draft ROOM --print`: the shared draft on standard output, no
/// terminal needed.
@Suite("draft --print", .ownThreads)
struct DraftPrintTests {
    @Test("draft --print prints the room's draft as it is, exits 0 without a terminal, as an observer")
    func printsTheDraft() async throws {
        let server = try ServerProcess()
        defer { _ = server.stop() }
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "notes", name: "ada", role: .reader)
        let text = "Ship it on Friday ✓\nthen rest."
        ada.send(.edit(rev: 0, ops: TextOperation([.insert(text)]), key: "k1"))
        _ = try await ada.next("ack")
        let run = try runClient(["draft", "notes", "--print", "--server", server.url])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == text + "\n")
        #expect(run.err.isEmpty, "\(run.err)")
        #expect(server.events("join").contains { $0["role"] as? String == "observer" && $0["room"] as? String == "notes" },
                "it joined as an observer, which cannot edit")
        let empty = try runClient(["draft", "quiet", "--print", "--server", server.url])
        #expect(empty.status == 0 && empty.out.isEmpty, "an empty draft prints nothing: \(empty)")
    }

    @Test("readable tail prints the draft's final text once the typing stops")
    func tailPrintsTheSettledDraft() async throws {
        let server = try ServerProcess()
        defer { _ = server.stop() }
        let tail = try TailProcess(["tail", "notes", "--name", "watcher", "--server", server.url])
        _ = try tail.waitForLines(1)
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "notes", name: "ada", role: .reader)
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("Ship it")]), key: "k1"))
        _ = try await ada.next("ack")
        ada.send(.edit(rev: 1, ops: TextOperation([.retain(7), .insert(" on Friday\nthen rest.")]), key: "k2"))
        _ = try await ada.next("ack")
        let lines = try tail.waitUntil(timeout: 10, "the settled draft") { $0.contains { $0.hasSuffix("draft rev 2 settled at 28/280:") } }
        let header = try #require(lines.firstIndex { $0.hasSuffix("settled at 28/280:") })
        #expect(Array(lines[(header + 1)...].prefix(2)) == ["  Ship it on Friday", "  then rest."], "\(lines)")
        #expect(lines.filter { $0.contains("settled") }.count == 1, "\(lines)")
        #expect(tail.exitStatus(after: SIGTERM) == 0)
    }

    @Test("--print belongs to draft: elsewhere it is refused with status 2, and a server that is not there ends it with 4")
    func refusals() throws {
        let tail = try runClient(["tail", "notes", "--print"])
        #expect(tail.status == 2 && tail.err.contains("--print belongs to neonsync draft"), "\(tail.err)")
        let port = try RedisProcess.freePort()
        let nobody = try runClient(["draft", "notes", "--print", "--server", "ws://127.0.0.1:\(port)/"])
        #expect(nobody.status == 4 && nobody.err.contains("neonsync draft: cannot reach ws://127.0.0.1:\(port)/ within 5 s"), "\(nobody.err)")
    }
}
