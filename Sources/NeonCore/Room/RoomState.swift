/// One room: its document, members, presenter, shared draft and sequence
/// number. All of a room's ordering happens here, in `apply`, so a room can
/// live on exactly one node.
public struct RoomState: Equatable, Sendable {
    public let name: String
    public let limits: RoomLimits
    public internal(set) var counter: DraftCounter
    /// Increases by one per broadcast; every message carries it.
    public internal(set) var seq: Int
    /// The document, its `version` set (see `documentVersion`).
    public internal(set) var document: DocumentInfo?
    public internal(set) var parsed: Document?
    /// The document's version: 0 without one, 1 for the first, one more
    /// for each published after it (new versions and replacements alike).
    public internal(set) var documentVersion: Int
    /// Who published the current version: that member, and any connection
    /// of the same client session (its `resume` secret), may publish the
    /// document's next version as the presenter may.
    var documentBy: ClientID?
    var documentSession: String?
    /// The document as slides, for members who show it so.
    public internal(set) var deck: SlideDeck?
    /// Characters per block of the parsed document, to validate anchors.
    var blockLengths: [Int]
    public internal(set) var members: [ClientID: Member]
    /// Member ids in join order (welcome lists, broadcast fan-out).
    public internal(set) var order: [ClientID]
    public internal(set) var presenter: ClientID?
    public internal(set) var draft: DraftDocument
    public internal(set) var draftCount: Int
    /// The latest edits with their authors and keys (as many as the draft's
    /// history keeps): replayed to reconnecting clients, and how a resent
    /// edit is recognised.
    public internal(set) var recentEdits: [EditInfo]
    /// The pointers set, the presenter's (the lead pointer) first: it stays
    /// when its presenter's connection goes; a reader's goes with them.
    public internal(set) var pointers: [PointerInfo]
    /// Who may point besides the presenter, as the presenter said.
    public internal(set) var pointing: PointingRule
    /// Where the presenter last was, kept while nobody presents: a presenter
    /// who joins again under the same name starts there.
    public internal(set) var presenterPlace: PresenterPlace?
    /// The questions asked on passages of the document, oldest first; they
    /// stay when their askers leave, and go with a document that replaces
    /// the room's.
    public internal(set) var questions: [QuestionInfo]
    /// The latest output of each snippet the presenter ran, by block: kept
    /// while the document is, whoever comes and goes.
    public internal(set) var outputs: [SnippetOutput]

    /// A new room. Its draft limit is `limits.draftLimit` for the default
    /// graphemes profile and the profile's own limit for the others.
    public init(name: String, limits: RoomLimits = RoomLimits(), profile: CountingProfile = .graphemes) {
        self.name = name
        self.limits = limits
        let limit = profile == .graphemes ? limits.draftLimit : profile.defaultLimit
        counter = (try? DraftCounter(limit: limit, profile: profile)) ?? DraftCounter.standard
        seq = 0
        document = nil
        parsed = nil
        documentVersion = 0
        documentBy = nil
        documentSession = nil
        deck = nil
        blockLengths = []
        members = [:]
        order = []
        presenter = nil
        draft = DraftDocument()
        draftCount = 0
        recentEdits = []
        pointers = []
        pointing = .everyone
        presenterPlace = nil
        questions = []
        outputs = []
    }

    /// Whether nothing was ever kept here: no document, an untouched draft
    /// and the draft limit a new room gets. Left empty, such a room (a
    /// typo's, or one whose document was refused) has nothing to keep.
    public var isBlank: Bool {
        document == nil && draft == DraftDocument() && recentEdits.isEmpty
            && counter == RoomState(name: name, limits: limits).counter
    }

    /// A room restored from the store: its document (when it still parses)
    /// and its draft at the stored revision, with no members.
    public init(restoring snapshot: RoomSnapshot, limits: RoomLimits = RoomLimits()) {
        self.init(name: snapshot.name, limits: limits, profile: snapshot.profile)
        if let counter = try? DraftCounter(limit: snapshot.limit, profile: snapshot.profile) {
            self.counter = counter
        }
        if var info = snapshot.document,
           let parsed = try? Document.parse(title: info.title, format: info.format, text: info.text) {
            documentVersion = info.version ?? 1
            info.version = documentVersion
            document = info
            self.parsed = parsed
            deck = SlideDeck(parsed)
            blockLengths = parsed.blocks.map { $0.text.count }
        }
        let contiguous = Self.contiguousTail(snapshot.recentEdits, endingAt: snapshot.draftRevision)
        draft = DraftDocument(text: snapshot.draftText, revision: snapshot.draftRevision, history: contiguous.map(\.ops))
        recentEdits = Array(contiguous.suffix(draft.historyLimit))
        draftCount = counter.count(snapshot.draftText)
        if parsed != nil {
            presenterPlace = snapshot.presenterPlace
            questions = snapshot.questions
        }
    }

    public var draftStatus: DraftStatus { counter.status(forCount: draftCount) }

    public var draftInfo: DraftInfo {
        DraftInfo(text: draft.text, rev: draft.revision, status: draftStatus, profile: counter.profile)
    }

    public var sectionCount: Int { parsed?.sections.count ?? 0 }

    /// The member whose client sent `resume` in its hello.
    func member(resuming resume: String) -> ClientID? {
        order.first { members[$0]?.resume == resume }
    }

    public func welcome(for id: ClientID, draftRev: Int? = nil) -> Welcome {
        var draft = draftInfo
        draft.missed = draftRev.flatMap(missedEdits(since:))
        return Welcome(you: id, room: name, document: document,
                       readers: order.compactMap { members[$0]?.info },
                       presenter: presenter, draft: draft, pointers: pointers, questions: questions, outputs: outputs)
    }

    /// The edits after revision `since`, or nil when they are no longer kept
    /// (or `since` is ahead of the draft).
    func missedEdits(since: Int) -> [EditInfo]? {
        guard since <= draft.revision else { return nil }
        if since == draft.revision { return [] }
        guard let first = recentEdits.first, first.rev <= since + 1 else { return nil }
        return Array(recentEdits.drop { $0.rev <= since })
    }

    /// The longest run of edits ending at `revision` with no gaps.
    static func contiguousTail(_ edits: [EditInfo], endingAt revision: Int) -> [EditInfo] {
        guard edits.last?.rev == revision else { return [] }
        var start = edits.count - 1
        while start > 0, edits[start - 1].rev == edits[start].rev - 1 { start -= 1 }
        return Array(edits[start...])
    }
}

extension DraftCounter {
    /// The seed's counter: 280 characters.
    public static let standard: DraftCounter = {
        guard let counter = try? DraftCounter() else { preconditionFailure("280 is a valid limit") }
        return counter
    }()
}
