/// The stable `code` of an `error` message. Codes never change once shipped;
/// the message beside them is for people.
public enum ErrorCode: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
    case invalidJSON = "invalid_json"
    case invalidMessage = "invalid_message"
    case unknownType = "unknown_type"
    case notJoined = "not_joined"
    case alreadyJoined = "already_joined"
    case invalidRoom = "invalid_room"
    case invalidName = "invalid_name"
    case presenterTaken = "presenter_taken"
    case notAllowed = "not_allowed"
    case noDocument = "no_document"
    case documentExists = "document_exists"
    case invalidDocument = "invalid_document"
    case documentTooLarge = "document_too_large"
    case invalidPosition = "invalid_position"
    case invalidAnchor = "invalid_anchor"
    case tabOutOfRange = "tab_out_of_range"
    case editRejected = "edit_rejected"
    case draftTooLarge = "draft_too_large"
    case messageTooLarge = "message_too_large"
    case roomFull = "room_full"
    case serverFull = "server_full"
    case invalidUTF8 = "invalid_utf8"
    // Added after v1's first codes: tokens and limits (docs/PROTOCOL.md).
    /// The server requires a room token and the hello had none, or a bad one.
    case unauthorized = "unauthorized"
    /// The hello's room token is past its expiry.
    case tokenExpired = "token_expired"
    /// More messages per second than the server allows one connection.
    case rateLimited = "rate_limited"
    /// No hello within the server's hello timeout.
    case helloTimeout = "hello_timeout"
    /// More connections from one address than the server allows.
    case tooManyConnections = "too_many_connections"
    /// Cluster mode: the node cannot reach the cluster's Redis, so the
    /// message was not applied (and an edit not acknowledged); send it again.
    case unavailable = "unavailable"
    /// A `document` said its sender numbers blocks another way than the
    /// server (`parser`); it was published, but anchors may disagree.
    case parserMismatch = "parser_mismatch"
    /// The hello would create a room, and its address created more new
    /// rooms in the last minute, or holds more rooms it created, than the
    /// server allows one address.
    case tooManyRooms = "too_many_rooms"
}

/// An `error` answer: a stable code and a sentence a person can act on.
public struct ProtocolError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let code: ErrorCode
    public let message: String
    /// (Added after v1) for `unavailable`: in how many seconds sending again
    /// may succeed (`retryAfter` on the wire; absent for other codes).
    public let retryAfter: Int?

    public init(_ code: ErrorCode, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
