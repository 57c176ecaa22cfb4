import Foundation
import NeonCore
import NeonTransportCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// Scrolls and other entries Redis does not keep across a crash (docs/CLUSTER.md,
/// "Events not kept"), through real nodes on a real redis-server with
/// `appendfsync always`.
@Suite("Cluster mode: entries not kept skip the fsync and keep the room's order", .serialized, .ownThreads)
struct ClusterKeptEntriesTests {
    static let text = "# One\n\ntext\n\n# Two\n\nmore text\n\n# Three\n\nend\n"

    static func scroll(_ top: Int) -> ClientMessage {
        .scroll(top: top, viewport: 4, content: 20, anchor: Anchor(block: 1, offset: 0))
    }

    /// The progress and edit broadcasts a peer receives until `edits`
    /// edits came, by seq, skipping everything else: an editor's `ack`
    /// stands for its edit's broadcast (it carries that seq). A connection
    /// may be sent fewer progress messages than scrolls (a newer one
    /// replaces one still unsent), never fewer edits.
    static func broadcasts(_ peer: TestPeer, edits: Int) async throws -> [(seq: Int, what: String)] {
        var seen: [(seq: Int, what: String)] = []
        var count = 0
        while count < edits {
            let message = try await peer.next(timeout: .seconds(10))
            switch message.payload {
            case let .progress(info): seen.append((message.seq, "progress \(info.percent)"))
            case .edit, .ack:
                seen.append((message.seq, "edit"))
                count += 1
            default: continue
            }
        }
        return seen
    }

    @Test("a presenter's scrolls on one node reach a reader on the other with the same seq, in the same order relative to edits and a document on both nodes; a late joiner on either node is welcomed with the presenter's last place")
    func orderAndWelcome() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let ada = try await TestPeer.connect(url: a.url)
        let bob = try await TestPeer.connect(url: b.url)
        _ = try await ada.hello(room: "talk", name: "ada", role: .presenter)
        _ = try await bob.hello(room: "talk", name: "bob", role: .reader)
        _ = try await ada.next("joined")
        ada.send(.document(title: "Talk", format: .markdown, text: Self.text))
        _ = try await ada.next("document")
        _ = try await bob.next("document")

        // Scrolls (not kept) and edits (kept) interleaved, as one presenter sends them.
        var sent = 0
        for round in 0 ..< 20 {
            ada.send(Self.scroll(round % 16))
            if round % 5 == 4 {
                ada.send(.edit(rev: sent, ops: TextOperation(sent == 0 ? [.insert("x")] : [.retain(sent), .insert("x")]),
                               key: "k\(round)"))
                sent += 1
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        let atAda = try await Self.broadcasts(ada, edits: sent)
        let atBob = try await Self.broadcasts(bob, edits: sent)
        for seen in [atAda, atBob] {
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.seq < $1.seq }, "in order: \(seen)")
        }
        let byAda = Dictionary(atAda.map { ($0.seq, $0.what) }, uniquingKeysWith: { first, _ in first })
        let common = atBob.filter { byAda[$0.seq] != nil }
        #expect(common.allSatisfy { byAda[$0.seq] == $0.what }, "one seq is one broadcast on both nodes: \(atAda) \(atBob)")
        #expect(atAda.filter { $0.what == "edit" }.map(\.seq) == atBob.filter { $0.what == "edit" }.map(\.seq),
                "the edits sit at the same places among the scrolls on both nodes")
        #expect(common.count > sent, "progress messages seen on both nodes: \(common.count - sent)")
        let last = atBob.last { $0.what.hasPrefix("progress") }
        #expect(last != nil)

        for node in [a, b] {
            let late = try await TestPeer.connect(url: node.url)
            let welcome = try await late.hello(room: "talk", name: "cy", role: .observer)
            let presenter = welcome.readers.first { $0.name == "ada" }
            #expect(presenter.map { "progress \($0.percent)" } == last?.what && presenter?.anchor == Anchor(block: 1, offset: 0),
                    "the presenter's last place: \(String(describing: presenter)), last progress \(String(describing: last))")
            #expect(welcome.draft.text == String(repeating: "x", count: sent))
            late.close()
        }
    }

    @Test("scrolls are numbered and kept in Redis's memory but never written to its append-only file, which is what makes an append wait for an fsync; edits are written to it")
    func scrollsSkipTheFile() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let ada = try await TestPeer.connect(url: a.url)
        let bob = try await TestPeer.connect(url: b.url)
        _ = try await ada.hello(room: "file", name: "ada", role: .presenter)
        _ = try await bob.hello(room: "file", name: "bob", role: .reader)
        ada.send(.document(title: "File", format: .markdown, text: Self.text))
        _ = try await bob.next("document")
        for top in 0 ..< 200 { ada.send(Self.scroll(top % 16)) }
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("kept")]), key: "kept-edit"))
        _ = try await bob.next("edit", timeout: .seconds(20))

        #expect(try redis.cli(["XLEN", "neonsync:{file}:log"]) == "204", "2 hellos, the document, 200 scrolls and the edit, in memory")
        let file = try Self.appendOnlyFile(redis)
        #expect(!file.contains("\"scroll\""), "no scroll in the append-only file")
        #expect(file.contains("kept-edit") && file.contains("\"File\""), "the edit and the document are in it")
        #expect(file.components(separatedBy: "neonsync:{file}:log").count - 1 == 4,
                "the file appends the 4 entries kept: 2 hellos, the document, the edit")
    }

    @Test("Redis SIGKILLed and restarted from its append-only file (rewritten halfway, or not): the draft and document are whole, the room rebuilt with a lower seq closes its members with 4013 on both nodes, who join again into one seq space (a scroll and an edit carry one seq on both), the counter goes past every number handed out, and a late joiner is welcomed with what was kept",
          arguments: [false, true])
    func restartFromTheFile(rewrite: Bool) async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let ada = try await TestPeer.connect(url: a.url)
        let bob = try await TestPeer.connect(url: b.url)
        _ = try await ada.hello(room: "crash", name: "ada", role: .presenter)
        _ = try await bob.hello(room: "crash", name: "bob", role: .reader)
        ada.send(.document(title: "Crash", format: .markdown, text: Self.text))
        _ = try await bob.next("document")
        for top in 0 ..< 15 { ada.send(Self.scroll(top % 16)) }
        if rewrite {
            // The rewritten file holds the room as Redis's memory has it then, its counter among it.
            ada.send(.relay(data: "mark"))
            _ = try await bob.next("relay")
            try redis.cli(["BGREWRITEAOF"])
            #expect(await eventually(timeout: .seconds(10)) {
                let info = (try? redis.cli(["INFO", "persistence"])) ?? ""
                return info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")
                    && info.contains("aof_last_bgrewrite_status:ok")
            })
        }
        for top in 15 ..< 30 { ada.send(Self.scroll(top % 16)) }
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("before")]), key: "e1"))
        #expect(try await ada.next("ack").payload == .ack(rev: 1))
        let before = try await bob.next("edit").seq

        redis.stop(signal: SIGKILL)
        try redis.start()

        // Rebuilt from what Redis kept, the room's seq went back (it no
        // longer counts the 30 scrolls): rather than see numbers they have
        // seen, both members are closed with 4013 and join again.
        for peer in [ada, bob] {
            #expect(try await peer.client.waitForClose(timeout: .seconds(20)).code == CloseCode.rejoin)
        }
        #expect(await a.log(timeout: 10) { $0["event"] as? String == "room_reset" } != nil)
        #expect(await b.log(timeout: 10) { $0["event"] as? String == "room_reset" } != nil)

        // A node answers handshakes 503 until its writer is back on Redis too.
        func join(_ node: ServerProcess, _ name: String, _ role: Role) async throws -> (TestPeer, Welcome) {
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                if let peer = try? await TestPeer.connect(url: node.url),
                   let welcome = try? await peer.hello(room: "crash", name: name, role: role, timeout: .seconds(5)) {
                    return (peer, welcome)
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            throw ServerProcessError("\(name) could not join again within 20 s")
        }
        let (ada2, atAda) = try await join(a, "ada", .presenter)
        let (bob2, atBob) = try await join(b, "bob", .reader)
        #expect(atAda.draft.text == "before" && atAda.draft.rev == 1, "the acked edit was kept")
        #expect(atBob.document?.title == "Crash" && atBob.document?.text == Self.text)

        // One seq space on both nodes again: both are welcomed, so each
        // reads the room's log; a scroll and an edit reach bob with the seq
        // ada sees.
        ada2.send(Self.scroll(7))
        let scrolled = try await ada2.next("progress", timeout: .seconds(10))
        var seenByBob = try await bob2.next("progress", timeout: .seconds(10))
        while seenByBob.seq < scrolled.seq { seenByBob = try await bob2.next("progress", timeout: .seconds(10)) }
        #expect(seenByBob == scrolled, "a scroll after the restart reaches the other node with the same seq")
        #expect(scrolled.seq < before, "the room was rebuilt from what Redis kept: its seq no longer counts the 30 scrolls (\(scrolled.seq), \(before))")
        #expect(Int(try redis.cli(["GET", "neonsync:{crash}:n"])) ?? 0 > 1000,
                "numbered past the reservation (1,000 from the first hello), past every number handed out before")
        ada2.send(.edit(rev: 1, ops: TextOperation([.retain(6), .insert(" after")]), key: "e2"))
        let ack = try await ada2.next("ack", timeout: .seconds(10))
        #expect(ack.payload == .ack(rev: 2))
        #expect(try await bob2.next("edit").seq == ack.seq)

        let (late, welcome) = try await join(b, "cy", .observer)
        #expect(welcome.draft.text == "before after" && welcome.draft.rev == 2)
        #expect(welcome.document?.title == "Crash" && welcome.document?.text == Self.text)
        #expect(Set(welcome.readers.map(\.name)) == ["ada", "bob", "cy"])
        late.close()
    }

    /// Every file of the server's append-only directory, as text.
    static func appendOnlyFile(_ redis: RedisProcess) throws -> String {
        let folder = redis.directory + "/appendonlydir"
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map {
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)), as: UTF8.self)
        }.joined()
    }
}
