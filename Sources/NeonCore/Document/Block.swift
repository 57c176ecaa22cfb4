/// One unit of a document that a layout wraps as a whole: a heading, a
/// paragraph, a list item, a quote, a code block or a catalog card.
public struct Block: Equatable, Hashable, Sendable {
    public let kind: BlockKind
    /// Plain text with inline markup removed. A newline is a hard line break
    /// (code lines, lines of a plain-text paragraph).
    public let text: String
    /// The index of the section the block belongs to.
    public let section: Int

    init(kind: BlockKind, text: String, section: Int) {
        self.kind = kind
        self.text = text
        self.section = section
    }
}
