import NeonCore
import NeonTUI

/// The room's pointers as this reader knows them (the welcome's, then each
/// `pointer`): the presenter's lead pointer first, then the others. It
/// says what a key or a click points at, and draws the pointers over the
/// document: the passage underlined, and a mark in the gutter on its first
/// row (`◆` for the presenter's, the initial of anyone else's).
public struct PointerPart: Equatable, Sendable {
    public internal(set) var all: [PointerInfo] = []
    /// The lead pointer came after the presenter last moved: a follower
    /// keeps it on screen when it follows the presenter again.
    var leadIsNews = false

    public init() {}

    /// The presenter's pointer, when one is set.
    public var lead: PointerInfo? { all.first { $0.lead } }

    mutating func welcomed(_ welcome: Welcome) {
        all = (welcome.pointers ?? []).filter(\.isSet)
        leadIsNews = lead != nil
    }

    /// A pointer was set, moved or cleared.
    mutating func received(_ pointer: PointerInfo) {
        all.removeAll { $0.isSamePointer(as: pointer) }
        guard pointer.isSet else { return }
        if pointer.lead {
            all.insert(pointer, at: 0)
            leadIsNews = true
        } else {
            all.append(pointer)
        }
    }

    /// A member left: their pointer goes with them (the presenter's stays).
    mutating func left(_ id: ClientID) {
        all.removeAll { !$0.lead && $0.id == id }
    }

    /// A new document: nothing is pointed at.
    mutating func clear() {
        all = []
        leadIsNews = false
    }

    // MARK: What to point at

    /// The passage a pointer marks for a place in `document`: the table
    /// row or code line there, otherwise the whole block (a paragraph, a
    /// heading, a list item).
    public static func passage(at anchor: Anchor, in document: Document) -> (anchor: Anchor, length: Int)? {
        guard document.blocks.indices.contains(anchor.block) else { return nil }
        let block = document.blocks[anchor.block]
        switch block.kind {
        case .table, .codeBlock:
            var start = 0
            for line in block.text.split(separator: "\n", omittingEmptySubsequences: false) {
                let end = start + line.count
                if anchor.offset <= end { return (Anchor(block: anchor.block, offset: start), line.count) }
                start = end + 1
            }
            return (Anchor(block: anchor.block, offset: 0), block.text.count)
        default:
            return (Anchor(block: anchor.block, offset: 0), block.text.count)
        }
    }

    // MARK: Drawing

    /// Underlines the pointers' passages on the rows `layout` shows in
    /// `area` from row `top` (code rows scrolled `codeShift` columns).
    func render(over layout: Layout, top: Int, codeShift: Int, in area: Rect, theme: Theme, into buffer: inout Buffer) {
        let visible = top..<top + area.height
        for pointer in all.reversed() {
            guard let passage = pointer.passage else { continue }
            let style = Self.style(of: pointer, theme: theme)
            for span in layout.spans(of: passage, in: visible) {
                var columns = span.columns
                let line = layout.line(at: span.row)
                if case .codeBlock = line.kind, line.part == .text, codeShift > 0 {
                    let prefix = DisplayWidth.of(line.prefix)
                    columns = max(columns.lowerBound - codeShift, prefix)..<max(columns.upperBound - codeShift, prefix)
                }
                let cells = Rect(x: area.x + columns.lowerBound, y: area.y + span.row - top, width: columns.count, height: 1)
                buffer.patchStyle(cells.intersection(area), with: style)
            }
        }
    }

    /// Gutter marks by layout row: each pointer's first row; the
    /// presenter's wins a row it shares.
    func markers(in layout: Layout, theme: Theme) -> [Int: DocumentView.GutterMarker] {
        var out: [Int: DocumentView.GutterMarker] = [:]
        for pointer in all.reversed() {
            guard let passage = pointer.passage, let rows = layout.rows(of: passage) else { continue }
            let initial = pointer.name.first.flatMap { DisplayWidth.of($0) == 1 ? $0 : nil } ?? "•"
            let symbol: Character = pointer.lead ? (theme.ascii ? "*" : "◆") : Character(initial.uppercased())
            out[rows.lowerBound] = DocumentView.GutterMarker(symbol, style: Self.style(of: pointer, theme: theme))
        }
        return out
    }

    /// The presenter's pointer bold and underlined in the accent; anyone
    /// else's underlined and reversed in the gutter.
    static func style(of pointer: PointerInfo, theme: Theme) -> Style {
        pointer.lead ? theme.strong.patched(with: Style(underline: true)) : theme.accent.patched(with: Style(underline: true))
    }
}
