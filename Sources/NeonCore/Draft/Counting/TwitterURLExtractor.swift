/// twitter-text's URL extraction (`extractUrlsWithIndices`) over an array
/// of scalars: each match of its URL expression, checked against DNS label
/// and URL lengths, trimmed to its ASCII domains when it has no protocol
/// and to its slug when it is a t.co link.
struct TwitterURLExtractor: Sendable {
    static let maxURLLength = 4096
    static let maxTcoSlugLength = 40
    static let maxLabelLength = 63
    /// What `isValidUrl` assumes a URL without protocol will get.
    static let defaultProtocolLength = "https://".count

    /// twitter-text's `extractUrlsWithoutProtocol` option.
    var extractsURLsWithoutProtocol = true

    /// Each URL as the scalar offset it starts at and the length of the URL
    /// twitter-text reports, which its weighted length skips.
    func urls(in text: [Unicode.Scalar]) -> [Range<Int>] {
        let needed: Unicode.Scalar = extractsURLsWithoutProtocol ? "." : ":"
        guard text.contains(needed) else { return [] }
        let scanner = TwitterURLScanner(text)
        var urls: [Range<Int>] = []
        var offset = 0
        while let match = scanner.firstMatch(from: offset) {
            offset = match.end
            guard isValid(match, in: scanner) else { continue }
            urls += match.urlProtocol.isEmpty ? withoutProtocol(match, in: scanner) : withProtocol(match, in: scanner)
        }
        return urls
    }

    /// A URL without protocol yields the ASCII domains in its domain; the
    /// last takes the path and query, if there is a path. twitter-text
    /// reports that one's text as the whole URL with the domain swapped for
    /// the ASCII domain, and its weighted length skips that many characters.
    private func withoutProtocol(_ match: TwitterURLMatch, in scanner: TwitterURLScanner) -> [Range<Int>] {
        let beforeForbids = match.before.map { "-_./".unicodeScalars.contains($0) } ?? false
        guard extractsURLsWithoutProtocol, !beforeForbids else { return [] }
        var domains = scanner.asciiDomains(in: match.domain)
        guard match.path != nil, let last = domains.popLast() else { return domains }
        let afterDomain = match.end - match.domain.upperBound
        return domains + [last.lowerBound..<(last.upperBound + afterDomain)]
    }

    /// A URL with protocol is whole, unless it is a t.co link: then it ends
    /// after its slug and query, and a slug over 40 characters drops it.
    private func withProtocol(_ match: TwitterURLMatch, in scanner: TwitterURLScanner) -> [Range<Int>] {
        let url = match.start..<match.end
        guard let tco = scanner.tcoURL(in: url) else { return [url] }
        return tco.slugLength > Self.maxTcoSlugLength ? [] : [match.start..<tco.end]
    }

    /// `isValidUrl`: every label of the domain is 1…63 characters in its
    /// ASCII form, a domain starting `xn--` holds an ASCII domain, and the
    /// protocol (or `https://`) plus the URL fit 4096 UTF-16 units.
    private func isValid(_ match: TwitterURLMatch, in scanner: TwitterURLScanner) -> Bool {
        let domain = scanner.text[match.domain]
        if domain.starts(with: "xn--".unicodeScalars), scanner.asciiDomains(in: match.domain).isEmpty {
            return false
        }
        // An ASCII form is never shorter than its label, so a longer label
        // fails without being encoded.
        let labelsFit = domain.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            label.count <= Self.maxLabelLength
                && (1...Self.maxLabelLength).contains(Punycode.toASCII(label).utf16.count)
        }
        let protocolLength = match.urlProtocol.isEmpty ? Self.defaultProtocolLength : match.urlProtocol.count
        let urlLength = scanner.text[match.start..<match.end].reduce(0) { $0 + UTF16.width($1) }
        return labelsFit && protocolLength + urlLength <= Self.maxURLLength
    }
}
