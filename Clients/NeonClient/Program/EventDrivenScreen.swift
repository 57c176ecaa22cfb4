import NeonCore
import NeonTUI

/// A screen model that answers each kind of runtime event with a method of
/// its own (the reader, the draft editor, the notes screen, the monitor):
/// `update` dispatches to them, and a tick ends with `settle`.
protocol EventDrivenScreen: ScreenProgram {
    mutating func connected(at time: Duration) -> [ClientCommand]
    mutating func disconnected(_ reason: String, at time: Duration) -> [ClientCommand]
    mutating func receive(_ message: ServerMessage, at time: Duration) -> [ClientCommand]
    mutating func handle(_ event: InputEvent, at time: Duration) -> [ClientCommand]
    mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand]
    mutating func tick(at time: Duration) -> [ClientCommand]
    mutating func settle()
    mutating func highlighted(_ highlights: CodeHighlights, version: Int)
    mutating func snippetRan(_ progress: SnippetProgress, at time: Duration) -> [ClientCommand]
    /// The file the screen shows has a new version (or cannot be read).
    /// No default: a screen that shows a file must not silently miss its
    /// versions when this signature changes.
    mutating func fileChanged(_ text: String, images: [DocumentImage], unshown: [UnshownImage], at time: Duration) -> [ClientCommand]
    mutating func fileUnreadable(_ problem: String, at time: Duration) -> [ClientCommand]
}

extension EventDrivenScreen {
    public mutating func update(_ event: ProgramEvent, at time: Duration) -> [ClientCommand] {
        switch event {
        case .connected: return connected(at: time)
        case let .disconnected(lost): return disconnected(lost.sentence, at: time)
        case let .received(message, _): return receive(message, at: time)
        case let .unreadable(_, problem): return disconnected(ProgramEvent.unreadableSentence(problem), at: time)
        case let .input(input): return handle(input, at: time)
        case let .resized(columns, rows): return resize(columns: columns, rows: rows, at: time)
        case let .fileChanged(text, images, unshown): return fileChanged(text, images: images, unshown: unshown, at: time)
        case let .fileUnreadable(problem): return fileUnreadable(problem, at: time)
        case .tick:
            defer { settle() }
            return tick(at: time)
        case let .highlighted(highlights, version):
            highlighted(highlights, version: version)
            return []
        case let .snippetOutput(progress):
            return snippetRan(progress, at: time)
        }
    }

    /// A screen that runs no snippets hears of none.
    public mutating func snippetRan(_ progress: SnippetProgress, at time: Duration) -> [ClientCommand] { [] }

    /// A screen without a document has nothing to highlight.
    public mutating func highlighted(_ highlights: CodeHighlights, version: Int) {}

    /// A screen whose parts keep no layout in step with what they show
    /// has nothing to settle after a tick.
    public mutating func settle() {}
}
