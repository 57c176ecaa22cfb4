import NeonCore
import NeonTUI

/// What the client's shell drives: a pure model updated by connection,
/// server, input and time events, drawn into a cell buffer. The reader and
/// the draft composer are two such screens.
public protocol ScreenModel: Sendable {
    mutating func connected(at time: Duration) -> [ClientCommand]
    mutating func disconnected(_ reason: String, at time: Duration) -> [ClientCommand]
    mutating func receive(_ message: ServerMessage, at time: Duration) -> [ClientCommand]
    mutating func handle(_ event: InputEvent, at time: Duration) -> [ClientCommand]
    mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand]
    /// Advances whatever moves by itself to `time`.
    mutating func tick(at time: Duration) -> [ClientCommand]
    /// Settles derived view state (scroll offsets) after a batch of updates.
    mutating func settle()
    /// When the screen next changes by itself; nil when nothing moves.
    func nextWake(after time: Duration) -> Duration?
    func view(at time: Duration, theme: Theme) -> Buffer
}

extension ReaderModel: ScreenModel {}
