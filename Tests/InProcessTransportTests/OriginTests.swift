import NeonLock
import NeonTestSupport
import NeonTransport
import NeonTransportCore
import Testing

/// The Origin allow-list: browser handshakes from unlisted origins get 403,
/// handshakes without Origin always pass.
@Suite("Origin allow-list", .ownThreads)
struct OriginTests {
    /// Sends a WebSocket upgrade with `origin` (none when nil); returns the
    /// status code of the answer.
    private func upgrade(port: Int, origin: String?) throws -> Int {
        let socket = try RawSocket(port: port)
        var request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: neonsync.v1\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        try socket.write(request + "\r\n")
        let head = try socket.readHead()
        let statusLine = head.split(separator: "\r\n").first ?? ""
        return Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    final class Refusals: WebSocketServerDelegate {
        let seen = Locked<[RefusedHandshake]>([])
        func handle(_ event: ServerEvent, in context: ServiceContext) {}
        func refused(_ handshake: RefusedHandshake) { seen.withLock { $0.append(handshake) } }
    }

    @Test("With no list, a handshake carrying any Origin gets 403 and one without Origin is accepted")
    func defaultRefusesBrowsers() async throws {
        let delegate = Refusals()
        let server = WebSocketServer(delegate: delegate)
        try server.start()
        defer { server.stop() }
        let port = try #require(server.port)
        #expect(try upgrade(port: port, origin: "https://evil.example") == 403)
        #expect(try upgrade(port: port, origin: "http://127.0.0.1:\(port)") == 403)
        #expect(try upgrade(port: port, origin: nil) == 101)
        // The delegate hears of a refusal on the gateway thread, after the 403 went out.
        #expect(await eventually { delegate.seen.withLock { $0.count } == 2 })
        #expect(delegate.seen.withLock { $0 } == [
            RefusedHandshake(peer: "127.0.0.1", origin: "https://evil.example"),
            RefusedHandshake(peer: "127.0.0.1", origin: "http://127.0.0.1:\(port)"),
        ])
    }

    @Test("A listed origin is accepted in any letter case and with its default port; others get 403")
    func listedOrigins() throws {
        let policy = OriginPolicy(allowing: ["https://app.example.com", "http://localhost:8080"])
        let server = WebSocketServer(configuration: .init(origins: policy), delegate: Refusals())
        try server.start()
        defer { server.stop() }
        let port = try #require(server.port)
        #expect(try upgrade(port: port, origin: "https://app.example.com") == 101)
        #expect(try upgrade(port: port, origin: "HTTPS://App.Example.com:443") == 101)
        #expect(try upgrade(port: port, origin: "http://localhost:8080") == 101)
        #expect(try upgrade(port: port, origin: "http://app.example.com") == 403)
        #expect(try upgrade(port: port, origin: "https://app.example.com.evil.example") == 403)
        #expect(try upgrade(port: port, origin: "http://localhost:8081") == 403)
        #expect(try upgrade(port: port, origin: "null") == 403)
        #expect(try upgrade(port: port, origin: nil) == 101)
    }

    @Test("* allows every origin")
    func wildcard() throws {
        let server = WebSocketServer(configuration: .init(origins: .anyOrigin), delegate: Refusals())
        try server.start()
        defer { server.stop() }
        #expect(try upgrade(port: try #require(server.port), origin: "https://anywhere.example") == 101)
    }

    @Test("Origins are normalized to scheme://host[:port]; paths, user information and bad ports are not origins")
    func normalization() {
        #expect(OriginPolicy.normalized("HTTPS://Example.COM/") == "https://example.com")
        #expect(OriginPolicy.normalized("https://example.com:443") == "https://example.com")
        #expect(OriginPolicy.normalized("http://example.com:80") == "http://example.com")
        #expect(OriginPolicy.normalized("http://example.com:8443") == "http://example.com:8443")
        #expect(OriginPolicy.normalized("http://[::1]:3000") == "http://[::1]:3000")
        #expect(OriginPolicy.normalized("*") == "*")
        #expect(OriginPolicy.normalized("null") == "null")
        for bad in ["example.com", "https://", "https://example.com/app", "https://user@example.com",
                    "https://example.com:0", "https://example.com:http", "://example.com", "https://exa mple.com"] {
            #expect(OriginPolicy.normalized(bad) == nil, "\(bad)")
        }
        #expect(OriginPolicy.noBrowsers.allows(nil))
        #expect(!OriginPolicy.noBrowsers.allows("https://example.com"))
    }
}

extension OriginPolicy {
    /// Every web page may connect (`--allow-origin '*'`).
    static let anyOrigin = OriginPolicy(allowing: ["*"])
}
