/// An activity indicator: one spinner frame in the accent, then the label.
///
/// The frame index comes from the caller's model (e.g. `SpinnerClock` with
/// `Spinner.frameCount(for:)` frames); any integer is taken modulo the
/// frame count.
public struct Spinner: Widget {
    /// Which frame shows.
    public var frame: Int
    /// Drawn after the spinner and a space.
    public var label: String?
    /// The spinner's colour instead of the accent; ignored without colour.
    public var tint: Color?
    public var theme: Theme

    /// A spinner at `frame` before `label`.
    public init(frame: Int, label: String? = nil, tint: Color? = nil, theme: Theme = .neon) {
        self.frame = frame
        self.label = label
        self.tint = tint
        self.theme = theme
    }

    /// How many frames the theme's spinner has: 10 braille frames
    /// `⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏`, or 4 ASCII frames `-\|/`.
    public static func frameCount(for theme: Theme) -> Int {
        theme.glyphs.spinner.count
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let frames = theme.glyphs.spinner
        let index = ((frame % frames.count) + frames.count) % frames.count
        let y = area.y + (area.height - 1) / 2
        buffer.set(frames[index], x: area.x, y: y, style: theme.tinted(theme.strong, tint))
        guard let label, area.width > 2 else { return }
        buffer.write(label, x: area.x + 2, y: y, style: theme.text, maxWidth: area.width - 2, ellipsis: theme.glyphs.ellipsis)
    }
}
