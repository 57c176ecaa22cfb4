import NeonTransportCore

/// The server as a delegate call sees it: handed to each
/// ``WebSocketServerDelegate`` call (and to work run with
/// ``WebSocketServer/execute(_:)``) instead of a reference the delegate
/// keeps. Valid only during that call, on the service thread, where it acts
/// at once: no lock, no wake-up.
public struct ServiceContext {
    unowned let engine: ServerEngine

    init(_ engine: ServerEngine) {
        self.engine = engine
    }

    /// The server's configuration.
    public var configuration: WebSocketServer.Configuration { engine.configuration }

    /// Queues `frame` to one connection; unknown or closing ones ignore it.
    public func send(_ frame: OutboundFrame, to connection: ConnectionID) {
        engine.perform(.send(frame, connection))
    }

    /// Queues the same `frame` object to every listed connection.
    public func send(_ frame: OutboundFrame, to connections: [ConnectionID]) {
        engine.perform(.broadcast(frame, connections))
    }

    /// Closes a connection after the frames already queued to it.
    public func close(_ connection: ConnectionID, code: UInt16 = CloseCode.normal, reason: String = "") {
        engine.perform(.close(connection, code: code, reason: reason))
    }

    /// Sets (or with nil cancels) the connection's one timer.
    public func setTimer(for connection: ConnectionID, after delay: Duration?) {
        engine.perform(.timer(connection, delay))
    }

    /// Frames and bytes waiting to be written to `connection`; nil if it is not open.
    public func queueDepth(of connection: ConnectionID) -> QueueDepth? {
        engine.connections[connection]?.queue.depth
    }

    /// Frames dropped since start because a newer frame with the same
    /// coalescing key replaced them before they were written.
    public var coalescedFrames: Int {
        engine.connections.coalescedFrames
    }
}
