import NeonCore

/// One widget for every progress the client shows: the reading bar and wheel,
/// connecting and sync states, loading a big document, the benchmark.
///
/// It draws a `ProgressModel` (determinate or indeterminate, with its label
/// and current-value label) in a `ProgressStyle`, in the theme's accent or a
/// tint. An indeterminate model is always drawn as a spinner at `frame`.
public struct ProgressBar: Widget {
    public var model: ProgressModel
    public var style: ProgressStyle
    /// The fill colour instead of the theme's accent; ignored by themes
    /// without colour.
    public var tint: Color?
    /// The spinner frame, from the model's clock (`SpinnerClock.frame(at:)`).
    public var frame: Int
    public var theme: Theme

    /// A progress view of `model` in `style`.
    public init(_ model: ProgressModel, style: ProgressStyle = .linear, tint: Color? = nil,
                frame: Int = 0, theme: Theme = .neon) {
        self.model = model
        self.style = style
        self.tint = tint
        self.frame = frame
        self.theme = theme
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        guard let fraction = model.fraction, style != .spinner else {
            renderSpinner(in: area, into: &buffer)
            return
        }
        switch style {
        case .linear: renderLinear(fraction, in: area, into: &buffer)
        case .bar: renderBar(fraction, in: area, into: &buffer)
        case .reading: renderReading(fraction, in: area, into: &buffer)
        case .wheel: renderWheel(fraction, in: area, into: &buffer)
        case .spinner: renderSpinner(in: area, into: &buffer)
        }
    }

    /// The filled-cell style, in the tint when there is one.
    var fillStyle: Style { theme.tinted(theme.barFill, tint) }

    /// Bold accent (or tint) text: percentages.
    var percentStyle: Style { theme.tinted(theme.strong, tint) }

    private func renderSpinner(in area: Rect, into buffer: inout Buffer) {
        let text = [model.label, model.fraction == nil ? nil : model.valueText]
            .compactMap { $0 }.joined(separator: " ")
        Spinner(frame: frame, label: text.isEmpty ? nil : text, tint: tint, theme: theme)
            .render(in: area, into: &buffer)
    }

    private func renderLinear(_ fraction: Double, in area: Rect, into buffer: inout Buffer) {
        var row = 0
        if let label = model.label, area.height >= 2 {
            buffer.write(label, x: area.x, y: area.y, style: theme.text, maxWidth: area.width, ellipsis: theme.glyphs.ellipsis)
            row = 1
        }
        LinearBar(fraction: fraction, fill: fillStyle, theme: theme)
            .draw(x: area.x, y: area.y + row, width: area.width, into: &buffer)
        if let value = model.currentValueLabel, row + 1 < area.height {
            buffer.write(value, x: area.x, y: area.y + row + 1, style: theme.muted, maxWidth: area.width, ellipsis: theme.glyphs.ellipsis)
        }
    }

    private func renderReading(_ fraction: Double, in area: Rect, into buffer: inout Buffer) {
        var content = area.row(area.height / 2)
        if area.height >= 3, area.width >= 8 {
            BorderBox(theme: theme).render(in: area, into: &buffer)
            let inner = BorderBox.inner(of: area)
            content = Rect(x: inner.x + 1, y: inner.y + inner.height / 2, width: inner.width - 2, height: 1)
        }
        // The percent, then the bar; a number is never cut: where it does
        // not fit, the bar alone.
        let percent = model.valueText ?? ""
        let field = max(DisplayWidth.of(percent), 4) + 1
        guard DisplayWidth.of(percent) <= content.width else {
            LinearBar(fraction: fraction, fill: fillStyle, theme: theme)
                .draw(x: content.x, y: content.y, width: content.width, into: &buffer)
            return
        }
        buffer.write(percent, x: content.x, y: content.y, style: percentStyle, maxWidth: content.width)
        guard content.width > field else { return }
        LinearBar(fraction: fraction, fill: fillStyle, theme: theme)
            .draw(x: content.x + field, y: content.y, width: content.width - field, into: &buffer)
    }
}
