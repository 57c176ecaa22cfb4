/// Reduces Markdown inline markup to the plain text a terminal shows.
///
/// Emphasis (`*`, `_`) and strike-through (`~~`) delimiters that pair up by
/// CommonMark's flanking rules are removed; code spans keep their content
/// verbatim; links and images keep their text (`[t](u)` → `t`); a backslash
/// before punctuation keeps only the punctuation. Markup that does not pair
/// up stays as written. Runs in linear time on any input.
struct MarkdownInline {
    private let input: [UInt8]
    private var out: [UInt8] = []
    /// Ranges of `out` to drop at the end: the delimiters that paired up.
    private var removals: [Range<Int>] = []
    /// Unpaired openers, one stack for each of `*`, `_` and `~`.
    private var openers: [[Delimiter]] = [[], [], []]
    /// For each `[` that starts a link: where its `]` is and where the link
    /// ends, after the `)` of its destination.
    private var links: [Int: LinkEnd] = [:]
    /// The links being read, innermost last.
    private var pendingLinks: [LinkEnd] = []
    /// For each backtick run that opens a code span: where its closing run starts.
    private var codeSpans: [Int: Int] = [:]

    private struct Delimiter {
        let start: Int
        var count: Int
    }

    private struct LinkEnd {
        let close: Int
        let end: Int
    }

    static func plainText(_ input: [UInt8]) -> String {
        guard input.contains(where: isMarkup) else {
            return String(decoding: input, as: UTF8.self)
        }
        var inline = MarkdownInline(input: input)
        return inline.strip()
    }

    private init(input: [UInt8]) {
        self.input = input
        findLinks()
        findCodeSpans()
    }

    private mutating func strip() -> String {
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            while let top = pendingLinks.last, top.close < i { pendingLinks.removeLast() }
            if let top = pendingLinks.last, top.close == i {
                pendingLinks.removeLast()
                i = top.end
                continue
            }
            let byte = input[i]
            switch byte {
            case UInt8(ascii: "\\") where i + 1 < input.count && Self.isPunctuation(input[i + 1]):
                out.append(input[i + 1])
                i += 2
            case UInt8(ascii: "`"):
                i = codeSpan(at: i)
            case UInt8(ascii: "!") where i + 1 < input.count && links[i + 1] != nil:
                pendingLinks.append(links[i + 1]!)
                i += 2
            case UInt8(ascii: "[") where links[i] != nil:
                pendingLinks.append(links[i]!)
                i += 1
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                i = delimiterRun(at: i)
            default:
                out.append(byte)
                i += 1
            }
        }
        return String(decoding: keptBytes(), as: UTF8.self)
    }

    /// Copies a code span's content (one space trimmed from each end when
    /// both are spaces) or, without a closing run, the backticks.
    private mutating func codeSpan(at start: Int) -> Int {
        let end = Self.runEnd(input, from: start)
        guard let close = codeSpans[start] else {
            out.append(contentsOf: input[start..<end])
            return end
        }
        var content = end..<close
        if content.count >= 2, input[content.lowerBound] == 0x20, input[content.upperBound - 1] == 0x20 {
            content = content.lowerBound + 1..<content.upperBound - 1
        }
        out.append(contentsOf: input[content])
        return close + (end - start)
    }

    /// Copies a run of `*`, `_` or `~`, pairs it with earlier openers when
    /// it can close, and keeps what is left as an opener when it can open.
    private mutating func delimiterRun(at start: Int) -> Int {
        let marker = input[start]
        let end = Self.runEnd(input, from: start)
        var runStart = out.count
        var remaining = end - start
        out.append(contentsOf: input[start..<end])
        if marker == UInt8(ascii: "~"), remaining != 2 { return end }

        let before = start > 0 ? input[start - 1] : 0x20
        let after = end < input.count ? input[end] : 0x20
        let left = !Self.isWhitespace(after)
            && (!Self.isPunctuation(after) || Self.isWhitespace(before) || Self.isPunctuation(before))
        let right = !Self.isWhitespace(before)
            && (!Self.isPunctuation(before) || Self.isWhitespace(after) || Self.isPunctuation(after))
        let intraword = marker == UInt8(ascii: "_")
        let canOpen = left && (!intraword || !right || Self.isPunctuation(before))
        let canClose = right && (!intraword || !left || Self.isPunctuation(after))

        let stack = marker == UInt8(ascii: "*") ? 0 : marker == UInt8(ascii: "_") ? 1 : 2
        while canClose, remaining > 0, let opener = openers[stack].last {
            let used = min(opener.count, remaining)
            removals.append(opener.start + opener.count - used..<opener.start + opener.count)
            removals.append(runStart..<runStart + used)
            runStart += used
            remaining -= used
            if opener.count == used {
                openers[stack].removeLast()
            } else {
                openers[stack][openers[stack].count - 1].count -= used
            }
        }
        if canOpen, remaining > 0 {
            openers[stack].append(Delimiter(start: runStart, count: remaining))
        }
        return end
    }

    private func keptBytes() -> [UInt8] {
        guard !removals.isEmpty else { return out }
        var kept: [UInt8] = []
        kept.reserveCapacity(out.count)
        var next = 0
        for removal in removals.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            kept.append(contentsOf: out[next..<removal.lowerBound])
            next = removal.upperBound
        }
        kept.append(contentsOf: out[next...])
        return kept
    }

    /// Pairs brackets and parentheses in one pass; a `[…]` directly followed
    /// by a paired `(…)` is a link.
    private mutating func findLinks() {
        var brackets: [Int] = []
        var parens: [Int] = []
        var bracketClose: [Int: Int] = [:]
        var parenClose: [Int: Int] = [:]
        var i = 0
        while i < input.count {
            switch input[i] {
            case UInt8(ascii: "\\"): i += 1
            case UInt8(ascii: "["): brackets.append(i)
            case UInt8(ascii: "]"): if let open = brackets.popLast() { bracketClose[open] = i }
            case UInt8(ascii: "("): parens.append(i)
            case UInt8(ascii: ")"): if let open = parens.popLast() { parenClose[open] = i }
            default: break
            }
            i += 1
        }
        for (open, close) in bracketClose {
            if let destinationEnd = parenClose[close + 1] {
                links[open] = LinkEnd(close: close, end: destinationEnd + 1)
            }
        }
    }

    /// Pairs each backtick run with the next run of the same length.
    private mutating func findCodeSpans() {
        var runs: [(start: Int, length: Int)] = []
        var i = 0
        while i < input.count {
            if input[i] == UInt8(ascii: "`") {
                let end = Self.runEnd(input, from: i)
                runs.append((i, end - i))
                i = end
            } else {
                i += 1
            }
        }
        var unpaired: [Int: Int] = [:]
        for run in runs {
            if let open = unpaired.removeValue(forKey: run.length) {
                codeSpans[open] = run.start
            } else {
                unpaired[run.length] = run.start
            }
        }
    }

    private static func runEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var end = start
        while end < bytes.count, bytes[end] == bytes[start] { end += 1 }
        return end
    }

    private static func isMarkup(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"),
             UInt8(ascii: "~"), UInt8(ascii: "["):
            return true
        default:
            return false
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A
    }

    private static func isPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }
}
