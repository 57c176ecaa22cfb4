import NeonCore

/// The store's refusals, each naming the room or revision and what to do.
extension NeonError {
    static func roomExists(_ room: String) -> NeonError {
        NeonError("cannot create room '\(room)': the store already has a room of that name — restore it instead of creating it again")
    }

    static func unknownRoom(_ room: String, storing what: String) -> NeonError {
        NeonError("cannot store \(what) of room '\(room)': the store has no such room — create the room first")
    }

    static func revisionOutOfOrder(_ revision: Int, room: String, stored: Int) -> NeonError {
        NeonError("cannot store revision \(revision) of the draft of room '\(room)': the store is at revision \(stored) and takes only \(stored + 1) next — an acknowledged edit is missing or repeated")
    }

    static let closed = NeonError("the store is closed — it cannot be used after close()")
}
