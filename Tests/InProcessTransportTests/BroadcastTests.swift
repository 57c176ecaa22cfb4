import NeonLock
@testable import NeonTransport
@testable import NeonTransportCore
import NeonTestSupport
import Testing

/// Messages received per client connection.
final class Received: Sendable {
    let storage = Locked<[ConnectionID: [WebSocketMessage]]>([:])
}

@Suite("One frame is broadcast to many connections", .ownThreads)
struct BroadcastTests {
    /// Opens `count` connections on one client context; each records what it receives.
    private func connectMany(
        _ count: Int, port: Int, context: WebSocketClientContext
    ) throws -> (connections: [ClientConnection], inbox: Received) {
        let url = try WebSocketURL(parsing: "ws://127.0.0.1:\(port)/")
        let inbox = Received()
        let connections = try (0..<count).map { _ in
            try context.connect(to: url, subprotocol: "neonsync.v1") { connection, event in
                if case .received(let message) = event {
                    inbox.storage.withLock { $0[connection.id, default: []].append(message) }
                }
            }
        }
        return (connections, inbox)
    }

    @Test("50 clients each receive one broadcast frame sent from outside the service thread")
    func broadcastFromOtherThread() async throws {
        let hub = TestHub(echo: false)
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let (connections, inbox) = try connectMany(50, port: port, context: context)
        #expect(await eventually { hub.connected.count == 50 })

        let frame = OutboundFrame(text: "{\"type\":\"broadcast\"}")
        server.send(frame, to: hub.connected)
        #expect(await eventually { inbox.storage.withLock { $0.values.reduce(0) { $0 + $1.count } } == 50 })
        let received = inbox.storage.withLock { $0 }
        #expect(Set(received.keys) == Set(connections.map(\.id)))
        #expect(received.values.allSatisfy { $0 == [.text("{\"type\":\"broadcast\"}")] })
    }

    @Test("A broadcast made inside a delegate callback reaches every client, the sender too")
    func broadcastFromServiceThread() async throws {
        let hub = TestHub(echo: false) { hub, server, event in
            guard case .received(let message, _) = event, let text = message.text else { return }
            server.send(OutboundFrame(text: "relay: " + text), to: hub.connected)
        }
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let (connections, inbox) = try connectMany(20, port: port, context: context)
        #expect(await eventually { hub.connected.count == 20 })

        connections[7].send(text: "shout")
        #expect(await eventually { inbox.storage.withLock { $0.values.reduce(0) { $0 + $1.count } } == 20 })
        #expect(inbox.storage.withLock { $0.values.allSatisfy { $0 == [.text("relay: shout")] } })
    }

    @Test("One frame sent on many client connections arrives intact on each (payload copied before masking)")
    func sharedFrameFromClients() async throws {
        let hub = TestHub(echo: false)
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let (connections, _) = try connectMany(10, port: port, context: context)
        let frame = OutboundFrame(text: "same bytes for all")
        for connection in connections {
            connection.send(frame)
        }
        #expect(await eventually { hub.events.filter { if case .received = $0 { true } else { false } }.count == 10 })
        let texts = hub.events.compactMap { event -> String? in
            if case .received(let message, _) = event { return message.text }
            return nil
        }
        #expect(texts == Array(repeating: "same bytes for all", count: 10))
    }

    @Test("Rounds of one frame (written at once) and of several (corked) alternate, and every client gets them all in order")
    func roundsOfOneAndOfSeveral() async throws {
        // Each message asks for that many frames, sent in its callback: one service round.
        let hub = TestHub(echo: false) { hub, server, event in
            guard case .received(let message, _) = event, let text = message.text, let count = Int(text) else { return }
            for index in 0..<count { server.send(OutboundFrame(text: "\(text).\(index)"), to: hub.connected) }
        }
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let (connections, inbox) = try connectMany(5, port: port, context: context)
        #expect(await eventually { hub.connected.count == 5 })

        // A busy round makes a connection cork for a while; at most 16 rounds of one frame bring it back to writing at once.
        let rounds = [1, 1, 3, 1, 2] + Array(repeating: 1, count: Session.batchingRounds + 2) + [4, 1, 1]
        var expected: [WebSocketMessage] = []
        for count in rounds {
            connections[0].send(text: "\(count)")
            expected += (0..<count).map { .text("\(count).\($0)") }
            let total = expected.count
            #expect(await eventually { inbox.storage.withLock { $0.values.allSatisfy { $0.count == total } && $0.count == 5 } })
        }
        let received = inbox.storage.withLock { $0 }
        for connection in connections {
            #expect(received[connection.id] == expected)
        }
    }

    @Test("Frames queued together go out corked in one write and arrive intact, in order, every length form included")
    func corkedFrames() async throws {
        let sizes = [0, 1, 125, 126, 127, 300, 65_535, 65_536, 70_000, 5, 64]
        let frames = sizes.enumerated().map { index, size in
            index % 3 == 2
                ? OutboundFrame(binary: (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) })
                : OutboundFrame(text: String(repeating: Character(UnicodeScalar(UInt8(97 + index))), count: size))
        }
        let hub = TestHub(echo: false) { hub, server, event in
            guard case .received = event else { return }
            // Queued in one callback: the connection's next WRITEABLE finds them all.
            for frame in frames { server.send(frame, to: hub.connected) }
        }
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let (connections, inbox) = try connectMany(3, port: port, context: context)
        #expect(await eventually { hub.connected.count == 3 })

        connections[0].send(text: "go")
        #expect(await eventually { inbox.storage.withLock { $0.values.reduce(0) { $0 + $1.count } } == 3 * sizes.count })
        let expected: [WebSocketMessage] = frames.map { frame in
            frame.withPayload { bytes in
                frame.kind == .text ? .text(String(decoding: bytes, as: UTF8.self)) : .binary(Array(bytes))
            }
        }
        let received = inbox.storage.withLock { $0 }
        for connection in connections {
            #expect(received[connection.id] == expected)
        }
    }

    @Test("Frames bigger than the socket takes at once, to a reader that pauses: the rest waits in lws, later frames behind it, and every frame arrives whole and in order")
    func partialWritesResume() async throws {
        // A frame longer than Session.directLimit goes out as lws would
        // send it: its first 4 KiB by the session's own send, the rest
        // handed to lws, which sends 4 KiB more and keeps the rest (5 MB
        // is also more than a loopback socket's send buffer holds) to write
        // as the socket drains; the small frames after it wait their turn.
        // With the rest dropped instead of handed over, this test fails.
        let sizes = [5_000_000, 100, 70_000, 3, 5_000_000, 40, 126, 65_536]
        let payloads = sizes.enumerated().map { index, size in (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) } }
        let frames = payloads.map { OutboundFrame(binary: $0) }
        let hub = TestHub(echo: false) { hub, server, event in
            guard case .received(_, let id) = event else { return }
            for frame in frames { server.send(frame, to: id) }
        }
        let (server, port) = try hub.startServer(.init(maxOutboundBytes: 32 << 20))
        defer { server.stop() }
        let reader = try RawWebSocket(port: port, receiveBuffer: 4096)
        #expect(await eventually { hub.connected.count == 1 })
        try reader.send(text: "go")
        try await Task.sleep(for: .milliseconds(300))
        for (index, payload) in payloads.enumerated() {
            let frame = try reader.receive()
            #expect(frame.opcode == 2 && frame.fin, "frame \(index)")
            #expect(frame.payload.count == payload.count, "frame \(index): \(frame.payload.count) bytes, not \(payload.count)")
            #expect(frame.payload == payload, "frame \(index)'s bytes")
        }
    }

    @Test("Frames written at once to a reader that stopped reading fill its socket: a send comes back partial, lws keeps the rest, and once the reader reads again every frame arrives whole and in order")
    func partialDirectSends() async throws {
        // 2,000 frames of about 3 KB, each sent on its own so that most
        // rounds bring one: each is written at once with the session's own
        // send (under Session.directLimit), until the socket holds all the
        // kernel takes for a reader that reads nothing (2.8 MB here); the
        // send that meets the full socket takes part of its frame or none
        // of it, lws keeps the rest, and the frames after it wait in the
        // queue.
        let payloads = (0..<2_000).map { index in (0..<(2_900 + index % 150)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) } }
        let hub = TestHub(echo: false)
        let (server, port) = try hub.startServer(.init(maxOutboundBytes: 32 << 20))
        defer { server.stop() }
        let reader = try RawWebSocket(port: port, receiveBuffer: 4096)
        #expect(await eventually { hub.connected.count == 1 })
        let id = try #require(hub.connected.first)
        for payload in payloads {
            server.send(OutboundFrame(binary: payload), to: id)
            try await Task.sleep(for: .microseconds(200))
        }
        try await Task.sleep(for: .milliseconds(300))
        for (index, payload) in payloads.enumerated() {
            let frame = try reader.receive()
            #expect(frame.opcode == 2 && frame.fin, "frame \(index)")
            #expect(frame.payload == payload, "frame \(index): \(frame.payload.count) bytes, \(payload.count) sent")
        }
    }
}
