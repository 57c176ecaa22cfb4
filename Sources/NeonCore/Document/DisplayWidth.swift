/// How many terminal columns text takes, as tmux (the reference terminal)
/// lays it out: a cluster takes the sum of its scalars' widths, except that
/// a scalar right after a zero width joiner (U+200D) joins the cell before
/// it and adds nothing.
///
/// - East Asian Wide and Fullwidth characters and emoji with default emoji
///   presentation take 2 columns; regional indicators take 1 each, so a
///   flag takes 2.
/// - Combining marks (Mn, Me), format characters (Cf, e.g. ZWJ, ZWSP, soft
///   hyphen), variation selectors, Hangul medial vowels and final
///   consonants, line and paragraph separators and control characters
///   take 0.
/// - Everything else takes 1.
///
/// So a ZWJ family (`👨‍👩‍👧`) takes 2, like its first person; a skin-tone
/// modifier adds its own 2 (`👍🏽` and `👩🏽‍💻` take 4); VS16 widens nothing
/// (`❤️` takes 1); a base letter with combining marks takes the base's width.
public enum DisplayWidth {
    /// Columns taken by one grapheme cluster.
    public static func of(_ c: Character) -> Int {
        if let ascii = c.asciiValue {
            return ofASCII(ascii)
        }
        return ofCluster(c.unicodeScalars)
    }

    /// Columns taken by a string: the sum over its grapheme clusters.
    /// (Specialized here for the two kinds every caller has: other modules
    /// cannot specialize a generic function of this one themselves.)
    @_specialize(exported: true, where S == String)
    @_specialize(exported: true, where S == Substring)
    public static func of<S: StringProtocol>(_ s: S) -> Int {
        var columns = 0
        for byte in s.utf8 {
            guard byte < 0x80 else {
                if s.unicodeScalars.allSatisfy(isNarrowAlone) { return s.unicodeScalars.count }
                return s.reduce(0) { $0 + of($1) }
            }
            columns += ofASCII(byte)
        }
        return columns
    }

    /// A scalar that is a grapheme cluster of its own one column wide
    /// whatever stands around it: printable ASCII, Latin-1 and Latin
    /// Extended (but the soft hyphen), general punctuation's dashes,
    /// quotes, bullet and ellipsis, box drawing and block elements. None
    /// extends or joins a neighbour, so a text made only of them is one
    /// column per scalar, with no grapheme breaking (tables, frames, most
    /// European prose).
    @inline(__always)
    public static func isNarrowAlone(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20..<0x7F, 0xA0...0xAC, 0xAE...0x2FF, 0x2010...0x2027, 0x2500...0x259F: true
        default: false
        }
    }

    /// 1 for printable ASCII, 0 for control characters.
    @inline(__always)
    static func ofASCII(_ byte: UInt8) -> Int {
        byte >= 0x20 && byte < 0x7F ? 1 : 0
    }

    /// Columns taken by the scalars of one grapheme cluster: their sum, the
    /// scalars joined by a ZWJ left out.
    static func ofCluster(_ scalars: some Sequence<Unicode.Scalar>) -> Int {
        var columns = 0
        var joining = false
        for scalar in scalars {
            if joining {
                joining = false
            } else if scalar == "\u{200D}" {
                joining = true
            } else {
                columns += ofScalar(scalar)
            }
        }
        return columns
    }

    /// Columns taken by one scalar on its own.
    static func ofScalar(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x80 { return ofASCII(UInt8(value)) }
        // One column each, and the rows of every table and frame: without
        // the property lookups below.
        if isNarrowAlone(scalar) { return 1 }
        if isWide(value) { return 2 }
        switch value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF:
            // Hangul medial vowels and final consonants join the initial.
            return 0
        case 0x1F1E6...0x1F1FF:
            // Regional indicators: a flag is two of them.
            return 1
        default:
            break
        }
        let properties = scalar.properties
        // Emoji newer than the table.
        if properties.isEmojiPresentation { return 2 }
        switch properties.generalCategory {
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
