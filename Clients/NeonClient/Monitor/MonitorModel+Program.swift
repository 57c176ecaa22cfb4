import NeonTUI

/// The live dashboard (`monitor`) as the runtime drives it. It changes only
/// on events and its own wakes, so time passing asks nothing of it.
extension MonitorModel: ScreenProgram {
    public mutating func update(_ event: ProgramEvent, at time: Duration) -> [ClientCommand] {
        switch event {
        case .connected: return connected(at: time)
        case let .disconnected(lost): return disconnected(lost.sentence, at: time)
        case let .received(message, _): return receive(message, at: time)
        case let .unreadable(_, problem): return disconnected(ProgramEvent.unreadableSentence(problem), at: time)
        case let .input(input): return handle(input, at: time)
        case let .resized(columns, rows): return resize(columns: columns, rows: rows, at: time)
        case .tick, .highlighted, .fileChanged, .fileUnreadable: return []
        }
    }
}
