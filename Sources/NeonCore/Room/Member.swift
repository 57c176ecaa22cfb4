/// One connection in a room: who they are and where they read.
public struct Member: Equatable, Sendable {
    public let id: ClientID
    public let name: String
    public let role: Role
    public internal(set) var position: ReadingPosition?
    public internal(set) var anchor: Anchor
    public internal(set) var spy: ScrollSpy
    public internal(set) var following: Bool
    /// The server vouches for `name` (its login name on the Unix socket).
    public internal(set) var verified = false
    /// An observer that is a presenter's speaker notes screen.
    public internal(set) var isNotesScreen = false
    /// The session secret its client sent in hello; never shown to others.
    var resume: String?
    /// Where in the deck, while the member shows slides.
    public internal(set) var slide: SlidePlace?
    /// The furthest `percent` the member reached in the document (its
    /// `leave` line says it: the last one may be lower).
    public internal(set) var furthest = 0
    /// The member followed the presenter at some point: a detached
    /// follower, whom the presenter's summon brings back (a reader who
    /// never followed is not moved).
    public internal(set) var followed = false

    init(id: ClientID, name: String, role: Role) {
        self.id = id; self.name = name; self.role = role
        position = nil; anchor = .top; spy = ScrollSpy(); following = false
    }

    public var percent: Int { slide?.percent ?? position?.percent ?? 0 }
    public var progress: Double { slide?.progress ?? position?.progress ?? 0 }
    /// At the end: at the bottom of the document, or, showing slides, of
    /// the last step of the last slide.
    public var atBottom: Bool {
        guard let slide else { return position?.atBottom ?? false }
        return slide.slide == slide.slides - 1 && slide.step == slide.steps - 1 && position?.atBottom == true
    }

    public var info: ReaderInfo {
        var info = ReaderInfo(id: id, name: name, role: role, percent: percent, atBottom: atBottom,
                              section: spy.current, following: following, verified: verified,
                              anchor: position == nil ? nil : anchor)
        info.slidePlace = slide
        info.notes = isNotesScreen ? true : nil
        return info
    }

    mutating func resetPlace() {
        position = nil; anchor = .top; spy.reset(); slide = nil; furthest = 0
    }
}
