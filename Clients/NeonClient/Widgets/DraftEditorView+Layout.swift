import NeonCore
import NeonTUI

extension DraftEditorView {
    /// A draft's text broken into screen rows: hard newlines end a row, and
    /// a line wider than the width wraps after its last space that fits (or
    /// between characters when a word alone is too wide), by display width.
    ///
    /// Positions are offsets in Unicode scalars, the unit of the draft's
    /// edits. A space that does not fit at the end of a row hangs past the
    /// edge rather than starting the next row, and a position at the end of
    /// a line whose last row is full gets a row of its own, so every place
    /// the cursor can be has a cell inside the width.
    ///
    /// The editor's up/down moves and the widget share this layout, so the
    /// cursor moves along the rows the reader sees.
    public struct Layout: Equatable, Sendable {
        /// One grapheme cluster placed in a row.
        public struct Glyph: Equatable, Sendable {
            public let character: Character
            /// Where it starts in the text.
            public let index: String.Index
            /// Where it starts in the text, in scalars.
            public let offset: Int
            /// The column it starts at.
            public let column: Int
            /// The columns it takes (0 for a lone combining mark).
            public let width: Int
        }

        /// One screen row.
        public struct Row: Equatable, Sendable {
            public internal(set) var glyphs: [Glyph] = []
            /// The scalar offset of the row's first position.
            public let start: Int
            /// The scalar offset just past the row's last glyph.
            public internal(set) var end: Int
            /// Whether the row is the last of its line, so that `end` (before
            /// the newline, or the end of the text) is a position in it;
            /// otherwise `end` belongs to the next row.
            public internal(set) var endsLine = false

            /// The column just right of the row's last glyph.
            public var endColumn: Int { glyphs.last.map { $0.column + $0.width } ?? 0 }
        }

        /// The rows, at least one.
        public let rows: [Row]
        /// The columns rows wrap at; nil for hard lines only.
        public let width: Int?

        /// Lays `text` out in rows of at most `width` columns; a width of nil
        /// or below 1 keeps every line on one row.
        public init(text: String, width: Int?) {
            let width = width.flatMap { $0 >= 1 ? $0 : nil }
            var builder = Builder(width: width ?? .max)
            var offset = 0
            for index in text.indices {
                let character = text[index]
                let scalars = character.unicodeScalars.count
                if character.isNewline {
                    builder.endLine(at: offset, next: offset + scalars)
                } else {
                    builder.add(character, index: index, offset: offset, scalars: scalars)
                }
                offset += scalars
            }
            builder.endLine(at: offset, next: offset)
            rows = builder.rows
            self.width = width
        }

        /// The row and column of the position `offset` (in scalars); a
        /// position inside a grapheme cluster counts as the cluster's start,
        /// one past the text as its end.
        public func place(of offset: Int) -> (row: Int, column: Int) {
            let offset = max(offset, 0)
            let index = rowIndex(of: offset)
            let row = rows[index]
            guard offset < row.end, let glyph = row.glyphs.last(where: { $0.offset <= offset }) else {
                return (index, row.endColumn)
            }
            if let width, glyph.column >= width, index + 1 < rows.count {
                return (index + 1, 0)
            }
            return (index, glyph.column)
        }

        /// The position in row `row` nearest to `column` without passing it:
        /// the start of the glyph under the column, or the row's last
        /// position when the row is shorter.
        public func position(row: Int, column: Int) -> Int {
            let row = rows[min(max(row, 0), rows.count - 1)]
            var best = row.start
            for glyph in row.glyphs where glyph.column <= column && glyph.column < (width ?? .max) {
                best = glyph.offset
            }
            if row.endsLine, row.endColumn <= column {
                best = row.end
            }
            return best
        }

        /// The row holding position `offset`: the last one starting at or
        /// before it (a wrapped row's end is the next row's start).
        private func rowIndex(of offset: Int) -> Int {
            var low = 0
            var high = rows.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if rows[middle].start <= offset { low = middle } else { high = middle - 1 }
            }
            return low
        }
    }
}

extension DraftEditorView.Layout {
    /// Fills rows glyph by glyph.
    private struct Builder {
        let width: Int
        var rows: [Row] = []
        var row = Row(start: 0, end: 0)
        /// Where in `row.glyphs` the row may break: just after its last space.
        var breakAfter: Int?

        init(width: Int) {
            self.width = width
        }

        mutating func add(_ character: Character, index: String.Index, offset: Int, scalars: Int) {
            let columns = DisplayWidth.of(character)
            let isSpace = character.isWhitespace
            var column = row.endColumn
            if column + columns > width, !row.glyphs.isEmpty {
                if isSpace {
                    row.glyphs.append(Glyph(character: character, index: index, offset: offset, column: column, width: columns))
                    row.end = offset + scalars
                    wrap(keeping: row.glyphs.count)
                    return
                }
                wrap(keeping: breakAfter ?? row.glyphs.count)
                column = row.endColumn
                if column + columns > width, !row.glyphs.isEmpty {
                    wrap(keeping: row.glyphs.count)
                    column = 0
                }
            }
            row.glyphs.append(Glyph(character: character, index: index, offset: offset, column: column, width: columns))
            row.end = offset + scalars
            if isSpace { breakAfter = row.glyphs.count }
        }

        /// Closes the line at `offset` (before its newline, or at the end of
        /// the text); the next line starts at `next`.
        mutating func endLine(at offset: Int, next: Int) {
            row.end = offset
            if row.endColumn >= width, !row.glyphs.isEmpty {
                rows.append(row)
                row = Row(start: offset, end: offset)
            }
            row.endsLine = true
            rows.append(row)
            row = Row(start: next, end: next)
            breakAfter = nil
        }

        /// Ends the current row after its first `count` glyphs; the rest
        /// start the next row, shifted to column 0.
        private mutating func wrap(keeping count: Int) {
            let moved = row.glyphs[count...]
            var finished = row
            finished.glyphs.removeSubrange(count...)
            let start = moved.first?.offset ?? row.end
            finished.end = start
            rows.append(finished)
            let shift = moved.first?.column ?? 0
            var next = Row(start: start, end: row.end)
            next.glyphs = moved.map {
                Glyph(character: $0.character, index: $0.index, offset: $0.offset, column: $0.column - shift, width: $0.width)
            }
            row = next
            breakAfter = nil
            if let space = next.glyphs.lastIndex(where: { $0.character.isWhitespace }) {
                breakAfter = space + 1
            }
        }
    }
}
