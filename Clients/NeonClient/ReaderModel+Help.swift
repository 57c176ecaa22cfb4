import NeonTUI

extension ReaderModel {
    /// The key list over the screen: the reader's, or the draft's while
    /// the draft panel has the keys.
    func helpOverlay(theme: Theme) -> HelpOverlay {
        draftFocused
            ? HelpOverlay(lines: DraftModel.helpLines, title: "Draft keys", scroll: helpScroll, theme: theme)
            : HelpOverlay(lines: Self.helpLines, scroll: helpScroll, theme: theme)
    }

    /// Opens the key list at its top.
    mutating func openHelp() {
        showHelp = true
        helpScroll = 0
    }

    /// A key or the wheel while the key list is open: scrolls or closes it.
    mutating func helpInput(_ event: InputEvent) {
        let overlay = helpOverlay(theme: .neon)
        let action = HelpScrolling(event, page: overlay.visibleLineCount(height: rows))
        if let scroll = action.scroll(from: helpScroll, maximum: overlay.maxScroll(height: rows)) {
            helpScroll = scroll
        } else {
            showHelp = false
        }
    }
}
