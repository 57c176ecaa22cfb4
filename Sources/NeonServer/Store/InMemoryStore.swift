import NeonCore
import NeonLock

/// A store that forgets everything when the process ends: for tests and for
/// running without a data directory. It checks calls like `SQLiteStore` does.
public final class InMemoryStore: RoomStore {
    private struct State {
        var rooms: [StoredRoom] = []
        var index: [String: Int] = [:]
        var isClosed = false
        var starts = 0
    }

    private let state = Locked(State())

    public init() {}

    public func loadRooms() throws(NeonError) -> [StoredRoom] {
        try state.withLock { (state) throws(NeonError) in
            guard !state.isClosed else { throw .closed }
            return state.rooms
        }
    }

    public func loadRoom(_ name: String) throws(NeonError) -> StoredRoom? {
        try loadRooms().first { $0.name == name }
    }

    public func appendRevisions(_ revisions: [DraftRevision]) throws(NeonError) {
        try state.withLock { (state) throws(NeonError) in
            guard !state.isClosed else { throw .closed }
            var copy = state
            for edit in revisions { try Self.append(edit, to: &copy) }
            state = copy
        }
    }

    private static func append(_ edit: DraftRevision, to state: inout State) throws(NeonError) {
        guard let at = state.index[edit.room] else { throw .unknownRoom(edit.room, storing: "a draft revision") }
        let stored = state.rooms[at].draftRevision
        guard edit.revision == stored + 1 else {
            throw .revisionOutOfOrder(edit.revision, room: edit.room, stored: stored)
        }
        state.rooms[at].draftText = edit.text
        state.rooms[at].draftRevision = edit.revision
        state.rooms[at].recentEdits.append(StoredEdit(revision: edit.revision, operationJSON: edit.operationJSON,
                                                      author: edit.author, key: edit.key))
        if state.rooms[at].recentEdits.count > SQLiteStore.keptRevisions {
            state.rooms[at].recentEdits.removeFirst(state.rooms[at].recentEdits.count - SQLiteStore.keptRevisions)
        }
    }

    public func commit(_ records: [PersistRecord]) throws(NeonError) {
        let codec = WireCodec()
        try state.withLock { (state) throws(NeonError) in
            guard !state.isClosed else { throw .closed }
            var copy = state
            for record in records {
                switch record {
                case let .roomCreated(name, profile, limit):
                    guard copy.index[name] == nil else { throw .roomExists(name) }
                    copy.index[name] = copy.rooms.count
                    copy.rooms.append(StoredRoom(name: name, profile: profile, limit: limit))
                case let .documentSet(room, document):
                    guard let at = copy.index[room] else { throw .unknownRoom(room, storing: "the document") }
                    copy.rooms[at].document = document
                case let .roomActive(room, milliseconds):
                    if let at = copy.index[room] { copy.rooms[at].activeMilliseconds = milliseconds }
                case let .roomRemoved(room):
                    copy.rooms.removeAll { $0.name == room }
                    copy.index = Dictionary(uniqueKeysWithValues: copy.rooms.enumerated().map { ($1.name, $0) })
                case let .revisionAcked(room, revision, operation, text, by, key):
                    let json = String(decoding: codec.encode(operation), as: UTF8.self)
                    try Self.append(DraftRevision(room: room, revision: revision, operationJSON: json, text: text,
                                                  author: by.rawValue, key: key), to: &copy)
                case let .presenterPlaced(room, place):
                    if let at = copy.index[room] { copy.rooms[at].presenterPlace = place }
                case let .questionsKept(room, questions):
                    guard let at = copy.index[room] else { throw .unknownRoom(room, storing: "the questions") }
                    copy.rooms[at].questions = questions
                }
            }
            state = copy
        }
    }

    public func countStart() throws(NeonError) -> Int {
        try state.withLock { (state) throws(NeonError) in
            guard !state.isClosed else { throw .closed }
            state.starts += 1
            return state.starts
        }
    }

    public func close() {
        state.withLock { $0.isClosed = true }
    }
}
