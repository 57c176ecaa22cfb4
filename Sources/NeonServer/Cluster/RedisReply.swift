import CHiredis

/// One Redis reply, copied out of hiredis' reply object.
public enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case status(String)
    case integer(Int)
    case array([RedisReply])
    case null
    case error(String)

    init(_ reply: UnsafePointer<redisReply>) {
        let r = reply.pointee
        switch r.type {
        case neon_redis_reply_string():
            self = .string(r.str.map { Array(UnsafeRawBufferPointer(start: $0, count: r.len)) } ?? [])
        case neon_redis_reply_status():
            self = .status(r.str.map { String(cString: $0) } ?? "")
        case neon_redis_reply_error():
            self = .error(r.str.map { String(cString: $0) } ?? "error")
        case neon_redis_reply_integer():
            self = .integer(Int(r.integer))
        case neon_redis_reply_array():
            var items: [RedisReply] = []
            items.reserveCapacity(r.elements)
            for i in 0..<r.elements {
                if let element = r.element[i] { items.append(RedisReply(element)) } else { items.append(.null) }
            }
            self = .array(items)
        default:
            self = .null
        }
    }

    /// The reply as text (bulk or status strings), if it is one.
    public var text: String? {
        switch self {
        case let .string(bytes): String(decoding: bytes, as: UTF8.self)
        case let .status(s): s
        default: nil
        }
    }

    public var integer: Int? {
        switch self {
        case let .integer(n): n
        case let .string(bytes): Int(String(decoding: bytes, as: UTF8.self))
        default: nil
        }
    }

    public var array: [RedisReply]? {
        if case let .array(items) = self { return items }
        return nil
    }

    /// A `READONLY` error: the server is a replica now.
    var isReadOnlyRefusal: Bool {
        if case let .error(message) = self { message.hasPrefix("READONLY") } else { false }
    }
}
