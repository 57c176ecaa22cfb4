import NeonCore
import NeonTUI

extension DraftModel {
    /// What a key, a paste or typing does in the draft editor.
    public enum KeyAction: Hashable, Sendable {
        case type, newLine, paste
        case deleteBackward, deleteForward, deleteWord, undo, redo
        case moveLeft, moveRight, moveUp, moveDown, wordLeft, wordRight, lineStart, lineEnd, textStart, textEnd
        /// Ctrl-O: the whole draft to the clipboard (OSC 52).
        case copy
        case showKeys
        /// Esc: quits the draft editor; in the reader's draft panel, gives
        /// the keys back to the document.
        case leave
        case quit
    }

    /// The draft editor's keys, in the order the key list (and `neonsync
    /// draft --help`) gives them. Every printable key, `?` included, types
    /// into the draft, so the key list opens with F1, as in most
    /// full-screen terminal programs, and Ctrl-G, nano's "Get Help".
    public static let keys = KeyMap<KeyAction>([
        .init(inputs: [.typing], .type, help: typingHelp),
        .init([.enter], .newLine, help: typingHelp),
        .init(inputs: [.paste], .paste, help: .init(key: "paste", action: "inserts the pasted text (one undo step)")),
        .init([.backspace], .deleteBackward, help: deleteHelp),
        .init([.delete, .ctrl("d")], .deleteForward, help: deleteHelp),
        .init([.ctrl("w"), .alt("\u{7F}")], .deleteWord,
              help: .init(key: "Ctrl-W Alt-Backspace", action: "delete the word before the cursor")),
        .init([.ctrl("z")], .undo, help: undoHelp),
        .init([.ctrl("y")], .redo, help: undoHelp),
        .init([.left, .ctrl("b")], .moveLeft, help: moveHelp),
        .init([.right, .ctrl("f")], .moveRight, help: moveHelp),
        .init([.up, .ctrl("p")], .moveUp, help: moveHelp),
        .init([.down, .ctrl("n")], .moveDown, help: moveHelp),
        .init([.alt("b")], .wordLeft, help: wordHelp),
        .init([.alt("f")], .wordRight, help: wordHelp),
        .init([.home, .ctrl("a")], .lineStart, help: lineHelp),
        .init([.end, .ctrl("e")], .lineEnd, help: lineHelp),
        .init([.alt("<")], .textStart, help: textHelp),
        .init([.alt(">")], .textEnd, help: textHelp),
        .init([.ctrl("o")], .copy, help: .init(key: "Ctrl-O", action: "copy the whole draft to the clipboard (OSC 52)")),
        .init([.function(1), .ctrl("g")], .showKeys,
              help: .init(key: "F1 Ctrl-G", action: "this help (j/k scroll it, any other key closes)")),
        .init([.escape], .leave, help: .init(key: "Esc", action: "quit (in the reader's draft panel: back to the document)")),
        .init([.ctrl("c"), .ctrl("q")], .quit, help: .init(key: "Ctrl-C", action: "quit")),
    ])

    private static let typingHelp = HelpOverlay.Line(key: "typing", action: "inserts at the cursor; Enter a new line")
    private static let deleteHelp = HelpOverlay.Line(key: "Backspace Delete", action: "delete a character back / forward (Ctrl-D)")
    private static let undoHelp = HelpOverlay.Line(key: "Ctrl-Z Ctrl-Y", action: "undo / redo a word or burst")
    private static let moveHelp = HelpOverlay.Line(key: "← → ↑ ↓", action: "move (also Ctrl-B Ctrl-F Ctrl-P Ctrl-N)")
    private static let wordHelp = HelpOverlay.Line(key: "Alt-b Alt-f", action: "a word left / right")
    private static let lineHelp = HelpOverlay.Line(key: "Home End", action: "line start / end (Ctrl-A Ctrl-E)")
    private static let textHelp = HelpOverlay.Line(key: "Alt-< Alt->", action: "start / end of the draft")

    /// The actions that move the cursor, which the room sees.
    private static let moves: Set<KeyAction> = [.moveLeft, .moveRight, .moveUp, .moveDown, .wordLeft, .wordRight, .lineStart, .lineEnd, .textStart, .textEnd]

    /// The draft editor's key list.
    public static let helpLines: [HelpOverlay.Line] = keys.helpLines

    func helpOverlay(theme: Theme) -> HelpOverlay {
        keyList.overlay(Self.helpLines, title: "Draft keys", theme: theme)
    }

    /// A key, paste or mouse action: the key list takes it while open,
    /// otherwise the bindings say what it does.
    public mutating func handle(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        if keyList.isOpen {
            keyList.handle(event, over: helpOverlay(theme: .neon), columns: columns, rows: rows)
            return []
        }
        let action = Self.keys.action(for: event)
        if action == .showKeys {
            keyList.open()
            return []
        }
        if case .key = event { editor.input(at: time) }
        guard let action else { return [] }
        if action == .copy { return copy(at: time) }
        return perform(action, on: event)
    }

    /// Ctrl-O: the whole draft, as this terminal shows it, to the terminal
    /// for its clipboard; the notice line says what happened.
    mutating func copy(at time: Duration) -> [ClientCommand] {
        let copy = ClipboardCopy(editor.text, terminal: terminal, room: room)
        notices.note(copy.notice, error: copy.isRefused, at: time)
        return copy.bytes.isEmpty ? [] : [.writeTerminal(copy.bytes)]
    }

    private mutating func perform(_ action: KeyAction, on event: InputEvent) -> [ClientCommand] {
        var op: TextOperation?
        switch action {
        case .leave, .quit: return [.quit]
        case .showKeys, .copy: return []
        case .type:
            guard case let .key(.character(c)) = event else { return [] }
            op = editor.insert(String(c))
        case .newLine: op = editor.insert("\n")
        case .paste:
            guard case let .paste(text) = event else { return [] }
            op = editor.paste(text)
        case .deleteBackward: op = editor.deleteBackward()
        case .deleteForward: op = editor.deleteForward()
        case .deleteWord: op = editor.deleteWordBackward()
        case .undo: op = editor.undo()
        case .redo: op = editor.redo()
        case .moveLeft: editor.left()
        case .moveRight: editor.right()
        case .moveUp: editor.up(width: editorArea.width)
        case .moveDown: editor.down(width: editorArea.width)
        case .wordLeft: editor.wordLeft()
        case .wordRight: editor.wordRight()
        case .lineStart: editor.lineStart()
        case .lineEnd: editor.lineEnd()
        case .textStart: editor.textStart()
        case .textEnd: editor.textEnd()
        }
        if let op { return submit(op) }
        guard Self.moves.contains(action), connection == .joined else { return [] }
        return [.send(.cursor(position: editor.cursor, rev: editor.revision))]
    }
}
