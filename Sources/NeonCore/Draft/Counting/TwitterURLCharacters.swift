/// The character classes of twitter-text's URL expressions (its `regexp/`
/// files, named below), as predicates on scalars. The expressions are
/// case-insensitive, so their `a-z` admits `A-Z` too.
enum TwitterURLCharacters {
    static func isASCIIAlphanumeric(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: false
        }
    }

    /// `c` as the case-insensitive expressions compare it: lowercased when
    /// that gives one scalar. The TLD lists are lowercase.
    static func folded(_ c: Unicode.Scalar) -> Unicode.Scalar {
        if c.isASCII {
            return (0x41...0x5A).contains(c.value) ? Unicode.Scalar(UInt8(c.value + 0x20)) : c
        }
        guard c.properties.changesWhenLowercased else { return c }
        let lower = c.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower[lower.startIndex] : c
    }

    static func isASCIIDigit(_ c: Unicode.Scalar) -> Bool {
        (0x30...0x39).contains(c.value)
    }

    /// `invalidCharsGroup`: U+FFFE, U+FEFF, U+FFFF.
    static func isInvalid(_ c: Unicode.Scalar) -> Bool {
        c.value == 0xFFFE || c.value == 0xFEFF || c.value == 0xFFFF
    }

    /// `validUrlPrecedingChars` without its `^`: anything but ASCII letters
    /// and digits, `@＠$#＃` and the invalid characters.
    static func isValidPreceding(_ c: Unicode.Scalar) -> Bool {
        !(isASCIIAlphanumeric(c) || "@＠$#＃".unicodeScalars.contains(c) || isInvalid(c))
    }

    /// `validDomainChars`: anything but `punct`, `spacesGroup`, the invalid
    /// characters and `directionalMarkersGroup`.
    static func isDomainCharacter(_ c: Unicode.Scalar) -> Bool {
        !("!'#%&()*+,\\-./:;<=>?@[]^_{|}~$".unicodeScalars.contains(c)
            || isSpace(c) || isInvalid(c) || isDirectionalMarker(c))
    }

    /// `spacesGroup`.
    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x180E, 0x2000...0x200A,
             0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// `directionalMarkersGroup`.
    static func isDirectionalMarker(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x202A...0x202E, 0x061C, 0x200E, 0x200F, 0x2066...0x2069: true
        default: false
        }
    }

    /// `latinAccentChars`.
    static func isLatinAccent(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF, 0x100...0x24F,
             0x253, 0x254, 0x256, 0x257, 0x259, 0x25B, 0x263, 0x268, 0x26F, 0x272, 0x289, 0x28B,
             0x2BB, 0x300...0x36F, 0x1E00...0x1EFF: true
        default: false
        }
    }

    /// `cyrillicLettersAndMarks`.
    static func isCyrillic(_ c: Unicode.Scalar) -> Bool {
        (0x400...0x4FF).contains(c.value)
    }

    /// `validGeneralUrlPathChars`.
    static func isPathCharacter(_ c: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(c) || "!*';:=+,.$/%#[]-\u{2013}_~@|&".unicodeScalars.contains(c)
            || isLatinAccent(c) || isCyrillic(c)
    }

    /// The character half of `validUrlPathEndingChars`; the other half is a
    /// balanced parenthesis.
    static func isPathEnding(_ c: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(c) || "+-=_#/".unicodeScalars.contains(c) || isLatinAccent(c) || isCyrillic(c)
    }

    /// `validUrlQueryChars`.
    static func isQueryCharacter(_ c: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(c) || "!?*'@();:&=+$/%#[]-_.,~|".unicodeScalars.contains(c)
    }

    /// `validUrlQueryEndingChars`.
    static func isQueryEnding(_ c: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(c) || "-_&=#/".unicodeScalars.contains(c)
    }

    /// The label characters of `validAsciiDomain`: `[-a-z0-9]` and Latin accents.
    static func isASCIIDomainLabelCharacter(_ c: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(c) || c == "-" || isLatinAccent(c)
    }

    /// `validPunycode`'s `[-0-9a-z]`.
    static func isPunycodeCharacter(_ c: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(c) || c == "-"
    }

    /// The lookahead after a TLD, `(?=[^0-9a-zA-Z@+-]|$)`: whether `c`
    /// (nil at the end of the text) may follow a TLD.
    static func mayFollowTLD(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return true }
        return !(isASCIIAlphanumeric(c) || c == "@" || c == "+" || c == "-")
    }
}
