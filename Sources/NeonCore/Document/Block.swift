/// One unit of a document that a layout wraps as a whole: a heading, a
/// paragraph, a list item's paragraph, a quote, a code or HTML block, a
/// thematic break, a table or a catalog card.
public struct Block: Equatable, Hashable, Sendable {
    public let kind: BlockKind
    /// Plain text with inline markup removed: what anchors' offsets count
    /// and search looks in. A newline is a hard line break (code lines, a
    /// Markdown hard break, lines of a plain-text paragraph). A table's text
    /// is its cells, row after row: cells joined by a tab, rows by a newline.
    public let text: String
    /// The index of the section the block belongs to.
    public let section: Int
    /// What is drawn before the block's rows: the bars of the quotes and the
    /// markers of the list items it is in.
    public let indent: BlockIndent
    /// Inline styles of stretches of `text` (emphasis, code, links, …), in
    /// order and not overlapping.
    public let styles: [InlineRun]
    /// The block follows the one before it without the blank separator row:
    /// the items of a tight list.
    public let isTight: Bool
    /// The links of the block's text (their text and the address after
    /// it), in order: what a terminal with hyperlinks makes clickable.
    public let links: [LinkTarget]
    /// A fenced code block's info string beyond its language (`+exec`,
    /// `+id:NAME`, `{1,3|all}`, …); nil when it says nothing more, and for
    /// every other block.
    public let fence: CodeFence?

    init(kind: BlockKind, text: String, section: Int, indent: BlockIndent = .none,
         styles: [InlineRun] = [], isTight: Bool = false, links: [LinkTarget] = [], fence: CodeFence? = nil) {
        self.kind = kind
        self.text = text
        self.section = section
        self.indent = indent
        self.styles = styles
        self.isTight = isTight
        self.links = links
        self.fence = fence
    }
}

/// A link in a block's text: the UTF-8 offsets of what is drawn for it (its
/// text and, unless the text is the address, ` (address)` after it) and
/// the address as the Markdown gave it (a reference link's resolved; an
/// autolink's with its scheme).
public struct LinkTarget: Equatable, Hashable, Sendable {
    public let bytes: Range<Int>
    public let url: String

    public init(bytes: Range<Int>, url: String) {
        self.bytes = bytes
        self.url = url
    }
}

extension Block {
    /// Whether the layout draws the block's rows itself (a table, an image's
    /// box), its text appearing in them only where segments say.
    var isDrawnByLayout: Bool {
        switch kind {
        case .table, .image: true
        default: false
        }
    }
}

/// The prefix of a block's rows: `first` on its first row (a list marker,
/// quote bars), `rest` on the rows below (bars, blanks as wide as a marker).
/// Both are equally wide.
public struct BlockIndent: Equatable, Hashable, Sendable {
    public let first: String
    public let rest: String

    public init(first: String, rest: String) {
        self.first = first
        self.rest = rest
    }

    public static let none = BlockIndent(first: "", rest: "")

    public var isEmpty: Bool { first.isEmpty }
}
