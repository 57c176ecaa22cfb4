import NeonTUI

/// `neonsync replay LOGFILE`: a server log's room events through the
/// monitor's screen at `speed` times real time; at the end of the log it
/// stays until q. Each record shows when its offset into the log, divided
/// by the speed, has passed.
public struct ReplayProgram: ScreenProgram {
    /// The screen the log plays through.
    public private(set) var monitor: MonitorModel
    /// The room events replayed, oldest first.
    let entries: [ServerLogEntry]
    let speed: Double
    /// The log's time of its first room event, in milliseconds.
    let start: Int64
    /// The next record to show.
    var next = 0

    /// Replays the room events of `entries` (those of `room`, or of every
    /// room), read from `file`, on a screen of `columns` × `rows`.
    public init(file: String, entries: [ServerLogEntry], room: String?, speed: Double, columns: Int, rows: Int) {
        self.entries = entries.filter { $0.room != nil && (room == nil || $0.room == room) }
        self.speed = speed
        start = self.entries.first?.milliseconds ?? 0
        monitor = MonitorModel(room: room, name: "replay", columns: columns, rows: rows,
                               source: "replay ×\(Self.format(speed))")
        monitor.watchWithoutConnection()
        let scope = room.map { "room \($0)" } ?? "every room"
        monitor.note("replaying \(file), \(scope), \(self.entries.count) records", at: .zero)
    }

    public mutating func update(_ event: ProgramEvent, at time: Duration) -> [ClientCommand] {
        switch event {
        case let .input(input):
            return monitor.handle(input, at: time)
        case let .resized(columns, rows):
            return monitor.resize(columns: columns, rows: rows, at: time)
        case .tick:
            play(until: time)
            return []
        case .connected, .disconnected, .received, .unreadable, .highlighted, .fileChanged, .fileUnreadable, .snippetOutput:
            return []
        }
    }

    /// The monitor's next frame, or the next record's moment.
    public func nextWake(after time: Duration) -> Duration? {
        var wakes = [monitor.nextWake(after: time)].compactMap { $0 }
        if next < entries.count, let ms = entries[next].milliseconds { wakes.append(due(ms - start)) }
        return wakes.min()
    }

    public func view(at time: Duration, theme: Theme) -> Buffer {
        monitor.view(at: time, theme: theme)
    }

    /// Shows every record due by `time`.
    private mutating func play(until time: Duration) {
        while next < entries.count, let ms = entries[next].milliseconds, due(ms - start) <= time {
            LogReplay.apply(entries[next], to: &monitor, at: .milliseconds(ms - start))
            next += 1
            if next == entries.count { monitor.source = "end of log · replay ×\(Self.format(speed))" }
        }
    }

    /// When a record `offset` milliseconds into the log is shown.
    private func due(_ offset: Int64) -> Duration {
        .nanoseconds(Int64((Double(offset) * 1_000_000 / speed).rounded()))
    }

    /// `10`, `2.5`: a speed without a needless `.0`.
    static func format(_ speed: Double) -> String {
        speed == speed.rounded() && speed < 1e9 ? String(Int(speed)) : String(speed)
    }
}
