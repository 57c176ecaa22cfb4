import NeonCore
import NeonTestSupport
import Testing

@Suite struct TextOperationAlgebraTests {
    @Test("Composing keeps the effect of applying both in turn")
    func composeExample() throws {
        let appendD = TextOperation([.retain(3), .insert("d")])
        let dropA = TextOperation([.delete(1), .retain(3)])
        let both = try appendD.compose(dropA)
        #expect(both == TextOperation([.delete(1), .retain(2), .insert("d")]))
        #expect(try both.apply(to: "abc") == "bcd")
    }

    @Test("Composing splits an insert that the second edit partly deletes")
    func composeSplitsInserts() throws {
        let typeHello = TextOperation([.insert("hé👨‍👩‍👧‍👦lo")])
        let edit = TextOperation([.retain(2), .delete(7), .retain(2), .insert(" x")])
        #expect(try typeHello.compose(edit) == TextOperation([.insert("hélo x")]))
    }

    @Test("Composing edits that do not line up fails with both lengths")
    func composeMismatch() {
        #expect(throws: TextOperationError.lengthMismatch(expected: 4, actual: 3)) {
            try TextOperation([.retain(3)]).compose(TextOperation([.retain(4)]))
        }
    }

    @Test("Concurrent inserts at one spot put the first argument's text first")
    func transformTieBreak() throws {
        let a = TextOperation([.retain(1), .insert("X"), .retain(1)])
        let b = TextOperation([.retain(1), .insert("Y"), .retain(1)])
        let (aPrime, bPrime) = try TextOperation.transform(a, b)
        #expect(aPrime == TextOperation([.retain(1), .insert("X"), .retain(2)]))
        #expect(bPrime == TextOperation([.retain(2), .insert("Y"), .retain(1)]))
        #expect(try bPrime.apply(to: a.apply(to: "ab")) == "aXYb")
        #expect(try aPrime.apply(to: b.apply(to: "ab")) == "aXYb")
    }

    @Test("An insert inside a concurrently deleted range survives the delete")
    func transformInsertInsideDelete() throws {
        let deleteMiddle = TextOperation([.retain(1), .delete(2), .retain(1)])
        let insertInMiddle = TextOperation([.retain(2), .insert("Z"), .retain(2)])
        let (deletePrime, insertPrime) = try TextOperation.transform(deleteMiddle, insertInMiddle)
        #expect(try insertPrime.apply(to: deleteMiddle.apply(to: "abcd")) == "aZd")
        #expect(try deletePrime.apply(to: insertInMiddle.apply(to: "abcd")) == "aZd")
    }

    @Test("Overlapping concurrent deletes remove each scalar once")
    func transformOverlappingDeletes() throws {
        let first = TextOperation([.delete(3), .retain(3)])
        let second = TextOperation([.retain(2), .delete(3), .retain(1)])
        let (firstPrime, secondPrime) = try TextOperation.transform(first, second)
        #expect(firstPrime == TextOperation([.delete(2), .retain(1)]))
        #expect(secondPrime == TextOperation([.delete(2), .retain(1)]))
        #expect(try secondPrime.apply(to: first.apply(to: "abcdef")) == "f")
    }

    @Test("Transforming edits of different texts fails with both lengths")
    func transformMismatch() {
        #expect(throws: TextOperationError.lengthMismatch(expected: 2, actual: 3)) {
            try TextOperation.transform(TextOperation([.retain(2)]), TextOperation([.retain(3)]))
        }
    }

    @Test("Inverting an edit against its text gives the edit that undoes it")
    func invertExample() throws {
        let text = "say 👋 to 世界"
        let edit = TextOperation([.retain(4), .delete(1), .insert("hi"), .retain(4), .delete(2), .insert("all")])
        let edited = try edit.apply(to: text)
        #expect(edited == "say hi to all")
        let undo = try edit.invert(against: text)
        #expect(try undo.apply(to: edited) == text)
        #expect(undo.baseLength == edit.targetLength)
    }

    @Test("Inverting against a text of the wrong length fails")
    func invertMismatch() {
        #expect(throws: TextOperationError.lengthMismatch(expected: 2, actual: 1)) {
            try TextOperation([.delete(2)]).invert(against: "a")
        }
    }

    @Test("Transform satisfies TP1 on thousands of random pairs")
    func transformProperty() throws {
        var random = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<2000 {
            let text = random.text(maxFragments: 12)
            let a = random.operation(on: text)
            let b = random.operation(on: text)
            let (aPrime, bPrime) = try TextOperation.transform(a, b)
            let viaA = try bPrime.apply(to: a.apply(to: text))
            let viaB = try aPrime.apply(to: b.apply(to: text))
            #expect(Array(viaA.unicodeScalars) == Array(viaB.unicodeScalars))
            #expect(aPrime.baseLength == b.targetLength)
            #expect(bPrime.baseLength == a.targetLength)
        }
    }

    @Test("Compose matches applying in turn and invert undoes, on random edits")
    func composeAndInvertProperties() throws {
        var random = SplitMix64(seed: 0x5EED_0002)
        for _ in 0..<1000 {
            let text = random.text(maxFragments: 12)
            let first = random.operation(on: text)
            let middle = try first.apply(to: text)
            let second = random.operation(on: middle)
            let end = try second.apply(to: middle)
            let composed = try first.compose(second)
            #expect(Array(try composed.apply(to: text).unicodeScalars) == Array(end.unicodeScalars))
            let undo = try first.invert(against: text)
            #expect(Array(try undo.apply(to: middle).unicodeScalars) == Array(text.unicodeScalars))
        }
    }
}
