import NeonTransportCore

/// The HTTP answer to a WebSocket upgrade request the server will not
/// accept: the status, any extra header, and one sentence saying why.
///
/// Pure value: built from the request's headers, written by the callback
/// that confirms upgrades (see `ServerEngine.confirmUpgrade`).
struct HandshakeRefusal: Equatable {
    /// 400, 403, 426 or 503.
    let status: Int
    /// The reason phrase of the status line, e.g. `Bad Request`.
    let phrase: String
    /// Extra header lines, e.g. `sec-websocket-version: 13`.
    let headers: [String]
    /// The body: one sentence and a newline.
    let body: String

    /// The whole response. Written by hand: lws_return_http_status answers
    /// an upgrade request with an HTTP/1.0 status line, which WebSocket
    /// clients (RFC 6455 wants HTTP/1.1) reject as malformed instead of
    /// reading the status.
    var response: [UInt8] {
        var head = "HTTP/1.1 \(status) \(phrase)\r\ncontent-type: text/plain; charset=utf-8\r\n"
        head += "content-length: \(body.utf8.count)\r\nconnection: close\r\n"
        for header in headers {
            head += header + "\r\n"
        }
        return Array((head + "\r\n" + body).utf8)
    }

    /// The one WebSocket version there is (RFC 6455 §4.1).
    static let version = "13"

    /// A browser page from an origin the policy does not allow.
    static let origin = HandshakeRefusal(status: 403, phrase: "Forbidden", headers: [], body: "origin not allowed\n")

    /// What RFC 6455 §4.2.1 and §4.2.2 require of an upgrade request and
    /// libwebsockets 4.1 does not answer itself: without `Host` or
    /// `Sec-WebSocket-Key` it drops TCP without a word, and it serves any
    /// `Sec-WebSocket-Version` as 13. `nil` when the request may proceed.
    static func check(host: String?, key: String?, version: String?) -> HandshakeRefusal? {
        guard let host, !host.isEmpty else {
            return badRequest("a WebSocket upgrade needs a Host header")
        }
        guard let key else {
            return badRequest("a WebSocket upgrade needs a Sec-WebSocket-Key header")
        }
        guard isNonce(key) else {
            return badRequest("Sec-WebSocket-Key must be 16 bytes in base64 (24 characters)")
        }
        guard let version else {
            return HandshakeRefusal(
                status: 400, phrase: "Bad Request", headers: ["sec-websocket-version: \(Self.version)"],
                body: "a WebSocket upgrade needs Sec-WebSocket-Version: \(Self.version)\n")
        }
        guard version.trimmed == Self.version else {
            return HandshakeRefusal(
                status: 426, phrase: "Upgrade Required", headers: ["sec-websocket-version: \(Self.version)"],
                body: "WebSocket version \(version.trimmed) is not supported; this server speaks version \(Self.version)\n")
        }
        return nil
    }

    private static func badRequest(_ sentence: String) -> HandshakeRefusal {
        HandshakeRefusal(status: 400, phrase: "Bad Request", headers: [], body: sentence + "\n")
    }

    /// `true` when `key` is the base64 of 16 bytes: 22 characters of the
    /// alphabet and `==`.
    static func isNonce(_ key: String) -> Bool {
        let utf8 = Array(key.trimmed.utf8)
        guard utf8.count == 24, utf8[22] == UInt8(ascii: "="), utf8[23] == UInt8(ascii: "=") else { return false }
        return utf8[..<22].allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                true
            default:
                false
            }
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (HTTP header whitespace).
    fileprivate var trimmed: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
