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

@Suite("Hub: a client's resume secret")
struct HubResumeTests {
    private let secret = "0123456789abcdef0123456789abcdef"

    @Test("a hello with the resume secret of a member still in the room replaces it: left, then joined, and the presenter's seat is free for it")
    func replacesEarlierConnection() {
        var hub = Hub()
        _ = hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .presenter, resume: secret)), at: .zero)
        _ = hub.apply(.received(bob, .hello(room: "r", name: "bob", role: .reader)), at: .zero)
        let again = ClientID("c9")
        let out = hub.apply(.received(again, .hello(room: "r", name: "ada", role: .presenter, resume: secret)), at: .zero)
        let broadcasts = out.compactMap { if case let .broadcast(m, _, _) = $0 { m.type } else { nil } }
        #expect(broadcasts == ["left", "joined"])
        #expect(out.contains { if case let .broadcast(m, "r", except) = $0 { m.type == "left" && except == again } else { false } },
                "the new connection is not told its predecessor left")
        #expect(out.errorCodes.isEmpty)
        #expect(hub.members(of: "r") == [bob, again])
        #expect(hub.rooms["r"]?.presenter == again)
        #expect(hub.sessions[ada] == nil && hub.sessions[again] == "r")
    }

    @Test("without the secret, or with another one, the presenter's seat stays taken")
    func otherSecretsDoNot() {
        var hub = Hub()
        _ = hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .presenter, resume: secret)), at: .zero)
        #expect(hub.apply(.received(bob, .hello(room: "r", name: "ada", role: .presenter)), at: .zero).errorCodes == [.presenterTaken])
        #expect(hub.apply(.received(ClientID("c9"), .hello(room: "r", name: "ada", role: .presenter,
                                                           resume: String(secret.reversed()))), at: .zero).errorCodes == [.presenterTaken])
        #expect(hub.members(of: "r") == [ada])
    }

    @Test("a resume secret that is too short or has spaces is refused with invalid_message")
    func badSecret() {
        var hub = Hub()
        #expect(hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .reader, resume: "short")), at: .zero).errorCodes == [.invalidMessage])
        #expect(hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .reader, resume: "has spaces in it, sixteen+")), at: .zero).errorCodes == [.invalidMessage])
        #expect(hub.rooms.isEmpty)
    }

    @Test("a verified hello makes a verified member, shown so to everyone and kept by the room image; a plain hello does not")
    func verifiedMember() {
        var hub = Hub()
        _ = hub.apply(.verifiedHello(ada, .hello(room: "r", name: "ada", role: .reader)), at: .zero)
        _ = hub.apply(.received(ClientID("c9"), .hello(room: "r", name: "bob", role: .reader)), at: .zero)
        #expect(hub.rooms["r"]?.members[ada]?.info.verified == true)
        #expect(hub.rooms["r"]?.members[ClientID("c9")]?.info.verified == nil)
        var other = Hub()
        other.adopt("r", image: hub.rooms["r"]!.image)
        #expect(other.rooms["r"] == hub.rooms["r"])
        #expect(other.rooms["r"]?.members[ada]?.verified == true)
    }

    @Test("the secret survives a room image, so another node taking the room up recognises it too")
    func imageKeepsSecret() {
        var hub = Hub()
        _ = hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .presenter, resume: secret)), at: .zero)
        let image = hub.rooms["r"]!.image
        var other = Hub()
        other.adopt("r", image: image)
        #expect(other.rooms["r"] == hub.rooms["r"])
        let out = other.apply(.received(ClientID("c9"), .hello(room: "r", name: "ada", role: .presenter, resume: secret)), at: .zero)
        #expect(out.errorCodes.isEmpty && other.rooms["r"]?.presenter == ClientID("c9"))
    }
}
