import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTransportCore
import Testing

/// A cluster node's gateway, with what Redis would do in between played by
/// the test: the entries it orders are numbered in their room's log and
/// handed back (`ordered`, `loaded`) when the test says so.
private struct ClusterNode {
    var gateway: Gateway
    /// The last index of each room's log.
    var last: [String: Int] = [:]

    init(release: Duration? = .seconds(60)) {
        gateway = Gateway(hub: Hub(maxRooms: .max),
                          configuration: .init(incarnation: 7, roomRelease: release), mode: .cluster(ClusterRooms()))
    }

    /// `seconds` after an arbitrary start; a cluster's hub clock is the
    /// wall clock (release counts on it too).
    static func at(_ seconds: Int) -> GatewayClock {
        GatewayClock(monotonic: .seconds(seconds), hub: .nanoseconds(wall(seconds)), wallNanoseconds: wall(seconds))
    }

    static func wall(_ seconds: Int) -> Int64 { 1_800_000_000_000_000_000 + Int64(seconds) * 1_000_000_000 }

    mutating func apply(_ event: GatewayEvent, at seconds: Int = 1) -> [GatewayCommand] {
        gateway.apply(event, at: Self.at(seconds))
    }

    /// `message` from `connection`; returns what it orders, numbered as
    /// the room's log numbers it.
    mutating func send(_ message: ClientMessage, from connection: ConnectionID, at seconds: Int = 1) -> [RoomEntry] {
        let text = String(decoding: WireCodec().encode(message), as: UTF8.self)
        return numbered(apply(.received(.text(text), from: connection), at: seconds))
    }

    mutating func numbered(_ commands: [GatewayCommand]) -> [RoomEntry] {
        commands.compactMap { command -> RoomEntry? in
            guard case .order(var entry, let room, _) = command else { return nil }
            entry.index = last[room, default: 0] + 1
            last[room] = entry.index
            return entry
        }
    }

    /// An entry of a member of another node (incarnation 3), next in `room`'s log.
    mutating func remote(_ message: ClientMessage, client: String, room: String = "r", at seconds: Int = 1) -> RoomEntry {
        let index = last[room, default: 0] + 1
        last[room] = index
        return RoomEntry(event: .message(message), client: ClientID(client), origin: 3, time: .nanoseconds(Self.wall(seconds)),
                         index: index)
    }
}

private let one = ConnectionID(rawValue: 1)
private let two = ConnectionID(rawValue: 2)
private let three = ConnectionID(rawValue: 3)
private let closed = WebSocketClose(code: 1000, initiatedByPeer: true)

private func messages(_ commands: [GatewayCommand], to connection: ConnectionID) -> [ServerMessage] {
    commands.compactMap { command -> ServerMessage? in
        guard case let .deliver(delivery) = command, delivery.to.contains(connection) else { return nil }
        return try? WireCodec().decodeServer(delivery.bytes)
    }
}

private func logRecords(_ commands: [GatewayCommand]) -> [LogRecord] {
    commands.compactMap { if case let .log(record) = $0 { record } else { nil } }
}

private func releases(_ commands: [GatewayCommand]) -> [String] {
    commands.compactMap { if case let .release(room) = $0 { room } else { nil } }
}

@Suite("Gateway: a cluster node lets go of the rooms nobody on it uses")
struct GatewayReleaseTests {
    @Test("a room none of the node's connections has been in for --room-release is released: the hub forgets it with the other nodes' members, room_released is logged and the reader told; a room a hello waits for is kept")
    func releaseDecision() throws {
        var node = ClusterNode()
        _ = node.apply(.connected(one, peer: "10.0.0.1"))
        let hello = node.send(.hello(room: "r", name: "ada", role: .presenter), from: one)
        #expect(node.gateway.takenUp.states["r"] == .asked, "a hello asks the reader for its room")
        _ = node.apply(.loaded(room: "r", image: nil, entries: hello))
        #expect(node.gateway.takenUp.states["r"] == .held)
        let bob = node.remote(.hello(room: "r", name: "bob", role: .reader), client: "c3-5")
        #expect(messages(node.apply(.ordered(room: "r", [bob])), to: one).map(\.type) == ["joined"])
        _ = node.apply(.ordered(room: "r", node.send(.document(title: "Notes", format: .markdown, text: "# Notes\n"), from: one)))
        let acked = node.apply(.ordered(room: "r", node.send(.edit(rev: 0, ops: TextOperation([.insert("draft")])), from: one)))
        #expect(messages(acked, to: one).map(\.type) == ["ack"])

        _ = node.apply(.connected(two, peer: "10.0.0.2"))
        _ = node.send(.hello(room: "w", name: "cy", role: .reader), from: two)
        #expect(node.gateway.takenUp.states["w"] == .asked, "cy's hello waits for room w, which never loads")

        let bye = node.numbered(node.apply(.disconnected(one, closed), at: 2))
        _ = node.apply(.ordered(room: "r", bye), at: 2)
        #expect(node.gateway.hub.members(of: "r") == [ClientID("c3-5")])
        #expect(node.apply(.sweep, at: 10).isEmpty, "first found unused")
        #expect(node.apply(.sweep, at: 69).isEmpty, "unused for 59 s")
        let out = node.apply(.sweep, at: 70)
        #expect(releases(out) == ["r"])
        let record = try #require(logRecords(out).first)
        #expect(logRecords(out).count == 1 && record.event == "room_released" && record.room == "r")
        #expect(record.fields == [LogField("idleSeconds", .int(60)), LogField("releaseSeconds", .int(60)),
                                  LogField("members", .int(1))])
        #expect(node.gateway.hub.rooms["r"] == nil && node.gateway.hub.sessions[ClientID("c3-5")] == nil,
                "bob is forgotten here with the room; Redis and his node still have him")
        #expect(node.gateway.activity["r"] == nil && node.gateway.takenUp.states["r"] == nil)
        #expect(node.gateway.takenUp.states["w"] == .asked, "w is kept while cy waits for it")

        _ = node.apply(.disconnected(two, closed), at: 80)
        #expect(node.apply(.sweep, at: 80).isEmpty)
        let later = node.apply(.sweep, at: 140)
        #expect(releases(later) == ["w"])
        #expect(logRecords(later).first?.fields.last == LogField("members", .int(0)))
        #expect(node.gateway.takenUp.states.isEmpty && node.gateway.hub.rooms.isEmpty)
    }

    @Test("what the reader sent of a room before it let go is ignored: entries create no room, an image is dropped and the reader told to let go again; a new hello takes the room up afresh and sees it whole, the other nodes' members included")
    func staleEntriesAfterRelease() throws {
        var node = ClusterNode(release: .seconds(1))
        _ = node.apply(.connected(one, peer: "10.0.0.1"))
        _ = node.apply(.loaded(room: "r", image: nil, entries: node.send(.hello(room: "r", name: "ada", role: .presenter), from: one)))
        _ = node.apply(.ordered(room: "r", [node.remote(.hello(room: "r", name: "bob", role: .reader), client: "c3-5")]))
        _ = node.apply(.ordered(room: "r", node.send(.document(title: "Notes", format: .markdown, text: "# Notes\n"), from: one)))
        _ = node.apply(.ordered(room: "r", node.send(.edit(rev: 0, ops: TextOperation([.insert("draft")])), from: one)))
        _ = node.apply(.ordered(room: "r", node.numbered(node.apply(.disconnected(one, closed)))))
        let image = try #require(node.gateway.hub.rooms["r"]?.image, "the room as Redis keeps it")
        _ = node.apply(.sweep, at: 2)
        #expect(releases(node.apply(.sweep, at: 3)) == ["r"])

        let late = node.remote(.hello(room: "r", name: "dee", role: .reader), client: "c3-6", at: 3)
        #expect(node.apply(.ordered(room: "r", [late]), at: 3).isEmpty)
        #expect(node.gateway.hub.rooms["r"] == nil, "an entry in flight does not bring the room back")
        #expect(node.apply(.loaded(room: "r", image: image, entries: []), at: 3) == [.release(room: "r")])
        #expect(node.gateway.hub.rooms["r"] == nil, "nor does an image read before the release")

        _ = node.apply(.connected(three, peer: "10.0.0.3"), at: 4)
        let hello = node.send(.hello(room: "r", name: "cy", role: .reader), from: three, at: 4)
        #expect(node.gateway.takenUp.states["r"] == .asked)
        let early = node.remote(.hello(room: "r", name: "eve", role: .reader), client: "c3-7", at: 4)
        #expect(node.apply(.ordered(room: "r", [early]), at: 4).isEmpty && node.gateway.hub.rooms["r"] == nil,
                "until its image comes, the room's entries wait for it (the image brings them)")
        let welcomed = node.apply(.loaded(room: "r", image: image, entries: [late, early] + hello), at: 4)
        guard case let .welcome(welcome)? = messages(welcomed, to: three).first?.payload else {
            Issue.record("no welcome: \(welcomed)")
            return
        }
        #expect(welcome.document?.title == "Notes")
        #expect(welcome.draft.text == "draft" && welcome.draft.rev == 1)
        #expect(welcome.readers.map(\.name) == ["bob", "dee", "eve", "cy"])
        #expect(node.gateway.takenUp.states["r"] == .held)
        let joined = node.apply(.ordered(room: "r", [node.remote(.hello(room: "r", name: "fay", role: .reader), client: "c3-8", at: 5)]), at: 5)
        #expect(messages(joined, to: three).map(\.type) == ["joined"], "held again: its entries apply")
    }

    @Test("while an observer of every room is connected nothing is released, and the rooms it has loaded unasked are taken; once it leaves they go, and an image nobody asked for is dropped")
    func everyRoomObserverHoldsAll() {
        var node = ClusterNode(release: .seconds(1))
        _ = node.apply(.connected(one, peer: "10.0.0.1"))
        let watch = node.apply(.received(.text(#"{"type":"hello","room":"*","name":"ops","role":"observer"}"#), from: one))
        #expect(watch.contains(.takeUp(room: nil)))
        let loaded = node.apply(.loaded(room: "x", image: nil,
                                        entries: [node.remote(.hello(room: "x", name: "bob", role: .reader), client: "c3-5", room: "x")]))
        #expect(messages(loaded, to: one).contains { $0.type == "overview" }, "the observer is shown the room")
        #expect(node.gateway.takenUp.states["x"] == .held)
        _ = node.apply(.connected(two, peer: "10.0.0.2"))
        _ = node.apply(.loaded(room: "r", image: nil, entries: node.send(.hello(room: "r", name: "ada", role: .reader), from: two)))
        _ = node.apply(.ordered(room: "r", node.numbered(node.apply(.disconnected(two, closed)))))
        for second in [2, 5, 50, 500] {
            #expect(releases(node.apply(.sweep, at: second)).isEmpty, "held at \(second) s")
        }
        _ = node.apply(.disconnected(one, closed), at: 500)
        #expect(releases(node.apply(.sweep, at: 500)).isEmpty)
        #expect(releases(node.apply(.sweep, at: 501)) == ["r", "x"])
        #expect(node.apply(.loaded(room: "y", image: nil, entries: []), at: 501) == [.release(room: "y")],
                "an image the observer asked for, arriving after it left")
        #expect(node.gateway.hub.rooms.isEmpty)
    }

    @Test("without --room-release a cluster node keeps every room; on one node entries of a room it has never seen apply as always")
    func releaseOff() {
        var node = ClusterNode(release: nil)
        _ = node.apply(.connected(one, peer: "10.0.0.1"))
        _ = node.apply(.loaded(room: "r", image: nil, entries: node.send(.hello(room: "r", name: "ada", role: .reader), from: one)))
        _ = node.apply(.ordered(room: "r", node.numbered(node.apply(.disconnected(one, closed)))))
        #expect(node.apply(.sweep, at: 2).isEmpty && node.apply(.sweep, at: 100_000).isEmpty)
        #expect(node.gateway.takenUp.states["r"] == .held)

        var single = Gateway(hub: Hub(), configuration: .init())
        let entry = RoomEntry(event: .message(.hello(room: "s", name: "bob", role: .reader)), client: ClientID("c9"),
                              origin: 0, time: .seconds(1))
        _ = single.apply(.ordered(room: "s", [entry]), at: ClusterNode.at(1))
        #expect(single.hub.members(of: "s") == [ClientID("c9")] && single.takenUp.states.isEmpty)
    }
}
