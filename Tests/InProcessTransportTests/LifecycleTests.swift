import Glibc
import NeonTransport
import NeonTransportCore
import Testing
import NeonTestSupport

@Suite("Starting and stopping", .ownThreads)
struct LifecycleTests {
    @Test("Port 0 binds an ephemeral port that is reported after start and cleared after stop")
    func ephemeralPort() throws {
        let server = WebSocketServer(delegate: TestHub())
        #expect(server.port == nil)
        try server.start()
        let port = try #require(server.port)
        #expect(port > 0 && port != 7681)
        server.stop()
        #expect(server.port == nil)
    }

    @Test("A port already in use fails start with an actionable message")
    func portInUse() throws {
        let first = WebSocketServer(delegate: TestHub())
        try first.start()
        defer { first.stop() }
        let port = try #require(first.port)
        let second = WebSocketServer(configuration: .init(port: port), delegate: TestHub())
        #expect(throws: TransportError.cannotListen(host: "127.0.0.1", port: port, errno: EADDRINUSE)) {
            try second.start()
        }
        let message = TransportError.cannotListen(host: "127.0.0.1", port: port, errno: EADDRINUSE).description
        #expect(message.hasPrefix("cannot listen on 127.0.0.1:\(port): address already in use"))
        #expect(second.port == nil)
        second.stop()
    }

    @Test("stop() sends 1001 to every client and returns promptly")
    func stopClosesWithGoingAway() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        let clients = try await withThrowingTaskGroup(of: WebSocketClient.self) { group in
            for _ in 0..<5 {
                group.addTask { try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await eventually { hub.connected.count == 5 })

        let started = ContinuousClock.now
        server.stop()
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .milliseconds(900))
        #expect(hub.disconnects.count == 5)
        #expect(hub.disconnects.allSatisfy { $0.1.code == CloseCode.goingAway && !$0.1.initiatedByPeer })
        for client in clients {
            let close = try await client.waitForClose()
            #expect(close.code == CloseCode.goingAway)
            #expect(close.reason == "server shutting down")
        }
        server.stop()
    }

    @Test("stop() gives up on a client that never answers the close after the grace period")
    func stopIsBounded() throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer(.init(shutdownGracePeriod: .milliseconds(300)))
        let silent = try RawWebSocket(port: port)
        let started = ContinuousClock.now
        server.stop()
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(250))
        #expect(elapsed < .seconds(2))
        #expect(hub.disconnects.count == 1)
        #expect(silent.socket.waitForEndOfStream())
    }

    @Test("A server can be started once; a second start or a start after stop is refused")
    func startOnce() throws {
        let server = WebSocketServer(delegate: TestHub())
        try server.start()
        #expect(throws: TransportError.alreadyRunning) { try server.start() }
        server.stop()
        #expect(throws: TransportError.alreadyRunning) { try server.start() }
    }
}
