import NeonCore

/// Progress messages held until their reader stops moving. An eased scroll
/// or tab switch sends a progress message on every frame (`ada 1% §3`,
/// `ada 2% §3`, …); readable `tail` prints one line where the reader
/// settles: the last message of a reader quiet for `quiet`, unless it names
/// the place last printed for them. Pure: time comes with each call.
public struct ProgressSettling: Equatable, Sendable {
    /// How long a reader stays still before their place is printed.
    public static let quiet: Duration = .milliseconds(500)

    /// A reader, in the room of a room envelope (every room) or the one room.
    struct Key: Hashable, Sendable {
        var room: String?
        var id: ClientID
    }

    /// Where a progress message puts a reader.
    struct Place: Equatable, Sendable {
        var percent: Int
        var section: Int
        var atBottom: Bool
        /// The slide and step, while the reader shows slides.
        var slide: SlidePlace?
    }

    struct Held: Equatable, Sendable {
        var message: ServerMessage
        var place: Place
        var since: Duration
    }

    private var held: [Key: Held] = [:]
    /// The order readers started moving in, for the order of their lines.
    private var order: [Key] = []
    private var printed: [Key: Place] = [:]

    public init() {}

    /// Holds `message` when it is a progress message (alone or in a room
    /// envelope), replacing the reader's earlier one; false for any other.
    public mutating func hold(_ message: ServerMessage, at time: Duration) -> Bool {
        guard let (key, info) = Self.progress(in: message) else { return false }
        if held[key] == nil { order.append(key) }
        held[key] = Held(message: message, place: Place(percent: info.percent, section: info.section, atBottom: info.atBottom,
                                                        slide: info.slidePlace),
                         since: time)
        return true
    }

    /// The held messages of readers still for `quiet` at `time`, in the
    /// order they started moving, without those that did not change place.
    public mutating func settled(at time: Duration) -> [ServerMessage] {
        release { time - $0.since >= Self.quiet }
    }

    /// Every held message, settled or not (before another line, or when the
    /// connection goes).
    public mutating func flush() -> [ServerMessage] {
        release { _ in true }
    }

    /// When the first held reader will have been still for `quiet`.
    public var nextSettle: Duration? {
        held.values.map { $0.since + Self.quiet }.min()
    }

    private mutating func release(_ ready: (Held) -> Bool) -> [ServerMessage] {
        var out: [ServerMessage] = []
        for key in order {
            guard let entry = held[key], ready(entry) else { continue }
            held[key] = nil
            if printed[key] != entry.place { out.append(entry.message) }
            printed[key] = entry.place
        }
        order.removeAll { held[$0] == nil }
        return out
    }

    private static func progress(in message: ServerMessage) -> (Key, ProgressInfo)? {
        switch message.payload {
        case let .progress(info):
            return (Key(room: nil, id: info.id), info)
        case let .room(envelope):
            guard case let .progress(info) = envelope.message.payload else { return nil }
            return (Key(room: envelope.room, id: info.id), info)
        default:
            return nil
        }
    }
}
