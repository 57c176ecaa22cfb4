/// A cluster node's part of the gateway: the Redis instances (shards) its
/// rooms live on and which of them it reaches now, how often a room's
/// image is stored, and the rooms it asked for or holds (`TakenRooms`).
/// Pure: the gateway acts on what it answers.
package struct ClusterRooms: Equatable, Sendable {
    /// How many Redis instances (shards) hold the cluster's rooms.
    let shards: Int
    /// A room's image is stored every this many log entries (nil: never).
    let snapshotEvery: Int?
    /// The rooms this node asked for or holds.
    package var taken = TakenRooms()
    /// The cluster's Redis instances this node cannot reach now (by URL).
    private(set) var storesDown: Set<String> = []

    package init(shards: Int = 1, snapshotEvery: Int? = nil) {
        self.shards = shards
        self.snapshotEvery = snapshotEvery
    }

    /// Whether the node reaches at least one of its Redis instances.
    var storeUp: Bool { storesDown.count < shards }

    /// The Redis instance `name` went away or came back.
    mutating func store(up: Bool, name: String) {
        if up { storesDown.remove(name) } else { storesDown.insert(name) }
    }

    /// The index of the shard that holds `room`.
    func shard(of room: String) -> Int {
        ShardPlacement.shard(of: room, count: shards)
    }

    /// Notes the rooms that `commands` ask the reader for, as `ClusterLink`
    /// does: a hello's room, a scoped observer's room.
    mutating func noteTakeUps(_ commands: [GatewayCommand]) {
        for command in commands {
            switch command {
            case let .order(_, room, true): taken.ask(room)
            case let .takeUp(room?): taken.ask(room)
            default: break
            }
        }
    }
}
