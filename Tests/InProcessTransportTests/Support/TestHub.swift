import Glibc
import NeonLock
import NeonTransport
import NeonTransportCore

/// A server delegate for tests: records every event, echoes messages when
/// asked, serves `/healthz`, and can run a hook on each event.
final class TestHub: WebSocketServerDelegate {
    struct State {
        var events: [ServerEvent] = []
        var connected: [ConnectionID] = []
    }

    let echo: Bool
    let state = Locked(State())
    let onEvent: (@Sendable (TestHub, ServiceContext, ServerEvent) -> Void)?

    init(echo: Bool = true, onEvent: (@Sendable (TestHub, ServiceContext, ServerEvent) -> Void)? = nil) {
        self.echo = echo
        self.onEvent = onEvent
    }

    /// The service threads of every test server that asks for none:
    /// `$NEONSYNC_TEST_THREADS`, else 1 (scripts/test-tiers.sh runs this
    /// tier once more with 3).
    static let threads = getenv("NEONSYNC_TEST_THREADS").flatMap { Int(String(cString: $0)) } ?? 1

    /// The event loop of every test server that asks for the default:
    /// `$NEONSYNC_TEST_EVENT_LOOP` (epoll or poll), else epoll
    /// (scripts/test-tiers.sh runs the threads tier on poll).
    static let eventLoop = getenv("NEONSYNC_TEST_EVENT_LOOP").flatMap { ServiceLoop(rawValue: String(cString: $0)) } ?? .epoll

    /// Makes and starts a server on 127.0.0.1, ephemeral port.
    func startServer(
        _ configuration: WebSocketServer.Configuration = .init()
    ) throws -> (WebSocketServer, Int) {
        var configuration = configuration
        if configuration.threads == 1 { configuration.threads = Self.threads }
        if configuration.eventLoop == .epoll { configuration.eventLoop = Self.eventLoop }
        let server = WebSocketServer(configuration: configuration, delegate: self)
        try server.start()
        return (server, server.port!)
    }

    func handle(_ event: ServerEvent, in context: ServiceContext) {
        state.withLock { state in
            state.events.append(event)
            switch event {
            case .connected(let id, _, _): state.connected.append(id)
            case .disconnected(let id, _): state.connected.removeAll { $0 == id }
            default: break
            }
        }
        if echo, case .received(let message, let id) = event {
            switch message {
            case .text(let text): context.send(OutboundFrame(text: text), to: id)
            case .binary(let bytes): context.send(OutboundFrame(binary: bytes), to: id)
            }
        }
        onEvent?(self, context, event)
    }

    func respond(to request: HTTPRequest, in context: ServiceContext) -> HTTPResponse {
        if request.method == "GET" && request.path == "/healthz" {
            return .text("ok")
        }
        return .notFound
    }

    var events: [ServerEvent] { state.withLock { $0.events } }
    var connected: [ConnectionID] { state.withLock { $0.connected } }

    /// Disconnect events, in order.
    var disconnects: [(ConnectionID, WebSocketClose)] {
        events.compactMap {
            if case .disconnected(let id, let close) = $0 { return (id, close) }
            return nil
        }
    }
}
