import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTransportCore
import Testing

/// Rooms that expire, rooms dropped when left blank, rooms at rest, through
/// the whole server in-process: the test moves the clocks and ticks the
/// sweep timer, the committer reads resting rooms back from the store.
@Suite("In-process server: rooms that expire, rest and come back")
struct InProcessRoomTests {
    @Test("with --room-ttl a room left empty is removed once idle that long (room_expired), from the store too; one with people stays")
    func emptyRoomsExpire() throws {
        let server = try InProcessServer(.init(gateway: .init(roomTTL: .seconds(1))))
        let (typo, _) = try server.join("tpyo", as: "ada")
        server.send(.document(title: "Notes", format: .text, text: "kept until the ttl\n"), from: typo)
        let (kept, _) = try server.join("kept", as: "bob")
        server.send(.document(title: "Kept", format: .text, text: "kept\n"), from: kept)
        server.close(typo)
        server.sweep()
        #expect(server.events("room_expired").isEmpty, "not idle yet")
        server.advance(by: .seconds(1))
        server.sweep()
        let expired = server.events("room_expired")
        #expect(expired.map { $0["room"] as? String } == ["tpyo"])
        #expect(expired.first?["ttlSeconds"] as? Int == 1)
        for line in server.logLines where line.contains("room_expired") {
            #expect(LogSchema.problems(of: line).isEmpty, "\(LogSchema.problems(of: line))")
        }
        #expect(try server.store.loadRooms().map(\.name) == ["kept"])
        #expect(server.metric("neonsync_rooms") == 1)
    }

    @Test("a room left with nothing in it is gone as its last member leaves (room_dropped), from the store too")
    func blankRoomsAreDropped() throws {
        let server = try InProcessServer()
        let (quiet, _) = try server.join("quiet", as: "dee")
        #expect(try server.store.loadRoom("quiet") != nil)
        server.close(quiet)
        #expect(server.events("room_dropped").map { $0["room"] as? String } == ["quiet"])
        for line in server.logLines where line.contains("room_dropped") {
            #expect(LogSchema.problems(of: line).isEmpty, "\(LogSchema.problems(of: line))")
        }
        #expect(try server.store.loadRoom("quiet") == nil)
        #expect(server.metric("neonsync_rooms") == 0)
    }

    @Test("an observer of every room who connects while rooms rest sees them: they are read back and shown in a fresh overview; while it watches, nothing is released")
    func observerSeesRestingRooms() throws {
        let server = try InProcessServer(.init(gateway: .init(roomRelease: .seconds(1))))
        for name in ["a", "b"] {
            let (peer, _) = try server.join(name, as: "ada")
            server.send(.document(title: "Doc \(name)", format: .markdown, text: "text of \(name)\n"), from: peer)
            server.close(peer)
        }
        server.advance(by: .seconds(1))
        server.sweep()
        #expect(server.events("room_released").count == 2)
        #expect(server.metric("neonsync_rooms") == 0 && server.metric("neonsync_rooms_resting") == 2)

        let eve = server.connect()
        server.send(.hello(room: "*", name: "eve", role: .observer), from: eve)
        let overviews = server.take(eve).compactMap { if case let .overview(o) = $0.payload { o } else { nil } }
        #expect(overviews.last?.rooms.map(\.room).sorted() == ["a", "b"])
        #expect(server.events("room_restored").count == 2)
        server.advance(by: .seconds(3))
        server.sweep()
        #expect(server.metric("neonsync_rooms") == 2, "an observer of every room holds them")
        server.close(eve)
        server.advance(by: .seconds(1))
        server.sweep()
        #expect(server.metric("neonsync_rooms") == 0 && server.metric("neonsync_rooms_resting") == 2)
    }

    @Test("a hello to a resting room and the edit right behind it both wait for the room: the joiner gets the document and draft back, then the edit is acked at the next revision")
    func restAndReturn() throws {
        let server = try InProcessServer(.init(gateway: .init(roomRelease: .seconds(1))))
        let (ada, _) = try server.join("kept", as: "ada")
        server.send(.document(title: "Notes", format: .markdown, text: "# One\n\ntext\n\n# Two\n\nmore\n"), from: ada)
        server.send(.edit(rev: 0, ops: TextOperation([.insert("draft")]), key: "k1"), from: ada)
        server.close(ada)
        server.advance(by: .seconds(1))
        server.sweep()
        #expect(server.events("room_released").map { $0["room"] as? String } == ["kept"])

        let bob = server.connect()
        server.arrive(.hello(room: "kept", name: "bob", role: .reader), from: bob)
        server.arrive(.edit(rev: 1, ops: TextOperation([.retain(5), .insert("!")]), key: "k2"), from: bob)
        #expect(server.messages(of: bob).isEmpty, "both wait for the room")
        server.settle()
        let seen = server.take(bob)
        guard case let .welcome(welcome)? = seen.first?.payload else { throw InProcessFailure("no welcome: \(seen)") }
        #expect(welcome.document?.title == "Notes" && welcome.draft.text == "draft" && welcome.draft.rev == 1)
        #expect(welcome.readers.map(\.name) == ["bob"])
        #expect(seen.compactMap { if case let .ack(rev) = $0.payload { rev } else { nil } } == [2])
        #expect(server.events("room_restored").first?["waiting"] as? Int == 2, "the hello and the edit waited")
        #expect(try server.store.loadRoom("kept")?.draftText == "draft!")
    }
}
