/// Which scroll a `progress` broadcast answers (bench follow, coread and
/// rooms). The server turns each scroll into one progress, in order per
/// sender, and echoes the scroll's anchor, which encodes the scroll's number
/// k modulo blocks × `rowsPerBlock` (the block and the offset in it); the
/// receiver takes the next k after the last one it matched from that sender
/// with that remainder. A jump past the next is progress the server skipped
/// for a slow receiver (a newer one replaced it, docs/PROTOCOL.md "Slow
/// connections").
struct ScrollNumbers {
    /// A scroll's anchor moves one block every `rowsPerBlock` scrolls, like
    /// a reader scrolling through paragraphs, so tabs change now and then.
    static let rowsPerBlock = 10

    /// The document's blocks.
    let blocks: Int
    /// The last number matched in each slot (a receiver and a sender), -1 for none.
    private var last: [Int]

    init(blocks: Int, slots: Int) {
        self.blocks = blocks
        last = Array(repeating: -1, count: slots)
    }

    /// The anchor scroll number `sequence` carries in a document of `blocks` blocks.
    static func anchor(of sequence: Int, blocks: Int) -> (block: Int, offset: Int) {
        ((sequence / Self.rowsPerBlock) % blocks, sequence % Self.rowsPerBlock)
    }

    /// The number of the scroll that a progress with this anchor answers in
    /// `slot`, and how many of that sender's scrolls were skipped before it.
    mutating func match(block: Int, offset: Int, slot: Int) -> (sequence: Int, skipped: Int) {
        let cycle = blocks * Self.rowsPerBlock
        let remainder = block * Self.rowsPerBlock + offset
        let previous = last[slot]
        let sequence = previous + 1 + ((remainder - (previous + 1)) % cycle + cycle) % cycle
        last[slot] = sequence
        return (sequence, sequence - previous - 1)
    }
}
