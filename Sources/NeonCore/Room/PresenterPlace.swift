/// Where the room's presenter last was: the place a presenter who comes
/// back under the same name starts from, so that its followers do not move
/// (docs/PROTOCOL.md, "A presenter who comes back"). The room keeps it
/// while nobody presents, in its store and in its image in a cluster, and
/// carries it onto each new version of the document as it carries places.
public struct PresenterPlace: Codable, Equatable, Sendable {
    /// The name the presenter joined with.
    public var name: String
    /// `true` when the server vouched for the name (its login name on the
    /// Unix socket): then only a member it vouches for under that name
    /// takes the place. Absent otherwise.
    public var verified: Bool?
    /// `[top, viewport, content]` of the presenter's last `scroll`.
    public var position: [Int]
    public var anchor: Anchor
    /// The step of the slide that holds `anchor`, while the presenter
    /// showed slides.
    public var step: Int?

    public init(name: String, verified: Bool, position: ReadingPosition, anchor: Anchor, step: Int?) {
        self.name = name
        self.verified = verified ? true : nil
        self.position = [position.top, position.viewport, position.content]
        self.anchor = anchor
        self.step = step
    }

    /// Whether a presenter joining as `name` (`verified` as the server
    /// says) is the one who left this place.
    public func belongs(to name: String, verified: Bool) -> Bool {
        name == self.name && (self.verified != true || verified)
    }
}

extension Member {
    /// The place this member leaves the room when it presents.
    var presenterPlace: PresenterPlace? {
        guard let position else { return nil }
        return PresenterPlace(name: name, verified: verified, position: position, anchor: anchor, step: slide?.step)
    }

    /// Takes up `place` in `document`: its rows, anchor and section, and its
    /// slide at its step (clamped to the steps the slide has) when it was
    /// shown as slides. A place that does not fit the document (a block or
    /// an offset it does not have) is not taken.
    mutating func take(_ place: PresenterPlace, in document: Document, deck: SlideDeck?) -> Bool {
        let blocks = document.blocks
        guard place.position.count == 3, blocks.indices.contains(place.anchor.block) || (blocks.isEmpty && place.anchor == .top),
              place.anchor.offset >= 0, place.anchor.offset <= (blocks.isEmpty ? 0 : blocks[place.anchor.block].text.count),
              let position = try? ReadingPosition(top: place.position[0], viewport: place.position[1], content: place.position[2])
        else { return false }
        self.position = position
        anchor = place.anchor
        let section = blocks.isEmpty ? 0 : blocks[place.anchor.block].section
        spy = ScrollSpy(current: section, source: .scrolled, hold: nil)
        if let step = place.step, let deck {
            let index = deck.slide(containing: place.anchor.block)
            let steps = deck.slides[index].steps
            slide = SlidePlace(slide: index, slides: deck.slides.count, step: min(max(step, 0), steps - 1), steps: steps)
        }
        return true
    }
}

extension PresenterPlace {
    /// The place carried onto a new version of the document (`VersionMap`):
    /// the nearest surviving text.
    func carried(_ map: VersionMap) -> PresenterPlace {
        var moved = self
        moved.anchor = map.place(anchor)
        return moved
    }
}

extension RoomState {
    /// Gives a presenter joining as `member` the place the room kept for
    /// it (the same name, vouched for when the place's name was); returns
    /// whether it did.
    func resumePresenterPlace(of member: inout Member) -> Bool {
        guard let place = presenterPlace, place.belongs(to: member.name, verified: member.verified),
              let parsed else { return false }
        return member.take(place, in: parsed, deck: deck)
    }

    /// Keeps `place` as the presenter's, when it changed: kept in the
    /// store too, without holding anything back.
    mutating func keepPresenterPlace(_ place: PresenterPlace?) -> [RoomOutput] {
        guard place != presenterPlace else { return [] }
        presenterPlace = place
        return [.persist(.presenterPlaced(room: name, place))]
    }

    /// The presenter's place after a document was published: carried onto
    /// a new version (`map`; the presenter's own carried place while it is
    /// here), forgotten with a document that replaces the one it was on.
    mutating func keepPresenterPlace(carrying map: VersionMap?) -> [RoomOutput] {
        guard let map else { return keepPresenterPlace(nil) }
        let here = presenter.flatMap { members[$0]?.presenterPlace }
        return keepPresenterPlace(here ?? presenterPlace?.carried(map))
    }
}
