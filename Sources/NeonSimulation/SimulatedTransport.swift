import NeonServer
import NeonTransportCore

/// One node's transport as its executor sees it: frames go into the
/// simulated network's connections of that node's run. Nothing waits unsent
/// in a queue the node could still replace, so nothing coalesces; timers
/// are never set (the simulation runs without a hello timeout).
struct SimulatedTransport: TransportContext {
    let network: SimulatedNetwork
    let node: Int
    let incarnation: Int

    private func owned(_ connection: ConnectionID) -> Int? {
        let index = network.index(of: connection)
        guard network.connections.indices.contains(index), network[index].node == node,
              network[index].incarnation == incarnation else { return nil }
        return index
    }

    func send(text bytes: [UInt8], coalescingKey: String?, to connections: [ConnectionID]) {
        let frame = String(decoding: bytes, as: UTF8.self)
        for connection in connections {
            if let index = owned(connection) { network.nodeSends(frame, on: index) }
        }
    }

    func close(_ connection: ConnectionID, code: UInt16, reason: String) {
        if let index = owned(connection) { network.nodeCloses(index, code: code) }
    }

    func setTimer(for connection: ConnectionID, after delay: Duration?) {}

    var backlog: Backlog { .empty }
    var socketsPerThread: [Int] { [] }

    func forwardingHeaders(of connection: ConnectionID) -> ForwardingHeaders? { nil }
}
