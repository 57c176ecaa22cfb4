import NeonCore

extension ReaderModel {
    /// The section the tab header underlines: a follower shows the section
    /// of the presenter it follows (so its header never drifts from theirs,
    /// whatever its own terminal shows at the top); everyone else their own
    /// scroll-spy's.
    public var currentSection: Int {
        if isFollowing, let presenter = presence.presenter, presenter != presence.me,
           let section = presence.member(presenter)?.section,
           tabs.titles.indices.contains(section) {
            return section
        }
        return tabs.spy.current
    }

    /// Follow the presenter again (or for the first time) and jump to them
    /// at once: to their slide and step while they show slides, else to
    /// their place in the document.
    public mutating func attach(at time: Duration) -> [ClientCommand] {
        guard mode != .present, !pane.following else { return [] }
        pane.follow(true)
        let presenter = presence.presenter
        notices.note(presenter.map { "Following \(presence.name(of: $0))" } ?? "Following the presenter when one joins",
                     error: false, at: time)
        return [.send(.follow(on: true))] + (repositionOnPresenter(at: time) ?? [])
    }

    mutating func detachIfFollowing(at time: Duration) -> [ClientCommand] {
        guard isFollowing else { return [] }
        pane.follow(false)
        notices.note("detached — f follows again", error: false, at: time)
        return [.send(.follow(on: false))]
    }

    /// Moves to the presenter's place on this terminal's size (the pane's
    /// `reposition`) and tells the room.
    mutating func reposition(to anchor: Anchor, atBottom: Bool, at time: Duration) -> [ClientCommand] {
        guard pane.reposition(to: anchor, atBottom: atBottom, at: time) else { return [] }
        if pointers.leadIsNews { bringLeadPointerIntoView() }
        return moved(at: time)
    }

    /// Follows the presenter to their place, if following one that is not
    /// this terminal and has a place.
    mutating func repositionOnPresenter(at time: Duration) -> [ClientCommand]? {
        if let presenter = presence.presenter, presenter != presence.me {
            matchPresenterSlides(presence.member(presenter)?.slidePlace)
        }
        guard isFollowing, let presenter = presence.presenter, presenter != presence.me,
              let anchor = presence.anchor(of: presenter) else { return nil }
        if let place = presence.member(presenter)?.slidePlace { return followSlide(anchor: anchor, place: place, at: time) }
        return reposition(to: anchor, atBottom: presence.member(presenter)?.atBottom ?? false, at: time)
    }

    /// After a reconnect the server's scroll-spy for this connection starts
    /// afresh: a tab that still holds (chosen, and the reader still where
    /// its jump left them) is chosen again, so that both keep it.
    mutating func chooseHeldTabAgain(at time: Duration) -> [ClientCommand] {
        guard let held = tabs.spy.hold, tabs.spy.source == .selected, !isFollowing else { return [] }
        tabs.choose(held.section, at: time, holdingUntil: time + Self.tabHold)
        return [.send(.tab(section: held.section))]
    }
}
