/// Draws a table into layout rows: a box with columns sized to their
/// content when it fits, cells wrapped in narrower columns when it does not,
/// and when even three columns a cell do not fit, one "header: value" row
/// per cell, record after record, with a rule between records.
///
/// Each drawn row keeps the character offsets of the cell text it shows, so
/// anchors, search and scroll-spy work inside tables as in any block: a row's
/// anchor offset is where its first shown cell text starts (a row's first
/// cell when it starts a table row), borders take the offset of the row
/// above them, and offsets never decrease down the table.
struct TableDrawing {
    let shape: TableShape
    /// The columns the table may take.
    let width: Int

    /// The narrowest a column is squeezed to (unless its content is
    /// narrower): its longest word when every column's fits, else its
    /// longest word up to `longestUnbrokenWord`; a table that does not fit
    /// even so is stacked.
    static let minimumColumn = 3

    func append(to wrapper: inout LineWrapper, drawn: inout [DrawnLine]) {
        let starts = shape.cellStarts()
        var lines: [(DrawnLine, Int)] = []
        if let widths = columnWidths() {
            drawBox(widths: widths, starts: starts, into: &lines)
        } else {
            drawStacked(starts: starts, into: &lines)
        }
        var previous = 0
        for (line, characterStart) in lines {
            previous = max(previous, characterStart)
            wrapper.appendDrawn(drawn.count, characterStart: previous)
            drawn.append(line)
        }
    }

    // MARK: Box

    /// Column widths for the box form, or nil when it cannot fit.
    func columnWidths() -> [Int]? {
        let count = shape.alignments.count
        guard count > 0 else { return nil }
        let overhead = 3 * count + 1
        var natural = Array(repeating: 1, count: count)
        var longestWord = Array(repeating: 1, count: count)
        var widestCharacter = Array(repeating: 1, count: count)
        for row in shape.rows {
            for (column, cell) in row.enumerated() {
                let measured = Self.measure(cell)
                natural[column] = max(natural[column], measured.width)
                longestWord[column] = max(longestWord[column], measured.longestWord)
                widestCharacter[column] = max(widestCharacter[column], measured.widestCharacter)
            }
        }
        if natural.reduce(0, +) + overhead <= width { return natural }
        // Every word whole when that fits; else words up to
        // `longestUnbrokenWord` whole; else the table is stacked.
        let whole = natural.indices.map { column in
            min(natural[column], max(Self.minimumColumn, longestWord[column], widestCharacter[column]))
        }
        let capped = natural.indices.map { column in
            min(natural[column], max(Self.minimumColumn, min(longestWord[column], Self.longestUnbrokenWord),
                                     widestCharacter[column]))
        }
        let minimum = whole.reduce(0, +) + overhead <= width ? whole : capped
        guard minimum.reduce(0, +) + overhead <= width else { return nil }
        // Columns share the room by the square root of their natural
        // widths (prose gets more than a column of short values, not all
        // of it); a column that needs less than its share gets its natural
        // width and the rest is shared again; none goes below its minimum.
        var widths = minimum
        var room = width - overhead
        var open = Array(natural.indices)
        while !open.isEmpty {
            let weights = open.map { Double(natural[$0]).squareRoot() }
            let total = weights.reduce(0, +)
            let shares = weights.map { Double(room) * $0 / total }
            let settled = open.indices.filter { Double(natural[open[$0]]) <= shares[$0] }
            if settled.isEmpty {
                var given = 0
                for (index, column) in open.enumerated() {
                    widths[column] = max(minimum[column], Int(shares[index]))
                    given += widths[column]
                }
                // Hand out what flooring left, then take back what minimums
                // overdrew, from the widest columns.
                var order = open.sorted { widths[$0] > widths[$1] }
                var turn = 0
                while given < room, !order.isEmpty {
                    let column = order[turn % order.count]
                    if widths[column] < natural[column] { widths[column] += 1; given += 1 }
                    turn += 1
                    if turn > room * 2 { break }
                }
                order = open.sorted { widths[$0] > widths[$1] }
                turn = 0
                while given > room, turn < order.count * width {
                    let column = order[turn % order.count]
                    if widths[column] > minimum[column] { widths[column] -= 1; given -= 1 }
                    turn += 1
                }
                // A settled column took its natural width, which can be
                // more than its minimum: what the open columns could not
                // give back comes from it, the widest first.
                for column in widths.indices.sorted(by: { widths[$0] > widths[$1] }) where given > room {
                    let taken = min(given - room, widths[column] - minimum[column])
                    widths[column] -= taken
                    given -= taken
                }
                break
            }
            for index in settled.reversed() {
                widths[open[index]] = natural[open[index]]
                room -= natural[open[index]]
                open.remove(at: index)
            }
        }
        return widths
    }

    /// Words up to this many columns are never broken inside a cell: a
    /// table whose columns cannot keep them whole is stacked instead.
    static let longestUnbrokenWord = 16

    /// A cell's width, its longest word's and its widest character's, in
    /// one pass (ASCII without grapheme breaking).
    static func measure(_ cell: String) -> (width: Int, longestWord: Int, widestCharacter: Int) {
        var width = 0, word = 0, longest = 0, widest = 1
        if cell.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in cell.utf8 {
                let columns = DisplayWidth.ofASCII(byte)
                width += columns
                word = byte == 0x20 ? 0 : word + columns
                longest = max(longest, word)
            }
            return (width, longest, widest)
        }
        for character in cell {
            let columns = DisplayWidth.of(character)
            width += columns
            widest = max(widest, columns)
            word = character == " " ? 0 : word + columns
            longest = max(longest, word)
        }
        return (width, longest, widest)
    }

    private func drawBox(widths: [Int], starts: [[Int]], into lines: inout [(DrawnLine, Int)]) {
        func rule(_ left: String, _ middle: String, _ right: String) -> DrawnLine {
            DrawnLine(text: left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right,
                      role: .rule, segments: [])
        }
        lines.append((rule("┌", "┬", "┐"), 0))
        for (rowIndex, row) in shape.rows.enumerated() {
            var pieces: [[Layout.Row]] = []
            for (column, cell) in row.enumerated() {
                var wrapper = LineWrapper()
                wrapper.wrap(cell, width: widths[column], mode: .words)
                pieces.append(wrapper.rows)
            }
            let height = pieces.map(\.count).max() ?? 1
            for lineIndex in 0..<height {
                var text: [UInt8] = []
                text.reserveCapacity(width * 3 + 8)
                text.append(contentsOf: Self.bar)
                var segments: [DrawnLine.Segment] = []
                var first = lineIndex == 0 ? starts[rowIndex][0] : Int.max
                for (column, cell) in row.enumerated() {
                    text.append(0x20)
                    var shown = Substring()
                    var characterStart = 0
                    if lineIndex < pieces[column].count {
                        let piece = pieces[column][lineIndex]
                        let utf8 = cell.utf8
                        shown = cell[utf8.index(utf8.startIndex, offsetBy: piece.byteStart)..<utf8.index(utf8.startIndex, offsetBy: piece.byteEnd)]
                        characterStart = starts[rowIndex][column] + piece.characterStart
                    }
                    let padding = max(widths[column] - DisplayWidth.of(shown), 0)
                    let (before, after) = split(padding, shape.alignments[column])
                    text.append(contentsOf: repeatElement(0x20, count: before))
                    if !shown.isEmpty {
                        let lower = text.count
                        text.append(contentsOf: shown.utf8)
                        segments.append(.init(bytes: lower..<text.count, characterStart: characterStart))
                        first = min(first, characterStart)
                    }
                    text.append(contentsOf: repeatElement(0x20, count: after + 1))
                    text.append(contentsOf: Self.bar)
                }
                let role: DrawnLine.Role = rowIndex == 0 ? .header : .body
                lines.append((DrawnLine(text: String(decoding: text, as: UTF8.self), role: role, segments: segments),
                              first == Int.max ? 0 : first))
            }
            if rowIndex == 0, shape.rows.count > 1 {
                lines.append((rule("├", "┼", "┤"), 0))
            }
        }
        lines.append((rule("└", "┴", "┘"), 0))
    }

    /// "│" in UTF-8.
    private static let bar: [UInt8] = Array("│".utf8)

    /// The blanks before and after a cell's text.
    private func split(_ padding: Int, _ alignment: TableShape.Alignment) -> (Int, Int) {
        switch alignment {
        case .right: (padding, 0)
        case .center: (padding / 2, padding - padding / 2)
        case .left, .none: (0, padding)
        }
    }

    // MARK: Stacked

    private func drawStacked(starts: [[Int]], into lines: inout [(DrawnLine, Int)]) {
        let header = shape.rows.first ?? []
        let records = shape.rows.count > 1 ? Array(1..<shape.rows.count) : [0]
        for (number, rowIndex) in records.enumerated() {
            if number > 0 {
                lines.append((DrawnLine(text: String(repeating: "─", count: max(width, 1)), role: .rule, segments: []), 0))
            }
            for (column, cell) in shape.rows[rowIndex].enumerated() {
                let start = starts[rowIndex][column]
                var label = rowIndex == 0 || header[column].isEmpty ? "Column \(column + 1)" : header[column]
                label += ":"
                if DisplayWidth.of(label) + 1 + DisplayWidth.of(cell) <= width {
                    let text = label + " " + cell
                    let lower = label.utf8.count + 1
                    let segments = cell.isEmpty ? [] : [DrawnLine.Segment(bytes: lower..<text.utf8.count, characterStart: start)]
                    lines.append((DrawnLine(text: text, role: .body, segments: segments), start))
                    continue
                }
                var labelRows = LineWrapper()
                labelRows.wrap(label, width: width, mode: .characters, maxRows: 1)
                let labelRow = labelRows.rows[0]
                let labelUTF8 = label.utf8
                var labelText = String(label[labelUTF8.index(labelUTF8.startIndex, offsetBy: labelRow.byteStart)..<labelUTF8.index(labelUTF8.startIndex, offsetBy: labelRow.byteEnd)])
                if labelRow.isTruncated { labelText += "…" }
                lines.append((DrawnLine(text: labelText, role: .header, segments: []), start))
                let indent = width > 4 ? 2 : 0
                var wrapper = LineWrapper()
                wrapper.wrap(cell, width: width - indent, mode: .words)
                let utf8 = cell.utf8
                for piece in wrapper.rows {
                    let shown = cell[utf8.index(utf8.startIndex, offsetBy: piece.byteStart)..<utf8.index(utf8.startIndex, offsetBy: piece.byteEnd)]
                    let text = String(repeating: " ", count: indent) + shown
                    let segments = shown.isEmpty ? [] : [DrawnLine.Segment(bytes: indent..<text.utf8.count, characterStart: start + piece.characterStart)]
                    lines.append((DrawnLine(text: text, role: .body, segments: segments), start + piece.characterStart))
                }
            }
        }
    }
}
