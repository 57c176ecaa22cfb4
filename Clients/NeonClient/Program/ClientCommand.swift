import NeonCore

/// What a program asks the runtime to do.
public enum ClientCommand: Equatable, Sendable {
    case send(ClientMessage)
    /// End with status 0 (q, Esc in the draft editor).
    case quit
    /// Drop the connection and join again (resync from a fresh welcome).
    case reconnect
    /// Fetch the server's list of rooms on a short connection of its own,
    /// as `neonsync rooms` does; its `overview` arrives as a message
    /// received. Nothing arrives when the server does not show the list.
    case listRooms
    /// The server refused this client for good: end with the refusal's
    /// sentence and its exit status instead of reconnecting.
    case refused(Refusal)
    /// A line on standard output (a program that prints lines: `tail`).
    case print(String)
    /// A line on standard error; while a screen owns the terminal it waits
    /// until the terminal is restored.
    case printError(String)
    /// End with `status` (one of the command's documented exit statuses).
    case exit(Int32)
    /// Highlight the fenced code of `document` (the library that does it
    /// reads from disk, so the runtime does); the tokens come back as
    /// `ProgramEvent.highlighted` with the same `version`.
    case highlight(Document, version: Int)
    /// Run `snippet` on this machine (the presenter's, started with `-x`);
    /// what it prints comes back as `ProgramEvent.snippetOutput`.
    case runSnippet(Snippet)
    /// Bytes for the terminal itself, written between frames (the draft's
    /// OSC 52 copy); nothing while no screen owns the terminal.
    case writeTerminal(String)
}
