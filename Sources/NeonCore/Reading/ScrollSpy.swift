/// Where the current tab came from: chosen by hand, or followed from the
/// section at the top of the viewport.
public enum TabSource: String, Equatable, Hashable, Sendable, Codable {
    case selected
    case scrolled
}

/// The current tab of one reader, with the tab-header seed's two sources
/// modelled as state instead of " TAP"/" SCROLL" string suffixes. The server
/// keeps one per member and every client one for itself; both feed it the
/// same `SpyPlace`s, so they agree on the current section.
///
/// A hand-chosen tab holds while its jump runs (`holdDuration`): the
/// sections the viewport passes on the way are ignored until the chosen
/// section reaches the top. A chosen section whose start cannot reach the
/// top (a short last section, a tall terminal, a document that fits) stays
/// chosen for as long as the reader stays at the bottom, where the jump left
/// them; the first place off the bottom after the hold gives the tab back to
/// the spy. At the very bottom, without a chosen tab, the last section wins
/// (`SpyPlace.section`).
public struct ScrollSpy: Equatable, Sendable {
    /// How long a chosen tab holds against the passing sections: the jump
    /// animation plus a little slack for the network.
    public static let holdDuration: Duration = ScrollAnimation.standardDuration + .milliseconds(500)

    public private(set) var current: Int
    public private(set) var source: TabSource
    /// The chosen section and the end of its hold, while it holds (during
    /// the jump, and afterwards while the reader stays at the bottom).
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

    /// A tab was chosen by hand at `time`; it holds against the passing
    /// sections until `end` (`time + holdDuration` on the server; NeonSync's
    /// clients hold a little longer and then send their place again, so the
    /// server has let go by the time it sees it). Returns true when the
    /// current tab changed.
    @discardableResult
    public mutating func select(_ section: Int, at time: Duration,
                                until end: Duration) -> Bool {
        let changed = section != current || source != .selected
        current = section
        source = .selected
        hold = end > time ? (section, end) : nil
        return changed
    }

    /// The reader is now at `place` at `time`. Returns true when the current
    /// tab changed (the caller announces a `scrolled` tab change).
    @discardableResult
    public mutating func observe(_ place: SpyPlace, at time: Duration) -> Bool {
        if let held = hold {
            if place.atBottom, held.section >= place.sectionAtTop { return false }
            if place.sectionAtTop == held.section {
                hold = nil
                return false
            }
            if time < held.until { return false }
            hold = nil
        }
        let section = place.section
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
