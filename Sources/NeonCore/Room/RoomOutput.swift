/// What the reducer asks the server to do, named by destination.
public enum RoomOutput: Equatable, Sendable {
    /// Send to one connection.
    case send(ServerMessage, to: ClientID)
    /// Send to every member of `room` (but `except`, when given). The server
    /// encodes the message once for all recipients.
    case broadcast(ServerMessage, room: String, except: ClientID?)
    /// Write a log line.
    case log(LogRecord)
    /// Make this durable before carrying out the outputs after it: an
    /// acknowledged draft revision is persisted before its `ack` is sent.
    /// (A record that holds nothing back, `holdsDeliveries` false, is only
    /// kept: the presenter's place.)
    case persist(PersistRecord)
}

/// What the store keeps, named as facts.
public enum PersistRecord: Equatable, Sendable {
    /// A room came into being with its counting profile and draft limit.
    case roomCreated(room: String, profile: String, limit: Int)
    /// The room's document was set or replaced.
    case documentSet(room: String, DocumentInfo)
    /// A draft revision the server sequenced: the transformed operation, its
    /// author and key, and the whole text after it, so a restart restores
    /// by revision and still recognises a resent edit.
    /// Someone joined or left the room at this wall-clock time (ms since
    /// 1970): the start of its idle time when it is empty.
    case roomActive(room: String, atMilliseconds: Int64)
    /// The room was empty and idle past the server's room time-to-live: it
    /// is gone with its document and draft.
    case roomRemoved(room: String)
    case revisionAcked(room: String, revision: Int, operation: TextOperation, text: String,
                       by: ClientID, key: String?)
    /// Where the room's presenter now is (nil: the room forgot it, with the
    /// document it was on), kept for a presenter who comes back.
    case presenterPlaced(room: String, PresenterPlace?)
    /// The room's questions after one was asked, answered or carried onto
    /// a new version of the document (all of them: the list replaces the
    /// one kept). The question's broadcast waits until it is kept.
    case questionsKept(room: String, [QuestionInfo])
}

extension PersistRecord {
    /// Whether what the room sends after this waits until it is kept. A
    /// presenter's place does not hold its `progress` back: a place is not
    /// acknowledged to anyone, and the latest one kept is enough.
    public var holdsDeliveries: Bool {
        if case .presenterPlaced = self { return false }
        return true
    }
}

/// A room as the store gives it back on start.
public struct RoomSnapshot: Equatable, Sendable {
    public var name: String
    public var profile: CountingProfile
    public var limit: Int
    public var document: DocumentInfo?
    public var draftText: String
    public var draftRevision: Int
    /// The latest edits, oldest first, ending at `draftRevision`.
    public var recentEdits: [EditInfo]
    /// Where the room's presenter last was (see `RoomState.presenterPlace`).
    public var presenterPlace: PresenterPlace?
    /// The room's questions (see `RoomState.questions`).
    public var questions: [QuestionInfo]

    public init(name: String, profile: CountingProfile = .graphemes, limit: Int = DraftCounter.defaultLimit,
                document: DocumentInfo?, draftText: String, draftRevision: Int, recentEdits: [EditInfo] = [],
                presenterPlace: PresenterPlace? = nil, questions: [QuestionInfo] = []) {
        self.questions = questions
        self.presenterPlace = presenterPlace
        self.name = name
        self.profile = profile
        self.limit = limit
        self.recentEdits = recentEdits
        self.document = document
        self.draftText = draftText
        self.draftRevision = draftRevision
    }
}

/// A change of state that happened to a room, as a past-tense fact.
public enum RoomEvent: Equatable, Sendable {
    /// `draftRev`: the revision a reconnecting client has (see `missed`).
    /// `resume`: the client's session secret (see `ClientMessage.hello`).
    /// `verified`: the server vouches for `name` (see `ReaderInfo.verified`).
    /// `notes`: an observer that is a presenter's notes screen.
    case joined(ClientID, name: String, role: Role, draftRev: Int? = nil, resume: String? = nil, verified: Bool = false,
                notes: Bool = false)
    case left(ClientID)
    /// `revises`: a new version of the room's document (places carried).
    case documentPublished(ClientID, DocumentInfo, revises: Int? = nil)
    /// `step`: the member shows slides (see `ClientMessage.scroll`).
    case scrolled(ClientID, top: Int, viewport: Int, content: Int, anchor: Anchor, step: Int? = nil)
    case tabSelected(ClientID, section: Int)
    case followChanged(ClientID, on: Bool)
    case draftEdited(ClientID, rev: Int, ops: TextOperation, key: String? = nil)
    case cursorMoved(ClientID, position: Int, rev: Int)
    /// A member sent an application message for the room.
    case relayed(ClientID, data: String)
    /// A member pointed at `length` characters from `anchor`.
    case pointed(ClientID, anchor: Anchor, length: Int)
    /// A member cleared their pointer.
    case unpointed(ClientID)
    /// The presenter said who else may point.
    case pointingChanged(ClientID, PointingRule)
    /// A member asked a question on `length` characters from `anchor`.
    case asked(ClientID, anchor: Anchor, length: Int, text: String)
    /// A member marked question `question` answered.
    case questionAnswered(ClientID, question: Int)
    /// The presenter brought every detached follower back.
    case summoned(ClientID)
    /// The presenter's run of a snippet printed `text` so far.
    case outputSent(ClientID, block: Int, text: String, state: SnippetOutput.State, exit: Int?)
}

/// The limits a room enforces; each is a server flag.
public struct RoomLimits: Equatable, Sendable {
    public var maxDocumentBytes: Int
    public var maxDraftScalars: Int
    public var maxMembers: Int
    public var draftLimit: Int

    public init(maxDocumentBytes: Int = 4 * 1024 * 1024, maxDraftScalars: Int = 20_000,
                maxMembers: Int = 10_000, draftLimit: Int = DraftCounter.defaultLimit) {
        self.maxDocumentBytes = maxDocumentBytes
        self.maxDraftScalars = maxDraftScalars
        self.maxMembers = maxMembers
        self.draftLimit = draftLimit
    }
}
