import NeonTUI

/// The key list a screen opens over itself (`?` in the reader and the
/// monitor, F1 in the draft editor): whether it is open and the first line
/// it shows. While open it takes every event: the paging keys of `less`
/// and the wheel scroll it, any other key closes it (`HelpScrolling`).
public struct KeyList: Equatable, Sendable {
    public internal(set) var isOpen = false
    /// The first line shown (j/k scroll it).
    public internal(set) var scroll = 0

    public init() {}

    /// Opens the list at its top.
    mutating func open() {
        isOpen = true
        scroll = 0
    }

    /// A key or the wheel while the list is open over a screen of
    /// `columns` × `rows`: scrolls `overlay` or closes it.
    mutating func handle(_ event: InputEvent, over overlay: HelpOverlay, columns: Int, rows: Int) {
        let action = HelpScrolling(event, page: overlay.visibleRowCount(width: columns, height: rows))
        if let scroll = action.scroll(from: scroll, maximum: overlay.maxScroll(width: columns, height: rows)) {
            self.scroll = scroll
        } else {
            isOpen = false
        }
    }

    /// The overlay of `lines` from the current first line.
    func overlay(_ lines: [HelpOverlay.Line], title: String = "Keys", theme: Theme) -> HelpOverlay {
        HelpOverlay(lines: lines, title: title, scroll: scroll, theme: theme)
    }

    /// Draws `overlay` over the whole of `buffer` while the list is open.
    func render(_ overlay: HelpOverlay, into buffer: inout Buffer) {
        guard isOpen else { return }
        overlay.render(in: buffer.area, into: &buffer)
    }
}
