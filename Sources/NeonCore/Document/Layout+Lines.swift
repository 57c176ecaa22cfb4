extension Layout {
    /// What to draw on `row`, which must be in `0..<rowCount`.
    public func line(at row: Int) -> LayoutLine {
        precondition(row >= 0 && row < rowCount, "row \(row) is outside the layout's \(rowCount) rows")
        let (index, stored) = locate(row)
        let block = document.blocks[index]
        guard let stored else {
            return LayoutLine(block: index, kind: block.kind, part: .separator, prefix: "", text: "", isTruncated: false)
        }
        let stripe = rows[stored]
        let isFirst = stored == blockRowStarts[index]
        var part = LayoutLine.Part.text
        var source = block.text
        if case .card(let name) = block.kind, isFirst {
            part = .cardName
            source = name
        }
        let utf8 = source.utf8
        let text = source[utf8.index(utf8.startIndex, offsetBy: stripe.byteStart)..<utf8.index(utf8.startIndex, offsetBy: stripe.byteEnd)]
        return LayoutLine(block: index, kind: block.kind, part: part, prefix: prefix(of: block.kind, firstRow: isFirst),
                          text: text, isTruncated: stripe.isTruncated)
    }

    /// The lines of the rows in `range` that exist: what a viewport shows.
    public func lines(_ range: Range<Int>) -> [LayoutLine] {
        range.clamped(to: 0..<rowCount).map(line(at:))
    }

    /// The prefix of a block's row: the marker or bar on the first row, the
    /// bar or blanks as wide as the marker below it.
    private func prefix(of kind: BlockKind, firstRow: Bool) -> String {
        guard let prefix = Self.prefix(of: kind) else { return "" }
        let prefixWidth = DisplayWidth.of(prefix)
        guard Self.showsPrefix(prefixWidth, width: width) else { return "" }
        if case .listItem = kind, !firstRow {
            return String(repeating: " ", count: prefixWidth)
        }
        return prefix
    }
}
