import NeonCore
import NeonTransportCore

/// The connections a big room's broadcast goes to, kept from one broadcast
/// to the next while nothing changed, so that a scroll to 1,000 followers
/// does not look up 1,000 client ids in `Gateway.clients` (a String hash
/// each) on the gateway thread, the one thread every room's order goes
/// through (docs/PERFORMANCE.md, "What a node carries").
///
/// An entry is used only while the room's member order is the same array
/// the entry was made from (`==` on arrays that share storage is a pointer
/// comparison; any join or leave gives the hub's room a new one) and
/// `clients` has not changed since (the gateway calls `forget()` on every
/// connect and disconnect: a member whose connection closed stays in the
/// order until its `left` is ordered, and must not be sent to meanwhile).
/// Rooms under `threshold` members are not kept: their lookups cost less
/// than the entry would.
struct RecipientCache {
    /// Members a room needs before its list is kept.
    static let threshold = 32

    private struct Entry {
        var members: [ClientID]
        var connections: [ConnectionID]
    }

    private var entries: [String: Entry] = [:]

    /// Rooms whose list is kept now.
    var count: Int { entries.count }

    /// The connections of `members` that are open on this server (in the
    /// members' order), without `except`'s.
    mutating func connections(of room: String, members: [ClientID], except: ConnectionID?,
                              clients: [ClientID: ConnectionID]) -> [ConnectionID] {
        let kept = members.count >= Self.threshold
        var all: [ConnectionID]
        if kept, let entry = entries[room], entry.members == members {
            all = entry.connections
        } else {
            all = []
            all.reserveCapacity(members.count)
            for member in members {
                if let connection = clients[member] { all.append(connection) }
            }
            if kept { entries[room] = Entry(members: members, connections: all) }
        }
        if let except, let position = all.firstIndex(of: except) { all.remove(at: position) }
        return all
    }

    /// Drops every kept list: `clients` changed.
    mutating func forget() {
        if !entries.isEmpty { entries.removeAll() }
    }
}
