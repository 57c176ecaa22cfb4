/// Mastodon's status length: grapheme clusters, where each http(s) URL
/// counts 23 whatever its length. Mastodon finds URLs with twitter-text's
/// extraction, without URLs that lack a protocol.
enum MastodonLength {
    static let urlLength = 23

    static func count(_ text: String) -> Int {
        let scalars = Array(text.unicodeScalars)
        let extractor = TwitterURLExtractor(extractsURLsWithoutProtocol: false)
        var countable = String.UnicodeScalarView()
        var offset = 0
        for url in extractor.urls(in: scalars) {
            countable.append(contentsOf: scalars[offset..<url.lowerBound])
            countable.append(contentsOf: repeatElement("x", count: urlLength))
            offset = url.upperBound
        }
        countable.append(contentsOf: scalars[offset...])
        return String(countable).count
    }
}
