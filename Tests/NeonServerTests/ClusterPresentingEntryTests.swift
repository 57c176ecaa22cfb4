import NeonCore
@testable import NeonServer
import Testing

/// The presenting messages go through a room's log in Redis as every other
/// client message does (ClusterEntry stores a message as its JSON), so every
/// node applies them to the room in the same order.
@Suite("Presenting messages in a cluster's room log")
struct ClusterPresentingEntryTests {
    @Test("point, unpoint and pointing are stored as log entries and read back unchanged", arguments: [
        ClientMessage.point(anchor: Anchor(block: 3, offset: 2), length: 17), .unpoint, .pointing(who: .presenter),
    ])
    func roundTrip(message: ClientMessage) {
        let entry = RoomEntry(event: .message(message), client: ClientID("c3-1"), origin: 3, time: .nanoseconds(42), index: 7)
        var stored = ClusterEntry(entry)
        stored.index = 7
        let reply = RedisReply.array([.string(Array("7-0".utf8)), .array(stored.fields.map { .string(Array($0.utf8)) })])
        #expect(ClusterEntry(reply)?.roomEntry(WireCodec()) == entry)
    }
}
