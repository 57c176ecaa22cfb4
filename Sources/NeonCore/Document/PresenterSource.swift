import CCmarkGFM

/// A note only the presenter sees, and the block of the published document
/// it belongs to: the passage it was written beside.
public struct SpeakerNote: Equatable, Hashable, Sendable {
    /// The block (of the published text, as every party numbers it) the
    /// note belongs to: the block before it; the block after it when it
    /// opens the document or a slide; the block it is in when it is
    /// written inside a paragraph.
    public var block: Int
    public var text: String

    public init(block: Int, text: String) {
        self.block = block
        self.text = text
    }
}

/// A Markdown source as a presenting client reads it: the text it
/// publishes, without the speaker notes (and with presenterm's front matter
/// as an intro, `FrontMatter`), and the notes it keeps for the presenter. Speaker notes are presenterm's comments
/// (`<!-- speaker_note: text -->` and the multi-line YAML form, `|` or
/// `>`), anywhere Markdown takes an HTML block or inline HTML; in code
/// they are code. They are never published: neither the server nor anyone
/// else ever sees their text.
public struct PresenterSource: Equatable, Sendable {
    /// What the room gets: the source with every speaker note taken out.
    public let published: String
    /// The notes in document order.
    public let notes: [SpeakerNote]

    public init(markdown original: String) {
        // presenterm's front matter becomes the deck's intro.
        let text = FrontMatter.converted(original) ?? original
        guard text.contains("speaker_note") else {
            published = text
            notes = []
            return
        }
        // The text as the parser sees it, so that its line numbers are ours.
        let source = String(decoding: SourceText(text).bytes, as: UTF8.self)
        let original = MarkdownReader.read(title: "", text: source)
        let found = Self.notes(in: original)
        guard !found.isEmpty else {
            published = text
            notes = []
            return
        }
        let cuts = CmarkGFM.withTree(of: source) { root in Self.cuts(in: root) }
        published = Self.apply(cuts, to: source)
        notes = Self.attach(found, in: original)
    }

    /// A note where the document holds it: a whole HTML block, or inline
    /// HTML in block `block`.
    private struct Found {
        var block: Int
        var isWholeBlock: Bool
        var text: String
    }

    private static func notes(in document: Document) -> [Found] {
        var out: [Found] = []
        for (index, block) in document.blocks.enumerated() {
            if case .htmlBlock = block.kind {
                if case let .speakerNote(text)? = CommentCommand(html: block.text) {
                    out.append(Found(block: index, isWholeBlock: true, text: text))
                }
                continue
            }
            let utf8 = Array(block.text.utf8)
            for run in block.styles where run.style.contains(.html) {
                let html = String(decoding: utf8[run.bytes.clamped(to: 0..<utf8.count)], as: UTF8.self)
                if case let .speakerNote(text)? = CommentCommand(html: html) {
                    out.append(Found(block: index, isWholeBlock: false, text: text))
                }
            }
        }
        return out
    }

    /// Each note with the block of the published document it belongs to.
    private static func attach(_ found: [Found], in original: Document) -> [SpeakerNote] {
        let removed = Set(found.filter(\.isWholeBlock).map(\.block))
        let publishedCount = original.blocks.count - removed.count
        func published(_ index: Int) -> Int {
            min(index - removed.filter { $0 < index }.count, max(publishedCount - 1, 0))
        }
        func isSeparator(_ index: Int) -> Bool {
            if case .htmlBlock = original.blocks[index].kind { return CommentCommand(html: original.blocks[index].text) == .endSlide }
            return false
        }
        return found.map { note in
            guard note.isWholeBlock else { return SpeakerNote(block: published(note.block), text: note.text) }
            let before = stride(from: note.block - 1, through: 0, by: -1).first { !removed.contains($0) }
            if let before, !isSeparator(before) { return SpeakerNote(block: published(before), text: note.text) }
            let after = (note.block + 1..<original.blocks.count).first { !removed.contains($0) }
            return SpeakerNote(block: after.map(published) ?? published(before ?? 0), text: note.text)
        }
    }

    // MARK: - Taking the notes out of the text

    /// One change to the source's lines (1-based, inclusive).
    private enum Cut {
        /// An HTML block holding a note, `column` (1-based) where it starts.
        case block(lines: ClosedRange<Int>, column: Int)
        /// Inline notes (their exact source text) in the leaf on `lines`.
        case inline(lines: ClosedRange<Int>, literals: [String])

        var lines: ClosedRange<Int> {
            switch self {
            case let .block(lines, _), let .inline(lines, _): lines
            }
        }
    }

    private static func cuts(in root: OpaquePointer) -> [Cut] {
        guard let iterator = cmark_iter_new(root) else { return [] }
        defer { cmark_iter_free(iterator) }
        var cuts: [Cut] = []
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE else { continue }
            let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            guard case .speakerNote? = CommentCommand(html: literal) else { continue }
            if type == CMARK_NODE_HTML_BLOCK {
                // A comment block ends on the line its literal's lines end
                // on (cmark's end line can be short of the closing `-->`).
                let first = Int(cmark_node_get_start_line(node))
                let lineCount = literal.split(separator: "\n", omittingEmptySubsequences: false).count
                    - (literal.hasSuffix("\n") ? 1 : 0)
                cuts.append(.block(lines: first...first + max(lineCount - 1, 0), column: Int(cmark_node_get_start_column(node))))
                continue
            }
            var leaf = cmark_node_parent(node)
            while let current = leaf, !isLeaf(current) { leaf = cmark_node_parent(current) }
            guard let leaf else { continue }
            let first = Int(cmark_node_get_start_line(leaf))
            let lines = first...max(Int(cmark_node_get_end_line(leaf)), first)
            if case let .inline(previous, literals)? = cuts.last, previous == lines {
                cuts[cuts.count - 1] = .inline(lines: lines, literals: literals + [literal])
            } else {
                cuts.append(.inline(lines: lines, literals: [literal]))
            }
        }
        return cuts
    }

    private static func isLeaf(_ node: OpaquePointer) -> Bool {
        let type = cmark_node_get_type(node)
        return type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING || type == neon_cmark_table()
    }

    /// The source with the cuts made, last first so earlier line numbers
    /// hold.
    private static func apply(_ cuts: [Cut], to source: String) -> String {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for cut in cuts.sorted(by: { $0.lines.lowerBound > $1.lines.lowerBound }) {
            let range = (cut.lines.lowerBound - 1)...min(cut.lines.upperBound - 1, lines.count - 1)
            guard range.lowerBound >= 0, range.lowerBound <= range.upperBound else { continue }
            switch cut {
            case let .block(_, column):
                lines.replaceSubrange(range, with: replacement(for: range, column: column, in: lines))
            case let .inline(_, literals):
                var text = lines[range].joined(separator: "\n")
                for literal in literals {
                    guard let found = text.range(of: literal) else { continue }
                    let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : "\n"
                    var end = found.upperBound
                    if before == " " || before == "\n", end < text.endIndex, text[end] == " " { end = text.index(after: end) }
                    text.removeSubrange(found.lowerBound..<end)
                }
                lines.replaceSubrange(range, with: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What stands where a note's HTML block was: nothing, where a blank
    /// line or a new block is next to it anyway; a blank line between two
    /// lines that would otherwise run together into one paragraph; inside
    /// a block quote, the quote's own blank line.
    private static func replacement(for range: ClosedRange<Int>, column: Int, in lines: [String]) -> [String] {
        let prefix = String(decoding: Array(lines[range.lowerBound].utf8.prefix(max(column - 1, 0))), as: UTF8.self)
        if prefix.contains(">") {
            return [prefix.trimming(" \t")]
        }
        let before = range.lowerBound > 0 ? lines[range.lowerBound - 1] : nil
        let after = range.upperBound + 1 < lines.count ? lines[range.upperBound + 1] : nil
        if isBlank(before) || isBlank(after) || startsBlock(after ?? "") { return [] }
        return [""]
    }

    private static func isBlank(_ line: String?) -> Bool {
        line.map { $0.allSatisfy { $0 == " " || $0 == "\t" } } ?? true
    }

    /// Whether `line` starts a block of its own after a paragraph line (a
    /// heading, a list item, a quote, a fence, a thematic break, HTML).
    private static func startsBlock(_ line: String) -> Bool {
        let text = line.drop { $0 == " " || $0 == "\t" }
        if let first = text.first, "#>-*+<|".contains(first) { return true }
        if text.hasPrefix("```") || text.hasPrefix("~~~") { return true }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, let mark = text.dropFirst(digits.count).first, mark == "." || mark == ")" { return true }
        return false
    }
}
