extension Layout {
    /// The row showing `anchor`'s character. Offset 0 gives the block's first
    /// row (a card's name row); out-of-range anchors clamp: a negative block
    /// to the first row, a block past the end to the last row, a negative
    /// offset to the block's first row, an offset past the block's text (or
    /// into a card's cut-off headline) to its last row.
    public func row(for anchor: Anchor) -> Int {
        guard !document.blocks.isEmpty, anchor.block >= 0 else { return 0 }
        guard anchor.block < document.blocks.count else { return rowCount - 1 }
        let first = blockRowStarts[anchor.block]
        var low = first
        var high = blockRowStarts[anchor.block + 1] - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if rows[mid].characterStart <= anchor.offset {
                low = mid
            } else {
                high = mid - 1
            }
        }
        while low > first, rows[low - 1].characterStart == rows[low].characterStart {
            low -= 1
        }
        return screenRow(low, block: anchor.block)
    }

    /// The anchor of a row: its block and the offset of its first character.
    /// A separator row anchors to the start of the block below it, the block
    /// a reader is about to see. Rows out of range clamp to the first or last
    /// row; an empty layout gives `Anchor.top`.
    public func anchor(forRow row: Int) -> Anchor {
        guard rowCount > 0 else { return .top }
        let (block, stored) = locate(min(max(row, 0), rowCount - 1))
        return Anchor(block: block, offset: stored.map { rows[$0].characterStart } ?? 0)
    }
}
