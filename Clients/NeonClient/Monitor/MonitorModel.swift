import NeonCore
import NeonTUI

/// `neonsync monitor ROOM`: a live dashboard of a room, joined as an
/// observer. It shows the members with their progress, tab and follow state,
/// the draft's count and level as a small ring, and a feed of the room's
/// events. It never sends a scroll, tab or edit; `neonsync replay` drives the
/// same model from a server log.
public struct MonitorModel: Sendable {
    public let room: String
    public let name: String
    /// The right side of the title row: `live` or what the replay says.
    public var source: String
    public internal(set) var columns: Int
    public internal(set) var rows: Int
    public internal(set) var connection: ConnectionState = .connecting
    public internal(set) var me: ClientID?
    /// Members in join order, the monitor itself left out.
    public internal(set) var readers: [ReaderInfo] = []
    /// Section titles by index, from the document or the log's tab events.
    public internal(set) var sectionTitles: [Int: String] = [:]
    public internal(set) var documentTitle: String?
    public internal(set) var draft: DraftStatus
    public internal(set) var draftRevision = 0
    public internal(set) var feed: MonitorFeed
    /// Each reader's last 10% step (0…10), to turn progress into step events.
    public internal(set) var deciles: [ClientID: Int] = [:]
    public internal(set) var showsHelp = false

    public init(room: String, name: String, columns: Int, rows: Int, feedCapacity: Int = 500, source: String = "live") {
        self.room = room
        self.name = name
        self.source = source
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        feed = MonitorFeed(capacity: feedCapacity)
        draft = DraftCounter.standard.status(forCount: 0)
    }

    /// Names a section (a replayed log carries titles on its tab events).
    public mutating func nameSection(_ index: Int, _ title: String) {
        if !title.isEmpty { sectionTitles[index] = title }
    }

    /// Marks the model as watching without a connection (a replay).
    public mutating func watchWithoutConnection() {
        connection = .joined
    }

    /// Adds a line of its own to the feed (a replay's start and end).
    public mutating func note(_ text: String, at time: Duration) {
        feed.append(text, kind: .info, at: time)
    }
}

extension MonitorModel: ScreenModel {
    public mutating func connected(at time: Duration) -> [ClientCommand] {
        connection = .connecting
        return [.send(.hello(room: room, name: name, role: .observer))]
    }

    public mutating func disconnected(_ reason: String, at time: Duration) -> [ClientCommand] {
        if connection == .joined { feed.append("disconnected: \(reason)", kind: .error, at: time) }
        connection = .closed(reason)
        return []
    }

    public mutating func handle(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        guard case let .key(key) = event else { return [] }
        if showsHelp {
            showsHelp = false
            return key == .character("q") ? [.quit] : []
        }
        switch key {
        case .character("q"), .escape, .ctrl("c"): return [.quit]
        case .character("?"): showsHelp = true
        case .character("k"), .up: feed.scroll(by: 1)
        case .character("j"), .down: feed.scroll(by: -1)
        case .pageUp: feed.scroll(by: max(feedHeight - 1, 1))
        case .pageDown: feed.scroll(by: -max(feedHeight - 1, 1))
        case .character("G"), .end: feed.scroll(by: -feed.lines.count)
        default: break
        }
        return []
    }

    public mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand] {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        return []
    }

    public mutating func tick(at time: Duration) -> [ClientCommand] { [] }

    public mutating func settle() {}

    /// Long names swing, so the screen moves while one is cut; otherwise it
    /// changes only on events.
    public func nextWake(after time: Duration) -> Duration? {
        let swings = readers.contains { DisplayWidth.of($0.name) > Self.nameField }
        return swings || connection == .connecting ? time + .milliseconds(100) : nil
    }
}
