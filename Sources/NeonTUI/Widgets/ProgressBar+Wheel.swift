import NeonCore

extension ProgressBar {
    /// The wheel's size in cells.
    public static let wheelWidth = 7
    public static let wheelHeight = 3

    /// The twelve ring cells of the wheel, clockwise from 12 o'clock, as
    /// (column, row) inside its 7 × 3 box:
    ///
    ///      ▗▄▄▄▖
    ///     ▐ 42% ▌
    ///      ▝▀▀▀▘
    static let wheelCells: [(x: Int, y: Int)] = [
        (3, 0), (4, 0), (5, 0), (6, 1), (5, 2), (4, 2),
        (3, 2), (2, 2), (1, 2), (0, 1), (1, 0), (2, 0),
    ]

    /// How many ring cells are filled: cell k stands at k × 30° clockwise
    /// from 12 o'clock and is filled once the progress reaches its angle, so
    /// any progress fills 12 o'clock, 25 % reaches 3 o'clock and 50 %
    /// 6 o'clock; 0 % fills none.
    static func litWheelCells(fraction: Double) -> Int {
        guard fraction > 0 else { return 0 }
        return min(Int((fraction * 12 + 1e-9).rounded(.down)) + 1, wheelCells.count)
    }

    /// The wheel centred in the area, or `(NN%)` on its middle row when the
    /// area is smaller than the wheel (`NN%` where that does not fit, and
    /// nothing where neither does: a number is never cut).
    func renderWheel(_ fraction: Double, in area: Rect, into buffer: inout Buffer) {
        let value = model.valueText ?? ""
        guard area.width >= Self.wheelWidth, area.height >= Self.wheelHeight else {
            let row = area.row(area.height / 2)
            guard let text = ["(\(value))", value].first(where: { DisplayWidth.of($0) <= row.width }) else { return }
            let shown = DisplayWidth.of(text)
            buffer.write(text, x: row.x + (row.width - shown) / 2, y: row.y, style: percentStyle, maxWidth: row.width)
            return
        }
        let box = area.centered(width: Self.wheelWidth, height: Self.wheelHeight)
        buffer.fill(box, style: theme.background)
        let glyphs = theme.glyphs
        let lit = Self.litWheelCells(fraction: fraction)
        for (index, cell) in Self.wheelCells.enumerated() {
            let (character, style) = index < lit
                ? (glyphs.wheel[index], theme.tinted(theme.accent, tint))
                : theme.usesColor ? (glyphs.wheel[index], theme.trackLine) : (glyphs.wheelTrack, theme.trackLine)
            buffer.set(character, x: box.x + cell.x, y: box.y + cell.y, style: style)
        }
        let inside = 5
        let shown = min(DisplayWidth.of(value), inside)
        buffer.write(value, x: box.x + 1 + (inside - shown) / 2, y: box.y + 1, style: percentStyle, maxWidth: inside)
    }
}
