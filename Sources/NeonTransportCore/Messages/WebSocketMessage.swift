/// One complete inbound WebSocket message, reassembled from its fragments.
///
/// Text messages were validated as UTF-8 before delivery.
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message (opcode 0x1), already decoded.
    case text(String)
    /// A binary message (opcode 0x2).
    case binary([UInt8])

    /// The payload bytes: the UTF-8 of a text message, or the binary payload.
    public var bytes: [UInt8] {
        switch self {
        case .text(let string): Array(string.utf8)
        case .binary(let bytes): bytes
        }
    }

    /// The payload size in bytes.
    public var count: Int {
        switch self {
        case .text(let string): string.utf8.count
        case .binary(let bytes): bytes.count
        }
    }

    /// The text of a text message; `nil` for a binary one.
    public var text: String? {
        if case .text(let string) = self { return string }
        return nil
    }
}

/// Why an inbound message was refused. The connection that sent it is closed
/// with ``closeCode`` after the frames already queued to it are flushed.
public enum InboundRejection: Sendable, Equatable, CustomStringConvertible {
    /// The message grew past the configured limit of `limit` bytes.
    case messageTooBig(limit: Int)
    /// A text message was not valid UTF-8.
    case invalidUTF8

    /// The close code sent to the peer: 1009 or 1007.
    public var closeCode: UInt16 {
        switch self {
        case .messageTooBig: CloseCode.messageTooBig
        case .invalidUTF8: CloseCode.invalidPayload
        }
    }

    /// The reason sent in the close frame.
    public var closeReason: String {
        switch self {
        case .messageTooBig(let limit): "message larger than \(limit) bytes"
        case .invalidUTF8: "text message is not valid UTF-8"
        }
    }

    public var description: String { closeReason }
}
