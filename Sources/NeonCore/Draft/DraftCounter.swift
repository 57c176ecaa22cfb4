/// The character-limit level of a draft (the tweet composer seed).
public enum LimitLevel: String, Equatable, Hashable, Sendable, Codable, Comparable, CaseIterable {
    /// count < limit − 20 (blue)
    case ok
    /// limit − 20 … limit − 1 (yellow)
    case warning
    /// limit … limit + 9 (red, ring full)
    case limit
    /// ≥ limit + 10 (red, ring hidden, only the negative number stays)
    case over

    private var rank: Int {
        switch self {
        case .ok: 0
        case .warning: 1
        case .limit: 2
        case .over: 3
        }
    }

    public static func < (a: LimitLevel, b: LimitLevel) -> Bool { a.rank < b.rank }
}

/// Everything the composer's ring and counter show for one count.
public struct DraftStatus: Equatable, Sendable {
    public let count: Int
    public let limit: Int
    public let level: LimitLevel

    /// limit − count, negative when over.
    public var remaining: Int { limit - count }
    /// How full the ring is: min(count / limit, 1).
    public var ringFraction: Double { min(Double(count) / Double(limit), 1) }
    /// The ring grows and shows the remaining count from the warning level on.
    public var showsRemaining: Bool { level >= .warning }
    /// From limit + 10 on the ring hides; only the number stays.
    public var ringVisible: Bool { level != .over }
}

/// A change of level, in either direction, and who caused it.
public struct LimitCrossing: Equatable, Sendable {
    public let from: LimitLevel
    public let to: LimitLevel
    public let status: DraftStatus
}

/// Counts a draft against a character limit (default 280) with a counting
/// profile: by default user-perceived characters (grapheme clusters, Swift's
/// `String.count`), or twitter-text's weighted length, Mastodon's or Bluesky's.
public struct DraftCounter: Equatable, Hashable, Sendable {
    public static let defaultLimit = 280
    public static let warningDistance = 20
    public static let overDistance = 10

    public let limit: Int
    public let profile: CountingProfile

    /// A counter for `limit` characters; a limit below 1 is refused.
    public init(limit: Int = DraftCounter.defaultLimit, profile: CountingProfile = .graphemes) throws(DraftLimitError) {
        guard limit >= 1 else { throw DraftLimitError(limit: limit) }
        self.limit = limit
        self.profile = profile
    }

    public func count(_ text: String) -> Int { profile.count(text) }

    public func level(forCount count: Int) -> LimitLevel {
        if count >= limit + Self.overDistance { return .over }
        if count >= limit { return .limit }
        if count >= limit - Self.warningDistance { return .warning }
        return .ok
    }

    public func status(forCount count: Int) -> DraftStatus {
        DraftStatus(count: count, limit: limit, level: level(forCount: count))
    }

    public func status(of text: String) -> DraftStatus { status(forCount: count(text)) }

    /// The level crossing from `old` to `new` text, or nil when the level is
    /// the same. Works both ways (over → ok after a big delete).
    public func crossing(from old: String, to new: String) -> LimitCrossing? {
        crossing(fromCount: count(old), toCount: count(new))
    }

    public func crossing(fromCount old: Int, toCount new: Int) -> LimitCrossing? {
        let before = level(forCount: old)
        let after = status(forCount: new)
        return before == after.level ? nil : LimitCrossing(from: before, to: after.level, status: after)
    }
}

public struct DraftLimitError: Error, Equatable, Sendable, CustomStringConvertible {
    public let limit: Int
    public var description: String {
        "a character limit of \(limit) is not possible; choose a limit of 1 or more"
    }
}
