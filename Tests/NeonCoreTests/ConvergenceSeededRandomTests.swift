import NeonCore
import NeonTestSupport
import Testing

extension SplitMix64 {
    /// Pieces of text that stress scalar counting: ASCII, a precomposed and
    /// a decomposed "é", a lone combining mark, CJK, non-BMP emoji, a skin
    /// tone modifier sequence, a flag and a seven-scalar ZWJ family.
    static let fragments = [
        "a", "b", "Z", " ", "\n", "é", "e\u{301}", "\u{301}", "中", "文字",
        "😀", "👍🏽", "🇯🇵", "👨‍👩‍👧‍👦", "𝄞",
    ]

    /// A string of up to `maxFragments` random fragments.
    mutating func text(maxFragments: Int) -> String {
        let count = Int.random(in: 0...maxFragments, using: &self)
        return (0..<count).map { _ in Self.fragments.randomElement(using: &self)! }.joined()
    }

    /// A random operation that applies to `text`.
    mutating func operation(on text: String) -> TextOperation {
        var operation = TextOperation()
        var remaining = text.unicodeScalars.count
        while remaining > 0 {
            let count = Int.random(in: 1...min(remaining, 6), using: &self)
            switch Int.random(in: 0..<3, using: &self) {
            case 0:
                operation.retain(count)
                remaining -= count
            case 1:
                operation.delete(count)
                remaining -= count
            default:
                operation.insert(self.text(maxFragments: 3))
            }
        }
        if Bool.random(using: &self) {
            operation.insert(self.text(maxFragments: 3))
        }
        return operation
    }
}

@Suite struct ConvergenceSeededRandomTests {
    @Test("SplitMix64 reproduces the reference sequence for seed 1234567")
    func referenceSequence() {
        var random = SplitMix64(seed: 1_234_567)
        let outputs = (0..<5).map { _ in random.next() }
        #expect(outputs == [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ])
    }

    @Test("Random operations apply to the text they were made for")
    func randomOperationsFit() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let text = random.text(maxFragments: 10)
            let operation = random.operation(on: text)
            #expect(operation.baseLength == text.unicodeScalars.count)
            let result = try operation.apply(to: text)
            #expect(result.unicodeScalars.count == operation.targetLength)
        }
    }
}
