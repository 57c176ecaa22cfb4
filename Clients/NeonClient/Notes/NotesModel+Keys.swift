import NeonTUI

extension NotesModel {
    /// What a key does on the notes screen.
    public enum KeyAction: Hashable, Sendable {
        case scrollDown, scrollUp, restartClock, showKeys, quit
    }

    /// The notes screen's keys, in the order `?` lists them.
    public static let keys = KeyMap<KeyAction>([
        .init([.character("j"), .down], .scrollDown, help: .init(key: "j k ↓ ↑", action: "scroll the notes")),
        .init([.character("k"), .up], .scrollUp, help: .init(key: "j k ↓ ↑", action: "scroll the notes")),
        .init([.character("0")], .restartClock, help: .init(key: "0", action: "start the talk's clock again")),
        .init([.character("?"), .function(1)], .showKeys, help: .init(key: "? F1", action: "this help")),
        .init([.character("q"), .escape, .ctrl("c")], .quit, help: .init(key: "q Esc", action: "quit")),
    ])

    /// The keys `?` lists.
    public static let help: [HelpOverlay.Line] = keys.helpLines

    func helpOverlay(theme: Theme) -> HelpOverlay {
        keyList.overlay(Self.help, title: "Notes keys", theme: theme)
    }

    /// A key: the key list takes it while open, otherwise the bindings say
    /// what it does.
    public mutating func handle(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        if keyList.isOpen {
            keyList.handle(event, over: helpOverlay(theme: .neon), columns: columns, rows: rows)
            return []
        }
        guard let action = Self.keys.action(for: event) else { return [] }
        switch action {
        case .quit: return [.quit]
        case .showKeys: keyList.open()
        case .scrollDown: scroll = min(scroll + 1, maxScroll)
        case .scrollUp: scroll = max(scroll - 1, 0)
        case .restartClock:
            started = time
            notices.note("the talk's clock starts again", error: false, at: time)
        }
        return []
    }
}
