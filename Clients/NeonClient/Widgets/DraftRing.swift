import NeonCore
import NeonTUI

/// The draft editor's character ring (the tweet counter seed) in a few cells: a
/// quarter-step ring glyph `○◔◑◕●` filled by `ringFraction`, blue while the
/// draft is short, yellow from limit − 20, red from the limit; from
/// limit − 20 on it is followed by the remaining count (grey, red from the
/// limit); from limit + 10 the ring hides and only the red negative number
/// stays. `pulse` (the one pulse at the limit, timed by the caller) draws the
/// ring bold and reversed. A number that does not fit is left out rather
/// than cut to a wrong value.
public struct DraftRing: Widget {
    /// The draft's count, limit and level from NeonCore's `DraftCounter`.
    public var status: DraftStatus
    /// Whether this frame is inside the pulse at the limit.
    public var pulse: Bool
    public var theme: Theme

    /// A ring showing `status`.
    public init(status: DraftStatus, pulse: Bool = false, theme: Theme = .neon) {
        self.status = status
        self.pulse = pulse
        self.theme = theme
    }

    /// The text drawn for a status, ring glyph included: what the widget
    /// needs room for.
    public static func text(for status: DraftStatus, theme: Theme = .neon) -> String {
        let number = status.showsRemaining ? String(status.remaining) : ""
        guard status.ringVisible else { return number }
        let ring = String(theme.glyphs.ring[ringStep(status.ringFraction)])
        return number.isEmpty ? ring : ring + " " + number
    }

    /// Which of the five ring glyphs shows a fraction: empty only at 0, full
    /// only at 1, otherwise the nearest of the three partial steps.
    static func ringStep(_ fraction: Double) -> Int {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return 4 }
        return min(max(Int((fraction * 4).rounded()), 1), 3)
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: theme.background)
        var x = row.x
        if status.ringVisible {
            var ringStyle = levelStyle
            if pulse { ringStyle = ringStyle.patched(with: Style(bold: true, reverse: true)) }
            buffer.set(theme.glyphs.ring[Self.ringStep(status.ringFraction)], x: x, y: row.y, style: ringStyle)
            x += 2
        }
        let number = String(status.remaining)
        guard status.showsRemaining, x + number.count <= row.maxX else { return }
        let numberStyle = status.level >= .limit ? theme.levelLimit : theme.muted
        buffer.write(number, x: x, y: row.y, style: numberStyle)
    }

    private var levelStyle: Style {
        switch status.level {
        case .ok: theme.levelNormal
        case .warning: theme.levelWarning
        case .limit, .over: theme.levelLimit
        }
    }
}
