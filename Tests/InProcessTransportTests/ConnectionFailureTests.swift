import NeonTestSupport
@testable import NeonTransport
@testable import NeonTransportCore
import Testing

/// The rules behind the conformance cases, without sockets, and what the
/// delegate learns when a connection is failed.
@Suite("Failing connections: handshake and close-frame rules, and the close the delegate sees", .ownThreads)
struct ConnectionFailureTests {
    private let key = "dGhlIHNhbXBsZSBub25jZQ=="

    @Test("An upgrade needs Host, a 16-byte base64 key and version 13; each lack has its status and sentence")
    func handshakeRules() {
        #expect(HandshakeRefusal.check(host: "h", key: key, version: "13") == nil)
        #expect(HandshakeRefusal.check(host: "h", key: " \(key)\t", version: " 13 ") == nil)
        #expect(HandshakeRefusal.check(host: nil, key: key, version: "13")?.status == 400)
        #expect(HandshakeRefusal.check(host: "", key: key, version: "13")?.status == 400)
        #expect(HandshakeRefusal.check(host: "h", key: nil, version: "13")?.body == "a WebSocket upgrade needs a Sec-WebSocket-Key header\n")
        for bad in ["c2hvcnQ=", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25jZQ==dG", "dGhlIHNhbXBsZSBub25j*Q==", ""] {
            #expect(HandshakeRefusal.check(host: "h", key: bad, version: "13")?.status == 400, "\(bad)")
        }
        let missing = HandshakeRefusal.check(host: "h", key: key, version: nil)
        #expect(missing?.status == 400)
        #expect(missing?.headers == ["sec-websocket-version: 13"])
        let old = HandshakeRefusal.check(host: "h", key: key, version: "12")
        #expect(old?.status == 426)
        #expect(old?.headers == ["sec-websocket-version: 13"])
        #expect(old?.body == "WebSocket version 12 is not supported; this server speaks version 13\n")
    }

    @Test("A refusal is a whole HTTP/1.1 response that closes the connection")
    func refusalResponse() {
        let refusal = HandshakeRefusal.check(host: "h", key: key, version: "8")!
        let body = "WebSocket version 8 is not supported; this server speaks version 13\n"
        #expect(String(decoding: refusal.response, as: UTF8.self) ==
            "HTTP/1.1 426 Upgrade Required\r\ncontent-type: text/plain; charset=utf-8\r\n"
            + "content-length: \(body.utf8.count)\r\nconnection: close\r\nsec-websocket-version: 13\r\n\r\n" + body)
        #expect(String(decoding: HandshakeRefusal.origin.response, as: UTF8.self).hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
    }

    private func payload(_ bytes: [UInt8]) -> PeerClosePayload {
        bytes.withUnsafeBytes { PeerClosePayload($0) }
    }

    @Test("A peer's close payload: empty or a sendable code with a UTF-8 reason is valid; 1 byte, other codes and non-UTF-8 reasons are not")
    func closePayloadRules() {
        #expect(payload([]) == .valid(code: nil, reason: ""))
        #expect(payload([0x03, 0xE8, 0x62, 0x79, 0x65]) == .valid(code: 1000, reason: "bye"))
        #expect(payload([0x03]) == .invalid(code: 1002, reason: "a close frame's payload cannot be 1 byte"))
        #expect(payload([0x13, 0x88]) == .invalid(code: 1002, reason: "close code 5000 is not one a peer may send"))
        #expect(payload([0x03, 0xE8, 0xFF]) == .invalid(code: 1007, reason: "close reason is not valid UTF-8"))
        let sendable = (0...UInt16.max).filter(PeerClosePayload.mayBeSent)
        #expect(sendable == Array(1000...1003) + Array(1007...1014) + Array(3000...4999))
    }

    @Test("The delegate learns the close that ended a failed connection: lws's own 1002, 1002 for an invalid close, 1007 for text that is not UTF-8")
    func delegateSeesFailures() async throws {
        let hub = TestHub(echo: false)
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let answers = try await onThread {
            try [
                ConformanceProbe.run(port: port, [ConformanceProbe.frame(0x1, [0x61], rsv: 4)]),
                ConformanceProbe.run(port: port, [ConformanceProbe.close(5000)]),
                ConformanceProbe.run(port: port, [ConformanceProbe.frame(0x1, [0xC3, 0x28])]),
                ConformanceProbe.run(port: port, [ConformanceProbe.close(4000, Array("done".utf8))]),
            ]
        }
        #expect(answers.map(\.close) == [.code(1002), .code(1002), .code(1007), .code(4000)])
        #expect(answers.allSatisfy { ($0.secondsToEnd ?? .infinity) < 1 }, "\(answers)")
        #expect(await eventually { hub.disconnects.count == 4 })
        let closes = hub.disconnects.map(\.1)
        for close in [
            WebSocketClose(code: 1002, reason: "rsv bits", initiatedByPeer: false),
            WebSocketClose(code: 1002, reason: "close code 5000 is not one a peer may send", initiatedByPeer: false),
            WebSocketClose(code: 1007, reason: "text message is not valid UTF-8", initiatedByPeer: false),
            WebSocketClose(code: 4000, reason: "done", initiatedByPeer: true),
        ] {
            #expect(closes.contains(close), "\(close) in \(closes)")
        }
    }
}
