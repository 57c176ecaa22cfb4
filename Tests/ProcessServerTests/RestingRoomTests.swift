import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// Rooms at rest on one node (issue 24, "rooms held in memory back to
/// their baseline"): against the real neonsyncd and its SQLite store, a
/// room nobody is in leaves memory after --room-release and comes back,
/// whole, when someone joins it.
@Suite("Rooms at rest on one node (--room-release)", .serialized, .ownThreads)
struct RestingRoomTests {
    /// `neonsync_rooms` reaches `value` within 15 s; returns the last reading.
    static func rooms(_ server: ServerProcess, reach value: Double) throws -> Double? {
        let deadline = ContinuousClock.now + .seconds(15)
        var rooms = try metric("neonsync_rooms", port: server.port)
        while rooms != value, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            rooms = try metric("neonsync_rooms", port: server.port)
        }
        return rooms
    }

    @Test("a room left for --room-release leaves memory (room_released, neonsync_rooms 0, neonsync_rooms_resting 1); the next joiner, whose edit follows its hello at once (both wait for the room), gets the document and draft back and the edit acked at the next revision; after a restart it is still there")
    func restAndReturn() async throws {
        let server = try ServerProcess(["--room-release", "1s"])
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "kept", name: "ada", role: .reader)
        ada.send(.document(title: "Notes", format: .markdown, text: "# One\n\ntext\n\n# Two\n\nmore\n"))
        _ = try await ada.next("document")
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("draft")]), key: "k1"))
        _ = try await ada.next("ack")
        ada.close()

        let released = await server.log { $0["event"] as? String == "room_released" }
        #expect(released?["room"] as? String == "kept")
        #expect(try Self.rooms(server, reach: 0) == 0)
        #expect(try metric("neonsync_rooms_resting", port: server.port) == 1)

        let bob = try await TestPeer.connect(server)
        bob.send(.hello(room: "kept", name: "bob", role: .reader))
        bob.send(.edit(rev: 1, ops: TextOperation([.retain(5), .insert("!")]), key: "k2"))
        guard case let .welcome(welcome) = try await bob.next("welcome", timeout: .seconds(15)).payload else {
            throw ServerProcessError("no welcome")
        }
        #expect(welcome.document?.title == "Notes" && welcome.draft.text == "draft" && welcome.draft.rev == 1)
        #expect(welcome.readers.map(\.name) == ["bob"])
        guard case let .ack(rev) = try await bob.next("ack").payload else { throw ServerProcessError("no ack") }
        #expect(rev == 2)
        let restored = await server.log { $0["event"] as? String == "room_restored" }
        // The hello waited for the room; the edit sent right behind it did
        // too unless the room was back before it arrived.
        #expect(restored?["room"] as? String == "kept" && [1, 2].contains(restored?["waiting"] as? Int ?? 0))
        #expect(try metric("neonsync_rooms", port: server.port) == 1)
        #expect(try metric("neonsync_rooms_resting", port: server.port) == 0)
        bob.close()
        #expect(await server.events("room_released", count: 2).count == 2, "released again once bob left")
        #expect(server.stop() == 0)

        let again = try ServerProcess(["--data", server.dataDirectory, "--room-release", "1s"])
        let cy = try await TestPeer.connect(again)
        let back = try await cy.hello(room: "kept", name: "cy", role: .reader)
        #expect(back.document?.title == "Notes" && back.draft.text == "draft!" && back.draft.rev == 2)
        #expect(again.stop() == 0)
    }
}
