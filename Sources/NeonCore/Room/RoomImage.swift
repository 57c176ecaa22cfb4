/// A room's whole state as a value that can be stored and sent: what a
/// cluster node needs to take up a room where the others are, so that it
/// then applies the room's next events exactly as they do (same `seq`, same
/// members, same draft history).
public struct RoomImage: Codable, Equatable, Sendable {
    public struct MemberImage: Codable, Equatable, Sendable {
        public var id: ClientID
        public var name: String
        public var role: Role
        /// `[top, viewport, content]` of the last position, if any.
        public var position: [Int]?
        public var anchor: Anchor
        public var section: Int
        public var source: TabSource
        /// The hand-chosen section held against the scroll-spy, and until when (ns).
        public var holdSection: Int?
        public var holdUntil: Int64?
        public var following: Bool
        /// The member's session secret (see `ClientMessage.hello`).
        public var resume: String?
        /// `true` when the server vouches for the name; absent otherwise.
        public var verified: Bool?
        /// `[slide, slides, step, steps]` while the member shows slides.
        public var slide: [Int]?
        /// The furthest percent the member reached (absent: 0, and in
        /// images written before it was kept).
        public var furthest: Int?
        /// `true` for a presenter's notes screen; absent otherwise.
        public var notes: Bool?
        /// `true` when the member ever followed the presenter; absent otherwise.
        public var followed: Bool?
    }

    public var name: String
    public var profile: CountingProfile
    public var limit: Int
    public var seq: Int
    public var document: DocumentInfo?
    public var draftText: String
    public var draftRevision: Int
    public var recentEdits: [EditInfo]
    public var members: [MemberImage]
    public var presenter: ClientID?
    /// The room's pointers and who may point (absent in images of rooms
    /// with none, and in images written before pointers).
    public var pointers: [PointerInfo]?
    public var pointing: PointingRule?
    /// The outputs of the presenter's snippets (absent when there are none).
    public var outputs: [SnippetOutput]?
    /// Who published the document's current version, and their session
    /// secret (absent in older images).
    public var documentBy: ClientID?
    public var documentSession: String?
    /// Where the room's presenter last was (absent when the room keeps no
    /// place, and in images written before it did).
    public var presenterPlace: PresenterPlace?
    /// The room's questions (absent when nobody asked one, and in images
    /// written before questions).
    public var questions: [QuestionInfo]?
}

extension RoomState {
    /// The room as a storable value; `RoomState(image:)` rebuilds it equal.
    public var image: RoomImage {
        RoomImage(name: name, profile: counter.profile, limit: counter.limit, seq: seq, document: document,
                  draftText: draft.text, draftRevision: draft.revision, recentEdits: recentEdits,
                  members: order.compactMap { members[$0]?.image }, presenter: presenter,
                  pointers: pointers.isEmpty ? nil : pointers, pointing: pointing == .everyone ? nil : pointing,
                  outputs: outputs.isEmpty ? nil : outputs, documentBy: documentBy, documentSession: documentSession,
                  presenterPlace: presenterPlace, questions: questions.isEmpty ? nil : questions)
    }

    /// The room an image was taken of.
    public init(image: RoomImage, limits: RoomLimits = RoomLimits()) {
        self.init(restoring: RoomSnapshot(name: image.name, profile: image.profile, limit: image.limit,
                                          document: image.document, draftText: image.draftText,
                                          draftRevision: image.draftRevision, recentEdits: image.recentEdits),
                  limits: limits)
        seq = image.seq
        for member in image.members {
            members[member.id] = Member(image: member)
            order.append(member.id)
        }
        presenter = image.presenter
        pointers = image.pointers ?? []
        pointing = image.pointing ?? .everyone
        outputs = image.outputs ?? []
        documentBy = image.documentBy
        documentSession = image.documentSession
        if parsed != nil {
            presenterPlace = image.presenterPlace
            questions = image.questions ?? []
        }
    }
}

extension Member {
    var image: RoomImage.MemberImage {
        RoomImage.MemberImage(id: id, name: name, role: role,
                              position: position.map { [$0.top, $0.viewport, $0.content] }, anchor: anchor,
                              section: spy.current, source: spy.source, holdSection: spy.hold?.section,
                              holdUntil: spy.hold.map { $0.until.inNanoseconds }, following: following, resume: resume,
                              verified: verified ? true : nil,
                              slide: slide.map { [$0.slide, $0.slides, $0.step, $0.steps] },
                              furthest: furthest == 0 ? nil : furthest, notes: isNotesScreen ? true : nil,
                              followed: followed ? true : nil)
    }

    init(image: RoomImage.MemberImage) {
        self.init(id: image.id, name: image.name, role: image.role)
        verified = image.verified == true
        if let p = image.position, p.count == 3 {
            position = try? ReadingPosition(top: p[0], viewport: p[1], content: p[2])
        }
        anchor = image.anchor
        spy = ScrollSpy(current: image.section, source: image.source,
                        hold: image.holdSection.flatMap { section in
                            image.holdUntil.map { (section, Duration.nanoseconds($0)) } })
        following = image.following
        resume = image.resume
        if let place = image.slide, place.count == 4 {
            slide = SlidePlace(slide: place[0], slides: place[1], step: place[2], steps: place[3])
        }
        furthest = image.furthest ?? 0
        isNotesScreen = image.notes == true
        followed = image.followed == true
    }
}
