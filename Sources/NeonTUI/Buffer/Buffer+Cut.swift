extension Buffer {
    /// Writes `text` from column `x` on row `y` in at most `maxWidth`
    /// columns (and never past the buffer's right edge); a text too wide is
    /// cut by `TextCut.fitting` and ends in `ellipsis`. Returns the columns
    /// written.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style = .plain,
                               maxWidth: Int, ellipsis: Character) -> Int {
        let room = min(maxWidth, width - x)
        guard room > 0 else { return 0 }
        return write(TextCut.fitting(text, width: room, ellipsis: ellipsis), x: x, y: y, style: style, maxWidth: room)
    }
}
