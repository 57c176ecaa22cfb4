/// Why an `OTClient` could not take in an edit or acknowledgement; each one
/// means the client and the server disagree, and the client must resync.
public enum OTClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server acknowledged an edit while none was in flight.
    case unexpectedAcknowledgement(revision: Int)
    /// An edit does not fit the local text as the client tracks it.
    case mismatchedEdit(TextOperationError)

    public var description: String {
        switch self {
        case .unexpectedAcknowledgement(let revision):
            return "the server acknowledged an edit at revision \(revision) but none was in flight — resync"
        case .mismatchedEdit(let error):
            return error.description
        }
    }
}
