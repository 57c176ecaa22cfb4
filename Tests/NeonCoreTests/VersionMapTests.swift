import Testing
@testable import NeonCore

@Suite("Places and pointers carried onto a document's next version")
struct VersionMapTests {
    func doc(_ paragraphs: [String]) throws -> Document {
        try Document.parse(title: "t", format: .markdown, text: paragraphs.joined(separator: "\n\n"))
    }

    let base = ["# One", "Alpha paragraph.", "Beta paragraph has words.", "# Two", "Gamma paragraph.", "Delta paragraph."]

    @Test("a block whose text is unchanged keeps its anchor, at its new index after insertions above it")
    func unchangedBlocks() throws {
        let old = try doc(base)
        let new = try doc(["# Intro", "A new opening."] + base + ["Epsilon at the end."])
        let map = VersionMap(from: old, to: new)
        for block in old.blocks.indices {
            #expect(map.place(Anchor(block: block, offset: 2)) == Anchor(block: block + 2, offset: 2))
            #expect(map.survivor(of: block) == block + 2)
        }
        let pointer = try #require(map.passage(Anchor(block: 2, offset: 5), length: 9))
        #expect(pointer.anchor == Anchor(block: 4, offset: 5) && pointer.length == 9)
    }

    @Test("an edited block maps to its edited text, at the same words when they are still there")
    func editedBlock() throws {
        let old = try doc(base)
        let new = try doc(["# One", "Alpha paragraph.", "Beta, the paragraph that has more words now.", "# Two", "Gamma paragraph.", "Delta paragraph."])
        let map = VersionMap(from: old, to: new)
        #expect(map.survivor(of: 2) == nil)
        // "has words." survives in the edited block: the place stays on it.
        let text = old.blocks[2].text
        let offset = text.distance(from: text.startIndex, to: text.firstRange(of: "has")!.lowerBound)
        let place = map.place(Anchor(block: 2, offset: offset))
        #expect(place.block == 2)
        #expect(String(Array(new.blocks[2].text)[place.offset...]).hasPrefix("has"))
        #expect(map.place(Anchor(block: 4, offset: 0)) == Anchor(block: 4, offset: 0))
    }

    @Test("a removed block maps to the next surviving text; a moved block's place stays where it was, its pointer follows it")
    func removedAndMoved() throws {
        let old = try doc(base)
        let removed = VersionMap(from: old, to: try doc(["# One", "Alpha paragraph.", "# Two", "Gamma paragraph.", "Delta paragraph."]))
        #expect(removed.place(Anchor(block: 2, offset: 7)) == Anchor(block: 2, offset: 0), "the next survivor, the heading Two")
        #expect(removed.passage(Anchor(block: 2, offset: 0), length: 25) == nil, "its text is gone: so is the pointer")
        let atEnd = VersionMap(from: old, to: try doc(Array(base.dropLast())))
        #expect(atEnd.place(Anchor(block: 5, offset: 3)) == Anchor(block: 4, offset: 0))

        let moved = VersionMap(from: old, to: try doc(["# One", "Alpha paragraph.", "# Two", "Gamma paragraph.", "Beta paragraph has words.", "Delta paragraph."]))
        #expect(moved.place(Anchor(block: 2, offset: 0)) == Anchor(block: 2, offset: 0), "the reader stays where they were")
        let pointer = try #require(moved.passage(Anchor(block: 2, offset: 5), length: 9))
        #expect(pointer.anchor == Anchor(block: 4, offset: 5) && pointer.length == 9, "the pointer follows its text")
    }

    @Test("a pointer on part of an edited block follows that part; on a whole block lightly edited, the whole new block")
    func pointerOnEditedBlocks() throws {
        let old = try doc(base)
        let new = try doc(["# One", "Alpha paragraph, revised.", "Beta paragraph has many words.", "# Two", "Gamma paragraph.", "Delta paragraph."])
        let map = VersionMap(from: old, to: new)
        let part = try #require(map.passage(Anchor(block: 2, offset: 0), length: 14))
        #expect(part.anchor == Anchor(block: 2, offset: 0) && part.length == 14, "“Beta paragrap” is still there")
        let whole = try #require(map.passage(Anchor(block: 1, offset: 0), length: "Alpha paragraph.".count))
        #expect(whole.anchor == Anchor(block: 1, offset: 0) && whole.length == "Alpha paragraph, revised.".count)
        let rewritten = VersionMap(from: old, to: try doc(["# One", "Something else entirely different here.", "Beta paragraph has words.", "# Two", "Gamma paragraph.", "Delta paragraph."]))
        #expect(rewritten.passage(Anchor(block: 1, offset: 0), length: "Alpha paragraph.".count) == nil)
    }

    @Test("repeated blocks align in order; an empty new version puts everyone at the top; a long document with one edit aligns every other block")
    func edges() throws {
        let old = try doc(["# A", "same", "same", "x", "same"])
        let new = try doc(["# A", "same", "same", "y", "same"])
        let map = VersionMap(from: old, to: new)
        #expect([0, 1, 2, 4].allSatisfy { map.survivor(of: $0) == $0 })
        #expect(map.place(Anchor(block: 3, offset: 0)) == Anchor(block: 3, offset: 0))
        #expect(VersionMap(from: old, to: try doc([])).place(Anchor(block: 3, offset: 1)) == .top)

        let long = (0..<5_000).map { "Paragraph number \($0) of a long document." }
        var edited = long
        edited[2_500] = "An edited paragraph in the middle."
        edited.insert("A paragraph added near the start.", at: 10)
        let big = VersionMap(from: try doc(long), to: try doc(edited))
        #expect((0..<5_000).filter { big.survivor(of: $0) == nil } == [2_500])
        #expect(big.place(Anchor(block: 4_000, offset: 3)) == Anchor(block: 4_001, offset: 3))
    }
}
