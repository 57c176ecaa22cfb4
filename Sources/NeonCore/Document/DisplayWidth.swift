/// How many terminal columns text takes.
///
/// - East Asian Wide and Fullwidth characters take 2 columns.
/// - An emoji presentation sequence takes 2 columns for the whole grapheme
///   cluster: emoji with default emoji presentation, anything followed by
///   VS16 (U+FE0F), keycaps, flags, skin tones and ZWJ sequences.
/// - Combining marks (Mn, Me), format characters (Cf, e.g. ZWJ, ZWSP, soft
///   hyphen), line and paragraph separators and control characters take 0.
/// - Everything else takes 1.
///
/// A cluster takes the width of its widest scalar, so a base letter with
/// combining marks takes the base's width and a lone combining mark takes 0.
public enum DisplayWidth {
    /// Columns taken by one grapheme cluster.
    public static func of(_ c: Character) -> Int {
        if let ascii = c.asciiValue {
            return ofASCII(ascii)
        }
        return ofCluster(c.unicodeScalars)
    }

    /// Columns taken by a string: the sum over its grapheme clusters.
    public static func of(_ s: some StringProtocol) -> Int {
        var columns = 0
        for byte in s.utf8 {
            guard byte < 0x80 else { return s.reduce(0) { $0 + of($1) } }
            columns += ofASCII(byte)
        }
        return columns
    }

    /// 1 for printable ASCII, 0 for control characters.
    @inline(__always)
    static func ofASCII(_ byte: UInt8) -> Int {
        byte >= 0x20 && byte < 0x7F ? 1 : 0
    }

    /// Columns taken by the scalars of one grapheme cluster.
    static func ofCluster(_ scalars: some Sequence<Unicode.Scalar>) -> Int {
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        if isWide(first.value) || first.properties.isEmojiPresentation { return 2 }
        var widest = ofScalar(first)
        while let next = iterator.next() {
            if next == "\u{FE0F}", first.properties.isEmoji { return 2 }
            widest = max(widest, ofScalar(next))
        }
        return widest
    }

    /// Columns taken by one scalar on its own.
    static func ofScalar(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x80 { return ofASCII(UInt8(value)) }
        if isWide(value) { return 2 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control,
             .lineSeparator, .paragraphSeparator:
            return 0
        default:
            return 1
        }
    }

    /// Whether a code point is East Asian Wide or Fullwidth (and not a
    /// combining mark or format character, which the table leaves out).
    static func isWide(_ value: UInt32) -> Bool {
        guard value >= wideRanges[0].lowerBound else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if value < range.lowerBound {
                high = mid - 1
            } else if value > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
