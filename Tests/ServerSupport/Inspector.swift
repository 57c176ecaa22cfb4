import Foundation
import NeonServer

/// Reads a closed store's file with a plain connection, as an operator would.
package final class Inspector {
    private let connection: SQLiteConnection

    package init(_ directory: TemporaryDirectory) throws {
        connection = try SQLiteConnection(path: directory.file(SQLiteStore.fileName))
    }

    deinit {
        connection.close()
    }

    /// Every row of `sql`, its first `columns` columns as text ("" for NULL).
    package func rows(_ sql: String, columns: Int32 = 1) throws -> [[String]] {
        try connection.statement(sql).rows { row in (0 ..< columns).map { row.text($0) ?? "" } }
    }

    package func execute(_ sql: String) throws {
        try connection.execute(sql)
    }

}
