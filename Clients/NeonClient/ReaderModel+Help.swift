import NeonTUI

extension ReaderModel {
    /// The key list over the screen: the reader's, or the draft's while
    /// the draft panel has the keys.
    func helpOverlay(theme: Theme) -> HelpOverlay {
        draftFocused
            ? HelpOverlay(lines: DraftModel.helpLines, title: "Draft keys", scroll: helpScroll, theme: theme)
            : HelpOverlay(lines: Self.helpLines, scroll: helpScroll, theme: theme)
    }
}

extension ReaderModel: KeyListScreen {}
