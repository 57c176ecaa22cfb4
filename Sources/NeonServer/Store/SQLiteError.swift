import CSQLite
import NeonCore

/// What SQLite said when a call failed: its result code and message, with
/// advice for the codes a person can do something about.
package struct SQLiteError: Error, Equatable {
    package let code: Int32
    package let message: String

    /// What to do about it, for the end of a `NeonError` message.
    package var advice: String {
        switch code & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            "move the file aside (keep it to recover from) and start again; neonsyncd creates a new store when there is none"
        case SQLITE_BUSY, SQLITE_LOCKED:
            "another neonsyncd is probably using this data directory: stop it or point --data somewhere else"
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
            "check that --data points to a directory this user can write"
        case SQLITE_FULL:
            "free some disk space where --data points, then restart"
        case SQLITE_IOERR:
            "check the disk and the free space where --data points"
        default:
            "see the server's log and check the data directory"
        }
    }

    /// A `NeonError` for this failure at `context` (what could not be done,
    /// e.g. "cannot open the store at /x"): SQLite's message and the advice.
    package func storeError(_ context: String) -> NeonError {
        NeonError("\(message) — \(advice)").at(context)
    }
}
