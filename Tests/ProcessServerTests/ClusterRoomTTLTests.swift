import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("Cluster: --room-ttl removes idle rooms from Redis", .serialized, .ownThreads)
struct ClusterRoomTTLTests {
    /// Waits (bounded) until `condition` holds; whether it did.
    private func eventually(timeout: Duration = .seconds(30), _ condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return try condition()
    }

    @Test("a room left empty on one node is removed from Redis once idle past --room-ttl (counter, log, image and its place in the rooms set), room_expired is logged by one node, and a hello to it on the other node starts it anew; a room whose last member left and another joined stays, and so does one with a member")
    func idleRoomsLeaveRedis() async throws {
        let redis = try RedisProcess()
        // 4 s: "back" must be seen idle and joined again within it, while
        // the whole suite runs beside this test.
        let a = try clusterNode(redis, "a", ["--room-ttl", "4s", "--snapshot-every", "10"])
        let b = try clusterNode(redis, "b", ["--room-ttl", "4s"])

        // "back": its last member leaves, another comes and stays.
        let first = try await TestPeer.connect(url: a.url)
        _ = try await first.hello(room: "back", name: "cy", role: .reader)
        first.close()
        #expect(try await eventually { try !redis.cli(["ZSCORE", "neonsync:idle", "back"]).isEmpty }, "back is recorded idle")
        let second = try await TestPeer.connect(url: b.url)
        _ = try await second.hello(room: "back", name: "dee", role: .reader)
        // "held": someone stays throughout.
        let holder = try await TestPeer.connect(url: b.url)
        _ = try await holder.hello(room: "held", name: "bob", role: .reader)
        // "gone": a document, an image, a member on node b who leaves first
        // (node b keeps the room taken up), then the last on node a.
        let visitor = try await TestPeer.connect(url: b.url)
        _ = try await visitor.hello(room: "gone", name: "eve", role: .reader)
        let ada = try await TestPeer.connect(url: a.url)
        _ = try await ada.hello(room: "gone", name: "ada", role: .reader)
        ada.send(.document(title: "Old", format: .text, text: "old\n"))
        _ = try await ada.next("document")
        for n in 0..<10 {
            ada.send(.edit(rev: n, ops: TextOperation(n == 0 ? [.insert("x")] : [.retain(n), .insert("x")]), key: "k\(n)"))
            _ = try await ada.next("ack", timeout: .seconds(10))
        }
        #expect(try redis.cli(["EXISTS", "neonsync:{gone}:snap"]) == "1")
        visitor.close()
        ada.close()

        #expect(try await eventually { try redis.cli(["EXISTS", "neonsync:{gone}:n"]) == "0" }, "the idle room left Redis")
        for key in ["log", "snap"] { #expect(try redis.cli(["EXISTS", "neonsync:{gone}:\(key)"]) == "0") }
        #expect(try redis.cli(["SISMEMBER", "neonsync:rooms", "gone"]) == "0")
        #expect(await eventually { !(a.events("room_expired") + b.events("room_expired")).isEmpty })
        let expired = (a.events("room_expired") + b.events("room_expired")).first
        #expect(expired?["room"] as? String == "gone" && expired?["ttlSeconds"] as? Int == 4, "\(String(describing: expired))")
        #expect((a.events("room_expired") + b.events("room_expired")).filter { $0["room"] as? String == "gone" }.count == 1,
                "one node removed it and said so")
        for room in ["back", "held"] {
            #expect(try redis.cli(["EXISTS", "neonsync:{\(room)}:n"]) == "1", "\(room) stays")
        }
        #expect(try redis.cli(["ZSCORE", "neonsync:idle", "back"]).isEmpty, "the stale idle record of back was dropped")

        let anew = try await TestPeer.connect(url: b.url)
        let welcome = try await anew.hello(room: "gone", name: "fay", role: .reader)
        #expect(welcome.document == nil && welcome.draft.rev == 0 && welcome.draft.text.isEmpty, "\(welcome.draft)")
        #expect(welcome.readers.map(\.name) == ["fay"])
        anew.send(.edit(rev: 0, ops: TextOperation([.insert("new")]), key: "n1"))
        #expect(try await anew.next("ack", timeout: .seconds(10)).payload == .ack(rev: 1))
        #expect(try redis.cli(["GET", "neonsync:{gone}:n"]) == "2", "the log starts again from 1")
        expectDocumentedLog(a, name: "a")
        expectDocumentedLog(b, name: "b")
    }
}
