@testable import NeonLoad
import Testing

/// How follow, coread and rooms tell which scroll a progress answers: the
/// number a scroll's anchor carries, modulo blocks × 10.
@Suite("scroll numbers carried in anchors")
struct ScrollNumbersTests {
    @Test("a scroll's anchor moves one block every ten scrolls and wraps after the last block")
    func anchors() {
        #expect(ScrollNumbers.anchor(of: 0, blocks: 3) == (0, 0))
        #expect(ScrollNumbers.anchor(of: 9, blocks: 3) == (0, 9))
        #expect(ScrollNumbers.anchor(of: 10, blocks: 3) == (1, 0))
        #expect(ScrollNumbers.anchor(of: 29, blocks: 3) == (2, 9))
        #expect(ScrollNumbers.anchor(of: 30, blocks: 3) == (0, 0))
    }

    @Test("progress in order matches scroll after scroll, past the wrap, with nothing skipped; each slot counts on its own")
    func inOrder() {
        var numbers = ScrollNumbers(blocks: 2, slots: 2)
        for sequence in 0..<45 {
            let (block, offset) = ScrollNumbers.anchor(of: sequence, blocks: 2)
            let matched = numbers.match(block: block, offset: offset, slot: 0)
            #expect(matched == (sequence, 0), "scroll \(sequence)")
        }
        #expect(numbers.match(block: 0, offset: 0, slot: 1) == (0, 0))
    }

    @Test("progress the server skipped for a slow receiver is counted: scroll 7 after scroll 2 skips 4, and the next after the wrap is found")
    func skipped() {
        var numbers = ScrollNumbers(blocks: 1, slots: 1)
        #expect(numbers.match(block: 0, offset: 2, slot: 0) == (2, 2))
        #expect(numbers.match(block: 0, offset: 7, slot: 0) == (7, 4))
        #expect(numbers.match(block: 0, offset: 1, slot: 0) == (11, 3))
    }
}
