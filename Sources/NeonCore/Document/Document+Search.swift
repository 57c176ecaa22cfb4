/// Where one search match is in a document, independent of any terminal
/// width: characters of a block's text, or of a card's name.
public struct DocumentMatch: Hashable, Sendable, Comparable {
    public var block: Int
    /// The match is in a card's name (drawn on the card's first row) rather
    /// than in the block's text.
    public var inName: Bool
    /// Character offsets (`String.count` units) in the block's text, or in
    /// the card's name.
    public var characters: Range<Int>

    public init(block: Int, inName: Bool = false, characters: Range<Int>) {
        self.block = block
        self.inName = inName
        self.characters = characters
    }

    /// Document order: by block, a card's name before its headline, then
    /// by place in the text.
    public static func < (a: DocumentMatch, b: DocumentMatch) -> Bool {
        if a.block != b.block { return a.block < b.block }
        if a.inName != b.inName { return a.inName }
        return a.characters.lowerBound < b.characters.lowerBound
    }
}

extension Document {
    /// Every match of `search` in document order. Matches are found in each
    /// block's whole text, so a phrase a layout wraps across two rows is
    /// found at every width.
    public func matches(of search: TextSearch) -> [DocumentMatch] {
        matches(of: search, inBlocks: blocks.indices)
    }

    /// The matches of `search` in the blocks `indices`, in document order.
    func matches(of search: TextSearch, inBlocks indices: Range<Int>) -> [DocumentMatch] {
        var found: [DocumentMatch] = []
        for index in indices.clamped(to: blocks.indices) {
            let block = blocks[index]
            // A comment is not drawn (`Layout`), so nothing in it is found.
            if case .htmlBlock = block.kind, CommentCommand(html: block.text) != nil { continue }
            if case .card(let name) = block.kind {
                for range in search.ranges(in: name) {
                    found.append(DocumentMatch(block: index, inName: true, characters: range))
                }
            }
            for range in search.ranges(in: block.text) {
                found.append(DocumentMatch(block: index, characters: range))
            }
        }
        return found
    }
}
