import NeonCore
import NeonTUI

/// What happened, as the runtime tells a program: past-tense facts from
/// the connection, the terminal and the clock. (Stop signals end every
/// program the same way, so the runtime handles them itself.)
public enum ProgramEvent: Equatable, Sendable {
    /// A connection to `server` opened: time to say hello.
    case connected(to: String)
    /// The connection was lost or could not be made.
    case disconnected(Disconnection)
    /// A message from the server, with its text as it came (`tail --json`
    /// prints it verbatim).
    case received(ServerMessage, text: String)
    /// A message this client cannot decode, and why.
    case unreadable(text: String, problem: String)
    /// A key, mouse action or paste (programs that draw a screen only).
    case input(InputEvent)
    /// The terminal changed size (programs that draw a screen only).
    case resized(columns: Int, rows: Int)
    /// The file the program shows (`read FILE`, `present FILE`, `notes
    /// FILE`) has a new version: its text, read once its writes settled,
    /// with the local pictures it shows (those that travel, and those that
    /// cannot with why).
    case fileChanged(text: String, images: [DocumentImage] = [], unshown: [UnshownImage] = [])
    /// The file changed but cannot be read now: why (it is gone, not
    /// UTF-8, too large, …).
    case fileUnreadable(String)
    /// Time passed: after every batch of events, and at the wake the
    /// program asked for.
    case tick
    /// The tokens of the code of the document a `highlight` command named
    /// by `version`.
    case highlighted(CodeHighlights, version: Int)
    /// A snippet this program had run printed more, or ended.
    case snippetOutput(SnippetProgress)
}

extension ProgramEvent {
    /// What a screen shows when a message cannot be read: it counts as a
    /// lost connection.
    public static func unreadableSentence(_ problem: String) -> String {
        "the server sent a message this client cannot read: \(problem)"
    }
}
