/// What the scroll-spy sees of a reader's place. The server builds it from a
/// `scroll` message and every client from its own layout, with the same
/// width-independent facts, so both arrive at the same current section.
public struct SpyPlace: Equatable, Hashable, Sendable {
    /// The section of the block at the top of the viewport (the anchor's).
    public var sectionAtTop: Int
    /// The section of the document's last block: the one visible at the very
    /// bottom.
    public var lastSection: Int
    /// The reader's last row is the document's (true when everything fits).
    public var atBottom: Bool
    /// The document is taller than the viewport.
    public var scrolls: Bool

    public init(sectionAtTop: Int, lastSection: Int, atBottom: Bool, scrolls: Bool) {
        self.sectionAtTop = sectionAtTop
        self.lastSection = lastSection
        self.atBottom = atBottom
        self.scrolls = scrolls
    }

    /// The place of a reader whose top row shows `anchor` in `document`; an
    /// anchor outside the document counts as section 0.
    public init(document: Document, anchor: Anchor, position: ReadingPosition) {
        let blocks = document.blocks
        self.init(sectionAtTop: blocks.indices.contains(anchor.block) ? blocks[anchor.block].section : 0,
                  lastSection: blocks.last?.section ?? 0,
                  atBottom: position.atBottom, scrolls: position.scrolls)
    }

    /// The section the spy makes current when no chosen tab holds: the one
    /// at the top, except at the very bottom of a document that scrolls,
    /// where the last section (the last one visible) wins. A document that
    /// fits is at its top and bottom at once: its top wins.
    public var section: Int { atBottom && scrolls ? lastSection : sectionAtTop }
}
