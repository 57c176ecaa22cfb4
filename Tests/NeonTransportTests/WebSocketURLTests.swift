import NeonTransport
import Testing

@Suite("ws:// URLs")
struct WebSocketURLTests {
    @Test("Host, port and path are parsed, with defaults", arguments: [
        ("ws://127.0.0.1:7681/", WebSocketURL(host: "127.0.0.1", port: 7681, path: "/")),
        ("ws://example.org", WebSocketURL(host: "example.org", port: 80, path: "/")),
        ("ws://example.org?room=a", WebSocketURL(host: "example.org", port: 80, path: "/?room=a")),
        ("ws://[::1]:9000/sync?x=1#frag", WebSocketURL(host: "::1", port: 9000, path: "/sync?x=1")),
        ("wss://example.org/a", WebSocketURL(isSecure: true, host: "example.org", port: 443, path: "/a")),
    ])
    func parses(text: String, expected: WebSocketURL) throws {
        #expect(try WebSocketURL(parsing: text) == expected)
    }

    @Test("Malformed URLs are refused with the reason", arguments: [
        ("http://127.0.0.1/", "it must start with ws://, wss:// or unix:"),
        ("unix:", "the socket path is missing; write unix:PATH, e.g. unix:/run/neonsync/neonsync.sock"),
        ("unix:///run/n.sock", "a Unix socket is written unix:PATH without //, e.g. unix:/run/neonsync/neonsync.sock"),
        ("wss+unix:/run/n.sock", "TLS over a Unix socket is not supported; write unix:PATH (the socket's file permissions guard it)"),
        ("wss://unix:/run/n.sock", "TLS over a Unix socket is not supported; write unix:PATH (the socket's file permissions guard it)"),
        ("ws://:80/", "the host is missing"),
        ("ws://host:0/", "the port must be a number from 1 to 65535"),
        ("ws://host:http/", "the port must be a number from 1 to 65535"),
        ("ws://[::1/", "the IPv6 address has no closing ]"),
        ("ws://user@host/", "user names and passwords are not supported"),
    ])
    func refuses(text: String, reason: String) {
        #expect(throws: TransportError.invalidURL(text, reason: reason)) { try WebSocketURL(parsing: text) }
    }

    @Test("unix:PATH is a plain WebSocket over that socket, absolute or relative", arguments: [
        ("unix:/run/neonsync.sock", "/run/neonsync.sock"),
        ("unix:neonsync.sock", "neonsync.sock"),
        ("unix:./dir/n s.sock", "./dir/n s.sock"),
    ])
    func unixSocket(text: String, socket: String) throws {
        let url = try WebSocketURL(parsing: text)
        #expect(url == WebSocketURL(unixSocket: socket))
        #expect(url.unixSocket == socket && !url.isSecure && url.path == "/" && url.hostHeader == "localhost")
        #expect(url.description == text)
        #expect(try WebSocketURL(parsing: url.description) == url)
    }

    @Test("The Host header omits default ports and brackets IPv6")
    func hostHeader() {
        #expect(WebSocketURL(host: "a", port: 80).hostHeader == "a")
        #expect(WebSocketURL(host: "a", port: 8080).hostHeader == "a:8080")
        #expect(WebSocketURL(host: "::1", port: 8080).hostHeader == "[::1]:8080")
        #expect(WebSocketURL(host: "::1", port: 8080, path: "/x").description == "ws://[::1]:8080/x")
    }
}
