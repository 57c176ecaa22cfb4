/// Identifies one WebSocket connection within the server or client context
/// that accepted or opened it. Identifiers are never reused by a context.
public struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The raw number, unique within one context.
    public let rawValue: UInt64

    /// Wraps a raw number; contexts mint identifiers themselves.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "#\(rawValue)" }
}
