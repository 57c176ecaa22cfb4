import NeonTUI

/// A screen whose key list opens over it and scrolls like `less` (the
/// reader, the draft editor): the opening and the scrolling live here once.
protocol KeyListScreen {
    var showHelp: Bool { get set }
    var helpScroll: Int { get set }
    var columns: Int { get }
    var rows: Int { get }
    func helpOverlay(theme: Theme) -> HelpOverlay
}

extension KeyListScreen {
    /// Opens the key list at its top.
    mutating func openHelp() {
        showHelp = true
        helpScroll = 0
    }

    /// A key or the wheel while the key list is open: scrolls or closes it.
    mutating func helpInput(_ event: InputEvent) {
        let overlay = helpOverlay(theme: .neon)
        let action = HelpScrolling(event, page: overlay.visibleRowCount(width: columns, height: rows))
        if let scroll = action.scroll(from: helpScroll, maximum: overlay.maxScroll(width: columns, height: rows)) {
            helpScroll = scroll
        } else {
            showHelp = false
        }
    }
}
