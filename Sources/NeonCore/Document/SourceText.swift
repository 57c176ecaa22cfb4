/// A document's text as UTF-8 bytes made safe to draw, split into lines.
///
/// Line endings (CRLF, CR) become LF. Control characters other than tab and
/// newline (C0, DEL, C1: e.g. an ESC that would drive the reader's terminal)
/// become U+FFFD, so what the parsers hand to a renderer is only text.
struct SourceText {
    private(set) var bytes: [UInt8] = []
    /// Each line's byte range in `bytes`, without its newline.
    private(set) var lines: [Range<Int>] = []

    init(_ text: String) {
        var text = text
        text.withUTF8 { input in
            bytes.reserveCapacity(input.count)
            var lineStart = 0
            var afterCR = false
            for byte in input {
                if afterCR {
                    afterCR = false
                    if byte == 0x0A { continue }
                }
                switch byte {
                case 0x0A, 0x0D:
                    lines.append(lineStart..<bytes.count)
                    bytes.append(0x0A)
                    lineStart = bytes.count
                    afterCR = byte == 0x0D
                case 0x09:
                    bytes.append(byte)
                case 0x00..<0x20, 0x7F:
                    bytes.append(contentsOf: Self.replacement)
                case 0x80..<0xA0 where bytes.last == 0xC2:
                    bytes.removeLast()
                    bytes.append(contentsOf: Self.replacement)
                default:
                    bytes.append(byte)
                }
            }
            if lineStart < bytes.count {
                lines.append(lineStart..<bytes.count)
            }
        }
    }

    /// U+FFFD REPLACEMENT CHARACTER in UTF-8.
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// `range` without leading and trailing spaces and tabs.
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, Self.isBlank(bytes[lower]) { lower += 1 }
        while upper > lower, Self.isBlank(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// `range` without trailing spaces and tabs.
    func trailingTrimmed(_ range: Range<Int>) -> Range<Int> {
        var upper = range.upperBound
        while upper > range.lowerBound, Self.isBlank(bytes[upper - 1]) { upper -= 1 }
        return range.lowerBound..<upper
    }

    func isBlank(_ range: Range<Int>) -> Bool {
        trimmed(range).isEmpty
    }

    /// Appends the bytes of `range` to `out` with tabs expanded to the next
    /// multiple of four columns (counted in display width).
    func appendExpandingTabs(_ range: Range<Int>, to out: inout [UInt8]) {
        let slice = bytes[range]
        guard slice.contains(0x09) else {
            out.append(contentsOf: slice)
            return
        }
        var column = 0
        for character in String(decoding: slice, as: UTF8.self) {
            if character == "\t" {
                let spaces = 4 - column % 4
                out.append(contentsOf: repeatElement(0x20, count: spaces))
                column += spaces
            } else {
                out.append(contentsOf: character.utf8)
                column += DisplayWidth.of(character)
            }
        }
    }

    /// A string from outside the line structure (a title, a catalog field)
    /// made single-line and safe to draw: control characters replaced, each
    /// run of newlines, tabs and spaces between words made one space, ends
    /// trimmed.
    static func singleLine(_ string: String) -> String {
        let source = SourceText(string)
        var out: [UInt8] = []
        out.reserveCapacity(source.bytes.count)
        var pendingSpace = false
        for byte in source.bytes {
            if byte == 0x0A || isBlank(byte) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
