import NeonCore
import NeonTUI

/// The tab header of the scroll-spy seed: section titles across one row,
/// `spacing` columns apart, scrolled sideways by `offset` columns, with the
/// current title in bold accent and underlined (`━` over a `─` baseline on
/// the second row, or the underline attribute on a one-row header). `‹` and
/// `›` in the outer columns say more tabs hide to the left or right.
///
/// The caller keeps the current tab in view with NeonCore's
/// `TabStrip.scrollOffset`, fed by `titleWidths` and `stripWidth(forWidth:)`
/// (or `scrollOffset(titles:current:width:previous:)`, which does exactly
/// that). A title wider than its field (`maxTitleWidth`, and never wider
/// than the strip) swings inside it by `currentTitleOffset` when it is the
/// current one (the caller drives NeonCore's `SwingMotion`, see
/// `titleMotion`) and otherwise ends in "…", as does any other title the
/// strip's edges cut, and a current one too little too wide to swing
/// (`SwingMotion.isCut`).
public struct TabHeader: Widget {
    /// Columns between two titles.
    public static let spacing = 2

    /// The section titles, in order.
    public var titles: [String]
    /// The index of the current tab.
    public var current: Int
    /// Columns of the strip scrolled out on the left.
    public var offset: Int
    /// The widest a title may be; nil for no limit.
    public var maxTitleWidth: Int?
    /// The current title's swing offset (≤ 0) inside its clipped field.
    public var currentTitleOffset: Int
    /// The titles' widths from `titleWidths(_:maxTitleWidth:)`, when the
    /// caller keeps them: a document with hundreds of sections need not
    /// measure every title on every frame.
    public var widths: [Int]?
    public var theme: Theme

    /// A header of `titles` with `current` underlined, scrolled by `offset`.
    public init(titles: [String], current: Int, offset: Int, maxTitleWidth: Int? = nil,
                currentTitleOffset: Int = 0, widths: [Int]? = nil, theme: Theme = .neon) {
        self.titles = titles
        self.widths = widths.flatMap { $0.count == titles.count ? $0 : nil }
        self.current = current
        self.offset = offset
        self.maxTitleWidth = maxTitleWidth
        self.currentTitleOffset = currentTitleOffset
        self.theme = theme
    }

    /// Each title's display width, clipped to `maxTitleWidth`: the widths to
    /// give `TabStrip`.
    public static func titleWidths(_ titles: [String], maxTitleWidth: Int? = nil) -> [Int] {
        titles.map { min(DisplayWidth.of($0), maxTitleWidth.map { max($0, 1) } ?? .max) }
    }

    /// Title widths (from `titleWidths`) cut to a header `width` wide, so a
    /// title never takes more than the strip and the current one shows whole
    /// when it fits and swings when it does not.
    public static func fieldWidths(_ widths: [Int], width: Int) -> [Int] {
        let strip = max(stripWidth(forWidth: width), 1)
        return widths.map { min($0, strip) }
    }

    /// The swing of `title` in a field `fieldWidth` columns wide: its
    /// `offset(at:)` is the `currentTitleOffset` of the current tab.
    public static func titleMotion(_ title: String, fieldWidth: Int) -> SwingMotion {
        SwingMotion(textWidth: DisplayWidth.of(title), fieldWidth: fieldWidth)
    }

    /// The columns the titles scroll in, in a header `width` wide: all but
    /// the two marker columns, or all of them below 3 columns.
    public static func stripWidth(forWidth width: Int) -> Int {
        width >= 3 ? width - 2 : max(width, 0)
    }

    /// The scroll offset keeping `current` in view: `TabStrip.scrollOffset`
    /// with this header's widths, spacing and strip width.
    public static func scrollOffset(titles: [String], current: Int, width: Int, previous: Int,
                                    maxTitleWidth: Int? = nil) -> Int {
        TabStrip.scrollOffset(widths: titleWidths(titles, maxTitleWidth: maxTitleWidth), spacing: spacing,
                              current: current, viewWidth: stripWidth(forWidth: width), previous: previous)
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let glyphs = theme.glyphs
        let hasMarkers = area.width >= 3
        let stripStart = area.x + (hasMarkers ? 1 : 0)
        let stripEnd = stripStart + Self.stripWidth(forWidth: area.width)
        buffer.fill(area.row(0), style: theme.background)
        let underlineRow = area.height >= 2 ? area.y + 1 : nil
        if underlineRow != nil {
            buffer.fill(area.row(1), style: theme.trackLine, character: glyphs.tabBaseline)
        }
        let widths = self.widths ?? Self.titleWidths(titles, maxTitleWidth: maxTitleWidth)
        let starts = TabStrip.starts(widths: widths, spacing: Self.spacing)
        for (index, title) in titles.enumerated() {
            let fieldStart = stripStart + starts[index] - offset
            let clipStart = max(fieldStart, stripStart)
            let clipEnd = min(fieldStart + widths[index], stripEnd)
            guard clipStart < clipEnd else { continue }
            let clip = clipStart..<clipEnd
            let isCurrent = index == current
            let style = style(current: isCurrent, oneRow: underlineRow == nil)
            if isCurrent, !Self.titleMotion(title, fieldWidth: widths[index]).isCut {
                buffer.write(title, x: fieldStart + currentTitleOffset, y: area.y, style: style, clip: clip)
            } else {
                drawCut(title, field: fieldStart..<fieldStart + widths[index], y: area.y, style: style, clip: clip,
                        into: &buffer)
            }
            if isCurrent, let underlineRow {
                for x in clip {
                    buffer.set(glyphs.tabUnderline, x: x, y: underlineRow, style: theme.strong)
                }
            }
        }
        guard hasMarkers, let last = starts.last, let lastWidth = widths.last else { return }
        if offset > 0 {
            buffer.set(glyphs.moreLeft, x: area.x, y: area.y, style: theme.accent)
        }
        if last + lastWidth - offset > stripEnd - stripStart {
            buffer.set(glyphs.moreRight, x: area.maxX - 1, y: area.y, style: theme.accent)
        }
    }

    /// A title in the visible part of its field: whole when it all shows,
    /// otherwise its start in the columns that show, ending in "…" (a title
    /// scrolled half out on the left keeps its first letters).
    private func drawCut(_ title: String, field: Range<Int>, y: Int, style: Style, clip: Range<Int>,
                         into buffer: inout Buffer) {
        if clip == field, DisplayWidth.of(title) <= field.count {
            buffer.write(title, x: field.lowerBound, y: y, style: style, clip: clip)
        } else {
            buffer.write(title, x: clip.lowerBound, y: y, style: style, maxWidth: clip.count, ellipsis: theme.glyphs.ellipsis)
        }
    }

    /// Bold accent for the current title, underlined when no row below can
    /// carry the underline or colour cannot tell it apart; muted otherwise.
    private func style(current isCurrent: Bool, oneRow: Bool) -> Style {
        guard isCurrent else { return theme.muted }
        return theme.strong.patched(with: Style(underline: oneRow || !theme.usesColor))
    }
}
