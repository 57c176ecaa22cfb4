@testable import NeonTransport
import NeonTransportCore
import NeonTestSupport
import Testing

/// The engines' service-thread state (connections, sessions, flags) is
/// bound to the service thread from the moment it starts: another thread
/// that reaches it stops the process instead of racing the service loop.
@Suite("Engines: service-thread state pinned when the thread starts")
struct ServiceStateTests {
    @Test("a running server's connections, read from another thread, stop the process")
    func serverStateIsPinned() async {
        await #expect(processExitsWith: .failure) {
            let server = WebSocketServer(configuration: .init(), delegate: TestHub())
            _ = try? server.start()
            _ = server.engine.connections.isEmpty
        }
    }

    @Test("a running client context's sessions, read from another thread, stop the process")
    func clientStateIsPinned() async {
        await #expect(processExitsWith: .failure) {
            let context = try? WebSocketClientContext()
            _ = context?.engine.sessions.isEmpty
        }
    }

    @Test("a server that starts and stops touches its state only on its service thread")
    func startAndStop() throws {
        let hub = TestHub()
        let (server, _) = try hub.startServer()
        #expect(server.port != nil)
        server.stop()
        #expect(server.port == nil)
    }
}
