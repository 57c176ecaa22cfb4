import CSQLite
import Foundation
import NeonCore
import NeonLock

/// The embedded store: one SQLite file, `neonsync.sqlite3`, in the data
/// directory, holding rooms, their documents, each room's draft (its
/// current text and revision, and the last `keptRevisions` edits),
/// where its presenter last was and the questions asked on its document.
///
/// Durability: the file is in WAL mode with `synchronous=NORMAL`, and each
/// call is one transaction, committed before it returns. A committed
/// transaction is in the write-ahead log (handed to the kernel, not yet
/// fsynced), so whatever a call acknowledged survives the process dying in
/// any way: `kill -9`, a crash, an OOM kill. That is the promise. A power
/// loss or kernel panic may roll back the last commits but never corrupts
/// the file; `FULL` would cover it with an fsync per commit, several times
/// slower (docs/PERFORMANCE.md, "The store"), and slower still on disks with
/// honest flushes.
///
/// The file is locked exclusively while open, so a second server on the
/// same directory fails to start instead of writing alongside. Calls are
/// serialized by a mutex.
public final class SQLiteStore: RoomStore {
    /// The file's name inside the data directory.
    public static let fileName = "neonsync.sqlite3"
    /// How many of each room's latest edits stay in `revisions` at least;
    /// older rows are trimmed every `trimInterval` revisions (a restart
    /// needs only the rooms row; the rows are the recent edit history).
    public static let keptRevisions = 1000
    /// Trimming in steps keeps the oldest rows' page out of most commits.
    static let trimInterval = 100
    /// How long opening waits for another process to release the file.
    static let busyTimeoutMilliseconds: Int32 = 1000

    /// The database file.
    public let path: String
    private let connection: Locked<SQLiteConnection?>

    /// Opens the store in `directory`, creating the directory (mode 700) and
    /// the file (mode 600, as are its `-wal` and `-shm`) when missing and
    /// bringing an older schema up to date. ``checkPrivate(directory:)``
    /// refuses existing ones others may read; the daemon calls it first.
    public init(directory: String) throws(NeonError) {
        try Self.createDirectory(directory)
        let path = directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
        try Self.createPrivateFile(path)
        let opened: SQLiteConnection
        do throws(SQLiteError) {
            opened = try SQLiteConnection(path: path)
        } catch {
            throw error.storeError("cannot open the store at \(path)")
        }
        do throws(NeonError) {
            try Self.configure(opened, path: path)
            try Self.migrate(opened, path: path)
            Self.restrictCompanionFiles(of: path)
        } catch {
            opened.close()
            throw error
        }
        self.path = path
        connection = Locked(opened)
    }

    deinit {
        close()
    }

    public func loadRooms() throws(NeonError) -> [StoredRoom] {
        try rooms(named: nil)
    }

    public func loadRoom(_ name: String) throws(NeonError) -> StoredRoom? {
        try rooms(named: name).first
    }

    /// A document's images as the `images` column keeps them, and its
    /// pictures not shown as the `unshown` column does: JSON, or NULL when
    /// there are none.
    static func jsonColumn<T: Encodable>(_ values: [T]) -> SQLiteValue {
        guard !values.isEmpty, let json = try? JSONEncoder().encode(values) else { return .null }
        return .text(String(decoding: json, as: UTF8.self))
    }

    /// A JSON column read back: empty for NULL, nil when it is not the JSON
    /// neonsyncd writes.
    private static func decodedColumn<T: Decodable>(_ json: String?, as type: [T].Type) -> [T]? {
        guard let json else { return [] }
        return try? JSONDecoder().decode(type, from: Data(json.utf8))
    }

    /// A presenter's place as the `presenter_place` column keeps it: JSON,
    /// or NULL when the room keeps none.
    static func presenterPlaceColumn(_ place: PresenterPlace?) -> SQLiteValue {
        guard let place, let json = try? JSONEncoder().encode(place) else { return .null }
        return .text(String(decoding: json, as: UTF8.self))
    }

    /// The place the column holds. One that does not read back is left
    /// out: a presenter who comes back then starts at the beginning, which
    /// is no reason to refuse the room.
    static func presenterPlace(_ column: String?) -> PresenterPlace? {
        column.flatMap { try? JSONDecoder().decode(PresenterPlace.self, from: Data($0.utf8)) }
    }

    /// Every room, or the one named `name`.
    private func rooms(named name: String?) throws(NeonError) -> [StoredRoom] {
        let context = name.map { "cannot read room '\($0)' from \(path)" } ?? "cannot read the rooms from \(path)"
        return try withConnection(context) { (connection) throws(SQLiteError) in
            let statement = try connection.statement("""
                SELECT r.name, r.profile, r.draft_limit, r.draft_text, r.draft_revision, d.title, d.format, d.text,
                       coalesce(r.active_ms, r.created_ms), d.images, d.version, d.unshown, r.presenter_place,
                       r.questions
                FROM rooms r LEFT JOIN documents d ON d.room = r.name
                """ + (name == nil ? " ORDER BY r.id" : " WHERE r.name = ?"))
            let read = { (row: SQLiteStatement) in
                (room: StoredRoom(name: row.text(0) ?? "", profile: row.text(1) ?? "", limit: row.int(2),
                                  draftText: row.text(3) ?? "", draftRevision: row.int(4),
                                  activeMilliseconds: Int64(row.int(8)), presenterPlace: Self.presenterPlace(row.text(12))),
                 title: row.text(5), format: row.text(6), text: row.text(7), images: row.text(9),
                 version: row.text(10).flatMap { Int($0) }, unshown: row.text(11), questions: row.text(13))
            }
            if let name { return try statement.rows(.text(name), read: read) }
            return try statement.rows(read: read)
        }.map { (stored) throws(NeonError) -> StoredRoom in
            var room = stored.room
            room.recentEdits = try recentEdits(of: room.name)
            guard let questions = Self.decodedColumn(stored.questions, as: [QuestionInfo].self) else {
                throw NeonError("cannot read room '\(room.name)' from \(path): its questions are not readable JSON — the store was changed by something other than neonsyncd")
            }
            room.questions = questions
            if let title = stored.title, let formatName = stored.format, let text = stored.text {
                guard let format = DocumentFormat(rawValue: formatName) else {
                    throw NeonError("cannot read room '\(room.name)' from \(path): its document's format '\(formatName)' is unknown — run the neonsyncd that wrote this store, or a newer one")
                }
                guard let images = Self.decodedColumn(stored.images, as: [DocumentImage].self),
                      let unshown = Self.decodedColumn(stored.unshown, as: [UnshownImage].self) else {
                    throw NeonError("cannot read room '\(room.name)' from \(path): its document's images are not readable JSON — the store was changed by something other than neonsyncd")
                }
                room.document = DocumentInfo(title: title, format: format, text: text, images: images, unshown: unshown,
                                             version: stored.version)
            }
            return room
        }
    }

    /// The room's kept edits, oldest first.
    private func recentEdits(of room: String) throws(NeonError) -> [StoredEdit] {
        try withConnection("cannot read the draft edits of room '\(room)' from \(path)") { (connection) throws(SQLiteError) in
            try connection.statement("SELECT revision, operation, author, edit_key FROM revisions WHERE room = ? ORDER BY revision")
                .rows(.text(room)) { row in
                    StoredEdit(revision: row.int(0), operationJSON: row.text(1) ?? "[]", author: row.text(2), key: row.text(3))
                }
        }
    }

    public func countStart() throws(NeonError) -> Int {
        try withConnection("cannot count this start of the server in \(path)") { (connection) throws(SQLiteError) in
            try connection.statement("INSERT INTO starts (number, started_ms) VALUES ((SELECT coalesce(max(number), 0) + 1 FROM starts), ?)")
                .run(.int(WallClock.milliseconds()))
            return try connection.statement("SELECT max(number) FROM starts").rows { $0.int(0) }.first ?? 1
        }
    }

    public func commit(_ records: [PersistRecord]) throws(NeonError) {
        let records = Self.latestPlaces(records)
        guard let first = records.first else { return }
        let context = records.count == 1 ? Self.describe(first, in: path)
            : "cannot store \(records.count) changes (the first: \(Self.describe(first, in: path).dropFirst("cannot ".count))) in \(path)"
        let codec = WireCodec()
        let outcome = try withConnection(context) { (connection) throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) -> AppendOutcome in
                for record in records {
                    let outcome = try Self.store(record, codec: codec, to: connection)
                    guard outcome == .appended else {
                        try connection.rollback()
                        return outcome
                    }
                }
                return .appended
            }
        }
        try outcome.check()
    }

    /// The batch without the presenter places a later one of the same room
    /// replaces: a place is state, and only the latest is worth a write.
    static func latestPlaces(_ records: [PersistRecord]) -> [PersistRecord] {
        var placed: Set<String> = []
        return records.reversed().filter { record in
            guard case let .presenterPlaced(room, _) = record else { return true }
            return placed.insert(room).inserted
        }.reversed()
    }

    /// Stores one record inside the caller's transaction.
    private static func store(_ record: PersistRecord, codec: WireCodec,
                              to connection: SQLiteConnection) throws(SQLiteError) -> AppendOutcome {
        switch record {
        case let .roomCreated(name, profile, limit):
            do throws(SQLiteError) {
                try connection.statement("INSERT INTO rooms (name, profile, draft_limit, created_ms) VALUES (?, ?, ?, ?)")
                    .run(.text(name), .text(profile), .int(limit), .int(WallClock.milliseconds()))
                return .appended
            } catch where error.code == neon_sqlite_constraint_unique() {
                return .roomExists(name)
            }
        case let .documentSet(room, document):
            try connection.statement("""
                INSERT INTO documents (room, title, format, text, updated_ms, images, version, unshown)
                SELECT name, ?2, ?3, ?4, ?5, ?6, ?7, ?8 FROM rooms WHERE name = ?1
                ON CONFLICT (room) DO UPDATE SET title = excluded.title, format = excluded.format,
                    text = excluded.text, updated_ms = excluded.updated_ms, images = excluded.images,
                    version = excluded.version, unshown = excluded.unshown
                """).run(.text(room), .text(document.title), .text(document.format.rawValue),
                         .text(document.text), .int(WallClock.milliseconds()), Self.jsonColumn(document.images),
                         document.version.map { .int($0) } ?? .null, Self.jsonColumn(document.unshown))
            return connection.changes == 1 ? .appended : .noSuchRoom(room, storing: "the document")
        case let .roomActive(room, milliseconds):
            try connection.statement("UPDATE rooms SET active_ms = ? WHERE name = ?").run(.int(Int(milliseconds)), .text(room))
            return .appended
        case let .roomRemoved(room):
            try connection.statement("DELETE FROM revisions WHERE room = ?").run(.text(room))
            try connection.statement("DELETE FROM documents WHERE room = ?").run(.text(room))
            try connection.statement("DELETE FROM rooms WHERE name = ?").run(.text(room))
            return .appended
        case let .revisionAcked(room, revision, operation, text, by, key):
            let json = String(decoding: codec.encode(operation), as: UTF8.self)
            return try append(DraftRevision(room: room, revision: revision, operationJSON: json, text: text,
                                            author: by.rawValue, key: key), to: connection)
        case let .presenterPlaced(room, place):
            try connection.statement("UPDATE rooms SET presenter_place = ? WHERE name = ?")
                .run(presenterPlaceColumn(place), .text(room))
            return .appended
        case let .questionsKept(room, questions):
            try connection.statement("UPDATE rooms SET questions = ? WHERE name = ?")
                .run(jsonColumn(questions), .text(room))
            return connection.changes == 1 ? .appended : .noSuchRoom(room, storing: "the questions")
        }
    }

    /// The start of the error message for storing `record`.
    private static func describe(_ record: PersistRecord, in path: String) -> String {
        switch record {
        case let .roomCreated(room, _, _): "cannot create room '\(room)' in \(path)"
        case let .documentSet(room, _): "cannot store the document of room '\(room)' in \(path)"
        case let .roomActive(room, _): "cannot store when room '\(room)' was last active in \(path)"
        case let .roomRemoved(room): "cannot remove room '\(room)' from \(path)"
        case let .revisionAcked(room, revision, _, _, _, _):
            "cannot store revision \(revision) of the draft of room '\(room)' in \(path)"
        case let .presenterPlaced(room, _): "cannot store where the presenter of room '\(room)' is in \(path)"
        case let .questionsKept(room, _): "cannot store the questions of room '\(room)' in \(path)"
        }
    }

    public func appendRevisions(_ revisions: [DraftRevision]) throws(NeonError) {
        guard let first = revisions.first else { return }
        let context = revisions.count == 1
            ? "cannot store revision \(first.revision) of the draft of room '\(first.room)' in \(path)"
            : "cannot store \(revisions.count) draft revisions (the first: \(first.revision) of room '\(first.room)') in \(path)"
        let outcome = try withConnection(context) { (connection) throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) -> AppendOutcome in
                for edit in revisions {
                    let outcome = try Self.append(edit, to: connection)
                    guard outcome == .appended else {
                        try connection.rollback()
                        return outcome
                    }
                }
                return .appended
            }
        }
        try outcome.check()
    }

    /// Stores one revision inside the caller's transaction: the room's text
    /// and revision, the revision row, and every `trimInterval` revisions
    /// the trim of rows older than the last `keptRevisions`.
    private static func append(_ edit: DraftRevision, to connection: SQLiteConnection) throws(SQLiteError) -> AppendOutcome {
        try connection.statement("""
            UPDATE rooms SET draft_text = ?1, draft_revision = ?2 WHERE name = ?3 AND draft_revision = ?2 - 1
            """).run(.text(edit.text), .int(edit.revision), .text(edit.room))
        guard connection.changes == 1 else {
            let stored = try connection.statement("SELECT draft_revision FROM rooms WHERE name = ?")
                .rows(.text(edit.room)) { $0.int(0) }.first
            return stored.map { .outOfOrder(edit, stored: $0) } ?? .noSuchRoom(edit.room, storing: "a draft revision")
        }
        try connection.statement("INSERT INTO revisions (room, revision, operation, created_ms, author, edit_key) VALUES (?, ?, ?, ?, ?, ?)")
            .run(.text(edit.room), .int(edit.revision), .text(edit.operationJSON), .int(WallClock.milliseconds()),
                 edit.author.map { .text($0) } ?? .null, edit.key.map { .text($0) } ?? .null)
        if edit.revision > keptRevisions && edit.revision.isMultiple(of: trimInterval) {
            try connection.statement("DELETE FROM revisions WHERE room = ? AND revision <= ?")
                .run(.text(edit.room), .int(edit.revision - keptRevisions))
        }
        return .appended
    }

    public func close() {
        connection.withLock { connection in
            connection?.close()
            connection = nil
        }
    }

    /// Runs `body` with the open connection; SQLite's failures become
    /// `NeonError`s starting with `context`.
    private func withConnection<Result: Sendable>(
        _ context: @autoclosure () -> String,
        _ body: (SQLiteConnection) throws(SQLiteError) -> Result
    ) throws(NeonError) -> Result {
        try connection.withLock { (connection) throws(NeonError) -> Result in
            guard let connection else { throw .closed }
            do throws(SQLiteError) {
                return try body(connection)
            } catch {
                throw error.storeError(context())
            }
        }
    }

    /// Locks the file for this process (from its first read on), turns on
    /// write-ahead logging and sets the sync level (see the type's comment).
    private static func configure(_ connection: SQLiteConnection, path: String) throws(NeonError) {
        connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        let mode: String?
        do throws(SQLiteError) {
            try connection.execute("PRAGMA locking_mode = EXCLUSIVE")
            mode = try connection.statement("PRAGMA journal_mode = WAL").rows { $0.text(0) }.first ?? nil
            try connection.execute("PRAGMA synchronous = NORMAL")
        } catch {
            throw error.storeError("cannot open the store at \(path)")
        }
        guard mode == "wal" else {
            throw NeonError("cannot open the store at \(path): SQLite keeps it in journal mode '\(mode ?? "unknown")' instead of WAL — point --data at a local file system")
        }
    }

    /// What storing a record found: done, or why not.
    private enum AppendOutcome: Equatable, Sendable {
        case appended
        case roomExists(String)
        case noSuchRoom(String, storing: String)
        case outOfOrder(DraftRevision, stored: Int)

        func check() throws(NeonError) {
            switch self {
            case .appended: return
            case let .roomExists(room): throw .roomExists(room)
            case let .noSuchRoom(room, storing): throw .unknownRoom(room, storing: storing)
            case let .outOfOrder(edit, stored): throw .revisionOutOfOrder(edit.revision, room: edit.room, stored: stored)
            }
        }
    }
}
