import NeonCore
import NeonTUI

/// `neonsync monitor [ROOM]`: a live dashboard as an observer. It shows the
/// members with their progress, tab and follow state, the draft's count and
/// level as a small ring, and a feed of events. Given a room it joins it as
/// an observer; without one it watches every room (hello with room `"*"`),
/// lists the rooms and shows the members of the one selected. It never sends
/// a scroll, tab or edit; `neonsync replay` drives the same model from a
/// server log.
public struct MonitorModel: Sendable {
    /// The room watched, or nil for every room.
    public let room: String?
    public let name: String
    /// The right side of the status row: `live` or what the replay says.
    public var source: String
    public internal(set) var columns: Int
    public internal(set) var rows: Int
    public internal(set) var connection: ConnectionState = .connecting
    public internal(set) var me: ClientID?
    /// The rooms watched, by name (one when a room was given).
    public internal(set) var rooms: [WatchedRoom]
    /// Index in `rooms` of the room whose members show.
    public internal(set) var selected = 0
    public internal(set) var feed: MonitorFeed
    /// The key list `?` opens.
    public internal(set) var keyList = KeyList()

    public init(room: String?, name: String, columns: Int, rows: Int, feedCapacity: Int = 500, source: String = "live") {
        self.room = room
        self.name = name
        self.source = source
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        rooms = room.map { [WatchedRoom(name: $0)] } ?? []
        feed = MonitorFeed(capacity: feedCapacity)
    }

    /// The room whose members show.
    public var selectedRoom: WatchedRoom? {
        rooms.indices.contains(selected) ? rooms[selected] : nil
    }

    /// The selected room's members, the monitor itself left out.
    public var readers: [ReaderInfo] { selectedRoom?.readers ?? [] }
    public var draft: DraftStatus { selectedRoom?.draft ?? DraftCounter.standard.status(forCount: 0) }
    public var deciles: [ClientID: Int] { selectedRoom?.deciles ?? [:] }
    public var documentTitle: String? { selectedRoom?.documentTitle }

    /// Names a section of `room` (a replayed log carries titles on its tab
    /// events).
    public mutating func nameSection(_ index: Int, _ title: String, room name: String) {
        rooms[roomIndex(name)].nameSection(index, title)
    }

    /// Marks the model as watching without a connection (a replay).
    public mutating func watchWithoutConnection() {
        connection = .joined
    }

    /// Adds a line of its own to the feed (a replay's start and end).
    public mutating func note(_ text: String, at time: Duration) {
        feed.append(text, kind: .info, at: time)
    }

    /// Selects the room `step` places on (wrapping).
    mutating func selectRoom(by step: Int) {
        guard !rooms.isEmpty else { return }
        selected = ((selected + step) % rooms.count + rooms.count) % rooms.count
    }
}

extension MonitorModel {
    public mutating func connected(at time: Duration) -> [ClientCommand] {
        connection = .connecting
        return [.send(.hello(room: room ?? Hub.everyRoom, name: name, role: .observer))]
    }

    public mutating func disconnected(_ reason: String, at time: Duration) -> [ClientCommand] {
        if connection == .joined { feed.append("disconnected: \(reason)", kind: .error, at: time) }
        connection = .closed(reason)
        return []
    }

    public mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand] {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        return []
    }

    /// Long names swing, so the screen moves while one is cut; otherwise it
    /// changes only on events.
    public func nextWake(after time: Duration) -> Duration? {
        let swings = readers.contains { DisplayWidth.of($0.name) > Self.nameField }
        return swings || connection == .connecting ? time + .milliseconds(100) : nil
    }
}
