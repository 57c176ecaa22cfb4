/// The expressions twitter-text's URL extraction applies to a match:
/// `validAsciiDomain` over a domain and `validTcoUrl` over a URL.
extension TwitterURLScanner {
    /// Every `validAsciiDomain` match in `domain`, left to right, as a
    /// global expression finds them.
    func asciiDomains(in domain: Range<Int>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var position = domain.lowerBound
        while position < domain.upperBound {
            if let end = asciiDomainEnd(at: position, limit: domain.upperBound) {
                found.append(position..<end)
                position = end
            } else {
                position += 1
            }
        }
        return found
    }

    /// `(?:[-a-z0-9…]+\.)+` and a TLD: the most labels the TLD allows.
    private func asciiDomainEnd(at start: Int, limit: Int) -> Int? {
        var labelEnds: [Int] = []
        var position = start
        while true {
            var end = position
            while end < limit, TwitterURLCharacters.isASCIIDomainLabelCharacter(text[end]) { end += 1 }
            guard end > position, end < limit, text[end] == "." else { break }
            labelEnds.append(end + 1)
            position = end + 1
        }
        return labelEnds.reversed().lazy.compactMap { tldEnd(at: $0, limit: limit) }.first
    }

    /// `validTcoUrl` at the start of `url`: `https?://t.co/`, a slug of
    /// ASCII letters and digits, and an optional query.
    func tcoURL(in url: Range<Int>) -> (end: Int, slugLength: Int)? {
        let prefixes = ["http://t.co/", "https://t.co/"].map { Array($0.unicodeScalars) }
        guard let prefix = prefixes.first(where: { prefix in
            prefix.count <= url.count
                && zip(text[url.lowerBound...], prefix).allSatisfy { TwitterURLCharacters.folded($0) == $1 }
        }) else { return nil }
        let slugStart = url.lowerBound + prefix.count
        var end = slugStart
        while end < url.upperBound, TwitterURLCharacters.isASCIIAlphanumeric(text[end]) { end += 1 }
        guard end > slugStart else { return nil }
        let slugLength = end - slugStart
        if end < url.upperBound, text[end] == "?", let queryEnd = queryEnd(at: end, limit: url.upperBound) {
            end = queryEnd
        }
        return (end, slugLength)
    }
}
