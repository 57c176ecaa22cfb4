import NeonCore

/// Text cut to a number of columns by display width, the one way every
/// widget shortens text it cannot show whole: the whole characters that
/// fit (a wide character is never split), then an ellipsis in the last
/// column, so a cut never looks like the end of the text.
public enum TextCut {
    /// `text` whole when it fits `width` columns; otherwise the whole
    /// characters that fit in `width − 1` columns, spaces before the cut
    /// dropped, then `ellipsis`. Empty when `width` is below 1.
    public static func fitting(_ text: some StringProtocol, width: Int, ellipsis: Character) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return String(text) }
        var kept = ""
        var used = 0
        for character in text {
            let columns = DisplayWidth.of(character)
            guard used + columns <= width - 1 else { break }
            kept.append(character)
            used += columns
        }
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + String(ellipsis)
    }
}
