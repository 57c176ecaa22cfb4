import NeonCore

extension ProgressBar {
    /// The tallest the thick bar grows.
    public static let maxBarRows = 3

    /// The thick "bar" style: the label on the first row when there are two
    /// rows or more, then a bar of up to three rows with the current value
    /// centred inside the filled part on its middle row (centred on the
    /// whole bar while the filled part is too short for it).
    func renderBar(_ fraction: Double, in area: Rect, into buffer: inout Buffer) {
        var top = area.y
        if let label = model.label, area.height >= 2 {
            buffer.write(label, x: area.x, y: top, style: theme.text, maxWidth: area.width, ellipsis: theme.glyphs.ellipsis)
            top += 1
        }
        let rows = min(area.maxY - top, Self.maxBarRows)
        let bar = LinearBar(fraction: fraction, fill: fillStyle, theme: theme)
        for row in 0..<rows {
            bar.draw(x: area.x, y: top + row, width: area.width, into: &buffer)
        }
        guard let value = model.valueText, rows > 0 else { return }
        let valueWidth = min(DisplayWidth.of(value), area.width)
        let filled = bar.fullCells(width: area.width)
        let span = filled >= valueWidth ? filled : area.width
        let start = area.x + (span - valueWidth) / 2
        let y = top + (rows - 1) / 2
        let end = start + valueWidth
        var column = start
        for character in value {
            let columns = DisplayWidth.of(character)
            guard columns > 0 else { continue }
            guard column + columns <= end else { break }
            let inFill = column + columns <= area.x + filled
            buffer.set(character, x: column, y: y, style: inFill ? labelStyle : trackLabelStyle)
            column += columns
        }
    }

    /// Text on the filled part: dark on the accent (or tint), reversed
    /// without colour.
    private var labelStyle: Style {
        guard theme.usesColor, let tint else { return theme.barLabel }
        return theme.barLabel.with(bg: tint)
    }

    /// Text on the track part.
    private var trackLabelStyle: Style {
        theme.barTrack.patched(with: Style(bold: true))
    }
}
