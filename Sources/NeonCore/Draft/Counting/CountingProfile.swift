/// How a draft's characters are counted against its limit, after the
/// composer of the platform the draft is written for.
public enum CountingProfile: String, Codable, Sendable, CaseIterable {
    /// User-perceived characters: grapheme clusters, Swift's `String.count`.
    case graphemes
    /// twitter-text v3's weighted length: most Latin text and punctuation
    /// count one, other characters and emoji two, URLs 23.
    case twitter
    /// Mastodon: grapheme clusters, with each http(s) URL counting 23.
    case mastodon
    /// Bluesky: grapheme clusters.
    case bluesky

    /// The limit a draft gets unless its room sets another.
    public var defaultLimit: Int {
        switch self {
        case .graphemes: 280
        case .twitter: TwitterTextConfiguration.v3.maxWeightedTweetLength
        case .mastodon: 500
        case .bluesky: 300
        }
    }

    /// One line for help text and settings.
    public var summary: String {
        switch self {
        case .graphemes: "user-perceived characters (grapheme clusters), limit 280"
        case .twitter: "X/Twitter weighted length: CJK and emoji count 2, links 23, limit 280"
        case .mastodon: "Mastodon: characters, links count 23, limit 500"
        case .bluesky: "Bluesky: characters (grapheme clusters), limit 300"
        }
    }

    /// The count shown against the limit.
    public func count(_ text: String) -> Int {
        switch self {
        case .graphemes, .bluesky: text.count
        case .twitter: TwitterTextConfiguration.v3.weightedLength(of: text)
        case .mastodon: MastodonLength.count(text)
        }
    }
}
