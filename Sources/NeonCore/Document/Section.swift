/// A run of blocks under one tab of the tab header.
public struct Section: Equatable, Hashable, Sendable {
    /// The tab's title; "Section N" (1-based) when the source gives none.
    public let title: String
    /// The index of the section's first block; equal to the document's block
    /// count only for the single section of an empty document.
    public let firstBlock: Int

    init(title: String, firstBlock: Int) {
        self.title = title
        self.firstBlock = firstBlock
    }
}
