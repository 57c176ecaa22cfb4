/// What a renderer draws on one row of a `Layout`: `prefix`, then `text`,
/// then "…" when `isTruncated` (a cut mark on a code row), styled by `kind`,
/// `part`, the inline `styles` of stretches of `text` and, on code rows,
/// the highlighted `tokens`.
public struct LayoutLine: Equatable, Sendable {
    public enum Part: Equatable, Sendable {
        /// The blank row between two blocks; `block` is the block below it.
        case separator
        /// The row with a card's name (the accent-coloured row).
        case cardName
        /// A row of the block's text.
        case text
        /// A rule: a thematic break, or a table's border.
        case rule
        /// A row of a table's header cells (or a stacked table's label).
        case tableHeader
        /// A row of a table's body cells.
        case tableBody
        /// A row of an image's box (`ImageBox`).
        case image
        /// A row of a snippet's output, and the heading above it (`SnippetShelf`).
        case output, outputHeading
    }

    public let block: Int
    public let kind: BlockKind
    public let part: Part
    /// The block's indent: list markers and quote bars on its first row,
    /// bars and blanks below; on a separator, the quote bars of the blocks
    /// on both sides; empty for widths too narrow.
    public let prefix: String
    public let text: Substring
    /// The row's text is cut short: draw "…" after it. A code row's text is
    /// the whole line, wider than the layout: a renderer cuts it.
    public let isTruncated: Bool
    /// Inline styles, as UTF-8 offsets in `text`, in order.
    public let styles: [InlineRun]
    /// On a row of highlighted code, its tokens, as UTF-8 offsets in `text`,
    /// in order (`Layout.highlights`).
    public let tokens: [CodeRun]
    /// The links on the row, as UTF-8 offsets in `text` (a link wrapped
    /// over several rows is on each of them), in order.
    public let links: [LinkTarget]
    /// On a code row with line numbers (`+line_numbers`), the columns at
    /// the end of `prefix` that hold its number and the space after it.
    public let numberColumns: Int
    /// A code row whose line is not in the group its block lights
    /// (`{1,3|5-7|all}`): a renderer dims it.
    public let isDimmed: Bool

    public init(block: Int, kind: BlockKind, part: Part, prefix: String, text: Substring,
                isTruncated: Bool, numberColumns: Int = 0, isDimmed: Bool = false, styles: [InlineRun] = [],
                tokens: [CodeRun] = [], links: [LinkTarget] = []) {
        self.block = block
        self.kind = kind
        self.part = part
        self.prefix = prefix
        self.text = text
        self.isTruncated = isTruncated
        self.styles = styles
        self.tokens = tokens
        self.links = links
        self.numberColumns = numberColumns
        self.isDimmed = isDimmed
    }

    /// The columns the row takes on screen, prefix and "…" included.
    public var displayWidth: Int {
        DisplayWidth.of(prefix) + DisplayWidth.of(text) + (isTruncated ? 1 : 0)
    }
}
