import NeonCore
import NeonServer

/// What a cluster's Redis keeps for the simulation: each room's log of
/// entries, numbered from 1, and the incarnations handed out. An entry is
/// durable once appended (Redis is not what the simulation crashes), and
/// every node reads the same log in the same order.
final class SimulatedClusterLog {
    private(set) var logs: [String: [RoomEntry]] = [:]
    /// The last incarnation handed out.
    private(set) var generation = 0
    /// The rooms each incarnation appended a member's entry to: a dead
    /// one's survivors append `gone` to each (the reap script).
    private(set) var roomsOf: [Int: [String]] = [:]

    /// A node starts: its incarnation.
    func register() -> Int {
        generation += 1
        return generation
    }

    /// Appends `entry` to `room`'s log, numbered.
    func append(_ entry: RoomEntry, room: String) {
        var numbered = entry
        numbered.index = (logs[room]?.count ?? 0) + 1
        logs[room, default: []].append(numbered)
        if entry.event != .gone, roomsOf[entry.origin]?.contains(room) != true {
            roomsOf[entry.origin, default: []].append(room)
        }
    }

    /// Incarnation `origin` died and its liveness key expired: a survivor
    /// appends `gone` to each room it had members in, once.
    func reap(_ origin: Int, at time: Duration) {
        for room in roomsOf[origin] ?? [] {
            append(RoomEntry(event: .gone, client: ClientID(""), origin: origin, time: time), room: room)
        }
        roomsOf[origin] = nil
    }

    /// Whether a dead incarnation still waits to be reaped.
    func awaitsReaping(_ origin: Int) -> Bool {
        roomsOf[origin] != nil
    }
}

/// A cluster node's `ClusterLink` with its writer and reader threads
/// replaced by the scheduler: what the gateway orders waits in `unwritten`
/// until the scheduler lets the writer append it to the shared log; the
/// reader hands the node its rooms (`loaded`, the whole log: the simulation
/// stores no images) and then their new entries (`ordered`), as far as the
/// scheduler lets it read. A crash loses what was not appended.
///
/// `@unchecked Sendable`: `RoomLog` asks for it, but a simulation
/// runs on one thread and never shares it.
final class SimulatedClusterSequencer: RoomLog, @unchecked Sendable {
    let log: SimulatedClusterLog
    /// Nothing measures the simulated log's health.
    let storeHealth: StoreHealth? = nil
    /// Ordered by the gateway, not yet in the log.
    private(set) var unwritten: [(room: String, entry: RoomEntry)] = []
    /// Rooms wanted and not yet loaded, in the order asked.
    private(set) var wanted: [String] = []
    /// Rooms loaded, with the number of the last entry handed over.
    private(set) var read: [String: Int] = [:]

    init(log: SimulatedClusterLog) {
        self.log = log
    }

    func order(_ entry: RoomEntry, room: String, hello: Bool) {
        unwritten.append((room, entry))
        if hello { takeUp(room) }
    }

    func takeUp(_ room: String?) {
        guard let room, read[room] == nil, !wanted.contains(room) else { return }
        wanted.append(room)
    }

    func release(_ room: String) {
        read[room] = nil
        wanted.removeAll { $0 == room }
    }

    /// The simulation expires no rooms (it runs without `--room-ttl`).
    func emptied(_ room: String, index: Int, atMilliseconds: Int64) {}

    /// The simulated log keeps every entry and no images: a room is
    /// always taken up from its whole log.
    func snapshot(_ room: String, index: Int, image: RoomImage) {}

    /// The writer appends the oldest ordered entry.
    func write() {
        let (room, entry) = unwritten.removeFirst()
        log.append(entry, room: room)
    }

    /// Whether the reader has something to hand over.
    var readable: Bool {
        !wanted.isEmpty || read.contains { room, last in (log.logs[room]?.count ?? 0) > last }
    }

    /// The reader hands over what it has: a wanted room's whole log, or up
    /// to `most` new entries of the first room that has some.
    func readNext(most: Int) -> SequencerDelivery? {
        if !wanted.isEmpty {
            let room = wanted.removeFirst()
            let entries = log.logs[room] ?? []
            read[room] = entries.count
            return .event(.loaded(room: room, image: nil, entries: entries))
        }
        for room in read.keys.sorted() {
            let entries = log.logs[room] ?? []
            let last = read[room]!
            guard entries.count > last else { continue }
            let next = Array(entries[last ..< min(entries.count, last + max(most, 1))])
            read[room] = last + next.count
            return .event(.ordered(room: room, next))
        }
        return nil
    }
}
