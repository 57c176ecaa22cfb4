extension Layout {
    /// How far below the top row a section may start and still count as the
    /// one at the top: the scroll-spy seed's "a section's top is above a
    /// small threshold". With 1, a viewport whose top is the separator above
    /// a section's heading is already in that section.
    public static let scrollSpyThreshold = 1

    /// The row a section starts on (its first block's first row); sections
    /// out of range clamp to the first or last section.
    public func firstRow(ofSection index: Int) -> Int {
        sectionFirstRows[min(max(index, 0), sectionFirstRows.count - 1)]
    }

    /// Scroll-spy: the section current for a viewport whose top row is
    /// `top`, the last section starting at or above `top + scrollSpyThreshold`.
    public func section(atTop top: Int) -> Int {
        let limit = top + Self.scrollSpyThreshold
        var low = 0
        var high = sectionFirstRows.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionFirstRows[mid] <= limit {
                low = mid
            } else {
                high = mid - 1
            }
        }
        return low
    }
}
