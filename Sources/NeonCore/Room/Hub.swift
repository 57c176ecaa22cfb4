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

    /// A hub with the rooms the store kept (none on a first start).
    public init(limits: RoomLimits = RoomLimits(), maxRooms: Int = 10_000, restoring snapshots: [RoomSnapshot] = []) {
        self.limits = limits
        self.maxRooms = maxRooms
        rooms = Dictionary(snapshots.map { ($0.name, RoomState(restoring: $0, limits: limits)) },
                           uniquingKeysWith: { first, _ in first })
        sessions = [:]
    }

    /// Member ids of `room` in join order: the recipients of its broadcasts.
    public func members(of room: String) -> [ClientID] {
        rooms[room]?.order ?? []
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
