/// What a block is, which decides how it wraps and how a renderer styles it.
public enum BlockKind: Equatable, Hashable, Sendable {
    /// A heading, level 1 (`#`) to 6 (`######`).
    case heading(level: Int)
    case paragraph
    /// A list item. The marker is "•" for bullets or the number as written
    /// ("3." or "3)"), preceded by the item's indentation when nested.
    case listItem(marker: String)
    /// A block quote, drawn with a "│ " bar before every row.
    case quote
    /// Fenced code: lines kept verbatim, never joined, hard-wrapped at the
    /// width. The language is the first word of the fence's info string.
    case codeBlock(language: String?)
    /// A catalog entry: the name on its own row, the block's text (the
    /// headline) below it in at most two rows.
    case card(name: String)
}
