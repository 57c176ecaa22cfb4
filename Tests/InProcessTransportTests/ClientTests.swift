import NeonTransport
import NeonTransportCore
import NeonTestSupport
import Testing

@Suite("Client connections", .ownThreads)
struct ClientTests {
    @Test("Connecting to a port nobody listens on fails with a reason")
    func connectionRefused() async throws {
        let server = WebSocketServer(delegate: TestHub())
        try server.start()
        let port = try #require(server.port)
        server.stop()
        await #expect {
            _ = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", timeout: .seconds(5))
        } throws: { error in
            guard case TransportError.connectFailed(let url, _) = error else { return false }
            return url == "ws://127.0.0.1:\(port)/"
        }
    }

    @Test("A client handler sees connected, messages and closed in order")
    func handlerEventOrder() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let log = TestLog()
        let connection = try context.connect(to: WebSocketURL(host: "127.0.0.1", port: port), subprotocol: "neonsync.v1") { connection, event in
            log.append(event)
            if event == .connected {
                connection.send(text: "from the handler")
            } else if case .received = event {
                connection.close(code: CloseCode.normal, reason: "done")
            }
        }
        connection.send(text: "queued before connect")
        #expect(await eventually { log.events.last?.isFinal == true })
        #expect(log.events == [
            .connected,
            .received(.text("queued before connect")),
            .closed(WebSocketClose(code: CloseCode.normal, reason: "done", initiatedByPeer: false)),
        ])
    }

    @Test("Stopping a client context closes its connections with 1001")
    func contextStopClosesConnections() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let context = try WebSocketClientContext()
        let log = TestLog()
        _ = try context.connect(to: WebSocketURL(host: "127.0.0.1", port: port)) { _, event in log.append(event) }
        #expect(await eventually { log.events == [.connected] })
        context.stop()
        #expect(log.events.last == .closed(WebSocketClose(code: CloseCode.goingAway, reason: "client shutting down", initiatedByPeer: false)))
        #expect(await eventually { hub.disconnects.first?.1.code == CloseCode.goingAway })
        #expect(throws: TransportError.notRunning) {
            _ = try context.connect(to: WebSocketURL(host: "127.0.0.1", port: port)) { _, _ in }
        }
    }
}
