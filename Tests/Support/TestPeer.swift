import Foundation
import NeonCore
import NeonTransport

/// A protocol-speaking test client on the project's own transport.
public final class TestPeer: Sendable {
    public let client: WebSocketClient
    let codec = WireCodec()

    public static func connect(_ server: ServerProcess) async throws -> TestPeer {
        TestPeer(client: try await WebSocketClient.connect(url: server.url, subprotocol: "neonsync.v1"))
    }

    /// Connects to `url` through the shared client context.
    public static func connect(url: String) async throws -> TestPeer {
        TestPeer(client: try await WebSocketClient.connect(url: url, subprotocol: "neonsync.v1"))
    }

    /// Connects to `url` (ws:// or wss://) through `context`.
    public static func connect(url: String, context: WebSocketClientContext) async throws -> TestPeer {
        TestPeer(client: try await WebSocketClient.connect(url: url, subprotocol: "neonsync.v1", context: context))
    }

    private init(client: WebSocketClient) { self.client = client }

    public func send(_ message: ClientMessage) {
        client.send(text: String(decoding: codec.encode(message), as: UTF8.self))
    }

    public func sendRaw(_ text: String) { client.send(text: text) }

    /// The next text frame exactly as it arrived.
    public func nextText(timeout: Duration = .seconds(5)) async throws -> String {
        let message = try await client.receive(timeout: timeout)
        guard case let .text(text) = message else {
            throw ServerProcessError("expected a text message, got \(message)")
        }
        return text
    }

    /// The next server message, decoded; fails the test on timeout.
    public func next(timeout: Duration = .seconds(5)) async throws -> ServerMessage {
        try codec.decodeServer(Array(try await nextText(timeout: timeout).utf8))
    }

    /// Skips messages until one of `type` arrives.
    public func next(_ type: String, timeout: Duration = .seconds(5)) async throws -> ServerMessage {
        while true {
            let m = try await next(timeout: timeout)
            if m.type == type { return m }
        }
    }

    /// Joins and returns the welcome.
    /// Joins and waits for the welcome. The wait is long: in the first
    /// seconds of the whole suite every test connects at once on 2 cores,
    /// and a welcome can take more than `next`'s 5 s then.
    public func hello(room: String, name: String, role: Role, timeout: Duration = .seconds(20)) async throws -> Welcome {
        send(.hello(room: room, name: name, role: role))
        let m = try await next("welcome", timeout: timeout)
        guard case let .welcome(w) = m.payload else { throw ServerProcessError("no welcome") }
        return w
    }

    public func error(timeout: Duration = .seconds(5)) async throws -> ProtocolError {
        let m = try await next("error", timeout: timeout)
        guard case let .error(e) = m.payload else { throw ServerProcessError("no error") }
        return e
    }

    public func close() { client.close() }
}
