/// Greedy wrapping of block texts into rows of at most a given number of
/// columns, working on UTF-8 bytes: ASCII takes a fast path, everything else
/// goes through Swift's grapheme breaking, so a row never splits a grapheme
/// cluster and character offsets agree with `String.count`.
///
/// A newline is a hard break. In `.words` mode rows break after runs of
/// spaces, the spaces are dropped from both rows, and a word longer than the
/// width breaks between characters. In `.characters` mode (code) rows break
/// at the width and spaces are kept. A grapheme wider than the width (a
/// 2-column character at width 1) gets a row of its own that overflows: the
/// only way a row exceeds the width, and it keeps the wrapping moving.
/// Texts up to 2 GiB: offsets are `Int`s but a row's text is one block.
struct LineWrapper {
    enum Mode {
        case words
        case characters
    }

    private(set) var rows: [Layout.Row] = []
    /// When not nil, the columns each row ended at (its trailing blanks
    /// included), row by row: how wide a line is that was not wrapped.
    private var rowColumns: [Int]?

    /// Appends the rows of `text` wrapped to `width` columns. With more than
    /// `maxRows` rows, keeps `maxRows` and cuts the last to leave a column for
    /// the "…" its `isTruncated` asks a renderer to draw.
    mutating func wrap(_ text: String, width: Int, mode: Mode, maxRows: Int = .max) {
        let firstRow = rows.count
        var storage = text
        storage.withUTF8 { bytes in
            var start = 0, startCharacter = 0
            var column = 0
            var textEnd = 0
            var breakAt = -1, breakCharacter = 0, breakColumn = 0, breakEnd = 0
            var slowText = Substring()
            var slowIndex = text.startIndex
            var isSlow = false
            var index = 0, character = 0

            /// Ends the current row; false once `maxRows` rows are kept.
            func endRow(at end: Int) -> Bool {
                rows.append(Layout.Row(characterStart: startCharacter, byteStart: start, byteEnd: end))
                rowColumns?.append(column)
                guard rows.count - firstRow < maxRows else {
                    truncateLastRow(of: text, width: width)
                    return false
                }
                return true
            }

            while index < bytes.count {
                let byte = bytes[index]
                var length = 1
                var columns = 0
                var isBlank = false
                var isNewline = false
                if byte < 0x80, index + 1 == bytes.count || bytes[index + 1] < 0x80 {
                    isSlow = false
                    switch byte {
                    case 0x0A: isNewline = true
                    case 0x0D:
                        isNewline = true
                        if index + 1 < bytes.count, bytes[index + 1] == 0x0A { length = 2 }
                    case 0x20:
                        columns = 1
                        isBlank = mode == .words
                    default:
                        columns = DisplayWidth.ofASCII(byte)
                    }
                } else if Self.isStandaloneWide(bytes, at: index) {
                    isSlow = false
                    length = 3
                    columns = 2
                } else {
                    if !isSlow {
                        slowIndex = text.utf8.index(text.utf8.startIndex, offsetBy: index)
                        slowText = text[slowIndex...]
                        isSlow = true
                    }
                    let next = slowText.index(after: slowIndex)
                    length = text.utf8.distance(from: slowIndex, to: next)
                    if byte == 0x0A || byte == 0x0D {
                        isNewline = true
                    } else {
                        columns = DisplayWidth.ofCluster(slowText.unicodeScalars[slowIndex..<next])
                        isBlank = byte == 0x20 && length == 1 && mode == .words
                    }
                    slowIndex = next
                }

                if isNewline {
                    guard endRow(at: textEnd) else { return }
                    start = index + length
                    startCharacter = character + 1
                    column = 0
                    textEnd = start
                    breakAt = -1
                } else if isBlank {
                    column += 1
                    if textEnd > start {
                        breakAt = index + 1
                        breakCharacter = character + 1
                        breakColumn = column
                        breakEnd = textEnd
                    }
                } else {
                    if column + columns > width, breakAt >= 0 {
                        guard endRow(at: breakEnd) else { return }
                        start = breakAt
                        startCharacter = breakCharacter
                        column -= breakColumn
                        textEnd = max(textEnd, start)
                        breakAt = -1
                    }
                    if column + columns > width, start < index {
                        guard endRow(at: textEnd) else { return }
                        start = index
                        startCharacter = character
                        column = 0
                        textEnd = index
                        breakAt = -1
                    }
                    column += columns
                    textEnd = index + length
                }
                index += length
                character += 1
            }
            rows.append(Layout.Row(characterStart: startCharacter, byteStart: start, byteEnd: textEnd))
            rowColumns?.append(column)
        }
    }

    /// Appends one row per line of `text` (code), never broken; a line
    /// wider than `width` is marked truncated. Returns how many columns the
    /// widest line goes past `width` (0 when all fit).
    mutating func cutLines(_ text: String, width: Int) -> Int {
        let first = rows.count
        rowColumns = []
        wrap(text, width: Int.max / 4, mode: .characters)
        let widths = rowColumns ?? []
        rowColumns = nil
        var overflow = 0
        for (index, columns) in zip(first..<rows.count, widths) {
            if columns > width {
                rows[index].isTruncated = true
                overflow = max(overflow, columns - width)
            }
        }
        return overflow
    }

    /// Appends a row the layout draws itself (a table's), showing `drawn`.
    mutating func appendDrawn(_ drawn: Int, characterStart: Int) {
        rows.append(Layout.Row(characterStart: characterStart, byteStart: 0, byteEnd: 0, drawn: Int32(drawn)))
    }

    /// Whether the bytes at `index` encode a common CJK, kana, Hangul
    /// syllable or fullwidth character that is followed by ASCII, the end, or
    /// another such character: a grapheme on its own, two columns wide, that
    /// needs no grapheme breaking.
    @inline(__always)
    private static func isStandaloneWide(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard isCommonWide(bytes, at: index) else { return false }
        let next = index + 3
        return next == bytes.count || bytes[next] < 0x80 || isCommonWide(bytes, at: next)
    }

    @inline(__always)
    private static func isCommonWide(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + 2 < bytes.count, bytes[index] >= 0xE3, bytes[index] <= 0xEF else { return false }
        let value = UInt32(bytes[index] & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
            | UInt32(bytes[index + 2] & 0x3F)
        switch value {
        case 0x3000...0x3029, 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60:
            return true
        default:
            return false
        }
    }

    /// Cuts the last row to at most `width - 1` columns, without trailing
    /// spaces, and marks it truncated.
    private mutating func truncateLastRow(of text: String, width: Int) {
        var row = rows[rows.count - 1]
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: row.byteStart)
        let upper = utf8.index(utf8.startIndex, offsetBy: row.byteEnd)
        let slice = text[lower..<upper]
        var columns = 0
        var end = slice.startIndex
        for index in slice.indices {
            columns += DisplayWidth.of(slice[index])
            if columns > width - 1 { break }
            end = slice.index(after: index)
        }
        while end > slice.startIndex, slice[slice.index(before: end)] == " " {
            end = slice.index(before: end)
        }
        row.byteEnd = utf8.distance(from: utf8.startIndex, to: end)
        row.isTruncated = true
        rows[rows.count - 1] = row
    }
}
