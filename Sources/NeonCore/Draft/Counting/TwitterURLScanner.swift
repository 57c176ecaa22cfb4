/// Finds matches of twitter-text's `extractUrl` expression in an array of
/// scalars, as its backtracking engine would, without one.
///
/// After the domain every part is optional, so the first domain the engine
/// reaches is final. A domain is `validSubdomain* validDomainName` and a TLD;
/// a label always runs to the next character that is neither a domain
/// character nor `_` / `-`, so the only choice is how many labels are
/// subdomains: the engine tries the most first. The domain from a label is
/// therefore the domain from the next label, else this label as the name
/// and a TLD after it, which `init` works out for every offset at once.
struct TwitterURLScanner {
    let text: [Unicode.Scalar]
    /// For each offset, where the run of label characters (domain
    /// characters, `_` and `-`) starting there ends.
    private let labelRunEnd: [Int]
    /// For each offset, where the domain starting there ends, if one does;
    /// filled in by `init`.
    private var domainEnds: [Int?] = []

    init(_ text: [Unicode.Scalar]) {
        self.text = text
        var runEnd = Array(repeating: text.count, count: text.count + 1)
        for i in text.indices.reversed() {
            let c = text[i]
            let inLabel = c == "_" || c == "-" || TwitterURLCharacters.isDomainCharacter(c)
            runEnd[i] = inLabel ? runEnd[i + 1] : i
        }
        labelRunEnd = runEnd
        var underscoresBefore = [0]
        underscoresBefore.reserveCapacity(text.count + 1)
        for c in text {
            underscoresBefore.append(underscoresBefore[underscoresBefore.count - 1] + (c == "_" ? 1 : 0))
        }
        domainEnds = Array(repeating: nil, count: text.count + 1)
        var tldAfterDot: (start: Int, end: Int?) = (-1, nil)
        for start in text.indices.reversed() {
            guard let dot = labelDot(at: start) else { continue }
            if let deeper = domainEnds[dot + 1] {
                domainEnds[start] = deeper
            } else if underscoresBefore[dot] == underscoresBefore[start] {
                if tldAfterDot.start != dot + 1 { tldAfterDot = (dot + 1, tldEnd(at: dot + 1, limit: text.count)) }
                domainEnds[start] = tldAfterDot.end
            }
        }
    }

    func scalar(at offset: Int) -> Unicode.Scalar? {
        offset < text.count ? text[offset] : nil
    }

    /// The first match at or after `offset`, as `exec` finds it from `lastIndex`.
    func firstMatch(from offset: Int) -> TwitterURLMatch? {
        var position = offset
        while position < text.count {
            let c = text[position]
            if TwitterURLCharacters.isValidPreceding(c), let found = match(at: position + 1, before: c) {
                return found
            }
            if position == 0, let found = match(at: 0, before: nil) {
                return found
            }
            position += 1
        }
        return nil
    }

    private func match(at start: Int, before: Unicode.Scalar?) -> TwitterURLMatch? {
        guard let (urlProtocol, domain) = protocolAndDomain(at: start) else { return nil }
        var end = portEnd(at: domain.upperBound) ?? domain.upperBound
        var path: Range<Int>?
        if scalar(at: end) == "/" {
            let slash = end
            end = pathEnd(at: slash)
            path = slash..<end
        }
        if scalar(at: end) == "?", let queryEnd = queryEnd(at: end, limit: text.count) {
            end = queryEnd
        }
        return TwitterURLMatch(
            before: before, start: start, urlProtocol: urlProtocol, domain: domain, path: path, end: end)
    }

    /// `(https?://)?` and a domain: with the protocol when a domain follows
    /// it, else without.
    private func protocolAndDomain(at start: Int) -> (Range<Int>, Range<Int>)? {
        if let afterProtocol = protocolEnd(at: start), let end = domainEnd(at: afterProtocol) {
            return (start..<afterProtocol, afterProtocol..<end)
        }
        return domainEnd(at: start).map { (start..<start, start..<$0) }
    }

    /// After `https?://`, matched case-insensitively.
    private func protocolEnd(at start: Int) -> Int? {
        var i = start
        for expected in "http".unicodeScalars {
            guard let c = scalar(at: i), TwitterURLCharacters.folded(c) == expected else { return nil }
            i += 1
        }
        if let c = scalar(at: i), TwitterURLCharacters.folded(c) == "s" { i += 1 }
        guard scalar(at: i) == ":", scalar(at: i + 1) == "/", scalar(at: i + 2) == "/" else { return nil }
        return i + 3
    }

    /// `validDomain`: the end of the first domain starting at `start`.
    func domainEnd(at start: Int) -> Int? {
        domainEnds[start]
    }

    /// The `.` that ends a `validSubdomain` label starting at `start`: the
    /// label starts and ends with a domain character.
    private func labelDot(at start: Int) -> Int? {
        guard start < text.count else { return nil }
        let end = labelRunEnd[start]
        guard end > start, scalar(at: end) == ".",
              TwitterURLCharacters.isDomainCharacter(text[start]),
              TwitterURLCharacters.isDomainCharacter(text[end - 1])
        else { return nil }
        return end
    }

    /// The end of the TLD starting at `start` and ending by `limit` (where
    /// the expression's text ends): the first generic, then country TLD
    /// followed by a character that may follow one, else `validPunycode`.
    func tldEnd(at start: Int, limit: Int) -> Int? {
        guard start < limit else { return nil }
        for tld in TwitterTLDs.byFirstScalar[TwitterURLCharacters.folded(text[start])] ?? [] {
            let end = start + tld.count
            guard end <= limit, tld.indices.allSatisfy({ TwitterURLCharacters.folded(text[start + $0]) == tld[$0] })
            else { continue }
            if end == limit || TwitterURLCharacters.mayFollowTLD(text[end]) { return end }
        }
        guard start + 4 < limit,
              zip(text[start..<start + 4], "xn--".unicodeScalars).allSatisfy({ TwitterURLCharacters.folded($0) == $1 }),
              TwitterURLCharacters.isPunycodeCharacter(text[start + 4])
        else { return nil }
        var end = start + 5
        while end < limit, TwitterURLCharacters.isPunycodeCharacter(text[end]) { end += 1 }
        return end
    }

    /// After `:` and a port number, when both are there.
    private func portEnd(at start: Int) -> Int? {
        guard scalar(at: start) == ":", let first = scalar(at: start + 1), TwitterURLCharacters.isASCIIDigit(first)
        else { return nil }
        var end = start + 2
        while let c = scalar(at: end), TwitterURLCharacters.isASCIIDigit(c) { end += 1 }
        return end
    }
}
