import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// A Lua script for redis-cli that appends an entry whose message is cut
/// short (not JSON) to a room's log and publishes it, as a node would
/// append one: KEYS counter, log, channel. Returns the entry's number.
private let badEntryScript = """
local n = redis.call('INCR', KEYS[1])
local message = '{"type":"edit",'
redis.call('XADD', KEYS[2], n .. '-0', 'k', 'm', 'c', 'c999-1', 'o', '999', 't', '0', 'm', message)
redis.call('PUBLISH', KEYS[3], table.concat({n, 'm', 'c999-1', '999', '0', message}, string.char(31)))
return n
"""

@Suite("Cluster: what a node reads back from Redis and cannot decode", .serialized, .ownThreads)
struct ClusterUndecodableTests {
    @Test("an entry whose message does not decode, injected with redis-cli: both nodes log entry_undecodable naming the room and the entry, take the room up again from Redis and carry on; the next edit is acked and reaches the other node, nothing is sent twice, seq never decreases")
    func undecodableEntry() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let ada = try await TestPeer.connect(url: a.url)
        _ = try await ada.hello(room: "notes", name: "ada", role: .reader)
        let bobPeer = try await TestPeer.connect(url: b.url)
        _ = try await bobPeer.hello(room: "notes", name: "bob", role: .reader)
        let bob = Listener(bobPeer)
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("a")]), key: "k1"))
        #expect(try await ada.next("ack", timeout: .seconds(10)).payload == .ack(rev: 1))
        #expect(await bob.wait { $0.type == "edit" } != nil)

        let output = try redis.cli(["EVAL", badEntryScript, "3", "neonsync:{notes}:n", "neonsync:{notes}:log",
                                    "neonsync:{notes}:events"])
        let bad = try #require(Int(output.trimmingCharacters(in: .whitespacesAndNewlines)), "redis-cli printed \(output)")
        for (node, name) in [(a, "a"), (b, "b")] {
            let published = await node.log {
                $0["event"] as? String == "entry_undecodable" && $0["source"] as? String == "publish"
            }
            #expect(published?["level"] as? String == "error", "node \(name): \(String(describing: published))")
            #expect(published?["room"] as? String == "notes" && published?["entry"] as? Int == bad)
            #expect(published?["action"] as? String == "the room was taken up again from Redis")
            #expect((published?["reason"] as? String)?.hasPrefix("its message does not decode") == true)
            // Taking the room up again reads the same entry from the log:
            // passed over there, as on every node, and said so too.
            let stored = await node.log {
                $0["event"] as? String == "entry_undecodable" && $0["source"] as? String == "log"
            }
            #expect(stored?["entry"] as? Int == bad, "node \(name): \(String(describing: stored))")
        }

        ada.send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "k2"))
        #expect(try await ada.next("ack", timeout: .seconds(10)).payload == .ack(rev: 2))
        let second = await bob.wait { if case let .edit(info) = $0.payload { info.key == "k2" } else { false } }
        #expect(second != nil, "bob on the other node got the edit after the bad entry")
        #expect(bob.messages.filter { $0.type == "edit" }.count == 2, "each edit reached bob once: \(bob.messages.map(\.type))")
        #expect(bob.seqNeverDecreases)
        let draft = try await draftSeen(at: b.url, room: "notes")
        #expect(draft.text == "ab" && draft.rev == 2)
        bob.stop()
        expectDocumentedLog(a, name: "a")
        expectDocumentedLog(b, name: "b")
    }

    @Test("a room whose image does not decode (written with redis-cli): the node logs entry_undecodable naming the room and the image's entry, takes the room up from the entries after it, and the room works")
    func undecodableImage() async throws {
        let redis = try RedisProcess()
        let now = String(Int64(Date().timeIntervalSince1970 * 1e9))
        try redis.cli(["SET", "neonsync:{attic}:snap", "4\n{\"name\":\"attic\",\"cut"])
        try redis.cli(["SET", "neonsync:{attic}:n", "5"])
        try redis.cli(["XADD", "neonsync:{attic}:log", "5-0", "k", "m", "c", "c999-1", "o", "999", "t", now,
                       "m", #"{"type":"hello","room":"attic","name":"ghost","role":"reader"}"#])
        let node = try clusterNode(redis, "a")
        let ada = try await TestPeer.connect(url: node.url)
        let welcome = try await ada.hello(room: "attic", name: "ada", role: .reader)
        #expect(Set(welcome.readers.map(\.name)) == ["ghost", "ada"], "the entry after the image was applied")
        let line = await node.log { $0["event"] as? String == "entry_undecodable" }
        #expect(line?["level"] as? String == "error" && line?["room"] as? String == "attic")
        #expect(line?["source"] as? String == "image" && line?["entry"] as? Int == 4, "\(String(describing: line))")
        ada.send(.edit(rev: welcome.draft.rev, ops: TextOperation([.insert("x")]), key: "k1"))
        #expect(try await ada.next("ack", timeout: .seconds(10)).payload == .ack(rev: welcome.draft.rev + 1))
        expectDocumentedLog(node, name: "a")
    }
}
