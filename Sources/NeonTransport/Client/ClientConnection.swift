import NeonTransportCore

/// One outgoing WebSocket connection of a ``WebSocketClientContext``.
///
/// Thread-safe: `send` and `close` may be called from any thread. On the
/// context's service thread (inside a handler) they act immediately;
/// elsewhere they are posted in order to the service thread. Frames sent
/// before `.connected` are queued and go out once the handshake completes.
/// Sending after the connection ended is a harmless no-op.
public final class ClientConnection: Sendable, Hashable {
    /// Receives the connection's events on the service thread.
    public typealias Handler = @Sendable (ClientConnection, ClientEvent) -> Void

    /// Unique within its context.
    public let id: ConnectionID
    /// Where it connects.
    public let url: WebSocketURL
    /// The `Sec-WebSocket-Protocol` it asks for, if any.
    public let subprotocol: String?
    let engine: ClientEngine

    init(id: ConnectionID, url: WebSocketURL, subprotocol: String?, engine: ClientEngine) {
        self.id = id
        self.url = url
        self.subprotocol = subprotocol
        self.engine = engine
    }

    /// Queues `frame` (the payload is copied before masking, so one frame
    /// may be sent on many connections).
    public func send(_ frame: OutboundFrame) {
        engine.submit(.send(frame, id))
    }

    /// Queues a text message.
    public func send(text: String) {
        send(OutboundFrame(text: text))
    }

    /// Queues a binary message.
    public func send(binary: [UInt8]) {
        send(OutboundFrame(binary: binary))
    }

    /// Sends a close frame with `code` and `reason` after the queued frames;
    /// the handler then gets `.closed`.
    public func close(code: UInt16 = CloseCode.normal, reason: String = "") {
        engine.submit(.close(id, code: code, reason: reason))
    }

    /// Frames and bytes waiting to be written; `nil` once the connection
    /// ended. Service thread only (call it from the handler).
    public func queueDepth() -> QueueDepth? {
        precondition(engine.lifecycle.isServiceThread, "queueDepth() must be called on the service thread")
        return engine.sessions[id]?.session.queue.depth
    }

    public static func == (lhs: ClientConnection, rhs: ClientConnection) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
