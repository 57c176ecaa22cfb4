/// A width-independent place in a document: a block and a character offset
/// inside that block's text (in `Character`s, i.e. grapheme clusters).
///
/// Anchors cross the wire (`scroll.anchor`, `progress.anchor`) so that a
/// follower on a terminal of another size lands on the same text.
public struct Anchor: Codable, Hashable, Sendable {
    public var block: Int
    public var offset: Int

    public init(block: Int, offset: Int) {
        self.block = block
        self.offset = offset
    }

    public static let top = Anchor(block: 0, offset: 0)
}
