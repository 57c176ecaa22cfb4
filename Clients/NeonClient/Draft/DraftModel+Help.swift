import NeonTUI

extension DraftModel {
    /// The keys that open the key list while typing: F1, as in most
    /// full-screen terminal programs, and Ctrl-G, nano's "Get Help" (every
    /// printable key, `?` included, types into the draft).
    public static let helpKeys: Set<Key> = [.function(1), .ctrl("g")]

    /// The draft editor's keys, for the overlay and `neonsync draft --help`.
    public static let helpLines: [HelpOverlay.Line] = [
        .init(key: "typing", action: "inserts at the cursor; Enter a new line"),
        .init(key: "paste", action: "inserts the pasted text (one undo step)"),
        .init(key: "Backspace Delete", action: "delete a character back / forward (Ctrl-D)"),
        .init(key: "Ctrl-W Alt-Backspace", action: "delete the word before the cursor"),
        .init(key: "Ctrl-Z Ctrl-Y", action: "undo / redo a word or burst"),
        .init(key: "← → ↑ ↓", action: "move (also Ctrl-B Ctrl-F Ctrl-P Ctrl-N)"),
        .init(key: "Alt-b Alt-f", action: "a word left / right"),
        .init(key: "Home End", action: "line start / end (Ctrl-A Ctrl-E)"),
        .init(key: "Alt-< Alt->", action: "start / end of the draft"),
        .init(key: "F1 Ctrl-G", action: "this help (j/k scroll it, any other key closes)"),
        .init(key: "Esc", action: "quit (in the reader's draft panel: back to the document)"),
        .init(key: "Ctrl-C", action: "quit"),
    ]

    func helpOverlay(theme: Theme) -> HelpOverlay {
        keyList.overlay(Self.helpLines, title: "Draft keys", theme: theme)
    }
}
