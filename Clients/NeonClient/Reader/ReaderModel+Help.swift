import NeonTUI

extension ReaderModel {
    /// The key list over the screen: the reader's, or the draft's while
    /// the draft panel has the keys.
    func helpOverlay(theme: Theme) -> HelpOverlay {
        draftPanel == .focused
            ? keyList.overlay(DraftModel.helpLines, title: "Draft keys", theme: theme)
            : keyList.overlay(Self.helpLines, theme: theme)
    }
}
