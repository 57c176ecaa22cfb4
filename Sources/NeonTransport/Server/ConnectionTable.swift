import NeonTransportCore

/// The server's open WebSocket connections: each session by its
/// ``ConnectionID`` (how the delegate names it) and by the per-session
/// slot lws hands every callback of its wsi (a retained pointer), the ids
/// given out so far, and the frames coalesced on connections that closed.
/// A server's shard `k` of `T` gives out `k+1, k+1+T, …` (``ShardMap``).
///
/// Service thread only. Holds no lws pointer: a test drives it with plain
/// memory for slots.
struct ConnectionTable {
    private var sessions: ConnectionSlots<Session>
    private var nextID: UInt64
    private let stride: UInt64
    /// Frames coalesced away on connections that have closed.
    private var retiredCoalesced = 0

    /// A table whose first id is `first` and each next one `stride` more.
    init(first: UInt64 = 1, stride: Int = 1) {
        nextID = first
        self.stride = UInt64(stride)
        sessions = ConnectionSlots(first: first, stride: stride)
    }

    /// A new session with the next id, open, stored in `slot` (retained
    /// until ``close(slot:)``) and listed under its id.
    mutating func open(in slot: UnsafeMutableRawPointer, maxMessageSize: Int, maxBacklog: Int) -> Session {
        let id = ConnectionID(rawValue: nextID)
        nextID += stride
        let session = Session(id: id, maxMessageSize: maxMessageSize, maxBacklog: maxBacklog)
        RetainedSlot.store(session, in: slot)
        sessions.insert(session, for: session.id)
        return session
    }

    /// The session lws's per-session slot holds; `nil` for an empty slot
    /// (an HTTP request's slot holds something else).
    func session(in slot: UnsafeMutableRawPointer?) -> Session? {
        RetainedSlot<Session>.load(slot)
    }

    /// Empties `slot` and forgets its session, keeping its coalesced count;
    /// returns it.
    mutating func close(slot: UnsafeMutableRawPointer?) -> Session? {
        guard let session = RetainedSlot<Session>.take(slot) else { return nil }
        retiredCoalesced += session.queue.coalesced
        sessions.remove(session.id)
        return session
    }

    subscript(id: ConnectionID) -> Session? {
        sessions[id]
    }

    /// Calls `body` with each of `ids`' sessions that is open, in their
    /// order: a broadcast's delivery loop. The session is lent, not
    /// retained (see ``ConnectionSlots/forEach(in:_:)``): `body` must not
    /// open or close connections, which only lws's callbacks do.
    func forEach(in ids: [ConnectionID], _ body: (Session) -> Void) {
        sessions.forEach(in: ids, body)
    }

    /// Every open session, in no particular order.
    var all: [Session] {
        sessions.all
    }

    var isEmpty: Bool {
        sessions.isEmpty
    }

    /// Frames dropped since start because a newer frame with the same
    /// coalescing key replaced them, on open and closed connections.
    var coalescedFrames: Int {
        sessions.all.reduce(retiredCoalesced) { $0 + $1.queue.coalesced }
    }

    /// What waits unsent on the open connections, and every frame
    /// coalesced since start.
    var backlog: Backlog {
        var frames = 0, bytes = 0
        for session in sessions.all {
            frames += session.queue.count
            bytes += session.queue.bytes
        }
        return Backlog(queued: QueueDepth(frames: frames, bytes: bytes), coalescedFrames: coalescedFrames)
    }

    /// The context is going away: the table lets go of its sessions (lws
    /// has released the slots' references by now).
    mutating func removeAll() {
        sessions.removeAll()
    }
}
