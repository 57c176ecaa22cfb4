/// A store operation failed; `message` names the file, room or revision and
/// says what to do.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension StoreError {
    static func roomExists(_ room: String) -> StoreError {
        StoreError("cannot create room '\(room)': the store already has a room of that name — restore it instead of creating it again")
    }

    static func unknownRoom(_ room: String, storing what: String) -> StoreError {
        StoreError("cannot store \(what) of room '\(room)': the store has no such room — create the room first")
    }

    static func revisionOutOfOrder(_ revision: Int, room: String, stored: Int) -> StoreError {
        StoreError("cannot store revision \(revision) of the draft of room '\(room)': the store is at revision \(stored) and takes only \(stored + 1) next — an acknowledged edit is missing or repeated")
    }

    static let closed = StoreError("the store is closed — it cannot be used after close()")
}
