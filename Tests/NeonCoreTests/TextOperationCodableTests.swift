import Foundation
import NeonCore
import NeonTestSupport
import Testing

@Suite struct TextOperationCodableTests {
    private func decode(_ json: String) throws -> TextOperation {
        try JSONDecoder().decode(TextOperation.self, from: Data(json.utf8))
    }

    private func encode(_ operation: TextOperation) throws -> String {
        String(decoding: try JSONEncoder().encode(operation), as: UTF8.self)
    }

    @Test("An edit encodes as the ot.js wire array")
    func encodesWireArray() throws {
        let operation = TextOperation([.retain(3), .insert("abc"), .delete(2), .retain(5)])
        #expect(try encode(operation) == #"[3,"abc",-2,5]"#)
        #expect(try encode(TextOperation()) == "[]")
    }

    @Test("The wire array decodes to the edit, counting emoji in scalars")
    func decodesWireArray() throws {
        let operation = try decode(#"[1, "👨‍👩‍👧‍👦", -2, 5]"#)
        #expect(operation.components == [.retain(1), .insert("👨‍👩‍👧‍👦"), .delete(2), .retain(5)])
        #expect(operation.baseLength == 8)
        #expect(operation.targetLength == 13)
    }

    @Test("Decoding merges neighbours of one kind and puts inserts before deletes")
    func decodingNormalizes() throws {
        #expect(try decode(#"[1, 2, "a", "b", -1, -1]"#) == TextOperation([.retain(3), .insert("ab"), .delete(2)]))
        #expect(try decode(#"[-1, "x"]"#).components == [.insert("x"), .delete(1)])
    }

    @Test("Random edits survive an encode and decode round trip")
    func roundTrip() throws {
        var random = SplitMix64(seed: 0xC0DE)
        for _ in 0..<300 {
            let operation = random.operation(on: random.text(maxFragments: 10))
            #expect(try decode(encode(operation)) == operation)
        }
    }

    @Test(
        "Decoding rejects malformed edits and says which item is wrong",
        arguments: [
            (#"{"retain": 3}"#, "an edit must be a JSON array such as [3, \"abc\", -2, 5]"),
            (#""abc""#, "an edit must be a JSON array"),
            (#"[3, 1.5]"#, "item 1 of the edit is neither an integer nor a string"),
            (#"[true]"#, "item 0 of the edit is neither an integer nor a string"),
            (#"[1, "a", null]"#, "item 2 of the edit is neither an integer nor a string"),
            (#"[1, [2]]"#, "item 1 of the edit is neither an integer nor a string"),
            (#"[2, 0, 1]"#, "item 1 of the edit is a count of 0"),
            (#"[1, ""]"#, "item 1 of the edit is an empty insert; leave it out"),
            (#"[-9223372036854775808]"#, "item 0 of the edit is larger than any draft can be"),
            (#"[9223372036854775807, 1]"#, "item 1 of the edit is larger than any draft can be"),
        ]
    )
    func rejectsMalformed(json: String, message: String) {
        let error = #expect(throws: DecodingError.self) {
            try decode(json)
        }
        #expect(error.map(Self.debugDescription)?.contains(message) == true, "got \(String(describing: error))")
    }

    private static func debugDescription(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return String(describing: error)
        }
    }
}
