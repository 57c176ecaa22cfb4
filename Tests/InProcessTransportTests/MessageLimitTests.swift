import NeonTransport
import NeonTransportCore
import Testing
import NeonTestSupport

@Suite("Inbound messages are reassembled and limited", .ownThreads)
struct MessageLimitTests {
    @Test("A 300 KB text and binary message round-trips intact")
    func largeMessagesRoundTrip() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer(.init(maxMessageSize: 512 * 1024))
        defer { server.stop() }
        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1")

        let text = String((0..<300 * 1024).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        client.send(text: text)
        #expect(try await client.receive() == .text(text))

        let binary = (0..<300 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        client.send(binary: binary)
        #expect(try await client.receive() == .binary(binary))
        client.close()
        _ = try await client.waitForClose()
    }

    @Test("A message sent as many WebSocket fragments arrives as one message")
    func fragmentedFramesReassembled() async throws {
        let hub = TestHub(echo: false)
        let (server, port) = try hub.startServer(.init(maxMessageSize: 512 * 1024))
        defer { server.stop() }
        let raw = try RawWebSocket(port: port)

        try raw.sendFragmented(opcode: 0x1, Array("hello, fragmented wörld".utf8), fragmentSize: 4)
        let binary = (0..<300 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try raw.sendFragmented(opcode: 0x2, binary, fragmentSize: 30 * 1024)

        #expect(await eventually { hub.events.count >= 3 })
        let messages = hub.events.compactMap { event -> WebSocketMessage? in
            if case .received(let message, _) = event { return message }
            return nil
        }
        #expect(messages == [.text("hello, fragmented wörld"), .binary(binary)])
    }

    @Test("A message over the limit is reported, answered, then closed with 1009")
    func tooBigClosesWith1009() async throws {
        let hub = TestHub(echo: true) { _, server, event in
            if case .rejected(.messageTooBig, let id) = event {
                server.send(OutboundFrame(text: "error: too big"), to: id)
            }
        }
        let (server, port) = try hub.startServer(.init(maxMessageSize: 100_000))
        defer { server.stop() }
        let client = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", subprotocol: "neonsync.v1")

        client.send(text: String(repeating: "x", count: 100_000))
        #expect(try await client.receive() == .text(String(repeating: "x", count: 100_000)))

        client.send(text: String(repeating: "y", count: 100_001))
        #expect(try await client.receive() == .text("error: too big"))
        let close = try await client.waitForClose()
        #expect(close.code == CloseCode.messageTooBig)
        #expect(close.initiatedByPeer)

        #expect(await eventually { hub.disconnects.count == 1 })
        let rejections = hub.events.compactMap { event -> InboundRejection? in
            if case .rejected(let rejection, _) = event { return rejection }
            return nil
        }
        #expect(rejections == [.messageTooBig(limit: 100_000)])
        #expect(hub.disconnects.first?.1.code == CloseCode.messageTooBig)
    }

    @Test("Fragments adding up past the limit are refused with 1009")
    func fragmentsOverLimit() async throws {
        let hub = TestHub(echo: false)
        let (server, port) = try hub.startServer(.init(maxMessageSize: 10_000))
        defer { server.stop() }
        let raw = try RawWebSocket(port: port)
        try raw.send(fin: false, opcode: 0x2, [UInt8](repeating: 1, count: 6_000))
        try raw.send(fin: false, opcode: 0x0, [UInt8](repeating: 2, count: 6_000))
        let frame = try raw.receive()
        #expect(frame.opcode == 0x8)
        #expect(frame.closeCode == CloseCode.messageTooBig)
        try raw.send(opcode: 0x8, frame.payload)
        #expect(await eventually { hub.disconnects.count == 1 })
        #expect(hub.disconnects.first?.1.code == CloseCode.messageTooBig)
    }

    @Test("Invalid UTF-8 in a text message is reported and closed with 1007")
    func invalidUTF8ClosesWith1007() async throws {
        let hub = TestHub(echo: false)
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let raw = try RawWebSocket(port: port)
        try raw.send(opcode: 0x1, [0x68, 0x69, 0xC3, 0x28])
        let frame = try raw.receive()
        #expect(frame.closeCode == CloseCode.invalidPayload)
        try raw.send(opcode: 0x8, frame.payload)
        #expect(await eventually { hub.disconnects.count == 1 })
        #expect(hub.events.contains { $0 == .rejected(.invalidUTF8, from: hub.disconnects[0].0) })
    }
}
