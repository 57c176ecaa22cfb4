import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// How many connections Redis has subscribed to `room`'s channel.
private func subscribers(_ redis: RedisProcess, _ room: String) throws -> Int {
    let reply = try redis.command("EVAL \"return redis.call('PUBSUB','NUMSUB',KEYS[1])[2]\" 1 \(ClusterKeys.channel(room))")
    guard reply.hasPrefix(":"), let count = Int(reply.dropFirst()) else {
        throw ServerProcessError("PUBSUB NUMSUB answered \(reply)")
    }
    return count
}

/// Waits (bounded) until `condition` holds; whether it did.
private func eventually(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
}

private func released(_ node: ServerProcess, _ room: String) async -> [String: Any]? {
    await node.log { $0["event"] as? String == "room_released" && $0["room"] as? String == room }
}

@Suite("Cluster: a node lets go of the rooms none of its connections uses", .serialized, .ownThreads)
struct ClusterReleaseTests {
    @Test("a room whose last member on a node left is released there after --room-release: neonsync_rooms back to 0, room_released logged, unsubscribed in Redis; the next hello there takes it up again with its document and draft")
    func releaseAndTakeUpAgain() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a", ["--room-release", "1"])
        let b = try clusterNode(redis, "b", ["--room-release", "1"])
        let ada = try await TestPeer.connect(url: a.url)
        _ = try await ada.hello(room: "notes", name: "ada", role: .presenter)
        ada.send(.document(title: "Notes", format: .markdown, text: "# Notes\n\nkept in Redis\n"))
        _ = try await ada.next("document")
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("draft text")]), key: "k1"))
        #expect(try await ada.next("ack").payload == .ack(rev: 1))
        #expect(try metric("neonsync_rooms", port: a.port) == 1)
        #expect(try subscribers(redis, "notes") == 1)
        ada.close()

        let record = try #require(await released(a, "notes"), "no room_released on a")
        #expect((record["idleSeconds"] as? Int ?? -1) >= 1 && record["releaseSeconds"] as? Int == 1)
        #expect(record["members"] as? Int == 0)
        #expect(try metric("neonsync_rooms", port: a.port) == 0)
        #expect(try await eventually { try subscribers(redis, "notes") == 0 }, "a unsubscribed from the room's channel")

        let again = try await TestPeer.connect(url: a.url)
        let welcome = try await again.hello(room: "notes", name: "ada", role: .presenter)
        #expect(welcome.document?.title == "Notes")
        #expect(welcome.draft.text == "draft text" && welcome.draft.rev == 1)
        #expect(try metric("neonsync_rooms", port: a.port) == 1)
        #expect(try subscribers(redis, "notes") == 1)
        again.send(.edit(rev: 1, ops: TextOperation([.retain(10), .insert("!")]), key: "k2"))
        #expect(try await again.next("ack").payload == .ack(rev: 2))
        again.close()
        #expect(await a.events("room_released", count: 2).count == 2, "released again once its member left")
        #expect(try await draftSeen(at: b.url, room: "notes").text == "draft text!")
        #expect(expectDocumentedLog(a, name: "a").contains("room_released"))
    }

    @Test("a node whose only member of a room leaves releases it while a member on another node stays: that member keeps working, and a rejoin on the first node sees them in its welcome and reaches them")
    func releaseWhileAnotherNodeServes() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a", ["--room-release", "1"])
        let b = try clusterNode(redis, "b", ["--room-release", "1"])
        let ada = try await TestPeer.connect(url: a.url)
        _ = try await ada.hello(room: "talk", name: "ada", role: .reader)
        let bob = try await TestPeer.connect(url: b.url)
        _ = try await bob.hello(room: "talk", name: "bob", role: .reader)
        _ = try await ada.next("joined")
        #expect(try subscribers(redis, "talk") == 2)
        ada.close()
        _ = try await bob.next("left")

        let record = try #require(await released(a, "talk"), "no room_released on a")
        #expect(record["members"] as? Int == 1, "bob, on b")
        #expect(try await eventually { try subscribers(redis, "talk") == 1 }, "only b reads the room now")
        #expect(try metric("neonsync_rooms", port: a.port) == 0)
        #expect(try metric("neonsync_rooms", port: b.port) == 1)
        bob.send(.edit(rev: 0, ops: TextOperation([.insert("bob was here")]), key: "b1"))
        #expect(try await bob.next("ack").payload == .ack(rev: 1))

        let cy = try await TestPeer.connect(url: a.url)
        let welcome = try await cy.hello(room: "talk", name: "cy", role: .reader)
        #expect(welcome.readers.map(\.name) == ["bob", "cy"])
        #expect(welcome.draft.text == "bob was here" && welcome.draft.rev == 1)
        let joined = try await bob.next("joined")
        guard case let .joined(reader) = joined.payload else { throw ServerProcessError("no joined") }
        #expect(reader.name == "cy")
        cy.send(.edit(rev: 1, ops: TextOperation([.retain(12), .insert(", cy too")]), key: "c1"))
        #expect(try await cy.next("ack").payload == .ack(rev: 2))
        let edit = try await bob.next("edit")
        guard case let .edit(info) = edit.payload else { throw ServerProcessError("no edit") }
        #expect(info.rev == 2)
        #expect(b.events("room_released").isEmpty, "b keeps the room bob is in")
        expectDocumentedLog(a, name: "a")
        expectDocumentedLog(b, name: "b")
    }

    @Test("an observer of every room on a node keeps every room there: nothing is released while it is connected, three times --room-release; once it leaves the room goes")
    func everyRoomObserverKeepsRooms() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a", ["--room-release", "1"])
        let ops = try await TestPeer.connect(url: a.url)
        ops.send(.hello(room: "*", name: "ops", role: .observer))
        _ = try await ops.next("overview")
        let ada = try await TestPeer.connect(url: a.url)
        _ = try await ada.hello(room: "kept", name: "ada", role: .reader)
        ada.close()
        #expect(await a.log { $0["event"] as? String == "leave" && $0["room"] as? String == "kept" } != nil)

        // Unwatched, the room would go within 1.5 s (a sweep every 0.5 s).
        let until = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < until {
            #expect(a.events("room_released").isEmpty)
            #expect(try metric("neonsync_rooms", port: a.port) == 1)
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(try subscribers(redis, "kept") == 1)
        ops.close()
        #expect(await released(a, "kept") != nil, "released once the observer left")
        #expect(try metric("neonsync_rooms", port: a.port) == 0)
        #expect(try await eventually { try subscribers(redis, "kept") == 0 })
    }

    @Test("--room-release with a value that is not a duration is refused (exit 2) with a sentence, on a cluster node as on one node")
    func flagRefusals() throws {
        let lonely = try runDaemon(["--port", "0", "--room-release", "soon"])
        #expect(lonely.status == 2 && lonely.err.contains("--room-release soon is not a duration"), "\(lonely.err)")
        let redis = try RedisProcess()
        let bad = try runDaemon(["--port", "0", "--redis", redis.url, "--room-release", "soon"])
        #expect(bad.status == 2 && bad.err.contains("--room-release soon is not a duration"), "\(bad.err)")
    }
}
