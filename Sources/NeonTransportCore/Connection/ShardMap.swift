/// Which service thread ("shard") of a server owns a connection, from the
/// connection's id alone.
///
/// A server with `count` service threads has shard `k` (0-based) give out
/// the ids `k+1, k+1+count, k+1+2·count, …`, so `(id − 1) mod count` names
/// the shard and no table is needed to route a frame. With one thread the
/// ids are 1, 2, 3, … as they always were.
public struct ShardMap: Sendable, Equatable {
    /// The number of service threads, at least 1.
    public let count: Int

    public init(count: Int) {
        precondition(count >= 1, "a server has at least one service thread")
        self.count = count
    }

    /// The shard that gave out `id`.
    public func shard(of id: ConnectionID) -> Int {
        Int((id.rawValue &- 1) % UInt64(count))
    }

    /// The first id shard `shard` gives out; each next one is `count` more.
    public func firstID(of shard: Int) -> UInt64 {
        precondition((0..<count).contains(shard), "shard \(shard) of \(count)")
        return UInt64(shard) + 1
    }

    /// `ids` split by shard, each shard's in their given order; one pass.
    public func split(_ ids: [ConnectionID]) -> [[ConnectionID]] {
        var shards = [[ConnectionID]](repeating: [], count: count)
        if count == 1 {
            shards[0] = ids
            return shards
        }
        let expected = ids.count / count + 1
        for index in shards.indices { shards[index].reserveCapacity(expected) }
        for id in ids { shards[shard(of: id)].append(id) }
        return shards
    }
}
