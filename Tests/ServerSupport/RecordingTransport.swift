import NeonCore
import NeonServer
import NeonTransport
import NeonTransportCore

/// The transport as an in-process test sees it: records what the executor
/// asks of each connection (its frames, decoded; its close; its timer) and
/// acts as a connection that reads everything at once would (nothing waits
/// unsent, so nothing coalesces). What is sent to a connection the server
/// closed or the peer left is ignored, as the real transport ignores it.
/// Used on the test's thread only.
package final class RecordingTransport: TransportContext {
    /// A close the server asked for.
    package struct Close: Equatable {
        package var code: UInt16
        package var reason: String

        package init(code: UInt16, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    /// What one connection got.
    package struct Connection {
        package var forwarding: ForwardingHeaders?
        /// Every frame that reached it, decoded, in order.
        package var messages: [ServerMessage] = []
        /// The raw text of each frame, as it went out.
        package var texts: [String] = []
        /// Its timer, as last set (nil: none).
        package var timer: Duration?
        /// The server closed it.
        package var close: Close?
        /// The server's close was reported back as a disconnect.
        package var reported = false
        /// The peer left.
        package var gone = false

        package var isOpen: Bool { close == nil && !gone }
    }

    package private(set) var connections: [ConnectionID: Connection] = [:]
    private let codec = WireCodec()

    /// A connection whose handshake just completed.
    package func open(_ connection: ConnectionID, forwarding: ForwardingHeaders?) {
        connections[connection] = Connection(forwarding: forwarding)
    }

    /// The peer of `connection` left.
    package func leave(_ connection: ConnectionID) {
        connections[connection]?.gone = true
    }

    /// `connection`'s timer runs out: it is no longer set.
    package func runOut(timerOf connection: ConnectionID) {
        precondition(connections[connection]?.timer != nil, "\(connection) has no timer set")
        connections[connection]!.timer = nil
    }

    /// The connections the server closed that the executor has not yet been
    /// told are gone; each is returned once.
    package func takeUnreportedCloses() -> [(ConnectionID, Close)] {
        let closed = connections.filter { $0.value.close != nil && !$0.value.reported && !$0.value.gone }
            .sorted { $0.key < $1.key }
        for (connection, _) in closed { connections[connection]?.reported = true }
        return closed.map { ($0.key, $0.value.close!) }
    }

    package func send(text bytes: [UInt8], coalescingKey: String?, to targets: [ConnectionID]) {
        let message = try? codec.decodeServer(bytes)
        precondition(message != nil, "the executor sent a frame that is no server message: \(String(decoding: bytes, as: UTF8.self))")
        for connection in targets where connections[connection]?.isOpen == true {
            connections[connection]!.messages.append(message!)
            connections[connection]!.texts.append(String(decoding: bytes, as: UTF8.self))
        }
    }

    package func close(_ connection: ConnectionID, code: UInt16, reason: String) {
        guard connections[connection]?.isOpen == true else { return }
        connections[connection]!.close = Close(code: code, reason: reason)
    }

    package func setTimer(for connection: ConnectionID, after delay: Duration?) {
        guard connections[connection]?.isOpen == true else { return }
        connections[connection]!.timer = delay
    }

    /// Nothing waits: everything is read at once.
    package let backlog = Backlog.empty
    package let socketsPerThread: [Int] = []

    package func forwardingHeaders(of connection: ConnectionID) -> ForwardingHeaders? {
        connections[connection]?.forwarding
    }
}
