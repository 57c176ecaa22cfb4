import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTransportCore
import Testing

private let one = ConnectionID(rawValue: 1)
private let two = ConnectionID(rawValue: 2)

private func at(_ seconds: Int) -> GatewayClock {
    GatewayClock(monotonic: .seconds(seconds), hub: .seconds(seconds), wallNanoseconds: 1_800_000_000_000_000_000)
}

/// `at(seconds)` with a wall clock that moves too (room TTLs count on it).
private func ticking(_ seconds: Int) -> GatewayClock {
    GatewayClock(monotonic: .seconds(seconds), hub: .seconds(seconds),
                 wallNanoseconds: 1_800_000_000_000_000_000 + Int64(seconds) * 1_000_000_000)
}

private func text(_ message: ClientMessage) -> GatewayEvent {
    .received(.text(String(decoding: WireCodec().encode(message), as: UTF8.self)), from: one)
}

/// The server messages of the deliveries to `connection`, decoded.
private func messages(_ commands: [GatewayCommand], to connection: ConnectionID) -> [ServerMessage] {
    commands.compactMap { command -> ServerMessage? in
        guard case let .deliver(d) = command, d.to.contains(connection) else { return nil }
        return try? WireCodec().decodeServer(d.bytes)
    }
}

private func errorCodes(_ commands: [GatewayCommand], to connection: ConnectionID) -> [ErrorCode] {
    messages(commands, to: connection).compactMap { message -> ErrorCode? in
        guard case let .error(error) = message.payload else { return nil }
        return error.code
    }
}

private func logEvents(_ commands: [GatewayCommand]) -> [String] {
    commands.compactMap { if case let .log(record) = $0 { record.event } else { nil } }
}

/// A gateway of one node: arrival order is the order, so it applies each
/// room event itself, as it arrives.
private func oneNode(policy: AccessPolicy = AccessPolicy(), maxRooms: Int = 10_000, roomTTL: Duration? = nil,
                     roomRelease: Duration? = nil) -> Gateway {
    Gateway(hub: Hub(maxRooms: maxRooms), configuration: .init(policy: policy, maxRooms: maxRooms,
                                                               roomTTL: roomTTL, roomRelease: roomRelease))
}

/// A gateway of a cluster node (incarnation 7): its room events go to the
/// room's log and come back `ordered` (or `loaded`) when the test says so.
private func clusteredGateway() -> Gateway {
    Gateway(hub: Hub(maxRooms: .max), configuration: .init(incarnation: 7), mode: .cluster(ClusterRooms()))
}

extension Gateway {
    /// `connection` connects from `peer` and says hello to `room`; returns
    /// what the hello did.
    fileprivate mutating func join(_ connection: ConnectionID, _ name: String, room: String = "r", role: Role = .reader,
                                   from peer: String? = nil, at clock: GatewayClock = at(1)) -> [GatewayCommand] {
        _ = apply(.connected(connection, peer: peer ?? "10.0.0.\(connection.rawValue)"), at: clock)
        let hello = ClientMessage.hello(room: room, name: name, role: role)
        return apply(.received(.text(String(decoding: WireCodec().encode(hello), as: UTF8.self)), from: connection), at: clock)
    }
}

@Suite("Gateway: admission, ordering and recipients, in-process")
struct GatewayTests {
    @Test("a connection is logged and gets the hello timer; past the per-address cap it gets too_many_connections and close 1008")
    func connectAndCap() {
        var node = oneNode(policy: AccessPolicy(maxConnectionsPerAddress: 1))
        let first = node.apply(.connected(one, peer: "10.0.0.9"), at: at(1))
        #expect(first == [.log(LogRecord(.info, .connect, client: ClientID("c1"), [LogField("peer", .string("10.0.0.9"))])),
                          .setTimer(one, .seconds(10))])
        let second = node.apply(.connected(two, peer: "10.0.0.9"), at: at(1))
        #expect(messages(second, to: two).map(\.type) == ["error"])
        #expect(second.contains(.close(two, code: CloseCode.policyViolation, reason: "too_many_connections", room: nil)))
    }

    @Test("one node: a hello is applied as it arrives, with no order to wait for: welcome, the hello timer stopped, the join logged and the room stored")
    func helloOnOneNode() {
        var node = oneNode()
        _ = node.apply(.connected(one, peer: "10.0.0.1"), at: at(1))
        let out = node.apply(text(.hello(room: "r", name: "ada", role: .reader)), at: at(1))
        #expect(!out.contains { if case .order = $0 { true } else { false } })
        #expect(messages(out, to: one).map(\.type) == ["welcome"])
        #expect(out.contains(.setTimer(one, nil)))
        #expect(logEvents(out) == ["join"])
        #expect(out.contains { if case .persist(.roomCreated(room: "r", _, _), room: "r") = $0 { true } else { false } })
    }

    @Test("cluster: a hello goes to its room's order and nothing answers it until the room's log brings it back; then welcome, the hello timer stopped, the join logged")
    func helloIsOrdered() {
        var node = clusteredGateway()
        _ = node.apply(.connected(one, peer: "10.0.0.1"), at: at(1))
        let raw = node.apply(text(.hello(room: "r", name: "ada", role: .reader)), at: at(1))
        guard case let .order(entry, room, hello)? = raw.first else {
            Issue.record("expected an order command, got \(raw)")
            return
        }
        #expect(room == "r" && hello && entry.client == ClientID("c7-1"))
        #expect(messages(raw, to: one).isEmpty && logEvents(raw).isEmpty)
        var numbered = entry
        numbered.index = 1
        let applied = node.apply(.loaded(room: "r", image: nil, entries: [numbered]), at: at(1))
        #expect(messages(applied, to: one).map(\.type) == ["welcome"])
        #expect(applied.contains(.setTimer(one, nil)))
        #expect(logEvents(applied) == ["join"])
    }

    @Test("cluster: a second hello while the first is still being ordered is refused with already_joined, without ordering it")
    func secondHello() {
        var node = clusteredGateway()
        _ = node.apply(.connected(one, peer: "10.0.0.1"), at: at(1))
        _ = node.apply(text(.hello(room: "r", name: "ada", role: .reader)), at: at(1))
        let again = node.apply(text(.hello(room: "s", name: "ada", role: .reader)), at: at(1))
        #expect(errorCodes(again, to: one) == [.alreadyJoined])
        #expect(!again.contains { if case .order = $0 { true } else { false } })
    }

    @Test("with a secret, a hello without a token is refused (unauthorized, close 1008) and never reaches a room")
    func tokenRequired() throws {
        let secret = try TokenSecret(Array("0123456789abcdef0123".utf8))
        var node = oneNode(policy: AccessPolicy(secret: secret))
        let out = node.join(one, "eve")
        #expect(errorCodes(out, to: one) == [.unauthorized])
        #expect(out.contains(.close(one, code: CloseCode.policyViolation, reason: "unauthorized", room: nil)))
        #expect(node.hub.rooms.isEmpty)
    }

    @Test("over the rate, the first dropped message gets rate_limited and a long run closes 1008")
    func rateLimit() {
        var node = oneNode(policy: AccessPolicy(rate: 1, burst: 1))
        _ = node.join(one, "ada")
        var errors = 0
        var closed = false
        for _ in 0 ..< 40 {
            let out = node.apply(text(.follow(on: true)), at: at(1))
            errors += errorCodes(out, to: one).filter { $0 == .rateLimited }.count
            closed = closed || out.contains { if case .close(one, CloseCode.policyViolation, "rate_limited", _) = $0 { true } else { false } }
        }
        #expect(errors == 2, "one when the run starts, one with the close")
        #expect(closed)
    }

    @Test("a broadcast is encoded once for every local member, with its coalescing key, and counted per recipient")
    func broadcastRecipients() {
        var node = oneNode()
        _ = node.join(one, "ada", role: .presenter)
        _ = node.join(two, "bob")
        _ = node.apply(.received(.text(#"{"type":"document","title":"T","format":"text","text":"a\nb\nc\n"}"#), from: one), at: at(1))
        let out = node.apply(text(.scroll(top: 1, viewport: 1, content: 3, anchor: Anchor(block: 0, offset: 2))), at: at(1))
        let deliveries = out.compactMap { if case let .deliver(d) = $0 { d } else { nil } }
        #expect(deliveries.count == 1, "\(messages(out, to: one))")
        #expect(deliveries.first?.to.sorted() == [one, two], "\(messages(out, to: one))")
        #expect(deliveries.first?.isBroadcast == true && deliveries.first?.room == "r")
        #expect(deliveries.first?.coalescingKey != nil)
    }

    @Test("an edit's record comes before its ack and the broadcast, all of its room, so both can wait for the commit")
    func editPersistsFirst() {
        var node = oneNode()
        _ = node.join(one, "ada")
        _ = node.join(two, "bob")
        let out = node.apply(text(.edit(rev: 0, ops: TextOperation([.insert("hi")]), key: "k")), at: at(1))
        let persistAt = out.firstIndex { if case .persist(.revisionAcked, room: "r") = $0 { true } else { false } }
        let ackAt = out.firstIndex { if case let .deliver(d) = $0 { d.to == [one] } else { false } }
        #expect(persistAt != nil && ackAt != nil && persistAt! < ackAt!)
        #expect(out.allSatisfy { if case let .deliver(d) = $0 { d.room == "r" } else { true } })
    }

    @Test("a joined connection's close is a bye in its room: applied at once on one node (the others see left), ordered on a cluster node; an unjoined one's is neither")
    func disconnects() {
        let three = ConnectionID(rawValue: 3)
        var node = oneNode()
        _ = node.join(one, "ada")
        _ = node.join(two, "bob")
        _ = node.apply(.connected(three, peer: "10.0.0.3"), at: at(1))
        let joined = node.apply(.disconnected(one, WebSocketClose(code: 1000, initiatedByPeer: true)), at: at(2))
        #expect(messages(joined, to: two).map(\.type) == ["left"])
        #expect(logEvents(joined) == ["disconnect", "leave"])
        let unjoined = node.apply(.disconnected(three, WebSocketClose(code: 1000, initiatedByPeer: true)), at: at(2))
        #expect(logEvents(unjoined) == ["disconnect"])
        #expect(messages(unjoined, to: two).isEmpty)

        var cluster = clusteredGateway()
        _ = cluster.apply(.connected(one, peer: "10.0.0.1"), at: at(1))
        _ = cluster.apply(.connected(two, peer: "10.0.0.2"), at: at(1))
        _ = cluster.apply(text(.hello(room: "r", name: "ada", role: .reader)), at: at(1))
        let bye = cluster.apply(.disconnected(one, WebSocketClose(code: 1000, initiatedByPeer: true)), at: at(2))
        #expect(bye.contains { if case .order(let e, room: "r", hello: false) = $0 { e.event == .bye } else { false } })
        let silent = cluster.apply(.disconnected(two, WebSocketClose(code: 1000, initiatedByPeer: true)), at: at(2))
        #expect(!silent.contains { if case .order = $0 { true } else { false } })
    }

    @Test("cluster: ids carry the incarnation; another node's entries reach local members without log lines; a gone entry removes that node's members")
    func clusterEntries() {
        var gateway = Gateway(hub: Hub(maxRooms: .max), configuration: .init(incarnation: 7),
                              mode: .cluster(ClusterRooms(snapshotEvery: 2)))
        _ = gateway.apply(.connected(one, peer: "10.0.0.1"), at: at(1))
        let order = gateway.apply(text(.hello(room: "r", name: "ada", role: .reader)), at: at(1))
        guard case let .order(mine, _, _)? = order.first else {
            Issue.record("no order: \(order)")
            return
        }
        #expect(mine.client == ClientID("c7-1") && mine.origin == 7)
        var entry = mine
        entry.index = 1
        _ = gateway.apply(.loaded(room: "r", image: nil, entries: [entry]), at: at(1))

        let remoteHello = RoomEntry(event: .message(.hello(room: "r", name: "bob", role: .reader)),
                                    client: ClientID("c3-5"), origin: 3, time: .seconds(2), index: 2)
        let remote = gateway.apply(.ordered(room: "r", [remoteHello]), at: at(2))
        #expect(messages(remote, to: one).map(\.type) == ["joined"])
        #expect(logEvents(remote).isEmpty, "bob's join is logged by his node")
        #expect(!remote.contains { if case .snapshot = $0 { true } else { false } }, "only the entry's own node stores the image")

        let gone = RoomEntry(event: .gone, client: ClientID(""), origin: 3, time: .seconds(3), index: 3)
        let left = gateway.apply(.ordered(room: "r", [gone]), at: at(3))
        #expect(messages(left, to: one).map(\.type) == ["left"])
        #expect(gateway.hub.members(of: "r") == [ClientID("c7-1")])

        let scroll = gateway.apply(text(.follow(on: true)), at: at(4))
        guard case var .order(follow, _, _)? = scroll.first else {
            Issue.record("no order: \(scroll)")
            return
        }
        follow.index = 4
        let applied = gateway.apply(.ordered(room: "r", [follow]), at: at(4))
        #expect(applied.contains { if case .snapshot(room: "r", index: 4, _) = $0 { true } else { false } })
    }

    @Test("losing the cluster closes every connection with 4013; Redis away and back are logged and flip /healthz's state")
    func clusterHealth() {
        var gateway = Gateway(hub: Hub(), configuration: .init(incarnation: 1), mode: .cluster(ClusterRooms()))
        _ = gateway.apply(.connected(one, peer: "10.0.0.1"), at: at(1))
        let down = gateway.apply(.store(up: false, name: "redis://127.0.0.1:6379", reason: "gone"), at: at(1))
        #expect(logEvents(down) == ["redis_down"] && !gateway.storeUp)
        _ = gateway.apply(.store(up: true, name: "redis://127.0.0.1:6379", reason: "back"), at: at(2))
        #expect(gateway.storeUp)
        let lost = gateway.apply(.membershipLost(), at: at(3))
        #expect(lost.contains(.close(one, code: CloseCode.rejoin, reason: "cluster membership lost; reconnect", room: nil)))
    }
}

@Suite("Held commands: group commit's other half")
struct HeldCommandsTests {
    private let a = GatewayCommand.log(LogRecord(.info, .stop, [LogField("reason", "a")]))
    private let b = GatewayCommand.log(LogRecord(.info, .stop, [LogField("reason", "b")]))
    private let c = GatewayCommand.log(LogRecord(.info, .stop, [LogField("reason", "c")]))

    @Test("a room's commands wait for their commit and come out in order; other rooms are not held")
    func holdAndRelease() {
        var held = HeldCommands()
        #expect(!held.isHeld("r"))
        held.wait("r", for: 0)
        held.append(a, room: "r")
        held.wait("r", for: 1)
        held.append(b, room: "r")
        #expect(held.isHeld("r") && !held.isHeld("s") && !held.isHeld(nil))
        #expect(held.release(through: 0) == [a])
        #expect(held.isHeld("r"))
        #expect(held.release(through: 1) == [b])
        #expect(held.isEmpty)
    }

    @Test("a commit reported for several tickets at once releases everything behind them; a ticket already durable holds nothing")
    func batchRelease() {
        var held = HeldCommands()
        held.wait("r", for: 0)
        held.append(a, room: "r")
        held.wait("s", for: 1)
        held.append(b, room: "s")
        held.wait("r", for: 2)
        held.append(c, room: "r")
        #expect(held.release(through: 2) == [a, c, b], "room by room, each in order")
        #expect(held.isEmpty)
        held.wait("r", for: 1)
        #expect(!held.isHeld("r"))
    }
}

@Suite("Gateway: rooms that expire")
struct GatewayRoomTTLTests {
    @Test("a sweep removes a room empty and idle past --room-ttl (logged, removed from the store), keeps one with people in it, and keeps one idle for less")
    func sweep() {
        let wall: Int64 = 1_800_000_000_000
        func clock(_ seconds: Int64) -> GatewayClock {
            GatewayClock(monotonic: .seconds(seconds), hub: .seconds(seconds), wallNanoseconds: (wall + seconds * 1000) * 1_000_000)
        }
        var gateway = Gateway(hub: Hub(restoring: [RoomSnapshot(name: "old", document: nil, draftText: "", draftRevision: 0),
                                                     RoomSnapshot(name: "fresh", document: nil, draftText: "", draftRevision: 0),
                                                     RoomSnapshot(name: "busy", document: nil, draftText: "", draftRevision: 0)]),
                              configuration: .init(roomTTL: .seconds(60)),
                              activity: ["old": wall - 61_000, "fresh": wall - 10_000, "busy": wall - 600_000])
        _ = gateway.apply(.connected(one, peer: "10.0.0.1"), at: clock(0))
        _ = gateway.apply(text(.hello(room: "busy", name: "ada", role: .reader)), at: clock(0))
        let out = gateway.apply(.sweep, at: clock(0))
        #expect(logEvents(out) == ["room_expired"])
        #expect(out.contains(.persist(.roomRemoved(room: "old"), room: "old")))
        #expect(Set(gateway.hub.rooms.keys) == ["fresh", "busy"])
        #expect(gateway.apply(.sweep, at: clock(49)).isEmpty, "fresh is 59 s idle")
        #expect(logEvents(gateway.apply(.sweep, at: clock(50))) == ["room_expired"])
        #expect(Set(gateway.hub.rooms.keys) == ["busy"])
    }

    @Test("a join and a leave are the room's activity: stored, and shown in an observer's overview")
    func activity() throws {
        var node = oneNode()
        let joined = node.join(one, "ada")
        #expect(joined.contains { if case .persist(.roomActive(room: "r", _), room: "r") = $0 { true } else { false } })
        _ = node.apply(.connected(two, peer: "10.0.0.2"), at: at(1))
        let watch = node.apply(.received(.text(#"{"type":"hello","room":"*","name":"ops","role":"observer"}"#), from: two), at: at(1))
        guard case let .overview(overview)? = messages(watch, to: two).first?.payload else {
            Issue.record("no overview: \(watch)")
            return
        }
        #expect(overview.rooms.first?.active == 1_800_000_000_000)
    }

    @Test("one address creates at most --max-new-rooms-per-ip rooms a minute: the next gets too_many_rooms, logged once a burst; existing rooms and other addresses are still served; a minute on it may again")
    func newRoomsPerMinute() {
        var node = oneNode(policy: AccessPolicy(maxConnectionsPerAddress: 0, newRoomsPerMinute: 3))
        for n: UInt64 in 1...3 {
            let out = node.join(ConnectionID(rawValue: n), "f\(n)", room: "flood-\(n)", from: "10.0.0.9")
            #expect(messages(out, to: ConnectionID(rawValue: n)).map(\.type).contains("welcome"))
        }
        var logged = 0
        for n: UInt64 in 4...10 {
            let out = node.join(ConnectionID(rawValue: n), "f\(n)", room: "flood-\(n)", from: "10.0.0.9")
            #expect(errorCodes(out, to: ConnectionID(rawValue: n)) == [.tooManyRooms])
            logged += logEvents(out).filter { $0 == "error" }.count
        }
        #expect(logged == 1, "one line for the whole burst")
        #expect(node.hub.rooms.count == 3)
        let refused = node.join(ConnectionID(rawValue: 11), "f11", room: "flood-11", from: "10.0.0.9")
        let sentence = messages(refused, to: ConnectionID(rawValue: 11)).compactMap { message -> String? in
            if case let .error(error) = message.payload { error.message } else { nil }
        }.first
        #expect(sentence == "10.0.0.9 created 3 new rooms in the last minute, this server's limit per address; join an existing room, or try again in a few seconds")
        let existing = node.join(ConnectionID(rawValue: 12), "f12", room: "flood-1", from: "10.0.0.9")
        #expect(messages(existing, to: ConnectionID(rawValue: 12)).map(\.type).contains("welcome"), "an existing room takes no token")
        let other = node.join(ConnectionID(rawValue: 13), "ada", room: "talk", from: "10.0.0.7")
        #expect(messages(other, to: ConnectionID(rawValue: 13)).map(\.type).contains("welcome"), "another address is served")
        let later = node.join(ConnectionID(rawValue: 14), "f14", room: "flood-14", from: "10.0.0.9", at: at(21))
        #expect(messages(later, to: ConnectionID(rawValue: 14)).map(\.type).contains("welcome"), "20 s refill one of 3 a minute")
        let again = node.join(ConnectionID(rawValue: 15), "f15", room: "flood-15", from: "10.0.0.9", at: at(21))
        #expect(errorCodes(again, to: ConnectionID(rawValue: 15)) == [.tooManyRooms])
        #expect(logEvents(again).filter { $0 == "error" }.count == 1, "a new burst is logged again")
    }

    @Test("one address holds at most --max-rooms-per-ip rooms it created; once one is removed it may create another; the quota forgets addresses a minute after their last room")
    func roomsHeldPerAddress() {
        var node = oneNode(policy: AccessPolicy(maxConnectionsPerAddress: 0, maxRoomsPerAddress: 2), roomTTL: .seconds(1))
        _ = node.join(ConnectionID(rawValue: 1), "a", room: "one", from: "10.0.0.9", at: ticking(1))
        _ = node.join(ConnectionID(rawValue: 2), "b", room: "two", from: "10.0.0.9", at: ticking(1))
        let third = node.join(ConnectionID(rawValue: 3), "c", room: "three", from: "10.0.0.9", at: ticking(1))
        #expect(errorCodes(third, to: ConnectionID(rawValue: 3)) == [.tooManyRooms])
        #expect(messages(third, to: ConnectionID(rawValue: 3)).contains { message in
            if case let .error(error) = message.payload { error.message.contains("already holds 2 rooms it created") } else { false }
        })
        _ = node.apply(.disconnected(ConnectionID(rawValue: 1), WebSocketClose(code: 1000, initiatedByPeer: true)), at: ticking(2))
        _ = node.apply(.sweep, at: ticking(10))
        #expect(node.hub.rooms["one"] == nil, "the empty room expired")
        let fourth = node.join(ConnectionID(rawValue: 4), "d", room: "four", from: "10.0.0.9", at: ticking(10))
        #expect(messages(fourth, to: ConnectionID(rawValue: 4)).map(\.type).contains("welcome"))
        #expect(node.roomQuota.count == 1)
        for n: UInt64 in [2, 4] { _ = node.apply(.disconnected(ConnectionID(rawValue: n), WebSocketClose(code: 1000, initiatedByPeer: true)), at: ticking(11)) }
        _ = node.apply(.sweep, at: ticking(20))
        _ = node.apply(.sweep, at: ticking(80))
        #expect(node.hub.rooms.isEmpty)
        #expect(node.roomQuota.count == 0, "nothing is kept of an address with no room a minute on")
    }
}

/// One node, `--room-release`: rooms at rest in the store and read back.
@Suite("Gateway: rooms at rest (one node, --room-release)")
struct RestingRoomGatewayTests {
    /// ada publishes a document, edits the draft once and leaves at 3 s.
    fileprivate static func abandoned(release: Duration = .seconds(60), ttl: Duration? = nil, maxRooms: Int = 10_000) -> Gateway {
        var node = oneNode(maxRooms: maxRooms, roomTTL: ttl, roomRelease: release)
        _ = node.join(one, "ada", at: ticking(0))
        _ = node.apply(text(.document(title: "Notes", format: .markdown, text: "# A\n\nbody\n")), at: ticking(1))
        _ = node.apply(text(.edit(rev: 0, ops: TextOperation([.insert("hi")]), key: "k1")), at: ticking(2))
        _ = node.apply(.disconnected(one, WebSocketClose(code: 1000, initiatedByPeer: true)), at: ticking(3))
        return node
    }

    /// The room as the store gives it back: what ada left, no members.
    static let stored = RoomState(restoring: RoomSnapshot(
        name: "r", document: DocumentInfo(title: "Notes", format: .markdown, text: "# A\n\nbody\n"),
        draftText: "hi", draftRevision: 1))

    @Test("an empty room idle past --room-release leaves memory (room_released); a hello to it asks the store and waits, with the edit sent after it, until the room is back; then the joiner gets the stored document and draft and its edit is acked at the next revision")
    func restAndWake() throws {
        var node = Self.abandoned()
        #expect(node.hub.rooms["r"]?.draft.text == "hi")
        #expect(node.apply(.sweep, at: ticking(62)).isEmpty, "59 s idle: still held")
        let released = node.apply(.sweep, at: ticking(63))
        #expect(logEvents(released) == ["room_released"])
        #expect(!released.contains { if case .persist = $0 { true } else { false } }, "nothing is removed from the store")
        #expect(node.hub.rooms["r"] == nil && node.resting == ["r"])

        let hello = node.join(two, "bob", at: ticking(70))
        #expect(hello.contains(.restore(rooms: ["r"])))
        #expect(!hello.contains { if case .order = $0 { true } else { false } }, "the hello waits for the room")
        #expect(messages(hello, to: two).isEmpty)
        let edit = node.apply(.received(.text(String(decoding: WireCodec().encode(
            ClientMessage.edit(rev: 1, ops: TextOperation([.retain(2), .insert("!")]), key: "k2")), as: UTF8.self)), from: two),
            at: ticking(70))
        #expect(edit.isEmpty, "what follows the hello waits behind it")
        #expect(node.join(ConnectionID(rawValue: 3), "cy", at: ticking(70)).allSatisfy {
            if case .restore = $0 { false } else { true }
        }, "a second joiner does not ask again")

        let back = node.apply(.restored([Self.stored], missing: []), at: ticking(71))
        #expect(logEvents(back).first == "room_restored")
        let types = messages(back, to: two).map(\.type)
        #expect(types.first == "welcome" && types.contains("ack"), "\(types)")
        guard case let .welcome(welcome) = messages(back, to: two).first?.payload else { throw GatewayTestFailure("no welcome") }
        #expect(welcome.document?.title == "Notes" && welcome.draft.text == "hi" && welcome.draft.rev == 1)
        let acks = messages(back, to: two).compactMap { if case let .ack(rev) = $0.payload { rev } else { nil } }
        #expect(acks == [2])
        #expect(node.hub.rooms["r"]?.draft.text == "hi!" && node.resting.isEmpty && node.waking.isEmpty)
        #expect(node.hub.members(of: "r").count == 2, "bob and cy are in")
    }

    @Test("a room a connection is in, a room an observer watches, and a blank room are not released; --room-release absent keeps every room")
    func whatStays() {
        var watched = Self.abandoned()
        _ = watched.join(two, "eve", room: "*", role: .observer, at: ticking(4))
        #expect(logEvents(watched.apply(.sweep, at: ticking(100))).isEmpty, "an observer of every room holds them")
        #expect(watched.resting.isEmpty)

        var kept = Self.abandoned(release: .seconds(60))
        _ = kept.join(two, "bob", at: ticking(4))
        #expect(logEvents(kept.apply(.sweep, at: ticking(100))).isEmpty, "bob is in it")

        var node = oneNode()
        _ = node.join(one, "ada", at: ticking(0))
        _ = node.apply(text(.edit(rev: 0, ops: TextOperation([.insert("x")]), key: "k")), at: ticking(1))
        _ = node.apply(.disconnected(one, WebSocketClose(code: 1000, initiatedByPeer: true)), at: ticking(2))
        #expect(logEvents(node.apply(.sweep, at: ticking(100_000))).isEmpty && node.hub.rooms["r"] != nil)
    }

    @Test("an observer who starts watching gets the resting rooms read back, in one request, and one fresh overview when they are back")
    func observerWakesRooms() throws {
        var node = Self.abandoned()
        _ = node.apply(.sweep, at: ticking(63))
        let watch = node.join(two, "eve", room: "*", role: .observer, at: ticking(70))
        #expect(watch.contains(.restore(rooms: ["r"])))
        let back = node.apply(.restored([Self.stored], missing: []), at: ticking(71))
        let overviews = messages(back, to: two).compactMap { if case let .overview(o) = $0.payload { o } else { nil } }
        #expect(overviews.count == 1 && overviews.first?.rooms.map(\.room) == ["r"])
    }

    @Test("a resting room still expires past --room-ttl, counted from the last leave (removed from the store); it counts toward --max-rooms while it rests")
    func restingExpires() {
        var node = Self.abandoned(release: .seconds(60), ttl: .seconds(600))
        _ = node.apply(.sweep, at: ticking(63))
        #expect(node.resting == ["r"])
        #expect(logEvents(node.apply(.sweep, at: ticking(602))).isEmpty)
        let expired = node.apply(.sweep, at: ticking(603))
        #expect(logEvents(expired) == ["room_expired"])
        #expect(expired.contains(.persist(.roomRemoved(room: "r"), room: "r")))
        #expect(node.resting.isEmpty)

        var full = Self.abandoned(maxRooms: 1)
        _ = full.apply(.sweep, at: ticking(63))
        #expect(full.resting == ["r"])
        let refused = full.join(two, "bob", room: "other", at: ticking(70))
        #expect(errorCodes(refused, to: two) == [.serverFull])
    }
}

struct GatewayTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
