import NeonTransport
import NeonTransportCore

/// What the executor does to the transport, handed to each of its calls on
/// the gateway thread (as swift-nio hands a handler its context): queue a
/// frame, close, set a timer, read queue depths and proxy headers. In the
/// server it is NeonTransport's `ServiceContext`; in the in-process tests a
/// recording stand-in, so the executor runs without a socket.
package protocol TransportContext {
    /// Queues one text frame of `bytes` to every one of `connections`, the
    /// same frame for all; unknown or closing connections ignore it. A frame
    /// with a `coalescingKey` replaces one with that key still waiting unsent.
    func send(text bytes: [UInt8], coalescingKey: String?, to connections: [ConnectionID])
    /// Closes a connection after the frames already queued to it.
    func close(_ connection: ConnectionID, code: UInt16, reason: String)
    /// Sets (nil: cancels) the connection's one timer.
    func setTimer(for connection: ConnectionID, after delay: Duration?)
    /// What waits unsent on every connection, and the frames coalesced
    /// away since start (a newer one with the same key replaced them):
    /// known while an HTTP request is answered.
    var backlog: Backlog { get }
    /// Sockets each service thread serves now; empty with one thread.
    var socketsPerThread: [Int] { get }
    /// The proxy headers of `connection`'s handshake, read while it connects.
    func forwardingHeaders(of connection: ConnectionID) -> ForwardingHeaders?
}

/// The transport of the server: the libwebsockets service threads, as the
/// gateway thread reaches them.
extension ServiceContext: TransportContext {
    /// The bytes become one `OutboundFrame`, queued to one connection or,
    /// the same object, to many.
    package func send(text bytes: [UInt8], coalescingKey: String?, to connections: [ConnectionID]) {
        let frame = bytes.withUnsafeBytes { OutboundFrame(kind: .text, copying: $0, coalescingKey: coalescingKey) }
        if connections.count == 1 {
            send(frame, to: connections[0])
        } else {
            send(frame, to: connections)
        }
    }
}
