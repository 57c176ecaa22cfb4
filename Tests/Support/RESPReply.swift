/// A whole reply in Redis's protocol (RESP2), as a Redis server or a
/// Sentinel sends it: what `ROLE`, `SENTINEL master` or a refused `SET`
/// answered, without redis-cli's formatting in between.
public indirect enum RESPReply: Equatable, Sendable, CustomStringConvertible {
    case status(String)
    case error(String)
    case integer(Int)
    /// nil: the null bulk string.
    case bulk(String?)
    /// nil: the null array.
    case array([RESPReply]?)

    /// Sends `words` as one command to the server on 127.0.0.1:`port` and
    /// reads its whole reply (RawSocket's 5 s timeouts bound every read).
    public static func call(port: Int, _ words: [String]) throws -> RESPReply {
        try calls(port: port, [words])[0]
    }

    /// Sends each command in turn on one connection, each after the reply
    /// to the one before; the replies. One connection matters to `WAIT`,
    /// which counts the replicas that have the connection's own last write.
    public static func calls(port: Int, _ commands: [[String]]) throws -> [RESPReply] {
        let socket = try RawSocket(port: port)
        return try commands.map { words in
            var request = "*\(words.count)\r\n"
            for word in words { request += "$\(word.utf8.count)\r\n\(word)\r\n" }
            try socket.write(Array(request.utf8))
            return try read(socket)
        }
    }

    /// The text of a status or bulk reply, an integer's digits; nil otherwise.
    public var text: String? {
        switch self {
        case let .status(text), let .bulk(text?): return text
        case let .integer(value): return String(value)
        default: return nil
        }
    }

    /// The texts of an array's elements (empty for anything else).
    public var texts: [String] {
        guard case let .array(elements?) = self else { return [] }
        return elements.map { $0.text ?? $0.description }
    }

    /// An array of alternating names and values (`SENTINEL master`, `CONFIG
    /// GET`) as a dictionary.
    public var fields: [String: String] {
        let texts = texts
        return Dictionary(stride(from: 0, to: texts.count - 1, by: 2).map { (texts[$0], texts[$0 + 1]) }) { $1 }
    }

    /// The error's text (`NOREPLICAS Not enough good replicas to write.`); nil when no error.
    public var errorText: String? {
        if case let .error(text) = self { return text }
        return nil
    }

    public var description: String {
        switch self {
        case let .status(text): return "+" + text
        case let .error(text): return "-" + text
        case let .integer(value): return ":\(value)"
        case let .bulk(text): return text.map { "\"\($0)\"" } ?? "(nil)"
        case let .array(elements): return elements.map { "[" + $0.map(\.description).joined(separator: ", ") + "]" } ?? "(nil array)"
        }
    }

    private static func read(_ socket: RawSocket) throws -> RESPReply {
        let header = try line(socket)
        let rest = String(header.dropFirst())
        switch header.first {
        case "+": return .status(rest)
        case "-": return .error(rest)
        case ":": return .integer(Int(rest) ?? 0)
        case "$":
            guard let length = Int(rest) else { break }
            if length < 0 { return .bulk(nil) }
            let bytes = try socket.read(exactly: length + 2)
            return .bulk(String(decoding: bytes.dropLast(2), as: UTF8.self))
        case "*":
            guard let count = Int(rest) else { break }
            if count < 0 { return .array(nil) }
            return .array(try (0..<count).map { _ in try read(socket) })
        default: break
        }
        throw ServerProcessError("not a RESP reply: \(header)")
    }

    /// One CRLF-ended line, without the CRLF.
    private static func line(_ socket: RawSocket) throws -> String {
        var bytes: [UInt8] = []
        while bytes.suffix(2) != [13, 10] { bytes += try socket.read(exactly: 1) }
        return String(decoding: bytes.dropLast(2), as: UTF8.self)
    }
}
