import CCmarkGFM
import Foundation
import NeonCore
import NeonTUI
import Testing

/// The 673 examples of the GitHub Flavored Markdown spec 0.29, read at run
/// time from `../shared/conformance/gfm-spec/gfm-spec.json` beside the
/// package (never copied into the tree; without it the test is skipped, with
/// the reason in the output, but under CI (`CI=true`) it fails). Each example must parse; its sections must be
/// the headings cmark-gfm itself reports (walked here, independently of the
/// reader); and drawn at 20, 80 and 200 columns no row may be wider than the
/// width (but a code line, which is cut and scrolls) and every word of the
/// example's visible text (its expected HTML without tags) must be on screen
/// — code scrolled sideways to its end.
@Suite("GFM spec conformance")
struct GFMSpecConformanceTests {
    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/conformance/gfm-spec/gfm-spec.json").standardized
    static let isPresent = FileManager.default.fileExists(atPath: file.path)
    static let skipReason = Comment(rawValue: "SKIPPED: the GFM spec examples were not found at \(file.path)")
    static let widths = [20, 80, 200]
    static let underCI = ProcessInfo.processInfo.environment["CI"] == "true"

    @Test("under CI the GFM spec examples are there: a missing file fails instead of skipping", .enabled(if: underCI))
    func presentUnderCI() {
        #expect(Self.isPresent, "CI=true and the GFM spec examples are missing at \(Self.file.path): CI must run beside shared/")
    }

    struct Example: Decodable {
        var markdown: String
        var html: String
        var example: Int
        var section: String
    }

    @Test("every example parses, has cmark-gfm's headings as sections, and shows every word at 20, 80 and 200 columns",
          .enabled(if: isPresent, skipReason))
    func examples() throws {
        let examples = try JSONDecoder().decode([Example].self, from: Data(contentsOf: Self.file))
        #expect(examples.count == 673)
        // The dump lost the input of the examples fenced "example extension"
        // (their "markdown" is empty while their HTML is not): they cannot
        // be checked from this file; MarkdownExtensionTests covers their
        // tables, task lists, strikethrough and autolinks.
        let missing = examples.filter { $0.markdown.isEmpty && !$0.html.isEmpty }.map(\.example)
        var passed = 0
        for example in examples where !missing.contains(example.example) {
            var failures: [String] = []
            let document = try Document.parse(title: "Example", format: .markdown, text: example.markdown)
            let expected = Self.cmarkHeadings(example.markdown)
            var titles = document.sections.map { Self.normalized($0.title) }
            if document.blocks.first.map({ if case .heading = $0.kind { false } else { true } }) ?? true {
                titles.removeFirst()
            }
            let numbered = expected.enumerated().map { index, title in
                title.isEmpty ? "Section \(index + document.sections.count - expected.count + 1)" : title
            }
            if titles != numbered { failures.append("sections \(titles) but cmark-gfm's headings \(numbered)") }
            let words = Self.visibleWords(example.html)
            for width in Self.widths {
                let layout = Layout(document: document, width: width)
                for line in layout.lines(0..<layout.rowCount) {
                    let isCode = if case .codeBlock = line.kind { true } else { false }
                    let loneWide = line.text.count == 1 && DisplayWidth.of(line.text) > width - DisplayWidth.of(line.prefix)
                    if line.displayWidth > width, !(isCode && line.isTruncated), !loneWide {
                        failures.append("width \(width): a row of \(line.displayWidth) columns: \(line.prefix)\(line.text)")
                    }
                }
                let screen = Self.screenText(layout)
                for word in words where !screen.contains(word) {
                    failures.append("width \(width): \"\(word)\" is not on screen")
                }
            }
            if failures.isEmpty {
                passed += 1
            } else {
                Issue.record("example \(example.example) (\(example.section)): \(failures.prefix(3).joined(separator: "; "))")
            }
        }
        print("GFM spec 0.29: \(passed) of \(examples.count - missing.count) examples pass (parse, sections, widths \(Self.widths), every word on screen); \(missing.count) have no Markdown in gfm-spec.json: \(missing.map(String.init).joined(separator: ", "))")
        #expect(passed == examples.count - missing.count)
        #expect(missing.count <= 24, "more examples than the 24 known lost their input: the data file changed")
    }

    /// The text of every heading cmark-gfm finds, in order, whitespace
    /// collapsed: its text and code descendants, images' alt text included.
    static func cmarkHeadings(_ markdown: String) -> [String] {
        CmarkGFMParsers.exclusively { cmarkHeadingsAlone(markdown) }
    }

    /// `cmarkHeadings`, under NeonCore's lock on cmark-gfm's parsers.
    private static func cmarkHeadingsAlone(_ markdown: String) -> [String] {
        guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else { return [] }
        for name in ["table", "strikethrough", "autolink", "tasklist"] {
            if let found = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, found) }
        }
        let safe = String(markdown.unicodeScalars.map { scalar -> Character in
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r") || (0x7F...0x9F).contains(scalar.value)
                ? "\u{FFFD}" : Character(scalar)
        })
        cmark_parser_feed(parser, safe, safe.utf8.count)
        guard let root = cmark_parser_finish(parser) else { return [] }
        cmark_parser_free(parser)
        defer { cmark_node_free(root) }
        var headings: [String] = []
        var current: String?
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            let node = cmark_iter_get_node(iterator)
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HEADING:
                if event == CMARK_EVENT_ENTER { current = "" } else if let text = current {
                    headings.append(normalized(text))
                    current = nil
                }
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE:
                if current != nil, let literal = cmark_node_get_literal(node) { current! += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                if current != nil { current! += " " }
            default:
                break
            }
        }
        return headings
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The words of an example's expected HTML with its tags removed and
    /// the escapes cmark-gfm writes undone, whitespace removed inside none.
    static func visibleWords(_ html: String) -> [String] {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true; text.append(" "); continue }
            if character == ">", inTag { inTag = false; continue }
            if !inTag { text.append(character) }
        }
        for (escape, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: escape, with: character)
        }
        return text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// Everything drawn on screen, whitespace removed: rows without bars as
    /// one stream, and text between bars ("│", a table's cells, a quote's
    /// text) as one stream per column, so a word wrapped inside a cell reads
    /// whole; code scrolled sideways one column at a time to its end.
    static func screenText(_ layout: Layout) -> String {
        var streams: [String] = []
        let shifts = layout.codeOverflow == 0 ? [0] : Array(0...layout.codeOverflow + 1)
        for shift in shifts {
            var buffer = Buffer(width: layout.width, height: max(layout.rowCount, 1))
            DocumentView(layout: layout, top: 0, codeShift: shift, theme: .monochrome).render(in: buffer.area, into: &buffer)
            var main = ""
            var columns: [Int: String] = [:]
            for line in buffer.lines() {
                let fields = line.split(separator: "│", omittingEmptySubsequences: false)
                if fields.count == 1 {
                    main += stripped(line)
                } else {
                    for (index, field) in fields.enumerated() { columns[index, default: ""] += stripped(field) }
                }
            }
            streams.append(main)
            streams += columns.keys.sorted().map { columns[$0]! }
            if shift > 0 { streams.removeAll { $0.isEmpty } }
        }
        return streams.joined(separator: "\u{1}")
    }

    static func stripped(_ text: some StringProtocol) -> String {
        String(text.filter { !$0.isWhitespace && !"┌┐└┘├┤┬┴┼─‹›".contains($0) })
    }
}
