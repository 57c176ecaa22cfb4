/// What an observer of every room (hello with room `"*"`) gets instead of a
/// welcome: each room as it stands, without document or draft text.
public struct Overview: Codable, Equatable, Sendable {
    public var you: ClientID
    public var rooms: [RoomSummary]

    public init(you: ClientID, rooms: [RoomSummary]) {
        self.you = you; self.rooms = rooms
    }
}

/// One room in an `overview`.
public struct RoomSummary: Codable, Equatable, Sendable {
    public var room: String
    /// The room's current seq: relayed messages continue from it.
    public var seq: Int
    public var readers: [ReaderInfo]
    public var presenter: ClientID?
    public var document: DocumentHeading?
    public var draft: DraftCount
    /// When someone last joined or left, ms since 1970 (added after v1;
    /// absent when the server does not know).
    public var active: Int64?

    public init(room: String, seq: Int, readers: [ReaderInfo], presenter: ClientID?,
                document: DocumentHeading?, draft: DraftCount, active: Int64? = nil) {
        self.room = room; self.seq = seq; self.readers = readers; self.presenter = presenter
        self.document = document; self.draft = draft; self.active = active
    }

    enum CodingKeys: String, CodingKey { case room, seq, readers, presenter, document, draft, active }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(room, forKey: .room)
        try c.encode(seq, forKey: .seq)
        try c.encode(readers, forKey: .readers)
        try c.encode(presenter, forKey: .presenter)
        try c.encode(document, forKey: .document)
        try c.encode(draft, forKey: .draft)
        try c.encodeIfPresent(active, forKey: .active)
    }
}

/// A document named by its title, format and section titles (no text).
public struct DocumentHeading: Codable, Equatable, Sendable {
    public var title: String
    public var format: DocumentFormat
    public var sections: [String]

    public init(title: String, format: DocumentFormat, sections: [String]) {
        self.title = title; self.format = format; self.sections = sections
    }
}

/// The draft's counter without its text.
public struct DraftCount: Codable, Equatable, Sendable {
    public var rev: Int
    public var count: Int
    public var remaining: Int
    public var limit: Int
    public var level: LimitLevel

    public init(rev: Int, status: DraftStatus) {
        self.rev = rev; count = status.count; remaining = status.remaining
        limit = status.limit; level = status.level
    }
}

/// A room's message relayed to an observer outside it: every broadcast of
/// every room to observers of `"*"`, and errors the server sent to one
/// client (`to`) to those observers and the observers of that client's room.
/// `room` is nil for an error to a client that had not joined a room.
public struct RoomEnvelope: Equatable, Sendable {
    public var room: String?
    public var to: ClientID?
    public var message: ServerMessage

    public init(room: String?, to: ClientID? = nil, message: ServerMessage) {
        self.room = room; self.to = to; self.message = message
    }
}
