/// What one line of Markdown starts or continues, judged on its own; the
/// parser decides with its open block (a setext underline only makes a
/// heading under a paragraph).
enum MarkdownLine {
    case blank
    /// An opening code fence.
    case fence(Fence)
    case heading(level: Int, text: Range<Int>)
    /// `==` (level 1) or `--` (level 2), two or more: a heading's underline
    /// under a paragraph; elsewhere `---` is a thematic break and shorter
    /// runs or `===` are plain text.
    case setextUnderline(level: Int, text: Range<Int>)
    /// `***`, `- - -`, `___`: dropped, blocks are already separated.
    case thematicBreak
    case quote(content: Range<Int>)
    case listItem(marker: String, number: Int?, content: Range<Int>)
    case text(Range<Int>)

    struct Fence: Equatable {
        let marker: UInt8
        let length: Int
        let indent: Int
        let language: String?

        /// Whether `line` closes this fence: at most three columns of
        /// indentation, at least as many markers, nothing else.
        func isClosed(by line: Range<Int>, in source: SourceText) -> Bool {
            let (indent, start) = MarkdownLine.indentation(of: line, in: source)
            guard indent < 4 else { return false }
            let end = MarkdownLine.run(of: marker, from: start, in: line, source)
            return end - start >= length && source.isBlank(end..<line.upperBound)
        }
    }

    init(_ line: Range<Int>, in source: SourceText) {
        let (indent, start) = Self.indentation(of: line, in: source)
        guard start < line.upperBound else {
            self = .blank
            return
        }
        let rest = start..<line.upperBound
        if indent < 4, let kind = Self.leafOrQuote(rest, indent: indent, in: source) {
            self = kind
        } else if let item = Self.listItem(rest, indent: indent, in: source) {
            self = item
        } else {
            self = .text(source.trimmed(line))
        }
    }

    /// Columns of leading blanks (tabs to stops of four) and where the
    /// line's text starts.
    static func indentation(of line: Range<Int>, in source: SourceText) -> (columns: Int, start: Int) {
        var columns = 0
        var index = line.lowerBound
        while index < line.upperBound {
            switch source.bytes[index] {
            case 0x20: columns += 1
            case 0x09: columns += 4 - columns % 4
            default: return (columns, index)
            }
            index += 1
        }
        return (columns, index)
    }

    /// The end of the run of `byte` starting at `start`.
    static func run(of byte: UInt8, from start: Int, in line: Range<Int>, _ source: SourceText) -> Int {
        var end = start
        while end < line.upperBound, source.bytes[end] == byte { end += 1 }
        return end
    }

    private static func leafOrQuote(_ rest: Range<Int>, indent: Int, in source: SourceText) -> MarkdownLine? {
        let first = source.bytes[rest.lowerBound]
        switch first {
        case UInt8(ascii: "`"), UInt8(ascii: "~"):
            return fence(rest, indent: indent, in: source)
        case UInt8(ascii: "#"):
            return heading(rest, in: source)
        case UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
            let end = run(of: first, from: rest.lowerBound, in: rest, source)
            let isUnderline = first == UInt8(ascii: "=") || first == UInt8(ascii: "-")
            if isUnderline, end - rest.lowerBound >= 2, source.isBlank(end..<rest.upperBound) {
                return .setextUnderline(level: first == UInt8(ascii: "=") ? 1 : 2,
                                        text: rest.lowerBound..<end)
            }
            if first == UInt8(ascii: "=") { return nil }
            return isThematicBreak(rest, marker: first, in: source) ? .thematicBreak : nil
        case UInt8(ascii: ">"):
            var start = rest.lowerBound + 1
            if start < rest.upperBound, SourceText.isBlank(source.bytes[start]) { start += 1 }
            return .quote(content: source.trimmed(start..<rest.upperBound))
        default:
            return nil
        }
    }

    private static func fence(_ rest: Range<Int>, indent: Int, in source: SourceText) -> MarkdownLine? {
        let marker = source.bytes[rest.lowerBound]
        let end = run(of: marker, from: rest.lowerBound, in: rest, source)
        guard end - rest.lowerBound >= 3 else { return nil }
        let info = source.trimmed(end..<rest.upperBound)
        if marker == UInt8(ascii: "`"), source.bytes[info].contains(marker) { return nil }
        let word = source.bytes[info].prefix { !SourceText.isBlank($0) }
        let language = word.isEmpty ? nil : String(decoding: word, as: UTF8.self)
        return .fence(Fence(marker: marker, length: end - rest.lowerBound, indent: indent, language: language))
    }

    /// `#` to `######` then a blank or the end; the closing run of `#` is
    /// dropped when a blank precedes it.
    private static func heading(_ rest: Range<Int>, in source: SourceText) -> MarkdownLine? {
        let hashes = run(of: UInt8(ascii: "#"), from: rest.lowerBound, in: rest, source)
        let level = hashes - rest.lowerBound
        guard level <= 6, hashes == rest.upperBound || SourceText.isBlank(source.bytes[hashes]) else { return nil }
        var text = source.trimmed(hashes..<rest.upperBound)
        var closing = text.upperBound
        while closing > text.lowerBound, source.bytes[closing - 1] == UInt8(ascii: "#") { closing -= 1 }
        if closing == text.lowerBound || SourceText.isBlank(source.bytes[closing - 1]) {
            text = source.trimmed(text.lowerBound..<closing)
        }
        return .heading(level: level, text: text)
    }

    /// Three or more of the same `*`, `-` or `_`, blanks allowed between.
    private static func isThematicBreak(_ rest: Range<Int>, marker: UInt8, in source: SourceText) -> Bool {
        var count = 0
        for byte in source.bytes[rest] {
            if byte == marker {
                count += 1
            } else if !SourceText.isBlank(byte) {
                return false
            }
        }
        return count >= 3
    }

    /// `-`, `*`, `+` or 1–9 digits and `.` or `)`, then a blank or the end.
    private static func listItem(_ rest: Range<Int>, indent: Int, in source: SourceText) -> MarkdownLine? {
        let bytes = source.bytes
        let first = bytes[rest.lowerBound]
        var end = rest.lowerBound + 1
        var marker: String
        var number: Int?
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+") {
            marker = "•"
        } else {
            end = rest.lowerBound
            var value = 0
            while end < rest.upperBound, end - rest.lowerBound < 9, let digit = Self.digit(bytes[end]) {
                value = value * 10 + digit
                end += 1
            }
            guard end > rest.lowerBound, end < rest.upperBound,
                  bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")") else { return nil }
            end += 1
            marker = String(decoding: bytes[rest.lowerBound..<end], as: UTF8.self)
            number = value
        }
        guard end == rest.upperBound || SourceText.isBlank(bytes[end]) else { return nil }
        if indent > 0 { marker = String(repeating: " ", count: indent) + marker }
        return .listItem(marker: marker, number: number, content: source.trimmed(end..<rest.upperBound))
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
