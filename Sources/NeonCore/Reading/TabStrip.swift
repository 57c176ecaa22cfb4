/// The horizontal scroll of the tab header: which column of the strip of tab
/// titles shows at the left edge, so that the current tab stays visible.
public enum TabStrip {
    /// The column at which each tab starts, given tab widths and the gap
    /// between tabs.
    public static func starts(widths: [Int], spacing: Int) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(widths.count)
        var x = 0
        for w in widths {
            result.append(x)
            x += max(w, 0) + max(spacing, 0)
        }
        return result
    }

    /// The new scroll offset: the previous one when the current tab is fully
    /// visible, otherwise the smallest move that shows it (its start when it
    /// is wider than the view). Never scrolls past the end of the strip.
    public static func scrollOffset(widths: [Int], spacing: Int, current: Int,
                                    viewWidth: Int, previous: Int) -> Int {
        guard !widths.isEmpty, viewWidth > 0 else { return 0 }
        let index = min(max(current, 0), widths.count - 1)
        let tabStarts = starts(widths: widths, spacing: spacing)
        let total = tabStarts[widths.count - 1] + max(widths[widths.count - 1], 0)
        let maxOffset = max(total - viewWidth, 0)
        var offset = min(max(previous, 0), maxOffset)
        let start = tabStarts[index]
        let end = start + max(widths[index], 0)
        if start < offset || end - start > viewWidth {
            offset = start
        } else if end > offset + viewWidth {
            offset = end - viewWidth
        }
        return min(max(offset, 0), maxOffset)
    }
}
