extension Layout {
    /// The top row at which a follower whose viewport has `viewport` rows
    /// shows the place of the reader it follows: its own top when that
    /// reader is at the top of the document (anchored at its start), its own
    /// bottom when that reader is at the bottom (so nothing they see at the
    /// end is hidden), and otherwise their anchor on the top row, as far as
    /// the document scrolls. A reader at the top of a document that fits
    /// their screen is at its bottom too: the top wins.
    public func followedTop(anchor: Anchor, atBottom: Bool, viewport: Int) -> Int {
        let maximumTop = max(rowCount - max(viewport, 0), 0)
        if anchor == .top { return 0 }
        if atBottom { return maximumTop }
        return min(max(row(for: anchor), 0), maximumTop)
    }
}
