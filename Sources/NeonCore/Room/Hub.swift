/// Every room of one server and which connection is in which room. The
/// server feeds it connection events and carries out its outputs; it decides
/// nothing itself.
public struct Hub: Equatable, Sendable {
    public static let maxRoomNameLength = 64
    public static let maxNameLength = 64

    public let limits: RoomLimits
    public let maxRooms: Int
    public internal(set) var rooms: [String: RoomState]
    /// The room each joined connection is in.
    public internal(set) var sessions: [ClientID: String]
    /// Observers of every room (hello with room `"*"`), in order of arrival:
    /// they get every room's broadcasts and errors in `room` envelopes.
    public internal(set) var watchers: [ClientID]

    /// The room name an observer sends to watch every room.
    public static let everyRoom = "*"

    /// A hub with the rooms the store kept (none on a first start).
    public init(limits: RoomLimits = RoomLimits(), maxRooms: Int = 10_000, restoring snapshots: [RoomSnapshot] = []) {
        self.limits = limits
        self.maxRooms = maxRooms
        rooms = Dictionary(snapshots.map { ($0.name, RoomState(restoring: $0, limits: limits)) },
                           uniquingKeysWith: { first, _ in first })
        sessions = [:]
        watchers = []
    }

    /// Member ids of `room` in join order: the recipients of its broadcasts.
    public func members(of room: String) -> [ClientID] {
        rooms[room]?.order ?? []
    }

    /// Who sees an error the server sent to `client`, besides that client:
    /// the observers of every room and the observers of the client's room.
    public func errorObservers(of client: ClientID) -> [ClientID] {
        var out = watchers.filter { $0 != client }
        if let name = sessions[client], let room = rooms[name] {
            out += room.order.filter { $0 != client && room.members[$0]?.role == .observer }
        }
        return out
    }

    /// Every room as an observer of all of them first sees it, by name.
    public func overview(for id: ClientID) -> Overview {
        Overview(you: id, rooms: rooms.keys.sorted().compactMap { rooms[$0]?.summary })
    }
}

extension RoomState {
    /// The room without its document and draft text.
    public var summary: RoomSummary {
        RoomSummary(room: name, seq: seq, readers: order.compactMap { members[$0]?.info }, presenter: presenter,
                    document: document.map { DocumentHeading(title: $0.title, format: $0.format,
                                                             sections: parsed?.sections.map(\.title) ?? []) },
                    draft: DraftCount(rev: draft.revision, status: draftStatus))
    }
}

/// What the transport tells the hub about a connection.
public enum HubEvent: Equatable, Sendable {
    /// A decoded client message.
    case received(ClientID, ClientMessage)
    /// A frame that could not be decoded, with the reason.
    case rejected(ClientID, ProtocolError)
    /// The connection closed.
    case disconnected(ClientID)
}
