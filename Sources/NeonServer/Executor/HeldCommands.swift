/// Commands that wait for their room's commits: group commit's other half.
/// A room with a commit in flight holds every later delivery and close of
/// that room (so an `ack`, and everything the room's members see after it,
/// goes out only once the revision is kept); other rooms are not held up.
struct HeldCommands: Equatable, Sendable {
    enum Item: Equatable, Sendable {
        case command(GatewayCommand)
        /// The commands after this wait for commit `ticket`.
        case awaiting(ticket: Int)
    }

    private var rooms: [String: [Item]] = [:]
    /// Every ticket up to this one is committed.
    private(set) var durableThrough = -1

    /// Whether `room`'s commands must queue behind a commit.
    func isHeld(_ room: String?) -> Bool {
        room.map { rooms[$0] != nil } ?? false
    }

    /// `room`'s next commands wait for `ticket`.
    mutating func wait(_ room: String, for ticket: Int) {
        guard ticket > durableThrough else { return }
        rooms[room, default: []].append(.awaiting(ticket: ticket))
    }

    mutating func append(_ command: GatewayCommand, room: String) {
        rooms[room, default: []].append(.command(command))
    }

    /// Tickets up to `ticket` are committed: the commands they held, in
    /// order, room by room.
    mutating func release(through ticket: Int) -> [GatewayCommand] {
        durableThrough = max(durableThrough, ticket)
        var out: [GatewayCommand] = []
        for room in rooms.keys.sorted() {
            var items = rooms[room]!
            var taken = 0
            scan: for item in items {
                switch item {
                case let .command(command): out.append(command)
                case let .awaiting(waited): if waited > durableThrough { break scan }
                }
                taken += 1
            }
            items.removeFirst(taken)
            rooms[room] = items.isEmpty ? nil : items
        }
        return out
    }

    var isEmpty: Bool { rooms.isEmpty }
}
