import CSQLite

/// One open SQLite database: runs scripts, keeps each statement prepared
/// once and reused, and wraps transactions. Not Sendable: `SQLiteStore`
/// keeps it behind its mutex.
package final class SQLiteConnection {
    private let database: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (creating if missing) the database file at `path`.
    package init(path: String) throws(SQLiteError) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code, message: message)
        }
        database = opened
        sqlite3_extended_result_codes(database, 1)
    }

    /// Runs `sql`, one or more statements whose rows do not matter.
    package func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(database, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// The prepared statement for `sql`, prepared on first use.
    package func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else { throw failure(code) }
        let statement = SQLiteStatement(handle: handle, database: database)
        statements[sql] = statement
        return statement
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int {
        Int(sqlite3_changes64(database))
    }

    /// How long a call waits for another process's lock before failing busy.
    package func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(database, milliseconds)
    }

    /// Runs `body` in a write transaction: committed when it returns
    /// (unless it called `rollback`), rolled back when it throws or when
    /// the commit fails.
    package func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try statement("BEGIN IMMEDIATE").run()
        do throws(SQLiteError) {
            let result = try body()
            if isInTransaction { try statement("COMMIT").run() }
            return result
        } catch {
            if isInTransaction { try? rollback() }
            throw error
        }
    }

    /// Undoes the open transaction's changes and ends it.
    package func rollback() throws(SQLiteError) {
        try statement("ROLLBACK").run()
    }

    private var isInTransaction: Bool {
        sqlite3_get_autocommit(database) == 0
    }

    /// Finalizes every statement and closes the database, checkpointing
    /// the write-ahead log into the file.
    package func close() {
        for statement in statements.values { statement.finalize() }
        statements = [:]
        sqlite3_close_v2(database)
    }

    private func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database)))
    }
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}
