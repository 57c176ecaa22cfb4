@testable import NeonTransport
@testable import NeonTransportCore
import Synchronization
import NeonTestSupport
import Testing

@Suite("Server and client exchange messages", .ownThreads)
struct EchoTests {
    @Test("An async client gets its text and binary messages echoed back by the delegate")
    func echoRoundTrip() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        defer { server.stop() }

        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1")
        client.send(text: "hello, ünïcode ✓")
        #expect(try await client.receive(timeout: .seconds(5)) == .text("hello, ünïcode ✓"))
        client.send(binary: [0, 1, 2, 255])
        #expect(try await client.receive(timeout: .seconds(5)) == .binary([0, 1, 2, 255]))
        client.send(text: "")
        #expect(try await client.receive(timeout: .seconds(5)) == .text(""))

        client.close()
        let close = try await client.waitForClose(timeout: .seconds(5))
        #expect(close.code == CloseCode.normal)
        #expect(close.initiatedByPeer == false)
        #expect(await eventually { hub.disconnects.count == 1 })
        #expect(hub.disconnects.first?.1.code == CloseCode.normal)
        #expect(hub.disconnects.first?.1.initiatedByPeer == true)
    }

    @Test("The delegate learns the peer address of a new connection")
    func peerAddress() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/")
        #expect(await eventually { !hub.connected.isEmpty })
        let peers = hub.events.compactMap { event -> String? in
            if case .connected(_, let peer, _) = event { return peer }
            return nil
        }
        #expect(peers == ["127.0.0.1"])
        client.close()
        _ = try await client.waitForClose()
    }

    @Test("A client that names no subprotocol is still served")
    func noSubprotocol() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/anything?x=1")
        client.send(text: "ping")
        #expect(try await client.receive() == .text("ping"))
        client.close()
        _ = try await client.waitForClose()
    }

    @Test("send from a thread that is not the service thread reaches the client")
    func crossThreadSend() async throws {
        let hub = TestHub(echo: false)
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1")
        #expect(await eventually { hub.connected.count == 1 })
        let id = hub.connected[0]
        #expect(!server.isServiceThread)
        for index in 0..<100 {
            server.send(OutboundFrame(text: "m\(index)"), to: id)
        }
        for index in 0..<100 {
            #expect(try await client.receive() == .text("m\(index)"))
        }
        client.close()
        _ = try await client.waitForClose()
    }

    @Test("Sending to a connection that has closed, or never existed, is harmless")
    func sendToClosedConnection() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let first = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1")
        #expect(await eventually { hub.connected.count == 1 })
        let gone = hub.connected[0]
        first.close()
        _ = try await first.waitForClose()
        #expect(await eventually { hub.connected.isEmpty })

        server.send(OutboundFrame(text: "late"), to: gone)
        server.send(OutboundFrame(text: "late"), to: [gone, ConnectionID(rawValue: 999)])
        server.close(gone, code: CloseCode.normal, reason: "already gone")
        first.send(text: "after close")

        let second = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1")
        second.send(text: "still serving")
        #expect(try await second.receive() == .text("still serving"))
        second.close()
        _ = try await second.waitForClose()
    }

    @Test("close(_:code:reason:) flushes queued frames before the close frame")
    func closeAfterFlush() async throws {
        let hub = TestHub(echo: false) { _, server, event in
            guard case .received(.text("bye"), let id) = event else { return }
            server.send(OutboundFrame(text: "one"), to: id)
            server.send(OutboundFrame(text: "two"), to: id)
            server.close(id, code: CloseCode.policyViolation, reason: "enough")
            server.send(OutboundFrame(text: "never"), to: id)
        }
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1")
        client.send(text: "bye")
        #expect(try await client.receive() == .text("one"))
        #expect(try await client.receive() == .text("two"))
        let close = try await client.waitForClose()
        #expect(close == WebSocketClose(code: CloseCode.policyViolation, reason: "enough", initiatedByPeer: true))
    }
}
