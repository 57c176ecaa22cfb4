import NeonCore
import Testing

@Suite struct TextOperationTests {
    static let family = "👨‍👩‍👧‍👦"

    @Test("Builders merge neighbours of one kind and skip empty components")
    func buildersNormalize() {
        var operation = TextOperation()
        operation.retain(2)
        operation.retain(0)
        operation.retain(1)
        operation.insert("ab")
        operation.insert("")
        operation.insert("c")
        operation.delete(1)
        operation.delete(0)
        operation.delete(2)
        operation.retain(4)
        #expect(operation.components == [.retain(3), .insert("abc"), .delete(3), .retain(4)])
        #expect(operation.baseLength == 10)
        #expect(operation.targetLength == 10)
    }

    @Test("An insert meeting a delete goes before it, as in ot.js")
    func insertBeforeDelete() {
        var operation = TextOperation()
        operation.delete(1)
        operation.insert("x")
        operation.delete(1)
        operation.insert("y")
        #expect(operation.components == [.insert("xy"), .delete(2)])
        #expect(TextOperation([.retain(1), .delete(2), .insert("z")]) == TextOperation([.retain(1), .insert("z"), .delete(2)]))
    }

    @Test("The empty operation applies only to the empty text")
    func emptyOperation() throws {
        #expect(TextOperation().components.isEmpty)
        #expect(try TextOperation().apply(to: "") == "")
        #expect(throws: TextOperationError.lengthMismatch(expected: 0, actual: 1)) {
            try TextOperation().apply(to: "a")
        }
    }

    @Test("Applying retains, inserts and deletes edits the text")
    func applyEdits() throws {
        let operation = TextOperation([.retain(6), .insert("big "), .delete(5), .insert("!")])
        #expect(try operation.apply(to: "hello world") == "hello big !")
    }

    @Test("Applying to a text of the wrong length fails with a message to resync")
    func applyLengthMismatch() {
        let operation = TextOperation([.retain(5), .insert("!")])
        #expect(throws: TextOperationError.lengthMismatch(expected: 5, actual: 3)) {
            try operation.apply(to: "abc")
        }
        #expect(
            TextOperationError.lengthMismatch(expected: 5, actual: 3).description
                == "the edit expects a draft of 5 characters but it has 3 — resync and retry"
        )
    }

    @Test("Lengths count Unicode scalars, so a ZWJ family emoji counts seven")
    func familyEmojiCountsScalars() throws {
        let text = "a\(Self.family)b"
        #expect(text.count == 3)
        let removeFamily = TextOperation([.retain(1), .delete(7), .retain(1)])
        #expect(try removeFamily.apply(to: text) == "ab")
        let insertFamily = TextOperation([.retain(1), .insert(Self.family), .retain(1)])
        #expect(insertFamily.baseLength == 2)
        #expect(insertFamily.targetLength == 9)
        #expect(try insertFamily.apply(to: "ab") == text)
    }

    @Test("Deleting some scalars of a cluster leaves the rest of it")
    func partialClusters() throws {
        let dropFather = TextOperation([.delete(2), .retain(5)])
        #expect(try dropFather.apply(to: Self.family) == "👩‍👧‍👦")
        let dropAccent = TextOperation([.retain(1), .delete(1)])
        #expect(try dropAccent.apply(to: "e\u{301}") == "e")
        let clef = TextOperation([.retain(1), .insert("𝄞"), .retain(1)])
        #expect(clef.targetLength == 3)
        #expect(try clef.apply(to: "ab") == "a𝄞b")
    }

    @Test("Inserts compare by scalars, not by canonical equivalence")
    func scalarEquality() {
        let precomposed = TextOperation([.insert("é")])
        let decomposed = TextOperation([.insert("e\u{301}")])
        #expect(precomposed != decomposed)
        let marksOneWay = TextOperation.Component.insert("a\u{301}\u{316}")
        let marksOtherWay = TextOperation.Component.insert("a\u{316}\u{301}")
        #expect("a\u{301}\u{316}" == "a\u{316}\u{301}")
        #expect(marksOneWay != marksOtherWay)
        #expect(Set([marksOneWay, marksOtherWay, marksOneWay]).count == 2)
    }

    @Test("Validating accepts good components and normalizes them")
    func validatingAccepts() throws {
        let operation = try TextOperation(validating: [.retain(1), .retain(2), .delete(1), .insert("x")])
        #expect(operation.components == [.retain(3), .insert("x"), .delete(1)])
    }

    @Test(
        "Validating rejects zero and negative counts, empty inserts and overflowing lengths",
        arguments: [
            ([.retain(1), .retain(0)], .invalidComponent(index: 1, problem: .zeroCount)),
            ([.delete(-2)], .invalidComponent(index: 0, problem: .negativeCount)),
            ([.retain(1), .insert("")], .invalidComponent(index: 1, problem: .emptyInsert)),
            ([.retain(Int.max), .delete(1)], .invalidComponent(index: 1, problem: .tooLong)),
            ([.retain(Int.max), .insert("a")], .invalidComponent(index: 1, problem: .tooLong)),
        ] as [([TextOperation.Component], TextOperationError)]
    )
    func validatingRejects(components: [TextOperation.Component], error: TextOperationError) {
        #expect(throws: error) {
            try TextOperation(validating: components)
        }
    }

    @Test("Component errors say which item is wrong and what to do")
    func componentErrorMessages() {
        #expect(
            TextOperationError.invalidComponent(index: 2, problem: .zeroCount).description
                == "item 2 of the edit is a count of 0; retains and deletes must cover at least one character"
        )
        #expect(
            TextOperationError.invalidComponent(index: 0, problem: .emptyInsert).description
                == "item 0 of the edit is an empty insert; leave it out"
        )
    }
}
