import Testing
@testable import NeonCore

@Suite("Hub: observers of every room")
struct HubWatchTests {
    let mon = ClientID("c9")

    /// A hub with two rooms: "b-room" with ada (presenter, a document) and
    /// "a-room" with bob.
    func twoRooms() -> Hub {
        var hub = Hub()
        _ = hub.apply(.received(ada, .hello(room: "b-room", name: "ada", role: .presenter)), at: .zero)
        _ = hub.apply(.received(ada, .document(title: "Guide", format: .markdown, text: sampleMarkdown)), at: .zero)
        _ = hub.apply(.received(bob, .hello(room: "a-room", name: "bob", role: .reader)), at: .zero)
        return hub
    }

    @Test("hello with room \"*\" as observer answers an overview of every room by name, without text")
    func overview() throws {
        var hub = twoRooms()
        let out = hub.apply(.received(mon, .hello(room: "*", name: "ops", role: .observer)), at: .zero)
        guard case let .send(message, to) = out.first, case let .overview(overview) = message.payload else {
            Issue.record("expected an overview first, got \(out)")
            return
        }
        #expect(to == mon && overview.you == mon)
        #expect(overview.rooms.map(\.room) == ["a-room", "b-room"])
        let b = overview.rooms[1]
        #expect(b.readers.map(\.name) == ["ada"] && b.presenter == ada && b.seq == hub.rooms["b-room"]!.seq)
        #expect(b.document?.title == "Guide" && b.document?.sections.isEmpty == false)
        #expect(b.draft.count == 0 && b.draft.limit == 280 && b.draft.level == .ok)
        #expect(overview.rooms[0].document == nil)
        #expect(hub.watchers == [mon] && hub.sessions[mon] == nil)
        #expect(hub.members(of: "a-room") == [bob], "the watcher is in no room")
        let logged = out.compactMap { if case let .log(r) = $0 { r.event } else { nil } }
        #expect(logged == ["watch"])
    }

    @Test("only an observer may watch every room; a watcher cannot scroll, edit or hello again")
    func refusals() {
        var hub = twoRooms()
        #expect(hub.apply(.received(eve, .hello(room: "*", name: "eve", role: .reader)), at: .zero).errorCodes == [.invalidRoom])
        #expect(hub.watchers.isEmpty && hub.rooms["*"] == nil)
        _ = hub.apply(.received(mon, .hello(room: "*", name: "ops", role: .observer)), at: .zero)
        #expect(hub.apply(.received(mon, .tab(section: 0)), at: .zero).errorCodes == [.notAllowed])
        #expect(hub.apply(.received(mon, .edit(rev: 0, ops: TextOperation([.insert("x")]))), at: .zero).errorCodes == [.notAllowed])
        #expect(hub.apply(.received(mon, .hello(room: "a-room", name: "ops", role: .observer)), at: .zero).errorCodes == [.alreadyJoined])
        #expect(hub.members(of: "a-room") == [bob] && hub.rooms["a-room"]!.draft.text.isEmpty)
        #expect(hub.apply(.disconnected(mon), at: .zero).isEmpty)
        #expect(hub.watchers.isEmpty)
    }

    @Test("an error to a member is seen by the observers of every room and of the member's room")
    func errorObservers() {
        var hub = twoRooms()
        let roomObserver = ClientID("c7")
        _ = hub.apply(.received(roomObserver, .hello(room: "a-room", name: "watch", role: .observer)), at: .zero)
        _ = hub.apply(.received(mon, .hello(room: "*", name: "ops", role: .observer)), at: .zero)
        #expect(hub.errorObservers(of: bob) == [mon, roomObserver])
        #expect(hub.errorObservers(of: ada) == [mon])
        #expect(hub.errorObservers(of: roomObserver) == [mon], "an observer does not see its own errors twice")
        #expect(hub.errorObservers(of: eve) == [mon], "nor is a client in no room hidden from the watchers")
        #expect(hub.errorObservers(of: mon).isEmpty, "a watcher gets its own errors once, directly")
    }

    @Test("a watch limited to one room sees that room's overview, broadcasts' watchers and errors only")
    func scoped() {
        var hub = twoRooms()
        let out = hub.apply(.watch(mon, name: "ops", scope: "a-room"), at: .zero)
        guard case let .send(message, _) = out.first, case let .overview(overview) = message.payload else {
            Issue.record("expected an overview, got \(out)")
            return
        }
        #expect(overview.rooms.map(\.room) == ["a-room"])
        #expect(hub.watchers(of: "a-room") == [mon] && hub.watchers(of: "b-room").isEmpty && hub.watchers(of: nil).isEmpty)
        #expect(hub.errorObservers(of: bob) == [mon] && hub.errorObservers(of: ada).isEmpty)
        let everyRoom = ClientID("c8")
        _ = hub.apply(.received(everyRoom, .hello(room: "*", name: "all", role: .observer)), at: .zero)
        #expect(hub.watchers(of: "b-room") == [everyRoom] && hub.watchers(of: "a-room") == [mon, everyRoom])
        #expect(hub.apply(.watch(mon, name: "ops", scope: "b-room"), at: .zero).errorCodes == [.alreadyJoined])
        _ = hub.apply(.disconnected(mon), at: .zero)
        #expect(hub.watchScopes.isEmpty && hub.watchers == [everyRoom])
    }
}
