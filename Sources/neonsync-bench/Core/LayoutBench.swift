import CCmarkGFM
import NeonCore

/// Parses and lays out a deterministic ~1 MB Markdown document (headings,
/// paragraphs, lists, quotes, code, tables, some CJK and emoji) at 80 and 200
/// columns, several times, and reports the best and median milliseconds of
/// parsing and of each layout, with the row counts.
func runLayoutBenchmark() -> [String] {
    let markdown = benchmarkMarkdown(bytes: 1_000_000)
    let repeats = 7
    var lines = ["layout: \(markdown.utf8.count) bytes of Markdown, best and median of \(repeats) runs"]

    var document: Document?
    let (parse, parseBest) = measureWithBest(repeats) {
        document = try? Document.parse(title: "bench", format: .markdown, text: markdown)
    }
    guard let document else { return lines + ["layout: the benchmark document did not parse"] }
    lines.append("parse        \(parse)  \(document.sections.count) sections, \(document.blocks.count) blocks")
    // The peer, in the same run: cmark-gfm parsing the same text to its
    // tree, which NeonCore's parse includes.
    let (peer, peerBest) = measureWithBest(repeats) { cmarkGFMParse(markdown) }
    lines.append("cmark-gfm    \(peer)  (its tree alone; NeonCore's parse is \(String((parseBest / peerBest * 100).rounded() / 100))× it)")

    for width in [80, 200] {
        var rows = 0
        let layout = measure(repeats) {
            rows = Layout(document: document, width: width).rowCount
        }
        lines.append("layout \(String(width).leftPadded(to: 3)) cols \(layout)  \(rows) rows")
    }
    lines.append(versionLine(markdown, document, repeats: repeats))
    return lines
}

/// The next version of the document (a paragraph added near its start, a
/// word changed in its middle) aligned with it, and 1,000 places carried
/// onto it: what the room reducer does on the service thread when a watched
/// file is saved.
private func versionLine(_ markdown: String, _ document: Document, repeats: Int) -> String {
    var edited = markdown
    if let start = edited.firstRange(of: "\n\n")?.upperBound {
        edited.insert(contentsOf: "A paragraph added near the start of the next version.\n\n", at: start)
    }
    let middle = edited.index(edited.startIndex, offsetBy: edited.count / 2)
    if let word = edited[middle...].firstRange(of: " the ") { edited.replaceSubrange(word, with: " that ") }
    guard let next = try? Document.parse(title: "bench", format: .markdown, text: edited) else {
        return "versions     the edited document did not parse"
    }
    let anchors = (0..<1_000).map { Anchor(block: $0 * max(document.blocks.count / 1_000, 1), offset: 0) }
    var kept = 0
    let timing = measure(repeats) {
        let map = VersionMap(from: document, to: next)
        kept = anchors.filter { map.survivor(of: $0.block) != nil && map.place($0).block >= 0 }.count
    }
    return "versions     \(timing)  next version aligned, 1,000 places carried (\(kept) on unchanged blocks)"
}

/// Runs `body` `count` times; "best X ms, median Y ms".
private func measure(_ count: Int, _ body: () -> Void) -> String {
    measureWithBest(count, body).0
}

/// Like `measure`, with the best time in seconds too.
private func measureWithBest(_ count: Int, _ body: () -> Void) -> (String, Double) {
    let clock = ContinuousClock()
    let times = (0..<count).map { _ in clock.measure(body) }.sorted()
    let best = Double(times[0].components.seconds) + Double(times[0].components.attoseconds) / 1e18
    func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return String((value * 10).rounded() / 10)
    }
    return ("best \(milliseconds(times[0]).leftPadded(to: 6)) ms, median \(milliseconds(times[count / 2]).leftPadded(to: 6)) ms", best)
}

/// cmark-gfm with the extensions NeonCore uses, parsing `text` to a tree
/// and freeing it.
private func cmarkGFMParse(_ text: String) {
    cmark_gfm_core_extensions_ensure_registered()
    guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else { return }
    for name in ["table", "strikethrough", "autolink", "tasklist"] {
        if let found = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, found) }
    }
    cmark_parser_feed(parser, text, text.utf8.count)
    if let root = cmark_parser_finish(parser) { cmark_node_free(root) }
    cmark_parser_free(parser)
}

/// A Markdown document of about `bytes` bytes, the same on every run.
func benchmarkMarkdown(bytes: Int) -> String {
    let words = ["the", "reader", "scrolls", "while", "a", "presenter", "leads", "and", "everyone",
                 "follows", "along", "synchronised", "terminal", "document", "section", "with",
                 "漢字", "かな", "👍", "🇫🇷", "cafe\u{301}", "**bold**", "`code`", "[link](https://example.com)"]
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }
    func sentence(_ count: Int) -> String {
        (0..<count).map { _ in words[next(words.count)] }.joined(separator: " ") + "."
    }

    var out = ""
    out.reserveCapacity(bytes + 4_096)
    var section = 0
    while out.utf8.count < bytes {
        section += 1
        out += "# Section \(section): \(sentence(3))\n\n"
        for _ in 0..<6 {
            switch next(6) {
            case 0:
                for _ in 0..<4 { out += "- \(sentence(4 + next(12)))\n" }
            case 1:
                out += "```swift\n"
                for line in 0..<6 { out += "let value\(line) = compute(\(line), \"\(sentence(5))\")\n" }
                out += "```\n"
            case 2:
                out += "> \(sentence(10 + next(20)))\n"
            case 3:
                out += "| name | role | note |\n|:---|:---:|---:|\n"
                for _ in 0..<5 { out += "| \(sentence(1)) | \(sentence(2)) | \(sentence(3 + next(8))) |\n" }
            default:
                out += (0..<3).map { _ in sentence(8 + next(30)) }.joined(separator: "\n") + "\n"
            }
            out += "\n"
        }
    }
    return out
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(width - count, 0)) + self
    }
}
