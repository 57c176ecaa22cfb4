/// What a block is, which decides how it wraps and how a renderer styles it.
public enum BlockKind: Equatable, Hashable, Sendable {
    /// A heading, level 1 (`#`) to 6 (`######`).
    case heading(level: Int)
    case paragraph
    /// The first paragraph of a list item: the marker ("•", the number as
    /// written, "☐"/"☑" for a task) starts the block's indent.
    case listItem(marker: String)
    /// A paragraph in a block quote, drawn with a "│ " bar before every row.
    case quote
    /// Fenced or indented code: one row per line, never wrapped; a line
    /// wider than the screen is cut and scrolls sideways. The language is
    /// the first word of the fence's info string.
    case codeBlock(language: String?)
    /// Raw HTML, shown as text: lines kept, wrapped at the width.
    case htmlBlock
    /// A thematic break (`---`), drawn as a rule across the width.
    case thematicBreak
    /// A table: box-drawn, columns sized to their content.
    case table(TableShape)
    /// A catalog entry: the name on its own row, the block's text (the
    /// headline) below it in at most two rows.
    case card(name: String)
    /// A paragraph that is one image and nothing else (`![alt](src)`,
    /// possibly inside a link): drawn as a box (`ImageBox`) with the alt
    /// text, the block's text, inside; `source` is the address as written.
    /// An image inside other text stays that text's alt text.
    case image(source: String)
}

/// A table's cells and column alignments. Row 0 is the header row; every
/// row has one cell per column.
public struct TableShape: Equatable, Hashable, Sendable {
    public enum Alignment: Equatable, Hashable, Sendable {
        case none, left, center, right
    }

    public let alignments: [Alignment]
    /// Each cell's plain text, on one line.
    public let rows: [[String]]

    public init(alignments: [Alignment], rows: [[String]]) {
        self.alignments = alignments
        self.rows = rows.map { row in
            Array((row + Array(repeating: "", count: max(alignments.count - row.count, 0))).prefix(alignments.count))
        }
    }

    /// The block text of the table: cells joined by tabs, rows by newlines.
    var text: String {
        rows.map { $0.joined(separator: "\t") }.joined(separator: "\n")
    }

    /// The character offset, in the block text, of every cell.
    func cellStarts() -> [[Int]] {
        var offset = 0
        return rows.map { row in
            row.map { cell in
                defer { offset += cell.count + 1 }
                return offset
            }
        }
    }
}

/// A stretch of a block's text drawn in an inline style.
public struct InlineRun: Equatable, Hashable, Sendable {
    /// UTF-8 offsets in the block's text.
    public let bytes: Range<Int>
    public let style: InlineStyle

    public init(bytes: Range<Int>, style: InlineStyle) {
        self.bytes = bytes
        self.style = style
    }
}

/// The inline markup a stretch of text had.
public struct InlineStyle: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let emphasis = InlineStyle(rawValue: 1 << 0)
    public static let strong = InlineStyle(rawValue: 1 << 1)
    public static let strikethrough = InlineStyle(rawValue: 1 << 2)
    public static let code = InlineStyle(rawValue: 1 << 3)
    /// A link's text.
    public static let link = InlineStyle(rawValue: 1 << 4)
    /// A link's address, shown after its text.
    public static let url = InlineStyle(rawValue: 1 << 5)
    /// An image's alt text.
    public static let image = InlineStyle(rawValue: 1 << 6)
    /// Raw inline HTML, shown as written.
    public static let html = InlineStyle(rawValue: 1 << 7)
}
