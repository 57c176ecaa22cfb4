import NeonCore
import Synchronization

/// A store that forgets everything when the process ends: for tests and for
/// running without a data directory. It checks calls like `SQLiteStore` does.
public final class InMemoryStore: RoomStore {
    private struct State {
        var rooms: [StoredRoom] = []
        var index: [String: Int] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())

    public init() {}

    public func loadRooms() throws(StoreError) -> [StoredRoom] {
        try state.withLock { (state) throws(StoreError) in
            guard !state.isClosed else { throw .closed }
            return state.rooms
        }
    }

    public func createRoom(_ name: String, profile: String, limit: Int) throws(StoreError) {
        try state.withLock { (state) throws(StoreError) in
            guard !state.isClosed else { throw .closed }
            guard state.index[name] == nil else { throw .roomExists(name) }
            state.index[name] = state.rooms.count
            state.rooms.append(StoredRoom(name: name, profile: profile, limit: limit))
        }
    }

    public func setDocument(_ document: DocumentInfo, room: String) throws(StoreError) {
        try state.withLock { (state) throws(StoreError) in
            guard !state.isClosed else { throw .closed }
            guard let at = state.index[room] else { throw .unknownRoom(room, storing: "the document") }
            state.rooms[at].document = document
        }
    }

    public func appendRevisions(_ revisions: [DraftRevision]) throws(StoreError) {
        try state.withLock { (state) throws(StoreError) in
            guard !state.isClosed else { throw .closed }
            var rooms = state.rooms
            for edit in revisions {
                guard let at = state.index[edit.room] else { throw .unknownRoom(edit.room, storing: "a draft revision") }
                let stored = rooms[at].draftRevision
                guard edit.revision == stored + 1 else {
                    throw .revisionOutOfOrder(edit.revision, room: edit.room, stored: stored)
                }
                rooms[at].draftText = edit.text
                rooms[at].draftRevision = edit.revision
                rooms[at].recentEdits.append(StoredEdit(revision: edit.revision, operationJSON: edit.operationJSON,
                                                        author: edit.author, key: edit.key))
                if rooms[at].recentEdits.count > SQLiteStore.keptRevisions {
                    rooms[at].recentEdits.removeFirst(rooms[at].recentEdits.count - SQLiteStore.keptRevisions)
                }
            }
            state.rooms = rooms
        }
    }

    public func close() {
        state.withLock { $0.isClosed = true }
    }
}
