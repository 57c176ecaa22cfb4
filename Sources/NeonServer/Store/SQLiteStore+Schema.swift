import NeonCore

extension SQLiteStore {
    /// The schema, one script per version: `migrations[n]` takes a store
    /// from version n to n + 1. Append new steps; never edit a shipped one.
    static let migrations: [String] = [
        """
        CREATE TABLE rooms (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            profile TEXT NOT NULL,
            draft_limit INTEGER NOT NULL,
            draft_text TEXT NOT NULL DEFAULT '',
            draft_revision INTEGER NOT NULL DEFAULT 0,
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE documents (
            room TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            format TEXT NOT NULL,
            text TEXT NOT NULL,
            updated_ms INTEGER NOT NULL
        );
        CREATE TABLE revisions (
            room TEXT NOT NULL,
            revision INTEGER NOT NULL,
            operation TEXT NOT NULL,
            created_ms INTEGER NOT NULL,
            PRIMARY KEY (room, revision)
        ) WITHOUT ROWID;
        """,
        """
        ALTER TABLE revisions ADD COLUMN author TEXT;
        ALTER TABLE revisions ADD COLUMN edit_key TEXT;
        """,
        """
        CREATE TABLE starts (
            number INTEGER PRIMARY KEY,
            started_ms INTEGER NOT NULL
        );
        ALTER TABLE rooms ADD COLUMN active_ms INTEGER;
        """,
        """
        ALTER TABLE documents ADD COLUMN images TEXT;
        """,
        """
        ALTER TABLE documents ADD COLUMN version INTEGER;
        """,
        """
        ALTER TABLE documents ADD COLUMN unshown TEXT;
        """,
        """
        ALTER TABLE rooms ADD COLUMN presenter_place TEXT;
        """,
        """
        ALTER TABLE rooms ADD COLUMN questions TEXT;
        """,
    ]

    /// Brings the schema up to the newest version, all steps in one
    /// transaction, recording each applied version in `schema_version`.
    static func migrate(_ connection: SQLiteConnection, path: String) throws(NeonError) {
        let newer: Int?
        do throws(SQLiteError) {
            newer = try connection.transaction { () throws(SQLiteError) -> Int? in
                try connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)")
                let version = try connection.statement("SELECT max(version) FROM schema_version").rows { $0.int(0) }.first ?? 0
                guard version <= migrations.count else { return version }
                for step in version ..< migrations.count {
                    try connection.execute(migrations[step])
                    try connection.statement("INSERT INTO schema_version (version, applied_ms) VALUES (?, ?)")
                        .run(.int(step + 1), .int(WallClock.milliseconds()))
                }
                return nil
            }
        } catch {
            throw error.storeError("cannot open the store at \(path)")
        }
        if let newer {
            throw NeonError("cannot open the store at \(path): its schema version is \(newer), newer than this neonsyncd knows (\(migrations.count)) — run a newer neonsyncd, or point --data at another directory")
        }
    }
}
