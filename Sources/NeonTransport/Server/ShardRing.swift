import Glibc
import NeonLock
import NeonTransportCore

/// A server's service threads as the others see them: each shard's command
/// queue, which shard owns a connection, and how many sockets each holds
/// (for the acceptor's choice). Shared by the shards, the gateway thread
/// and the server's callers; every member is a lock, an atomic or immutable.
final class ShardRing: Sendable {
    /// Shard `k`'s commands, from any thread.
    let queues: [ServiceThreadQueue<ServerCommand>]
    let map: ShardMap
    /// Sockets handed to each shard and not yet destroyed there.
    private let loads: Locked<[Int]>

    init(count: Int) {
        map = ShardMap(count: count)
        queues = (0..<count).map { _ in ServiceThreadQueue<ServerCommand>() }
        loads = Locked([Int](repeating: 0, count: count))
    }

    var count: Int { map.count }

    /// Posts `command` to the shard that owns `connection`.
    @discardableResult
    func post(_ command: ServerCommand, to connection: ConnectionID) -> Bool {
        queues[map.shard(of: connection)].post(command)
    }

    /// The shard with the fewest sockets (the lowest index on a tie, which
    /// is round robin while nobody leaves), counted as holding one more.
    func claimLeastLoaded() -> Int {
        loads.withLock { loads in
            var best = 0
            for shard in loads.indices where loads[shard] < loads[best] {
                best = shard
            }
            loads[best] += 1
            return best
        }
    }

    /// A socket handed to `shard` is gone.
    func released(from shard: Int) {
        loads.withLock { loads in
            loads[shard] = max(loads[shard] - 1, 0)
        }
    }

    /// Sockets each shard holds now (for tests and the log).
    var loadsNow: [Int] {
        loads.withLock { $0 }
    }
}
