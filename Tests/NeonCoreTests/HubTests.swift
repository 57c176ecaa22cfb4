import Testing
@testable import NeonCore

@Suite("Hub: routing connections to rooms")
struct HubTests {
    @Test("anything before hello is refused with not_joined and seq 0")
    func beforeHello() {
        var hub = Hub()
        let out = hub.apply(.received(ada, .tab(section: 1)), at: .zero)
        #expect(out.first == .send(ServerMessage(seq: 0, .error(ProtocolError(.notJoined,
            "send hello {room, name, role} before \"tab\""))), to: ada))
        #expect(hub.rooms.isEmpty)
    }

    @Test("hello creates the room and joins it; a second hello is refused")
    func hello() {
        var hub = Hub()
        _ = hub.apply(.received(ada, .hello(room: "r1", name: "ada", role: .reader)), at: .zero)
        #expect(hub.members(of: "r1") == [ada])
        #expect(hub.sessions[ada] == "r1")
        let again = hub.apply(.received(ada, .hello(room: "r2", name: "ada", role: .reader)), at: .zero)
        #expect(again.errorCodes == [.alreadyJoined])
        #expect(hub.rooms["r2"] == nil)
    }

    @Test("bad room names and user names are refused without creating a room", arguments: [
        ("", "ada", ErrorCode.invalidRoom), ("a b", "ada", .invalidRoom),
        (String(repeating: "r", count: 65), "ada", .invalidRoom), ("r", "  ", .invalidName),
        ("r", "a\u{7}b", .invalidName), ("r", String(repeating: "n", count: 65), .invalidName),
    ])
    func badNames(room: String, name: String, code: ErrorCode) {
        var hub = Hub()
        #expect(hub.apply(.received(ada, .hello(room: room, name: name, role: .reader)), at: .zero).errorCodes == [code])
        #expect(hub.rooms.isEmpty && hub.sessions.isEmpty)
    }

    @Test("a refused presenter leaves no empty room behind and can retry as reader")
    func refusedPresenter() {
        var hub = Hub()
        _ = hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .presenter)), at: .zero)
        #expect(hub.apply(.received(bob, .hello(room: "r", name: "bob", role: .presenter)), at: .zero).errorCodes == [.presenterTaken])
        #expect(hub.sessions[bob] == nil)
        #expect(hub.apply(.received(bob, .hello(room: "r", name: "bob", role: .reader)), at: .zero).errorCodes.isEmpty)
        #expect(hub.members(of: "r") == [ada, bob])
    }

    @Test("a rejected frame is answered in the room's seq; a disconnect leaves the room")
    func rejectAndLeave() {
        var hub = Hub()
        _ = hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .reader)), at: .zero)
        _ = hub.apply(.received(bob, .hello(room: "r", name: "bob", role: .reader)), at: .zero)
        let seq = hub.rooms["r"]!.seq
        let out = hub.apply(.rejected(ada, ProtocolError(.invalidJSON, "bad")), at: .zero)
        #expect(out.first == .send(ServerMessage(seq: seq, .error(ProtocolError(.invalidJSON, "bad"))), to: ada))
        let left = hub.apply(.disconnected(ada), at: .zero)
        #expect(left.broadcasts.first?.seq == seq + 1)
        #expect(hub.members(of: "r") == [bob] && hub.sessions[ada] == nil)
        #expect(hub.apply(.disconnected(eve), at: .zero).isEmpty)
    }

    @Test("the server's room limit is enforced")
    func maxRooms() {
        var hub = Hub(maxRooms: 1)
        _ = hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .reader)), at: .zero)
        #expect(hub.apply(.received(bob, .hello(room: "q", name: "bob", role: .reader)), at: .zero).errorCodes == [.serverFull])
    }

    @Test("the hello that creates a room chooses its counting profile; later hellos cannot change it")
    func profile() {
        var hub = Hub()
        let out = hub.apply(.received(ada, .hello(room: "post", name: "ada", role: .reader, profile: .twitter)), at: .zero)
        #expect(out.first == .persist(.roomCreated(room: "post", profile: "twitter", limit: 280)))
        _ = hub.apply(.received(bob, .hello(room: "post", name: "bob", role: .reader, profile: .mastodon)), at: .zero)
        #expect(hub.rooms["post"]?.counter.profile == .twitter)
        _ = hub.apply(.received(ada, .edit(rev: 0, ops: TextOperation([.insert("漢字 https://example.com/a/very/long/path")]))), at: .zero)
        #expect(hub.rooms["post"]?.draftCount == 2 + 2 + 1 + 23)
        let toot = hub.apply(.received(eve, .hello(room: "toot", name: "eve", role: .reader, profile: .mastodon)), at: .zero)
        #expect(toot.first == .persist(.roomCreated(room: "toot", profile: "mastodon", limit: 500)))
    }
}
