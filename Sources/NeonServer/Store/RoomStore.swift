import NeonCore

/// Where rooms live between runs of the server: their documents, counting
/// profiles and every acknowledged draft revision.
///
/// The server calls it from its committer thread (`LocalSequencer`), never
/// from the service thread; implementations serialize calls. Every failure
/// is a `NeonError` whose message says what to do.
public protocol RoomStore: Sendable {
    /// Every room, in the order they were created, for restoring on start.
    func loadRooms() throws(NeonError) -> [StoredRoom]
    /// One room as `loadRooms` gives it, or nil when there is none of
    /// that name (a room released from memory, read back on its next join).
    func loadRoom(_ name: String) throws(NeonError) -> StoredRoom?
    /// Acknowledged draft revisions, in order, each one past the room's
    /// previous one: all stored in one transaction, durable when this
    /// returns, so their acks may be sent. On error none is stored.
    func appendRevisions(_ revisions: [DraftRevision]) throws(NeonError)
    /// Every record, in order, in one transaction: all kept when this
    /// returns, none on error (a batch of the server's group commit).
    func commit(_ records: [PersistRecord]) throws(NeonError)
    /// Counts a start of the server and returns its number, 1 for the first:
    /// no two starts on one store get the same (client ids carry it).
    func countStart() throws(NeonError) -> Int
    /// Releases the store; later calls fail with an error saying it is closed.
    func close()
}

