import NeonTransportCore

/// The server's open WebSocket connections: each session by its
/// ``ConnectionID`` (how the delegate names it) and by the per-session
/// slot lws hands every callback of its wsi (a retained pointer), the ids
/// given out so far, and the frames coalesced on connections that closed.
///
/// Service thread only. Holds no lws pointer: a test drives it with plain
/// memory for slots.
struct ConnectionTable {
    private var sessions: [ConnectionID: Session] = [:]
    private var lastID: UInt64 = 0
    /// Frames coalesced away on connections that have closed.
    private var retiredCoalesced = 0

    /// A new session with the next id, open, stored in `slot` (retained
    /// until ``close(slot:)``) and listed under its id.
    mutating func open(in slot: UnsafeMutableRawPointer, maxMessageSize: Int, maxBacklog: Int) -> Session {
        lastID += 1
        let session = Session(id: ConnectionID(rawValue: lastID), maxMessageSize: maxMessageSize, maxBacklog: maxBacklog)
        RetainedSlot.store(session, in: slot)
        sessions[session.id] = session
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
        sessions[session.id] = nil
        return session
    }

    subscript(id: ConnectionID) -> Session? {
        sessions[id]
    }

    /// Every open session, in no particular order.
    var all: Dictionary<ConnectionID, Session>.Values {
        sessions.values
    }

    var isEmpty: Bool {
        sessions.isEmpty
    }

    /// Frames dropped since start because a newer frame with the same
    /// coalescing key replaced them, on open and closed connections.
    var coalescedFrames: Int {
        sessions.values.reduce(retiredCoalesced) { $0 + $1.queue.coalesced }
    }

    /// The context is going away: the table lets go of its sessions (lws
    /// has released the slots' references by now).
    mutating func removeAll() {
        sessions.removeAll()
    }
}
