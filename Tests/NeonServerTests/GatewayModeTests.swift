import NeonCore
@testable import NeonServer
import Testing

private func bye(_ client: String) -> RoomEntry {
    RoomEntry(event: .bye, client: ClientID(client), origin: 1, time: .seconds(1))
}

/// The deployment's parts of the gateway, each updated on its own: one
/// node's rooms at rest, a cluster node's rooms in Redis.
@Suite("Gateway modes")
struct GatewayModeTests {
    @Test("one node: an event for a room in memory applies; for a resting room it waits and wakes the room once; the next waits behind it")
    func arrivals() {
        var rooms = RestingRooms()
        let inMemory = rooms.arrive(bye("c1"), room: "r", hello: false)
        #expect(inMemory == .applies)
        rooms.rest("r")
        let first = rooms.arrive(bye("c1"), room: "r", hello: false)
        let second = rooms.arrive(bye("c2"), room: "r", hello: true)
        #expect(first == .wakes && second == .waits)
        #expect(rooms.waiting(for: "r") == 2)
        let again = rooms.wake(["r"])
        #expect(again.isEmpty, "a room on its way is not asked for twice")
        #expect(rooms.idle.isEmpty, "a room being read back does not expire")
        let rested = rooms.back("r")
        #expect(rested)
        let waited = rooms.waited(for: "r")
        #expect(waited == [.init(entry: bye("c1"), hello: false), .init(entry: bye("c2"), hello: true)])
        #expect(rooms == RestingRooms(), "back, with nothing waiting: nothing is left of it")
    }

    @Test("one node: waking asks only for resting rooms not on their way; an expired room rests no more")
    func wakingAndExpiring() {
        var rooms = RestingRooms()
        rooms.rest("a")
        rooms.rest("b")
        let asked = rooms.wake(["a", "x"])
        let next = rooms.wake(["a", "b"])
        #expect(asked == ["a"] && next == ["b"])
        #expect(rooms.waiting(for: "a") == 0 && rooms.idle.isEmpty)
        let expired = rooms.expire("a")
        let twice = rooms.expire("a")
        #expect(expired && !twice)
        let stranger = rooms.back("x")
        #expect(!stranger, "a room that never rested was not at rest")
    }

    @Test("cluster: the store is up while one shard of several answers; hellos and scoped observers ask for their rooms")
    func clusterParts() {
        var rooms = ClusterRooms(shards: 2)
        rooms.store(up: false, name: "redis://a")
        #expect(rooms.storeUp)
        rooms.store(up: false, name: "redis://b")
        #expect(!rooms.storeUp)
        rooms.store(up: true, name: "redis://a")
        #expect(rooms.storeUp)
        rooms.noteTakeUps([.order(bye("c1"), room: "r", hello: true), .order(bye("c2"), room: "s", hello: false),
                           .takeUp(room: "w"), .takeUp(room: nil)])
        #expect(rooms.taken.states == ["r": .asked, "w": .asked])
        #expect(rooms.shard(of: "r") == ShardPlacement.shard(of: "r", count: 2))
    }

    @Test("a mode's part changes in place, and the other mode's part is not there to change")
    func modeParts() {
        var mode = Gateway.Mode.single(RestingRooms())
        mode.single { $0.rest("r") }
        #expect(mode.rests("r") && mode.restingCount == 1 && mode.storeUp)
        let notCluster: Void? = mode.cluster { $0.store(up: false, name: "redis://a") }
        #expect(notCluster == nil)
        var node = Gateway.Mode.cluster(ClusterRooms())
        node.cluster { $0.store(up: false, name: "redis://a") }
        #expect(!node.storeUp && node.restingCount == 0 && !node.rests("r"))
        let notSingle: Void? = node.single { $0.rest("r") }
        #expect(notSingle == nil)
    }
}
