import NeonCore
import NeonTestSupport
import Testing

@Suite struct TextOperationDifferenceTests {
    @Test("Equal texts differ by a plain retain")
    func equalTexts() {
        #expect(TextOperation.difference(from: "same", to: "same") == TextOperation([.retain(4)]))
        #expect(TextOperation.difference(from: "", to: "") == TextOperation())
    }

    @Test("The difference replaces only what lies between the common prefix and suffix")
    func middleReplaced() {
        let operation = TextOperation.difference(from: "the cat sat", to: "the dog sat")
        #expect(operation == TextOperation([.retain(4), .insert("dog"), .delete(3), .retain(4)]))
    }

    @Test("Prefix and suffix never overlap when a repeated letter is removed")
    func repeatedLetters() {
        #expect(TextOperation.difference(from: "aaa", to: "aa") == TextOperation([.retain(2), .delete(1)]))
        #expect(TextOperation.difference(from: "ab", to: "abab") == TextOperation([.retain(2), .insert("ab")]))
    }

    @Test("The difference works in scalars, so a new skin tone replaces one scalar")
    func skinTone() {
        let operation = TextOperation.difference(from: "ok 👍🏽", to: "ok 👍🏿")
        #expect(operation == TextOperation([.retain(4), .insert("🏿"), .delete(1)]))
    }

    @Test("Applying a difference to the old text gives the new one, on random texts")
    func randomDifferences() throws {
        var random = SplitMix64(seed: 0xD1FF)
        for _ in 0..<500 {
            let old = random.text(maxFragments: 10)
            let new = random.text(maxFragments: 10)
            let result = try TextOperation.difference(from: old, to: new).apply(to: old)
            #expect(Array(result.unicodeScalars) == Array(new.unicodeScalars))
        }
    }
}
