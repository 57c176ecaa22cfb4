import Foundation
import NeonCore
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

    /// The broadcasts a peer receives until `count` of them came, as
    /// "type seq", skipping everything else; an editor's `ack` stands for
    /// its edit's broadcast (it carries that seq). The last `progress` too.
    static func broadcasts(_ peer: TestPeer, _ count: Int,
                           of types: Set<String>) async throws -> (seen: [String], progress: ProgressInfo?) {
        var seen: [String] = []
        var last: ProgressInfo?
        while seen.count < count {
            let message = try await peer.next()
            let type = message.type == "ack" ? "edit" : message.type
            if types.contains(type) { seen.append("\(type) \(message.seq)") }
            if case let .progress(info) = message.payload { last = info }
        }
        return (seen, last)
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
                ada.send(.edit(rev: round / 5, ops: TextOperation(round / 5 == 0 ? [.insert("x")] : [.retain(round / 5), .insert("x")]),
                               key: "k\(round)"))
                sent += 1
            }
        }
        let types: Set<String> = ["progress", "edit"]
        let (atAda, _) = try await Self.broadcasts(ada, 20 + sent, of: types)
        let (atBob, last) = try await Self.broadcasts(bob, 20 + sent, of: types)
        #expect(atAda == atBob, "one order, one seq space on both nodes")
        #expect(atBob.filter { $0.hasPrefix("edit") }.count == sent)
        let seqs = atBob.compactMap { Int($0.split(separator: " ")[1]) }
        #expect(seqs == Array(seqs[0] ..< seqs[0] + seqs.count), "no broadcast skipped: \(atBob)")

        for node in [a, b] {
            let late = try await TestPeer.connect(url: node.url)
            let welcome = try await late.hello(room: "talk", name: "cy", role: .observer)
            let presenter = welcome.readers.first { $0.name == "ada" }
            #expect(last != nil && presenter?.percent == last?.percent && presenter?.anchor == last?.anchor,
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

    @Test("Redis SIGKILLed and restarted from its append-only file: the draft and document are whole, both nodes rebuild the room alike (the next broadcasts carry one seq on both), the presenter's scrolls reach the other node again, and a late joiner is welcomed with what was kept")
    func restartFromTheFile() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let ada = try await TestPeer.connect(url: a.url)
        let bob = try await TestPeer.connect(url: b.url)
        _ = try await ada.hello(room: "crash", name: "ada", role: .presenter)
        _ = try await bob.hello(room: "crash", name: "bob", role: .reader)
        ada.send(.document(title: "Crash", format: .markdown, text: Self.text))
        _ = try await bob.next("document")
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("before")]), key: "e1"))
        #expect(try await ada.next("ack").payload == .ack(rev: 1))
        for top in 0 ..< 30 { ada.send(Self.scroll(top % 16)) }
        _ = try await Self.broadcasts(bob, 30, of: ["progress"])

        redis.stop(signal: SIGKILL)
        try redis.start()

        // Once both nodes are back on Redis, a scroll reaches bob with the seq ada sees.
        var matched = false
        let deadline = ContinuousClock.now + .seconds(20)
        while !matched, ContinuousClock.now < deadline {
            ada.send(Self.scroll(7))
            guard let atAda = try? await ada.next("progress", timeout: .seconds(3)) else { continue }
            while let atBob = try? await bob.next("progress", timeout: .seconds(3)) {
                guard atBob.seq < atAda.seq else {
                    matched = atBob == atAda
                    break
                }
            }
        }
        #expect(matched, "a scroll after the restart reaches the other node with the same seq")
        ada.send(.edit(rev: 1, ops: TextOperation([.retain(6), .insert(" after")]), key: "e2"))
        let ack = try await ada.next("ack", timeout: .seconds(10))
        #expect(ack.payload == .ack(rev: 2))
        #expect(try await bob.next("edit").seq == ack.seq, "one seq space after the rebuild")

        let late = try await TestPeer.connect(url: b.url)
        let welcome = try await late.hello(room: "crash", name: "cy", role: .observer)
        #expect(welcome.draft.text == "before after" && welcome.draft.rev == 2)
        #expect(welcome.document?.title == "Crash" && welcome.document?.text == Self.text)
        #expect(Set(welcome.readers.map(\.name)) == ["ada", "bob", "cy"], "nobody was closed: the members were kept")
        #expect(a.events("room_reset").isEmpty && b.events("room_reset").isEmpty)
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
