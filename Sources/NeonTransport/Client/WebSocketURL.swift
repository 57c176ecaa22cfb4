import NeonTransportCore

/// A parsed `ws://` or `wss://` URL, or `unix:PATH`: a plain WebSocket
/// over the Unix domain socket at PATH.
public struct WebSocketURL: Sendable, Equatable, CustomStringConvertible {
    /// `true` for `wss://`.
    public var isSecure: Bool
    /// For `unix:PATH`: the socket's path (absolute or relative); `host`
    /// is then `localhost` (the Host header) and `port` is unused.
    public var unixSocket: String?
    /// Host name or IP address, without the brackets of an IPv6 literal.
    public var host: String
    /// TCP port (default 80 for ws, 443 for wss).
    public var port: Int
    /// Path and query sent in the request line; at least `/`.
    public var path: String

    public init(isSecure: Bool = false, host: String, port: Int, path: String = "/") {
        self.isSecure = isSecure
        self.host = host
        self.port = port
        self.path = path.isEmpty ? "/" : path
    }

    /// `unix:PATH`: the WebSocket at `/` over the Unix domain socket `socket`.
    public init(unixSocket socket: String) {
        self.init(host: "localhost", port: 80, path: "/")
        unixSocket = socket
    }

    /// Parses `ws://host[:port][/path][?query]` (and `wss://`).
    /// IPv6 hosts are written in brackets: `ws://[::1]:7681/`.
    /// `unix:PATH` names a Unix domain socket (no TLS: the socket's own
    /// file permissions decide who may connect).
    public init(parsing text: String) throws(TransportError) {
        let secure: Bool
        var rest: Substring
        if text.hasPrefix("unix:") {
            let socket = text.dropFirst(5)
            guard !socket.isEmpty else {
                throw .invalidURL(text, reason: "the socket path is missing; write unix:PATH, e.g. unix:/run/neonsync/neonsync.sock")
            }
            guard !socket.hasPrefix("//") else {
                throw .invalidURL(text, reason: "a Unix socket is written unix:PATH without //, e.g. unix:/run/neonsync/neonsync.sock")
            }
            guard !socket.contains("\0") else {
                throw .invalidURL(text, reason: "the socket path contains a NUL character")
            }
            self.init(unixSocket: String(socket))
            return
        }
        if text.hasPrefix("wss+unix:") || text.hasPrefix("wss://unix:") || text.hasPrefix("unix+wss:") {
            throw .invalidURL(text, reason: "TLS over a Unix socket is not supported; write unix:PATH (the socket's file permissions guard it)")
        }
        if text.hasPrefix("ws://") {
            secure = false
            rest = text.dropFirst(5)
        } else if text.hasPrefix("wss://") {
            secure = true
            rest = text.dropFirst(6)
        } else {
            throw .invalidURL(text, reason: "it must start with ws://, wss:// or unix:")
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if let fragment = rest.firstIndex(of: "#") {
            rest = rest[..<fragment]
        }
        var path = String(rest)
        if path.hasPrefix("?") {
            path = "/" + path
        }

        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidURL(text, reason: "the IPv6 address has no closing ]")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL(text, reason: "unexpected text after ]") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        if host.contains("@") {
            throw .invalidURL(text, reason: "user names and passwords are not supported")
        }
        guard !host.isEmpty else { throw .invalidURL(text, reason: "the host is missing") }
        var port = secure ? 443 : 80
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw .invalidURL(text, reason: "the port must be a number from 1 to 65535")
            }
            port = value
        }
        self.init(isSecure: secure, host: String(host), port: port, path: path)
    }

    /// The `Host` header value: the host, bracketed if IPv6, with the port
    /// unless it is the scheme's default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }

    public var description: String {
        if let unixSocket { return "unix:\(unixSocket)" }
        return "\(isSecure ? "wss" : "ws")://\(hostHeader)\(path)"
    }
}

extension WebSocketURL {
    /// This URL with `name=value` in its query: `value` percent-encoded
    /// (RFC 3986's unreserved characters kept, every other UTF-8 byte
    /// written %XX), an earlier `name` parameter replaced, the others kept
    /// in order.
    public func settingQueryParameter(_ name: String, to value: String) -> WebSocketURL {
        var copy = self
        let question = path.firstIndex(of: "?")
        let route = question.map { String(path[..<$0]) } ?? path
        let query = question.map { String(path[path.index(after: $0)...]) } ?? ""
        let key = Self.queryEncoded(name)
        var parameters = query.split(separator: "&").filter { $0 != key && !$0.hasPrefix(key + "=") }.map(String.init)
        parameters.append(key + "=" + Self.queryEncoded(value))
        copy.path = route + "?" + parameters.joined(separator: "&")
        return copy
    }

    /// This URL without its `name` parameters (and without the `?` when
    /// none is left).
    public func removingQueryParameter(_ name: String) -> WebSocketURL {
        guard let question = path.firstIndex(of: "?") else { return self }
        var copy = self
        let key = Self.queryEncoded(name)
        let kept = path[path.index(after: question)...].split(separator: "&").filter { $0 != key && !$0.hasPrefix(key + "=") }
        copy.path = String(path[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        return copy
    }

    static func queryEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
