import NeonCore
import Testing

@Suite("TextOperation.changes: a shortest edit script")
struct TextOperationChangesTests {
    /// The length of the longest common subsequence, by dynamic programming.
    func common(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var row = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var diagonal = 0
            for (j, y) in b.enumerated() {
                let above = row[j + 1]
                row[j + 1] = x == y ? diagonal + 1 : max(row[j + 1], row[j])
                diagonal = above
            }
        }
        return row[b.count]
    }

    func retained(_ operation: TextOperation) -> Int {
        operation.components.reduce(0) { if case let .retain(n) = $1 { $0 + n } else { $0 } }
    }

    @Test("changes at both ends keep what lies between, where difference replaces it all")
    func bothEnds() {
        let keep = TextOperation.changes(from: "abcXdef", to: "AbcXdeF")
        #expect(keep == TextOperation([.insert("A"), .delete(1), .retain(5), .insert("F"), .delete(1)]))
        #expect(TextOperation.difference(from: "abcXdef", to: "AbcXdeF") == TextOperation([.insert("AbcXdeF"), .delete(7)]))
    }

    @Test("for 2,000 random pairs the script turns one text into the other and retains a longest common subsequence")
    func random() throws {
        var random = SplitMix64(seed: 36)
        let alphabet: [Unicode.Scalar] = ["a", "b", "c", " ", "é", "👍"]
        func text() -> [Unicode.Scalar] {
            (0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        }
        for _ in 0..<2000 {
            let a = text()
            let b = text()
            let old = String(String.UnicodeScalarView(a))
            let new = String(String.UnicodeScalarView(b))
            let operation = TextOperation.changes(from: old, to: new)
            #expect(try operation.apply(to: old).unicodeScalars.elementsEqual(b), "\(old) → \(new)")
            #expect(retained(operation) == common(a, b), "\(old) → \(new)")
        }
    }

    @Test("past the limit it replaces the stretch between the common prefix and suffix")
    func limit() throws {
        let old = "<" + String(repeating: "aX", count: 10) + ">"
        let new = "<" + String(repeating: "bX", count: 10) + ">"
        let operation = TextOperation.changes(from: old, to: new, limit: 4)
        #expect(operation == TextOperation.difference(from: old, to: new))
        #expect(try operation.apply(to: old) == new)
        #expect(retained(operation) == 3, "the common prefix < and suffix X>")
        #expect(retained(TextOperation.changes(from: old, to: new)) == 12)
    }

    @Test("an operation that only retains changes nothing; one that inserts or deletes does")
    func noop() {
        #expect(TextOperation([.retain(3)]).isNoop && TextOperation().isNoop)
        #expect(!TextOperation([.retain(3), .insert("x")]).isNoop && !TextOperation([.delete(1)]).isNoop)
    }
}
