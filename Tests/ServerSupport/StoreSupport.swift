import Foundation
import NeonCore
import NeonServer
import Testing

/// The two stores, so every behaviour of the protocol is checked on both.
package enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, memory

    package var testDescription: String { rawValue }

    package func open(in directory: TemporaryDirectory) throws -> any RoomStore {
        switch self {
        case .sqlite: try SQLiteStore(directory: directory.path)
        case .memory: InMemoryStore()
        }
    }
}

/// A fresh directory under the system's temporary one, removed on deinit.
package final class TemporaryDirectory {
    package let path: String

    package init() throws {
        path = NSTemporaryDirectory() + "neonsync-store-" + UUID().uuidString
        // Mode 700: neonsyncd refuses a data directory others may enter.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    package func file(_ name: String) -> String { path + "/" + name }
}

/// The wire JSON of an edit, as the server would store it.
package func operationJSON(_ operation: TextOperation) -> String {
    String(decoding: WireCodec().encode(operation), as: UTF8.self)
}

extension StoredRoom {
    /// The room without its kept edits and its activity time, for comparing
    /// rooms' state; both have tests of their own (SQLite keeps the activity
    /// from creation on, memory only once someone joined or left).
    package var withoutEdits: StoredRoom {
        var room = self
        room.recentEdits = []
        room.activeMilliseconds = nil
        return room
    }
}

extension RoomStore {
    /// One acknowledged draft revision: the edit as applied (its ot.js wire
    /// JSON) and the draft's text after it; see `appendRevisions`.
    package func appendRevision(room: String, revision: Int, operationJSON: String, text: String) throws(NeonError) {
        try appendRevisions([DraftRevision(room: room, revision: revision, operationJSON: operationJSON, text: text)])
    }
}
