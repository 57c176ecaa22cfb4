/// What the reducer asks the server to do, named by destination.
public enum RoomOutput: Equatable, Sendable {
    /// Send to one connection.
    case send(ServerMessage, to: ClientID)
    /// Send to every member of `room` (but `except`, when given). The server
    /// encodes the message once for all recipients.
    case broadcast(ServerMessage, room: String, except: ClientID?)
    /// Write a log line.
    case log(LogRecord)
}

/// A change of state that happened to a room, as a past-tense fact.
public enum RoomEvent: Equatable, Sendable {
    case joined(ClientID, name: String, role: Role)
    case left(ClientID)
    case documentPublished(ClientID, DocumentInfo)
    case scrolled(ClientID, top: Int, viewport: Int, content: Int, anchor: Anchor)
    case tabSelected(ClientID, section: Int)
    case followChanged(ClientID, on: Bool)
    case draftEdited(ClientID, rev: Int, ops: TextOperation)
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
