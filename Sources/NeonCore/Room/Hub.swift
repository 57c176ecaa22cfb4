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
    /// The one room a watcher may see, when its room token admits only that
    /// room (absent: every room).
    public internal(set) var watchScopes: [ClientID: String]

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
        watchScopes = [:]
    }

    /// Takes up `room` as the cluster holds it (its image, or a new empty
    /// room when `image` is nil), replacing the replica this hub had; the
    /// members' sessions follow the room.
    public mutating func adopt(_ room: String, image: RoomImage?) {
        for member in members(of: room) where sessions[member] == room { sessions[member] = nil }
        rooms[room] = image.map { RoomState(image: $0, limits: limits) }
        for member in members(of: room) { sessions[member] = room }
    }

    /// Holds a room read back from the store (one node, after it rested
    /// there), unless the hub holds one of that name already.
    public mutating func restore(_ room: RoomState) {
        guard rooms[room.name] == nil else { return }
        rooms[room.name] = room
    }

    /// Removes `room` when nobody is in it; returns whether it did.
    public mutating func remove(emptyRoom room: String) -> Bool {
        guard let state = rooms[room], state.order.isEmpty else { return false }
        rooms[room] = nil
        return true
    }

    /// Member ids of `room` in join order: the recipients of its broadcasts.
    public func members(of room: String) -> [ClientID] {
        rooms[room]?.order ?? []
    }

    /// Who sees an error the server sent to `client`, besides that client:
    /// the observers of every room and the observers of the client's room.
    public func errorObservers(of client: ClientID) -> [ClientID] {
        var out = watchers(of: sessions[client]).filter { $0 != client }
        if let name = sessions[client], let room = rooms[name] {
            out += room.order.filter { $0 != client && room.members[$0]?.role == .observer }
        }
        return out
    }

    /// The watchers that see `room` (nil: no room, only those of every room).
    public func watchers(of room: String?) -> [ClientID] {
        guard !watchScopes.isEmpty else { return watchers }
        return watchers.filter { id in watchScopes[id].map { $0 == room } ?? true }
    }

    /// Every room a watcher sees as it first sees them, by name.
    public func overview(for id: ClientID) -> Overview {
        let names = watchScopes[id].map { rooms[$0] == nil ? [] : [$0] } ?? rooms.keys.sorted()
        return Overview(you: id, rooms: names.compactMap { rooms[$0]?.summary })
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
    /// A hello whose name the server vouches for (the login name of a
    /// member on its Unix socket): the member is shown as verified.
    case verifiedHello(ClientID, ClientMessage)
    /// A frame that could not be decoded, with the reason.
    case rejected(ClientID, ProtocolError)
    /// The connection closed.
    case disconnected(ClientID)
    /// An observer's hello to room `"*"` whose room token admits only
    /// `scope`: it watches that room from outside, as the observers of
    /// every room watch them all.
    case watch(ClientID, name: String, scope: String)
}
