/// A case-insensitive search for a query in plain text, by grapheme cluster:
/// what a reader's `/` finds.
///
/// Both the query and the text are lowercased a character at a time and
/// compared as UTF-8. A match starts and ends on character boundaries of
/// the text, never inside a cluster (`e` does not match the `é` of
/// "e\u{301}"); matches are found left to right without overlapping, as
/// `less` finds them. Text is scanned byte by byte with an ASCII fast path,
/// so a one-megabyte line is searched in one pass.
public struct TextSearch: Equatable, Sendable {
    /// The query as typed.
    public let query: String
    /// The query lowercased, as UTF-8.
    let needle: [UInt8]

    /// A search for `query`; nil for an empty query.
    public init?(_ query: String) {
        let folded = Folded(query)
        guard !folded.bytes.isEmpty else { return nil }
        self.query = query
        needle = folded.bytes
    }

    /// The matches in `text` as ranges of character offsets (`String.count`
    /// units), in order.
    public func ranges(in text: String) -> [Range<Int>] {
        let hay = Folded(text)
        let bytes = hay.bytes
        let starts = hay.characterStarts
        let first = needle[0]
        let length = needle.count
        var result: [Range<Int>] = []
        var character = 0
        let characters = starts.count - 1
        needle.withUnsafeBufferPointer { needle in
            bytes.withUnsafeBufferPointer { bytes in
                while character < characters {
                    let start = starts[character]
                    guard bytes[start] == first, start + length <= bytes.count,
                          Self.equal(bytes, from: start, to: needle) else {
                        character += 1
                        continue
                    }
                    var end = character + 1
                    while starts[end] < start + length { end += 1 }
                    if starts[end] == start + length {
                        result.append(character..<end)
                        character = end
                    } else {
                        character += 1
                    }
                }
            }
        }
        return result
    }

    @inline(__always)
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int,
                              to needle: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 1
        while index < needle.count {
            guard bytes[start + index] == needle[index] else { return false }
            index += 1
        }
        return true
    }

    /// Text lowercased a character at a time, as UTF-8, with where each
    /// character starts.
    struct Folded {
        private(set) var bytes: [UInt8] = []
        /// The offset in `bytes` of each character, then `bytes.count`.
        private(set) var characterStarts: [Int] = []

        init(_ text: String) {
            var storage = text
            storage.withUTF8 { input in
                bytes.reserveCapacity(input.count)
                characterStarts.reserveCapacity(input.count + 1)
                var index = 0
                var slowIndex = text.startIndex
                var isSlow = false
                while index < input.count {
                    let byte = input[index]
                    characterStarts.append(bytes.count)
                    let next = index + 1
                    if byte < 0x80, next == input.count || input[next] < 0x80, byte != 0x0D || next == input.count || input[next] != 0x0A {
                        isSlow = false
                        bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                        index = next
                        continue
                    }
                    if !isSlow {
                        slowIndex = text.utf8.index(text.utf8.startIndex, offsetBy: index)
                        isSlow = true
                    }
                    let end = text.index(after: slowIndex)
                    bytes.append(contentsOf: text[slowIndex..<end].lowercased().utf8)
                    index += text.utf8.distance(from: slowIndex, to: end)
                    slowIndex = end
                }
                characterStarts.append(bytes.count)
            }
        }
    }
}
