import Testing
@testable import NeonCore

@Suite("Display width")
struct DisplayWidthTests {
    @Test("every scalar taken as a one-column grapheme of its own is one: no emoji, mark, joiner or wide letter among them, and a text of them breaks into one grapheme per scalar")
    func narrowAlone() {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2500...0x259F]
        var checked = 0
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let properties = scalar.properties
                let zeroWidth: Set<Unicode.GeneralCategory> = [.nonspacingMark, .enclosingMark, .format, .control,
                                                              .lineSeparator, .paragraphSeparator, .spacingMark]
                let alone = DisplayWidth.isNarrowAlone(scalar)
                #expect(alone == (value != 0xAD), "U+\(String(value, radix: 16)) is taken alone unless it is the soft hyphen")
                guard alone else { continue }
                #expect(!properties.isEmojiPresentation && !zeroWidth.contains(properties.generalCategory)
                        && !properties.isGraphemeExtend && value != 0x200D, "U+\(String(value, radix: 16))")
                checked += 1
            }
        }
        #expect(checked == 95 + (0x2FF - 0xA0) + 24 + 160)
        let table = "│ Ünïcødé ─ “quotes” • … ┼ ░▒▓ ŧæxŧ │"
        #expect(table.count == table.unicodeScalars.count, "one grapheme per scalar")
        #expect(DisplayWidth.of(table) == table.unicodeScalars.count)
        #expect(DisplayWidth.of("│ e\u{301} │") == 5, "a combining mark still joins its letter")
        #expect(DisplayWidth.of("│ 漢 │") == 6, "and a wide letter is still two")
    }

    @Test("printable ASCII takes one column per character")
    func ascii() {
        #expect(DisplayWidth.of("hello, world") == 12)
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of(Character("a")) == 1)
        #expect(DisplayWidth.of(Character(" ")) == 1)
    }

    @Test("control characters take no columns")
    func controls() {
        #expect(DisplayWidth.of(Character("\n")) == 0)
        #expect(DisplayWidth.of(Character("\r\n")) == 0)
        #expect(DisplayWidth.of(Character("\u{1B}")) == 0)
        #expect(DisplayWidth.of(Character("\u{7F}")) == 0)
        #expect(DisplayWidth.of(Character("\u{85}")) == 0)
        #expect(DisplayWidth.of("a\tb") == 2)
    }

    @Test("CJK ideographs, kana, Hangul and fullwidth forms take two columns")
    func wide() {
        #expect(DisplayWidth.of("漢字") == 4)
        #expect(DisplayWidth.of("ひらがな") == 8)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of(Character("\u{3000}")) == 2)
        #expect(DisplayWidth.of("漢a字") == 5)
    }

    @Test("ideographs newer than the table are still wide")
    func futureIdeographs() {
        #expect(DisplayWidth.of(Character("\u{2B740}")) == 2)
        #expect(DisplayWidth.of(Character("\u{31350}")) == 2)
    }

    @Test("emoji take the columns tmux gives them: a ZWJ joins the next emoji into its cell, a skin tone adds its own two")
    func emoji() {
        #expect(DisplayWidth.of("👍") == 2)
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)
        #expect(DisplayWidth.of("🧑‍🤝‍🧑") == 2)
        #expect(DisplayWidth.of("👨‍❤️‍👨") == 2)
        #expect(DisplayWidth.of("👍🏽") == 4)
        #expect(DisplayWidth.of("👩🏽‍💻") == 4)
        #expect(DisplayWidth.of("✌🏽") == 3)
        #expect(DisplayWidth.of("🇫🇷") == 2)
        #expect(DisplayWidth.of(Character("🇫")) == 1)
        #expect(DisplayWidth.of("👍👍") == 4)
    }

    @Test("VS16 widens nothing in tmux: a text-default symbol keeps one column, ZWJ sequences on it too")
    func variationSelector() {
        #expect(DisplayWidth.of("❤️") == 1)
        #expect(DisplayWidth.of("1️⃣") == 1)
        #expect(DisplayWidth.of("⚠️") == 1)
        #expect(DisplayWidth.of("🏳️‍🌈") == 1)
        #expect(DisplayWidth.of("👁️‍🗨️") == 1)
    }

    @Test("Hangul jamo vowels and finals join their initial; a spacing mark takes its own column")
    func joiningScripts() {
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)
        #expect(DisplayWidth.of("कि") == 2)
    }

    @Test("text-presentation symbols without VS16 take one column")
    func textPresentation() {
        #expect(DisplayWidth.of("❤") == 1)
        #expect(DisplayWidth.of("©") == 1)
        #expect(DisplayWidth.of("…") == 1)
    }

    @Test("combining marks add nothing to their base")
    func combining() {
        let decomposed = "e\u{301}"
        #expect(decomposed.count == 1)
        #expect(DisplayWidth.of(decomposed) == 1)
        #expect(DisplayWidth.of("Cafe\u{301}") == 4)
        #expect(DisplayWidth.of("漢\u{302}") == 2)
        #expect(DisplayWidth.of(Character("a\u{20DD}")) == 1)
    }

    @Test("a combining mark or format character on its own takes no columns")
    func zeroWidth() {
        #expect(DisplayWidth.of(Character("\u{301}")) == 0)
        #expect(DisplayWidth.of(Character("\u{200D}")) == 0)
        #expect(DisplayWidth.of(Character("\u{200B}")) == 0)
        #expect(DisplayWidth.of(Character("\u{AD}")) == 0)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
    }

    @Test("a string's width is the sum of its characters' widths")
    func sum() {
        let samples = ["mixed 漢字 and 👍 with e\u{301}", "🇫🇷🇩🇪", "ｶﾀｶﾅ", "\u{301}\u{301}x"]
        for sample in samples {
            #expect(DisplayWidth.of(sample) == sample.reduce(0) { $0 + DisplayWidth.of($1) })
            #expect(DisplayWidth.of(sample[...]) == DisplayWidth.of(sample))
        }
    }

    @Test("the generated table is sorted and its ranges do not overlap")
    func table() {
        for (lower, upper) in zip(DisplayWidth.wideRanges, DisplayWidth.wideRanges.dropFirst()) {
            #expect(lower.upperBound < upper.lowerBound)
        }
        #expect(DisplayWidth.isWide(0x4E00))
        #expect(!DisplayWidth.isWide(0x41))
        #expect(!DisplayWidth.isWide(0x10FFFF))
    }
}
