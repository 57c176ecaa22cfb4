/// Where the current tab came from: chosen by hand, or followed from the
/// section at the top of the viewport.
public enum TabSource: String, Equatable, Hashable, Sendable, Codable {
    case selected
    case scrolled
}

/// The current tab of one reader, with the tab-header seed's two sources
/// modelled as state instead of " TAP"/" SCROLL" string suffixes.
///
/// A hand-chosen tab holds while its scroll animation runs: the sections the
/// viewport passes on the way are ignored until the target section reaches
/// the top or the animation's time is over.
public struct ScrollSpy: Equatable, Sendable {
    public private(set) var current: Int
    public private(set) var source: TabSource
    /// The chosen section and the moment its animation ends, while one runs.
    public private(set) var hold: (section: Int, until: Duration)?

    public init(current: Int = 0) {
        self.current = current
        self.source = .scrolled
        self.hold = nil
    }

    /// A spy exactly as it was (a room image taken up by another node).
    init(current: Int, source: TabSource, hold: (section: Int, until: Duration)?) {
        self.current = current
        self.source = source
        self.hold = hold
    }

    /// A tab was chosen by hand at `time`; the jump animation ends at `until`.
    /// Returns true when the current tab changed.
    @discardableResult
    public mutating func select(_ section: Int, at time: Duration,
                                until end: Duration) -> Bool {
        let changed = section != current || source != .selected
        current = section
        source = .selected
        hold = end > time ? (section, end) : nil
        return changed
    }

    /// The viewport's top is now in `section` at `time`. Returns true when the
    /// current tab changed (the caller announces a `scrolled` tab change).
    @discardableResult
    public mutating func observe(sectionAtTop section: Int, at time: Duration) -> Bool {
        if let held = hold {
            if section == held.section || time >= held.until {
                hold = nil
            } else {
                return false
            }
        }
        guard section != current else { return false }
        current = section
        source = .scrolled
        return true
    }

    /// Forgets any running hold, e.g. when the document is replaced.
    public mutating func reset(to section: Int = 0) {
        self = ScrollSpy(current: section)
    }

    public static func == (a: ScrollSpy, b: ScrollSpy) -> Bool {
        a.current == b.current && a.source == b.source
            && a.hold?.section == b.hold?.section && a.hold?.until == b.hold?.until
    }
}
