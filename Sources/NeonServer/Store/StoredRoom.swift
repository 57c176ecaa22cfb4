import NeonCore

/// A room as the store keeps it: enough to rebuild it on start.
public struct StoredRoom: Equatable, Sendable {
    public var name: String
    /// The counting profile's name (`graphemes`, `twitter`, …).
    public var profile: String
    /// The draft's character limit.
    public var limit: Int
    public var document: DocumentInfo?
    /// The draft's text at `draftRevision`.
    public var draftText: String
    /// How many edits the draft has had; 0 for a new room.
    public var draftRevision: Int
    /// The latest stored edits, oldest first (at most `keptRevisions`), for
    /// transforming and replaying edits based on them after a restart.
    public var recentEdits: [StoredEdit]
    /// When someone last joined or left (or the room was created), ms
    /// since 1970; nil when the store does not know.
    public var activeMilliseconds: Int64?
    /// Where the room's presenter last was, for one who comes back.
    public var presenterPlace: PresenterPlace?
    /// The questions asked on the room's document, oldest first.
    public var questions: [QuestionInfo]

    public init(name: String, profile: String, limit: Int, document: DocumentInfo? = nil,
                draftText: String = "", draftRevision: Int = 0, recentEdits: [StoredEdit] = [],
                activeMilliseconds: Int64? = nil, presenterPlace: PresenterPlace? = nil, questions: [QuestionInfo] = []) {
        self.questions = questions
        self.name = name; self.profile = profile; self.limit = limit
        self.document = document; self.draftText = draftText; self.draftRevision = draftRevision
        self.recentEdits = recentEdits; self.activeMilliseconds = activeMilliseconds
        self.presenterPlace = presenterPlace
    }
}

/// One stored edit as it comes back on start.
public struct StoredEdit: Equatable, Sendable {
    public var revision: Int
    public var operationJSON: String
    public var author: String?
    public var key: String?

    public init(revision: Int, operationJSON: String, author: String? = nil, key: String? = nil) {
        self.revision = revision; self.operationJSON = operationJSON; self.author = author; self.key = key
    }
}

extension RoomSnapshot {
    /// The room as the hub restores it, its kept edits decoded (one that
    /// no longer decodes is left out: the draft's text is what counts).
    init(_ room: StoredRoom, codec: WireCodec = WireCodec()) {
        let edits = room.recentEdits.compactMap { edit -> EditInfo? in
            guard let ops = try? codec.decodeOperation(edit.operationJSON) else { return nil }
            return EditInfo(rev: edit.revision, ops: ops, by: ClientID(edit.author ?? ""), key: edit.key)
        }
        self.init(name: room.name, profile: CountingProfile(rawValue: room.profile) ?? .graphemes,
                  limit: room.limit, document: room.document, draftText: room.draftText,
                  draftRevision: room.draftRevision, recentEdits: edits, presenterPlace: room.presenterPlace,
                  questions: room.questions)
    }
}
