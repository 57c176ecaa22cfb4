/// A one-row bar filled to a fraction with eighth-cell precision: full cells
/// `█`, then one partial cell `▏▎▍▌▋▊▉`, then the track. With colour the
/// track is the track colour behind the cells; without, it is `░`. ASCII
/// glyphs have no eighths, so the fill there is whole `#` cells.
public struct LinearBar: Sendable {
    public var fraction: Double
    public var fill: Style
    public var theme: Theme

    /// A bar filled to `fraction` (clamped to 0…1) in the `fill` style.
    public init(fraction: Double, fill: Style, theme: Theme) {
        self.fraction = fraction
        self.fill = fill
        self.theme = theme
    }

    /// Eighths of a cell filled in a bar `width` cells wide, rounded down so
    /// a bar is full only at 100 %.
    static func eighths(fraction: Double, width: Int) -> Int {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        return min(Int((clamped * Double(max(width, 0)) * 8 + 1e-9).rounded(.down)), max(width, 0) * 8)
    }

    /// Whole cells filled.
    func fullCells(width: Int) -> Int {
        Self.eighths(fraction: fraction, width: width) / 8
    }

    /// Draws the bar on row `y` from column `x`, `width` cells long.
    public func draw(x: Int, y: Int, width: Int, into buffer: inout Buffer) {
        guard width > 0 else { return }
        let glyphs = theme.glyphs
        let eighths = Self.eighths(fraction: fraction, width: width)
        let full = eighths / 8
        let track = theme.usesColor ? " " : glyphs.barTrack
        for column in 0..<width {
            if column < full {
                buffer.set(glyphs.barFull, x: x + column, y: y, style: fill)
            } else if column == full, eighths % 8 > 0, !glyphs.barEighths.isEmpty {
                buffer.set(glyphs.barEighths[eighths % 8 - 1], x: x + column, y: y, style: fill)
            } else {
                buffer.set(track, x: x + column, y: y, style: theme.barTrack)
            }
        }
    }
}
