import CSQLite

/// A value bound to a statement parameter.
package enum SQLiteValue {
    case int(Int)
    case text(String)
    case null
}

/// One prepared statement, reused: each run binds, steps and resets it.
/// Not Sendable: it belongs to its `SQLiteConnection`.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: OpaquePointer

    package init(handle: OpaquePointer, database: OpaquePointer) {
        self.handle = handle
        self.database = database
    }

    /// Runs a statement that returns no rows (or whose rows do not matter).
    package func run(_ values: SQLiteValue...) throws(SQLiteError) {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    /// Runs a query and reads each row with `read`.
    package func rows<Row>(_ values: SQLiteValue..., read: (SQLiteStatement) -> Row) throws(SQLiteError) -> [Row] {
        defer { reset() }
        try bind(values)
        var rows: [Row] = []
        while try step() { rows.append(read(self)) }
        return rows
    }

    /// The integer in column `index` of the current row (0 for NULL).
    package func int(_ index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// The text in column `index` of the current row, or nil for NULL.
    package func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        let bytes = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let bytes, count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    package func finalize() {
        sqlite3_finalize(handle)
    }

    private func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .int(let number):
                code = sqlite3_bind_int64(handle, index, Int64(number))
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .text(var string):
                code = string.withUTF8 { utf8 in
                    utf8.withMemoryRebound(to: CChar.self) { chars in
                        guard let start = chars.baseAddress else {
                            return sqlite3_bind_text64(handle, index, "", 0, neon_sqlite_transient(), UInt8(SQLITE_UTF8))
                        }
                        return sqlite3_bind_text64(handle, index, start, UInt64(chars.count),
                                                   neon_sqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                }
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    /// Steps once; true when a row is ready to read.
    private func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw failure(code)
        }
    }

    private func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    private func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database)))
    }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}
