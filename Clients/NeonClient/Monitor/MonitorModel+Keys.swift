import NeonTUI

extension MonitorModel {
    /// What a key does on the monitor.
    public enum KeyAction: Hashable, Sendable {
        case olderEvent, newerEvent, olderPage, newerPage, newest
        case nextRoom, previousRoom, showKeys, quit
    }

    /// The monitor's keys, in the order `?` lists them.
    public static let keys = KeyMap<KeyAction>([
        .init([.character("k"), .up], .olderEvent, help: .init(key: "j/k ↓/↑", action: "scroll the feed")),
        .init([.character("j"), .down], .newerEvent, help: .init(key: "j/k ↓/↑", action: "scroll the feed")),
        .init([.pageDown], .newerPage, help: .init(key: "PgDn/PgUp", action: "scroll a page")),
        .init([.pageUp], .olderPage, help: .init(key: "PgDn/PgUp", action: "scroll a page")),
        .init([.character("G"), .end], .newest, help: .init(key: "G/End", action: "newest events")),
        .init([.tab, .character("n"), .right], .nextRoom, help: .init(key: "Tab/n →", action: "next room (every room)")),
        .init([.backTab, .character("p"), .left], .previousRoom, help: .init(key: "S-Tab/p ←", action: "previous room")),
        .init([.character("?")], .showKeys, help: .init(key: "?", action: "this help")),
        .init([.character("q"), .escape, .ctrl("c")], .quit, help: .init(key: "q/Esc", action: "quit")),
    ])

    /// The keys `?` lists.
    public static let help: [HelpOverlay.Line] = keys.helpLines

    func helpOverlay(theme: Theme) -> HelpOverlay {
        keyList.overlay(Self.help, title: "Monitor keys", theme: theme)
    }

    /// A key: the key list takes it while open (`q` closes the list and
    /// quits too), otherwise the bindings say what it does.
    public mutating func handle(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        if keyList.isOpen {
            keyList.handle(event, over: helpOverlay(theme: .neon), columns: columns, rows: rows)
            return !keyList.isOpen && event == .key(.character("q")) ? [.quit] : []
        }
        guard let action = Self.keys.action(for: event) else { return [] }
        let page = max(feedHeight - 1, 1)
        switch action {
        case .quit: return [.quit]
        case .showKeys: keyList.open()
        case .olderEvent: feed.scroll(by: 1)
        case .newerEvent: feed.scroll(by: -1)
        case .olderPage: feed.scroll(by: page)
        case .newerPage: feed.scroll(by: -page)
        case .newest: feed.scroll(by: -feed.lines.count)
        case .nextRoom: selectRoom(by: 1)
        case .previousRoom: selectRoom(by: -1)
        }
        return []
    }
}
