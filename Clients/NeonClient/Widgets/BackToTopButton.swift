import NeonCore
import NeonTUI

/// The back-to-top button shown beside the reading bar at the bottom:
/// `↑ top` and its key hint in a rounded box,
///
///     ╭───────────╮
///     │ ↑ top [g] │
///     ╰───────────╯
///
/// centred in its rectangle; a single unboxed row where three rows or the
/// box's width are not available, the hint left out when it does not fit.
public struct BackToTopButton: Widget {
    /// The key that activates the button, shown as a hint.
    public var key: String
    public var theme: Theme

    /// A button hinting `key`; an empty key shows no hint.
    public init(key: String = "g", theme: Theme = .neon) {
        self.key = key
        self.theme = theme
    }

    /// The boxed button's size, for laying it out and hit-testing clicks.
    public static func size(key: String = "g") -> (width: Int, height: Int) {
        (DisplayWidth.of(label(key: key)) + 4, 3)
    }

    private static func label(key: String) -> String {
        key.isEmpty ? "↑ top" : "↑ top [\(key)]"
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let size = Self.size(key: key)
        var row = area.row(area.height / 2)
        if area.width >= size.width, area.height >= size.height {
            let box = area.centered(width: size.width, height: size.height)
            BorderBox(theme: theme).render(in: box, into: &buffer)
            row = Rect(x: box.x + 2, y: box.y + 1, width: size.width - 4, height: 1)
        }
        // Narrower than `↑ top`, the arrow alone.
        let label = "\(theme.glyphs.upArrow) top"
        let arrow = DisplayWidth.of(label) <= row.width ? label : String(theme.glyphs.upArrow)
        let used = buffer.write(arrow, x: row.x, y: row.y, style: theme.strong, maxWidth: row.width,
                                ellipsis: theme.glyphs.ellipsis)
        let hint = "[\(key)]"
        guard !key.isEmpty, used + 1 + DisplayWidth.of(hint) <= row.width else { return }
        buffer.write(hint, x: row.x + used + 1, y: row.y, style: theme.muted)
    }
}
