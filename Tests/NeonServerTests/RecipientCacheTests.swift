import NeonCore
@testable import NeonServer
import NeonTransportCore
import Testing

/// The gateway keeps a big room's recipients from one broadcast to the next
/// (`RecipientCache`); these check that what it keeps is always what a
/// fresh lookup would give: after joins, leaves, and a local connection
/// that closed while its leave is still being ordered (cluster).
@Suite("Gateway: a big room's recipients kept between broadcasts")
struct RecipientCacheTests {
    private static func at(_ seconds: Int) -> GatewayClock {
        GatewayClock(monotonic: .seconds(seconds), hub: .seconds(seconds), wallNanoseconds: 1_800_000_000_000_000_000)
    }

    private static func hello(_ name: String) -> WebSocketMessage {
        .text(String(decoding: WireCodec().encode(ClientMessage.hello(room: "big", name: name, role: .reader)), as: UTF8.self))
    }

    /// The recipients of each broadcast delivery in `commands`.
    private static func broadcastRecipients(_ commands: [GatewayCommand]) -> [[ConnectionID]] {
        commands.compactMap { if case let .deliver(d) = $0, d.isBroadcast { d.to } else { nil } }
    }

    private static func id(_ n: Int) -> ConnectionID { ConnectionID(rawValue: UInt64(n)) }

    /// One node whose room "big" has `members` readers, m1… on connections 1….
    private static func node(members: Int) -> Gateway {
        var node = Gateway(hub: Hub(maxRooms: 100), configuration: .init())
        for n in 1...members {
            _ = node.apply(.connected(id(n), peer: "10.0.0.1"), at: at(1))
            _ = node.apply(.received(hello("m\(n)"), from: id(n)), at: at(1))
        }
        return node
    }

    private struct NoOrder: Error, CustomStringConvertible {
        let description: String
    }

    /// The entry the first of `commands` asks to order (a cluster node's
    /// hello); throws, failing the test, when it asks for none.
    private static func firstOrder(_ commands: [GatewayCommand]) throws -> RoomEntry {
        guard case let .order(entry, _, _)? = commands.first else { throw NoOrder(description: "no order: \(commands)") }
        return entry
    }

    @Test("one node, 40 members: every relay reaches exactly the open members, through a leave and a join, and a joined goes to all but the joiner")
    func oneNode() {
        var node = Self.node(members: 40)
        let relay = WebSocketMessage.text(#"{"type":"relay","data":"x"}"#)
        let first = Self.broadcastRecipients(node.apply(.received(relay, from: Self.id(1)), at: Self.at(2)))
        #expect(first.map { Set($0) } == [Set((1...40).map(Self.id))])
        #expect(node.recipients.count == 1, "a room of 40 is kept")
        let again = Self.broadcastRecipients(node.apply(.received(relay, from: Self.id(2)), at: Self.at(2)))
        #expect(again == first, "the kept list, in the same order")

        _ = node.apply(.disconnected(Self.id(5), WebSocketClose(code: 1000, initiatedByPeer: true)), at: Self.at(3))
        let afterLeave = Self.broadcastRecipients(node.apply(.received(relay, from: Self.id(1)), at: Self.at(3)))
        #expect(afterLeave.map { Set($0) } == [Set((1...40).filter { $0 != 5 }.map(Self.id))])

        _ = node.apply(.connected(Self.id(41), peer: "10.0.0.1"), at: Self.at(4))
        let joined = Self.broadcastRecipients(node.apply(.received(Self.hello("m41"), from: Self.id(41)), at: Self.at(4)))
        #expect(joined.map { Set($0) } == [Set((1...40).filter { $0 != 5 }.map(Self.id))], "joined goes to all but the joiner")
        let afterJoin = Self.broadcastRecipients(node.apply(.received(relay, from: Self.id(41)), at: Self.at(4)))
        #expect(afterJoin.map { Set($0) } == [Set((1...41).filter { $0 != 5 }.map(Self.id))])
    }

    @Test("a room under 32 members is not kept")
    func smallRoomsAreNotKept() {
        var node = Self.node(members: 31)
        let out = node.apply(.received(.text(#"{"type":"relay","data":"x"}"#), from: Self.id(1)), at: Self.at(2))
        #expect(Self.broadcastRecipients(out).map(\.count) == [31])
        #expect(node.recipients.count == 0)
    }

    @Test("cluster: a local member whose connection closed is sent nothing while its leave is still being ordered, though it is still in the room's order")
    func closedBeforeItsLeaveIsOrdered() throws {
        var node = Gateway(hub: Hub(maxRooms: .max), configuration: .init(incarnation: 7), mode: .cluster(ClusterRooms()))
        var index = 0
        // Two members on this node, 38 on another (origin 3).
        _ = node.apply(.connected(Self.id(1), peer: "10.0.0.1"), at: Self.at(1))
        var ada = try Self.firstOrder(node.apply(.received(Self.hello("ada"), from: Self.id(1)), at: Self.at(1)))
        index += 1; ada.index = index
        _ = node.apply(.loaded(room: "big", image: nil, entries: [ada]), at: Self.at(1))
        _ = node.apply(.connected(Self.id(2), peer: "10.0.0.2"), at: Self.at(1))
        var bob = try Self.firstOrder(node.apply(.received(Self.hello("bob"), from: Self.id(2)), at: Self.at(1)))
        index += 1; bob.index = index
        _ = node.apply(.ordered(room: "big", [bob]), at: Self.at(1))
        for n in 1...38 {
            index += 1
            let remote = RoomEntry(event: .message(.hello(room: "big", name: "r\(n)", role: .reader)),
                                   client: ClientID("c3-\(n)"), origin: 3, time: .seconds(1), index: index)
            _ = node.apply(.ordered(room: "big", [remote]), at: Self.at(1))
        }
        #expect(node.hub.members(of: "big").count == 40)

        func remoteRelay(_ second: Int) -> [[ConnectionID]] {
            index += 1
            let relay = RoomEntry(event: .message(.relay(data: "x")), client: ClientID("c3-1"), origin: 3,
                                  time: .seconds(second), index: index)
            return Self.broadcastRecipients(node.apply(.ordered(room: "big", [relay]), at: Self.at(second)))
        }
        #expect(remoteRelay(2).map { Set($0) } == [[Self.id(1), Self.id(2)]])
        #expect(remoteRelay(2).map { Set($0) } == [[Self.id(1), Self.id(2)]], "kept")
        #expect(node.recipients.count == 1)

        let bye = node.apply(.disconnected(Self.id(2), WebSocketClose(code: 1000, initiatedByPeer: true)), at: Self.at(3))
        #expect(bye.contains { if case .order(_, room: "big", hello: false) = $0 { true } else { false } })
        #expect(node.hub.members(of: "big").contains(ClientID("c7-2")), "bob's leave is not ordered yet")
        #expect(remoteRelay(3) == [[Self.id(1)]], "nothing for the closed connection")
    }
}

/// Times from another node's clock (a cluster entry's) may be anything: the
/// lag histogram and `Duration.inNanoseconds` saturate instead of trapping.
/// Found by RecipientCacheTests' cluster test, whose entries are stamped in
/// 1970: the sixth lag of 57 years overflowed the histogram's sum.
@Suite("Metrics: durations from anywhere never trap")
struct SaturatingDurationTests {
    @Test("a lag of 57 years, observed 100 times, and one of 1,000 years saturate the sum; a negative one counts as 0")
    func histogramSaturates() {
        var lag = Histogram.redisBuckets
        for _ in 0..<100 { lag.observe(.seconds(1_800_000_000)) }
        lag.observe(.seconds(Int64(1_000) * 365 * 86_400))
        lag.observe(.seconds(-5))
        #expect(lag.count == 102)
        #expect(lag.sumNanoseconds == Int.max)
        #expect(lag.merged(with: lag).sumNanoseconds == Int.max)
        #expect(lag.buckets.first == 1, "the negative lag is in the first bucket")
    }

    @Test("Duration.inNanoseconds: exact within ±292 years, Int64.max and .min past them")
    func inNanosecondsSaturates() {
        #expect(Duration.seconds(2).inNanoseconds == 2_000_000_000)
        #expect(Duration.milliseconds(-1500).inNanoseconds == -1_500_000_000)
        #expect(Duration.seconds(Int64.max / 1_000).inNanoseconds == .max)
        #expect(Duration.seconds(Int64.min / 1_000).inNanoseconds == .min)
        #expect(Duration.seconds(9_223_372_035).inNanoseconds == 9_223_372_035_000_000_000)
    }
}
