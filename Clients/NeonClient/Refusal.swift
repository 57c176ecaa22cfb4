import NeonCore

/// A server's answer after which trying again cannot help (and `read FILE`
/// in a room that shows another document): the room already has a presenter, the token is missing, wrong or expired, the room or the
/// server is full, or the room or name is not one the server takes. The
/// client ends with `sentence` and exit status 3 instead of reconnecting.
/// (Each run sends a `resume` secret, so after a reconnect the server
/// replaces this client's own earlier connection: a presenter refused then
/// really meets someone else presenting.)
public struct Refusal: Equatable, Sendable {
    /// The exit status of a refused client.
    public static let exitStatus: Int32 = 3

    /// The codes that end the client.
    public static let finalCodes: Set<ErrorCode> = [
        .presenterTaken, .unauthorized, .tokenExpired, .roomFull, .serverFull, .tooManyRooms, .invalidRoom, .invalidName,
    ]

    /// What the user reads once the terminal is back.
    public let sentence: String

    /// The refusal `error` makes for a client of `room`, or nil when the
    /// error leaves the client going.
    public init?(_ error: ProtocolError, room: String?) {
        guard Self.finalCodes.contains(error.code) else { return nil }
        if error.code == .presenterTaken, let room {
            let who = Self.presenter(in: error.message).map { "\($0) is already presenting there" }
                ?? "someone else is already presenting there"
            sentence = "cannot present in room \(room): \(who) (presenter_taken); to follow them instead: neonsync follow \(ShellWord.quoted(room))"
        } else {
            sentence = "the server refused this client: \(error.message) (\(error.code.rawValue))"
        }
    }

    /// The refusal of the document `mine` this client published to `room`:
    /// too large for the server (its text, or the message carrying it) or
    /// unreadable. Nil for other errors.
    init?(_ error: ProtocolError, publishing mine: DocumentInfo, room: String) {
        guard [.documentTooLarge, .messageTooLarge, .invalidDocument].contains(error.code) else { return nil }
        sentence = "cannot publish “\(mine.title)” in room \(room): \(error.message) (\(error.code.rawValue))"
    }

    /// `read FILE` in a room that has another document: the command shows
    /// FILE or nothing, and says how to read the room's document, how to
    /// publish FILE there, and how to read it apart.
    init(otherDocument theirs: DocumentInfo, than mine: DocumentInfo, room: String) {
        let file = ShellWord.quoted(mine.title), quotedRoom = ShellWord.quoted(room)
        sentence = "room \(room) already has another document, “\(theirs.title)”; to read it: neonsync join \(quotedRoom);"
            + " to publish \(mine.title) there instead: neonsync present \(file) --room \(quotedRoom);"
            + " to read \(mine.title) in a room of its own: neonsync read \(file) --room NEWROOM"
    }

    /// The presenter's name in the server's presenter_taken sentence,
    /// `room "R" already has a presenter (NAME); …`.
    static func presenter(in message: String) -> String? {
        guard let start = message.firstRange(of: "already has a presenter (")?.upperBound,
              let end = message.ranges(of: ");").last?.lowerBound, start < end else { return nil }
        return String(message[start..<end])
    }
}

/// A word as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, otherwise in single quotes.
public enum ShellWord {
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.,:/@%+=".unicodeScalars.contains($0))
                && !$0.properties.isWhitespace
        }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
