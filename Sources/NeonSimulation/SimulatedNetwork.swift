import NeonTransportCore

/// The sockets between the simulated clients and nodes. A connection is a
/// WebSocket over TCP: each direction delivers its frames in order, and
/// nothing orders one connection's frames against another's. The scheduler
/// picks which frame moves next, so frames are delayed, and reordered
/// across connections, by its choice alone.
///
/// A connection ends the way TCP does: each side learns of the end only
/// after the frames sent before it, and what a dead process had not yet
/// written is gone.
final class SimulatedNetwork {
    struct Connection {
        /// As the node's transport numbers it (unique in a run).
        let id: ConnectionID
        let client: Int
        let node: Int
        /// The node's run the connection was made to: a node that restarted
        /// does not know it.
        let incarnation: Int
        /// The handshake completed.
        var opened = false
        /// Frames the client sent before the handshake completed: the
        /// transport sends them first thing once it has (as
        /// `ClientConnection.send` does).
        var waiting: [String] = []
        /// Client to node, in flight.
        var up: [String] = []
        /// Node to client, in flight.
        var down: [String] = []
        /// Once `up` is delivered, the node learns the connection ended.
        var upEnds = false
        /// Once `down` is delivered, the client learns the connection ended.
        var downEnds = false
        /// The node's executor was told it ended (or the node died).
        var nodeDone = false
        /// The client was told it ended, or left it itself.
        var clientDone = false
        /// The close code the node's executor is told.
        var closeCode: UInt16?
    }

    private(set) var connections: [Connection] = []
    /// The connections either side may still hear of, in order.
    private(set) var unfinished: [Int] = []

    /// A connection from `client` to `node` (run `incarnation`), its
    /// handshake not yet done.
    func open(client: Int, node: Int, incarnation: Int) -> Int {
        connections.append(Connection(id: ConnectionID(rawValue: UInt64(connections.count + 1)), client: client,
                                      node: node, incarnation: incarnation))
        unfinished.append(connections.count - 1)
        return connections.count - 1
    }

    /// Drops from `unfinished` the connections both sides are done with.
    func forgetFinished() {
        unfinished.removeAll { connections[$0].clientDone && (connections[$0].nodeDone || !connections[$0].opened) }
    }

    subscript(index: Int) -> Connection {
        get { connections[index] }
        set { connections[index] = newValue }
    }

    /// The index of the connection with transport id `id`.
    func index(of id: ConnectionID) -> Int {
        Int(id.rawValue) - 1
    }

    /// The client sends `frame`: queued until the handshake is done.
    func clientSends(_ frame: String, on index: Int) {
        guard !connections[index].clientDone, !connections[index].upEnds else { return }
        if connections[index].opened {
            connections[index].up.append(frame)
        } else {
            connections[index].waiting.append(frame)
        }
    }

    /// The node's transport queues `frame`; a connection it closed, or
    /// whose peer is gone, drops it (as the transport does).
    func nodeSends(_ frame: String, on index: Int) {
        guard !connections[index].nodeDone, !connections[index].downEnds else { return }
        connections[index].down.append(frame)
    }

    /// The node closes the connection after what it queued: the client
    /// reads that and then the close; the node reads nothing more.
    func nodeCloses(_ index: Int, code: UInt16) {
        guard !connections[index].nodeDone, !connections[index].downEnds else { return }
        connections[index].downEnds = true
        connections[index].up.removeAll()
        connections[index].upEnds = true
        connections[index].closeCode = code
    }

    /// The client closes the connection (a resync): what it sent before
    /// still reaches the node, then the close; it reads nothing more.
    func clientCloses(_ index: Int) {
        connections[index].clientDone = true
        connections[index].down.removeAll()
        connections[index].waiting.removeAll()
        connections[index].upEnds = true
        connections[index].closeCode = connections[index].closeCode ?? CloseCode.normal
    }

    /// The network between them fails: each side still gets the first
    /// `keepUp` and `keepDown` frames in flight, then learns of the end.
    func cut(_ index: Int, keepUp: Int, keepDown: Int) {
        connections[index].up = Array(connections[index].up.prefix(keepUp))
        connections[index].down = Array(connections[index].down.prefix(keepDown))
        connections[index].waiting.removeAll()
        connections[index].upEnds = true
        connections[index].downEnds = true
    }

    /// The node's process died: what its clients sent is never read, and of
    /// what it queued only the first `keepDown` frames had been written to
    /// the socket; its clients then see the connection end.
    func nodeDied(_ index: Int, keepDown: Int) {
        connections[index].nodeDone = true
        connections[index].up.removeAll()
        connections[index].upEnds = true
        connections[index].down = Array(connections[index].down.prefix(keepDown))
        connections[index].downEnds = true
    }
}
