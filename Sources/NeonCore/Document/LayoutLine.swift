/// What a renderer draws on one row of a `Layout`: `prefix`, then `text`,
/// then "…" when `isTruncated`, styled by `kind` and `part`.
public struct LayoutLine: Equatable, Sendable {
    public enum Part: Equatable, Sendable {
        /// The blank row between two blocks; `block` is the block below it.
        case separator
        /// The row with a card's name (the accent-coloured row).
        case cardName
        /// A row of the block's text.
        case text
    }

    public let block: Int
    public let kind: BlockKind
    public let part: Part
    /// "• ", "3. ", "│ " or spaces of the same width under a list marker;
    /// empty for other kinds, separators, and widths too narrow for it.
    public let prefix: String
    public let text: Substring
    /// The row's text is cut short: draw "…" after it.
    public let isTruncated: Bool

    /// The columns the row takes on screen, prefix and "…" included.
    public var displayWidth: Int {
        DisplayWidth.of(prefix) + DisplayWidth.of(text) + (isTruncated ? 1 : 0)
    }
}
