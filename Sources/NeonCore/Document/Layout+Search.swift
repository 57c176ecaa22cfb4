extension Layout {
    /// A match's part on one row: display columns counted from the row's
    /// first column, its prefix included.
    public struct MatchSpan: Hashable, Sendable {
        public var row: Int
        public var columns: Range<Int>

        public init(row: Int, columns: Range<Int>) {
            self.row = row
            self.columns = columns
        }
    }

    /// The rows `match` is drawn on, first to last: one row, or several when
    /// the layout wraps the matched text. Nil when this layout does not show
    /// the match: it lies past the cut of a card's name or headline.
    public func rows(of match: DocumentMatch) -> Range<Int>? {
        storedRows(of: match).map { screenRow($0.lowerBound, block: match.block)..<screenRow($0.upperBound, block: match.block) }
    }

    /// The parts of `match` on the rows in `visible`, top to bottom; each
    /// row of a wrapped match has its own.
    public func spans(of match: DocumentMatch, in visible: Range<Int>) -> [MatchSpan] {
        guard let stored = storedRows(of: match) else { return [] }
        let offset = screenRow(0, block: match.block)
        let shown = stored.clamped(to: visible.lowerBound - offset..<visible.upperBound - offset)
        var spans: [MatchSpan] = []
        for index in shown {
            let row = index + offset
            if rows[index].drawn >= 0 {
                spans += drawnSpans(of: match, row: row, line: drawnLines[Int(rows[index].drawn)])
                continue
            }
            let line = line(at: row)
            if let columns = Self.columns(of: match.characters, in: line.text, from: rows[index].characterStart,
                                          at: DisplayWidth.of(line.prefix)) {
                spans.append(MatchSpan(row: row, columns: columns))
            }
        }
        return spans
    }

    /// Every match of `search` drawn on the rows in `visible`, found in the
    /// whole text of the blocks those rows show (so a phrase wrapped across
    /// two rows is found), without searching the rest of the document.
    public func spans(of search: TextSearch, in visible: Range<Int>) -> [MatchSpan] {
        let visible = visible.clamped(to: 0..<rowCount)
        guard !visible.isEmpty else { return [] }
        let blocks = locate(visible.lowerBound).block..<locate(visible.upperBound - 1).block + 1
        return document.matches(of: search, inBlocks: blocks).flatMap { spans(of: $0, in: visible) }
    }

    /// The columns the characters `characters` take where `text`, whose
    /// first character is character `first` of its block, is drawn from
    /// column `start`; nil when none of them is in `text`.
    private static func columns(of characters: Range<Int>, in text: some StringProtocol, from first: Int,
                                at start: Int) -> Range<Int>? {
        var column = start
        var character = first
        var lower: Int?
        var upper = column
        for glyph in text {
            guard character < characters.upperBound else { break }
            let width = DisplayWidth.of(glyph)
            if character >= characters.lowerBound {
                if lower == nil { lower = column }
                upper = column + width
            }
            column += width
            character += 1
        }
        guard let lower, lower < upper else { return nil }
        return lower..<upper
    }

    /// The parts of `match` on a table's drawn row: the cell text it shows.
    private func drawnSpans(of match: DocumentMatch, row: Int, line drawn: DrawnLine) -> [MatchSpan] {
        let prefixColumns = DisplayWidth.of(line(at: row).prefix)
        var spans: [MatchSpan] = []
        let utf8 = drawn.text.utf8
        for segment in drawn.segments {
            let text = drawn.text[utf8.index(utf8.startIndex, offsetBy: segment.bytes.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: segment.bytes.upperBound)]
            if let columns = Self.columns(of: match.characters, in: text, from: segment.characterStart,
                                          at: prefixColumns + DisplayWidth.of(drawn.text[..<text.startIndex])) {
                spans.append(MatchSpan(row: row, columns: columns))
            }
        }
        return spans
    }

    /// The indices in `rows` of the rows a match spans, or nil when none
    /// shows it.
    private func storedRows(of match: DocumentMatch) -> Range<Int>? {
        guard let field = fieldRows(of: match), !field.isEmpty else { return nil }
        if document.blocks[match.block].isDrawnByLayout {
            let showing = field.filter { index in
                let drawn = rows[index].drawn
                guard drawn >= 0 else { return false }
                let line = drawnLines[Int(drawn)]
                return line.segments.contains { segment in
                    segment.characterStart < match.characters.upperBound
                        && segment.characterStart + characterCount(line, segment) > match.characters.lowerBound
                }
            }
            guard let first = showing.first, let last = showing.last else { return nil }
            return first..<last + 1
        }
        let lower = max(match.characters.lowerBound, 0)
        let last = lastRow(in: field, startingAtOrBefore: max(match.characters.upperBound - 1, lower))
        if case .card = document.blocks[match.block].kind, rows[field.upperBound - 1].isTruncated,
           lower >= characterEnd(ofRow: field.upperBound - 1, match: match) {
            return nil
        }
        return lastRow(in: field, startingAtOrBefore: lower)..<last + 1
    }

    private func characterCount(_ line: DrawnLine, _ segment: DrawnLine.Segment) -> Int {
        let utf8 = line.text.utf8
        return line.text[utf8.index(utf8.startIndex, offsetBy: segment.bytes.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: segment.bytes.upperBound)].count
    }

    /// The rows (indices in `rows`) of the text a match is in: a card's
    /// name row, a card's headline rows, or the block's rows.
    private func fieldRows(of match: DocumentMatch) -> Range<Int>? {
        guard document.blocks.indices.contains(match.block) else { return nil }
        let start = blockRowStarts[match.block]
        let end = blockRowStarts[match.block + 1]
        guard case .card = document.blocks[match.block].kind else { return match.inName ? nil : start..<end }
        return match.inName ? start..<start + 1 : start + 1..<end
    }

    /// The last row of `field` whose first character is at or before
    /// `offset` (the row that shows that character).
    private func lastRow(in field: Range<Int>, startingAtOrBefore offset: Int) -> Int {
        var low = field.lowerBound
        var high = field.upperBound - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if rows[mid].characterStart <= offset {
                low = mid
            } else {
                high = mid - 1
            }
        }
        return low
    }

    /// The character offset just past the text row `index` shows.
    private func characterEnd(ofRow index: Int, match: DocumentMatch) -> Int {
        let block = document.blocks[match.block]
        var source = block.text
        if match.inName, case .card(let name) = block.kind { source = name }
        let utf8 = source.utf8
        let row = rows[index]
        let text = source[utf8.index(utf8.startIndex, offsetBy: row.byteStart)..<utf8.index(utf8.startIndex, offsetBy: row.byteEnd)]
        return row.characterStart + text.count
    }
}
