import NeonCore

extension ReaderModel {
    /// The section the tab header underlines: a follower shows the section
    /// of the presenter it follows (so its header never drifts from theirs,
    /// whatever its own terminal shows at the top); everyone else their own
    /// scroll-spy's.
    public var currentSection: Int {
        if isFollowing, let presenter, presenter != me,
           let section = readers.first(where: { $0.id == presenter })?.section,
           tabTitles.indices.contains(section) {
            return section
        }
        return spy.current
    }

    /// Follow the presenter again (or for the first time) and jump to them.
    public mutating func attach(at time: Duration) -> [ClientCommand] {
        guard mode != .present, !following else { return [] }
        following = true
        note(presenter.map { "Following \(title(of: $0))" } ?? "Following the presenter when one joins", error: false, at: time)
        var out: [ClientCommand] = [.send(.follow(on: true))]
        if let presenter, let anchor = anchors[presenter] {
            let atBottom = readers.first { $0.id == presenter }?.atBottom ?? false
            out += reposition(to: anchor, atBottom: atBottom, at: time)
        }
        return out
    }

    mutating func detachIfFollowing(at time: Duration) -> [ClientCommand] {
        guard isFollowing else { return [] }
        following = false
        note("detached — f follows again", error: false, at: time)
        return [.send(.follow(on: false))]
    }

    /// Moves to the presenter's place on this terminal's size: their anchor
    /// on the top row, or this terminal's own top or bottom when they are at
    /// theirs (`Layout.followedTop`).
    mutating func reposition(to anchor: Anchor, atBottom: Bool, at time: Duration) -> [ClientCommand] {
        guard let layout else { return [] }
        animation = nil
        top = clampTop(layout.followedTop(anchor: anchor, atBottom: atBottom, viewport: viewportRows))
        indicator.scrolled(at: time)
        return moved(at: time)
    }

    /// After a reconnect the server's scroll-spy for this connection starts
    /// afresh: a tab that still holds (chosen, and the reader still where
    /// its jump left them) is chosen again, so that both keep it.
    mutating func chooseHeldTabAgain(at time: Duration) -> [ClientCommand] {
        guard let held = spy.hold, spy.source == .selected, !isFollowing else { return [] }
        spy.select(held.section, at: time, until: time + Self.tabHold)
        return [.send(.tab(section: held.section))]
    }
}
