import NeonTransportCore

/// An async convenience client: one connection whose events are awaited
/// instead of handled. For tests and simple tools; a load generator should
/// use ``WebSocketClientContext`` handlers directly.
///
/// ```swift
/// let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1")
/// client.send(text: "hello")
/// let reply = try await client.receive(timeout: .seconds(2))
/// client.close()
/// ```
///
/// `send` and `close` are safe from any thread; `receive` and
/// `waitForClose` expect one awaiting caller at a time.
public final class WebSocketClient: Sendable {
    /// The underlying connection.
    public let connection: ClientConnection
    private let mailbox: ReceiverMailbox

    private init(connection: ClientConnection, mailbox: ReceiverMailbox) {
        self.connection = connection
        self.mailbox = mailbox
    }

    /// Connects and completes the WebSocket handshake.
    ///
    /// - Parameters:
    ///   - url: `ws://host:port/path` or `wss://host:port/path`.
    ///   - subprotocol: sent as `Sec-WebSocket-Protocol` when given.
    ///   - context: the client context to use; ``WebSocketClientContext/shared()`` by default.
    ///   - timeout: how long to wait for the handshake.
    /// - Throws: ``TransportError/invalidURL(_:reason:)``,
    ///   ``TransportError/connectFailed(url:reason:)``,
    ///   ``TransportError/untrustedServer(url:_:)``,
    ///   ``TransportError/timedOut(_:)``.
    public static func connect(
        url: String,
        subprotocol: String? = nil,
        context contextOrShared: WebSocketClientContext? = nil,
        timeout: Duration = .seconds(5)
    ) async throws(TransportError) -> WebSocketClient {
        let parsed = try WebSocketURL(parsing: url)
        let context: WebSocketClientContext
        if let given = contextOrShared {
            context = given
        } else {
            context = try WebSocketClientContext.shared()
        }
        let mailbox = ReceiverMailbox()
        let connection = try context.connect(to: parsed, subprotocol: subprotocol) { _, event in
            mailbox.deliver(event)
        }
        switch await mailbox.next(timeout: timeout, what: "connecting to \(parsed)") {
        case .success(.connected):
            return WebSocketClient(connection: connection, mailbox: mailbox)
        case .success(.failed(let reason)):
            throw .connectFailed(url: parsed.description, reason: reason)
        case .success(.untrusted(let rejection)):
            throw .untrustedServer(url: parsed.description, rejection)
        case .success(let event):
            connection.close()
            throw .connectFailed(url: parsed.description, reason: "unexpected first event \(event)")
        case .failure(let error):
            connection.close()
            throw error
        }
    }

    /// Queues a text message.
    public func send(text: String) {
        connection.send(text: text)
    }

    /// Queues a binary message.
    public func send(binary: [UInt8]) {
        connection.send(binary: binary)
    }

    /// Queues a prepared frame.
    public func send(_ frame: OutboundFrame) {
        connection.send(frame)
    }

    /// The next message. Skips `.rejected`.
    ///
    /// - Throws: ``TransportError/closed(_:)`` once the connection has
    ///   closed, ``TransportError/timedOut(_:)`` after `timeout`.
    public func receive(timeout: Duration = .seconds(5)) async throws(TransportError) -> WebSocketMessage {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            let result = await mailbox.next(timeout: left, what: "waiting for a message from \(connection.url)")
            switch try result.get() {
            case .received(let message):
                return message
            case .closed(let close):
                throw .closed(close)
            case .failed(let reason):
                throw .connectFailed(url: connection.url.description, reason: reason)
            case .untrusted(let rejection):
                throw .untrustedServer(url: connection.url.description, rejection)
            case .connected, .rejected:
                continue
            }
        }
    }

    /// Discards messages until the connection closes; returns how it closed.
    public func waitForClose(timeout: Duration = .seconds(5)) async throws(TransportError) -> WebSocketClose {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            let result = await mailbox.next(timeout: left, what: "waiting for \(connection.url) to close")
            switch try result.get() {
            case .closed(let close):
                return close
            case .failed(let reason):
                throw .connectFailed(url: connection.url.description, reason: reason)
            case .untrusted(let rejection):
                throw .untrustedServer(url: connection.url.description, rejection)
            case .connected, .received, .rejected:
                continue
            }
        }
    }

    /// Sends a close frame after the queued messages.
    public func close(code: UInt16 = CloseCode.normal, reason: String = "") {
        connection.close(code: code, reason: reason)
    }
}
