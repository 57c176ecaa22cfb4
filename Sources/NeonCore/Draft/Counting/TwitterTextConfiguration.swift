/// twitter-text's weighting configuration and its weighted length
/// (`parseTweet`'s `weightedLength`).
///
/// The text is NFC-normalized; each URL counts `transformedURLLength`, each
/// emoji sequence `defaultWeight` (when emoji parsing is on), and every
/// other code point the weight of its range, else `defaultWeight`. Weights
/// are in units of 1/`scale` character.
struct TwitterTextConfiguration: Sendable {
    /// Code points that weigh `weight` rather than the default.
    struct WeightRange: Sendable {
        var codePoints: ClosedRange<UInt32>
        var weight: Int
    }

    var maxWeightedTweetLength: Int
    var scale: Int
    var defaultWeight: Int
    var transformedURLLength: Int
    var ranges: [WeightRange]
    var emojiParsingEnabled: Bool

    /// twitter-text's `config/v3.json`: Latin-1 and the general punctuation
    /// blocks weigh one character, everything else two; emoji count two.
    static let v3 = TwitterTextConfiguration(
        maxWeightedTweetLength: 280, scale: 100, defaultWeight: 200, transformedURLLength: 23,
        ranges: [
            WeightRange(codePoints: 0...4351, weight: 100),
            WeightRange(codePoints: 8192...8205, weight: 100),
            WeightRange(codePoints: 8208...8223, weight: 100),
            WeightRange(codePoints: 8242...8247, weight: 100),
        ],
        emojiParsingEnabled: true)

    /// The weighted length in characters. Every weight in twitter-text's
    /// configurations is a multiple of `scale`, so the division is exact.
    func weightedLength(of text: String) -> Int {
        let scalars = text.nfcScalars
        let urls = Dictionary(
            TwitterURLExtractor().urls(in: scalars).map { ($0.lowerBound, $0.upperBound) },
            uniquingKeysWith: { $1 })
        var weight = 0
        var offset = 0
        while offset < scalars.count {
            if let urlEnd = urls[offset] {
                weight += transformedURLLength * scale
                offset = urlEnd
            } else if emojiParsingEnabled, let emojiEnd = TwitterEmoji.sequenceEnd(in: scalars, at: offset) {
                weight += defaultWeight
                offset = emojiEnd
            } else {
                weight += self.weight(of: scalars[offset])
                offset += 1
            }
        }
        return weight / scale
    }

    func weight(of c: Unicode.Scalar) -> Int {
        ranges.first { $0.codePoints.contains(c.value) }?.weight ?? defaultWeight
    }
}
