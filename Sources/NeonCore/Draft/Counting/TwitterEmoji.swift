/// Emoji sequences as twemoji-parser (twitter-text's emoji extractor) finds
/// them, read from Unicode properties instead of its list of sequences:
/// a keycap; ©, ®, ™ or ♟ with U+FE0F; a flag; or an emoji not followed by
/// U+FE0E, with its U+FE0F, skin tone and tag sequence, joined by ZWJ to
/// further emoji. twemoji-parser only joins the ZWJ sequences Unicode
/// recommends; here any emoji joined by ZWJ make one sequence.
enum TwitterEmoji {
    private static let textPresentation: Unicode.Scalar = "\u{FE0E}"
    private static let emojiPresentation: Unicode.Scalar = "\u{FE0F}"
    private static let keycap: Unicode.Scalar = "\u{20E3}"
    private static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"
    private static let cancelTag: Unicode.Scalar = "\u{E007F}"

    /// Where the emoji sequence starting at `start` ends, or nil when none
    /// starts there.
    static func sequenceEnd(in text: [Unicode.Scalar], at start: Int) -> Int? {
        func scalar(_ i: Int) -> Unicode.Scalar? { i < text.count ? text[i] : nil }
        let first = text[start]
        if "#*0123456789".unicodeScalars.contains(first) {
            let afterSelector = scalar(start + 1) == emojiPresentation ? start + 2 : start + 1
            return scalar(afterSelector) == keycap ? afterSelector + 1 : nil
        }
        if "©®™♟".unicodeScalars.contains(first) {
            return scalar(start + 1) == emojiPresentation ? start + 2 : nil
        }
        if isRegionalIndicator(first) {
            return scalar(start + 1).map(isRegionalIndicator) == true ? start + 2 : start + 1
        }
        guard first.properties.isEmoji, scalar(start + 1) != textPresentation else { return nil }
        var end = elementEnd(in: text, at: start)
        while scalar(end) == zeroWidthJoiner, let next = scalar(end + 1), isJoinable(next) {
            end = elementEnd(in: text, at: end + 1)
        }
        return end
    }

    /// After one emoji at `start` and its U+FE0F, skin tone and tags.
    private static func elementEnd(in text: [Unicode.Scalar], at start: Int) -> Int {
        func scalar(_ i: Int) -> Unicode.Scalar? { i < text.count ? text[i] : nil }
        var end = start + 1
        if scalar(end) == emojiPresentation { end += 1 }
        if text[start].properties.isEmojiModifierBase, let c = scalar(end), c.properties.isEmojiModifier {
            end += 1
        }
        var tagEnd = end
        while let c = scalar(tagEnd), (0xE0020...0xE007E).contains(c.value) { tagEnd += 1 }
        if tagEnd > end, scalar(tagEnd) == cancelTag { end = tagEnd + 1 }
        return end
    }

    private static func isJoinable(_ c: Unicode.Scalar) -> Bool {
        c.properties.isEmoji && !c.isASCII
    }

    private static func isRegionalIndicator(_ c: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(c.value)
    }
}
