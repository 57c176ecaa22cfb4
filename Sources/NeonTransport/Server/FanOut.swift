import NeonTransportCore

/// What the delegate's calls do to the service threads, collected on the
/// gateway thread: one outbox of commands per shard, posted once per
/// gateway round (one lock and at most one wake-up per shard, however many
/// frames or recipients the round produced).
///
/// A frame sent to many connections is split by shard in one pass: each
/// shard gets the same ``OutboundFrame`` object (framed once, never
/// written after) with its own connections, so a broadcast is encoded once
/// and no lock is taken per delivery. Gateway thread only.
final class FanOut {
    let configuration: WebSocketServer.Configuration
    private let ring: ShardRing
    private var outboxes: [[ServerCommand]]
    /// The connection whose `connected` event is being handled, with its
    /// handshake's proxy headers (read on its shard at ESTABLISHED).
    var connecting: (id: ConnectionID, forwarding: ForwardingHeaders?)?
    /// Every shard's backlog, gathered for the HTTP request being answered.
    var backlog = Backlog.empty

    /// Sockets each service thread serves now (connections and HTTP
    /// requests), as the acceptor counts them; empty with one thread.
    var socketsPerThread: [Int] {
        ring.count > 1 ? ring.loadsNow : []
    }

    init(configuration: WebSocketServer.Configuration, ring: ShardRing) {
        self.configuration = configuration
        self.ring = ring
        outboxes = [[ServerCommand]](repeating: [], count: ring.count)
    }

    func send(_ frame: OutboundFrame, to connection: ConnectionID) {
        outboxes[ring.map.shard(of: connection)].append(.send(frame, connection))
    }

    func send(_ frame: OutboundFrame, to connections: [ConnectionID]) {
        if ring.count == 1 {
            outboxes[0].append(connections.count == 1 ? .send(frame, connections[0]) : .broadcast(frame, connections))
            return
        }
        for (shard, part) in ring.map.split(connections).enumerated() where !part.isEmpty {
            outboxes[shard].append(part.count == 1 ? .send(frame, part[0]) : .broadcast(frame, part))
        }
    }

    /// Queues `command` for the shard of `connection`.
    func post(_ command: ServerCommand, to connection: ConnectionID) {
        outboxes[ring.map.shard(of: connection)].append(command)
    }

    /// Queues `command` for `shard`.
    func post(_ command: ServerCommand, toShard shard: Int) {
        outboxes[shard].append(command)
    }

    /// Queues `command` for every shard.
    func postToEveryShard(_ command: ServerCommand) {
        for shard in outboxes.indices { outboxes[shard].append(command) }
    }

    /// Hands each shard what the round queued for it.
    func flush() {
        for shard in outboxes.indices where !outboxes[shard].isEmpty {
            ring.queues[shard].post(contentsOf: outboxes[shard])
            outboxes[shard].removeAll(keepingCapacity: true)
        }
    }
}
