/// One node: rooms at rest. A room nobody has been in for `--room-release`
/// leaves memory and the store keeps all of it; the next event for it
/// asks for it back, and it and the events after it wait, in arrival
/// order, until the room is read back. Pure: the gateway acts on what
/// each update returns.
package struct RestingRooms: Equatable, Sendable {
    /// An event that arrived for a room being read back.
    package struct Waiting: Equatable, Sendable {
        var entry: RoomEntry
        var hello: Bool
    }

    /// What becomes of an event that arrived for a room.
    enum Arrival: Equatable, Sendable {
        /// The room is in memory: the event is applied now.
        case applies
        /// The room rested: it waits, and the room is asked for.
        case wakes
        /// The room is being read back already: it waits with the others.
        case waits
    }

    /// The rooms released from memory that the store keeps.
    package private(set) var resting: Set<String> = []
    /// Resting rooms being read back, with the events that arrived for
    /// each meanwhile, in arrival order.
    package private(set) var waking: [String: [Waiting]] = [:]

    package init() {}

    /// An event of `room` arrived.
    mutating func arrive(_ entry: RoomEntry, room: String, hello: Bool) -> Arrival {
        if waking[room] != nil {
            waking[room]!.append(Waiting(entry: entry, hello: hello))
            return .waits
        }
        guard resting.contains(room) else { return .applies }
        waking[room] = [Waiting(entry: entry, hello: hello)]
        return .wakes
    }

    /// The rooms among `rooms` that rest and are not on their way yet:
    /// they are now, and the store is to be asked for them.
    mutating func wake(_ rooms: [String]) -> [String] {
        let asked = rooms.filter { resting.contains($0) && waking[$0] == nil }
        for room in asked { waking[room] = [] }
        return asked
    }

    /// `room` came back from the store (or the store had no such room):
    /// whether it rested.
    mutating func back(_ room: String) -> Bool {
        resting.remove(room) != nil
    }

    /// How many events wait for `room`.
    func waiting(for room: String) -> Int {
        waking[room]?.count ?? 0
    }

    /// The events that waited for `room`, in arrival order; none wait after.
    mutating func waited(for room: String) -> [Waiting] {
        waking.removeValue(forKey: room) ?? []
    }

    /// `room` left memory: the store keeps it.
    mutating func rest(_ room: String) {
        resting.insert(room)
    }

    /// The resting rooms not being read back, which may expire.
    var idle: [String] {
        resting.filter { waking[$0] == nil }
    }

    /// `room` expired at rest: whether it rested.
    mutating func expire(_ room: String) -> Bool {
        resting.remove(room) != nil
    }
}
