/// Why a `DraftDocument` rejected an edit.
public enum DraftError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The edit is based on a revision the draft has not reached.
    case revisionNotYetReached(Int, current: Int)
    /// The edit is based on a revision older than the kept history.
    case revisionTooOld(Int, oldest: Int)
    /// The edit does not fit the draft as it was at its base revision.
    case mismatchedEdit(TextOperationError)

    public var description: String {
        switch self {
        case let .revisionNotYetReached(revision, current):
            return "revision \(revision) does not exist yet (the draft is at \(current))"
        case let .revisionTooOld(revision, oldest):
            return "your edit is based on revision \(revision) which is too old "
                + "(the oldest the server can merge is \(oldest)); resync"
        case let .mismatchedEdit(error):
            return error.description
        }
    }
}
