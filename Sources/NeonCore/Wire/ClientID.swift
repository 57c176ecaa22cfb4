/// A connection's identity on the wire (`you`, `id`, `by`, `presenter`).
public struct ClientID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (a: ClientID, b: ClientID) -> Bool { a.rawValue < b.rawValue }
}

/// What a connection may do in its room.
public enum Role: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
    /// Reads at their own pace, visible to all.
    case reader
    /// Leads: at most one per room; followers track their place and tab.
    case presenter
    /// Watches (monitors): read-only, never shown as a reader's position.
    case observer
}
