/// A document wrapped to a terminal width: the rows a reader scrolls.
///
/// Each block takes one or more rows and one blank separator row comes
/// between consecutive blocks (none before the first or after the last).
/// Headings take rows of their own; list items and quotes draw a prefix
/// ("• ", "3. ", "│ ") when at least two columns are left beside it; code
/// lines are never joined and break at the width; a card takes its name's
/// row (cut with "…" when too wide) and at most two rows of headline (cut
/// with "…" beyond that). No row is wider than `width`, except a grapheme
/// wider than the room beside its prefix on a row of its own (a 2-column
/// character at width 1, a 4-column emoji with a skin tone in a narrow quote).
///
/// Rows are stored compactly, as character and byte offsets into the block
/// texts; `line(at:)` slices a row's text only when a renderer asks.
public struct Layout: Sendable {
    public let document: Document
    /// The columns rows are wrapped to, at least 1.
    public let width: Int
    /// Blocks' rows without separators, block after block.
    let rows: [Row]
    /// For each block, the index in `rows` of its first row, then `rows.count`.
    let blockRowStarts: [Int]
    /// For each section, the row its first block starts on.
    let sectionFirstRows: [Int]

    /// Where a row starts and ends in its block's text (or a card's name).
    struct Row {
        /// The offset, in characters, of the row's first character: the
        /// anchor offset of the row.
        var characterStart: Int
        var byteStart: Int
        /// Where the row's visible text ends, trailing spaces left out.
        var byteEnd: Int
        /// The text goes on past the row's end: a renderer draws "…" after it.
        var isTruncated = false
    }

    public init(document: Document, width: Int) {
        let width = max(width, 1)
        var wrapper = LineWrapper()
        var blockRowStarts: [Int] = []
        blockRowStarts.reserveCapacity(document.blocks.count + 1)
        for block in document.blocks {
            blockRowStarts.append(wrapper.rows.count)
            switch block.kind {
            case .heading, .paragraph:
                wrapper.wrap(block.text, width: width, mode: .words)
            case .listItem, .quote:
                let prefixWidth = Self.prefix(of: block.kind).map(DisplayWidth.of) ?? 0
                let indented = Self.showsPrefix(prefixWidth, width: width)
                wrapper.wrap(block.text, width: indented ? width - prefixWidth : width, mode: .words)
            case .codeBlock:
                wrapper.wrap(block.text, width: width, mode: .characters)
            case .card(let name):
                wrapper.wrap(name, width: width, mode: .characters, maxRows: 1)
                if !block.text.isEmpty {
                    wrapper.wrap(block.text, width: width, mode: .words, maxRows: 2)
                }
            }
        }
        blockRowStarts.append(wrapper.rows.count)
        self.document = document
        self.width = width
        self.rows = wrapper.rows
        self.blockRowStarts = blockRowStarts
        self.sectionFirstRows = document.sections.map { section in
            section.firstBlock < document.blocks.count ? blockRowStarts[section.firstBlock] + section.firstBlock : 0
        }
    }

    /// The number of rows, separators included; 0 for an empty document.
    public var rowCount: Int {
        rows.count + max(document.blocks.count - 1, 0)
    }

    /// The rows block `index` takes, without separators; empty for a block
    /// that does not exist.
    public func rows(ofBlock index: Int) -> Range<Int> {
        guard document.blocks.indices.contains(index) else { return 0..<0 }
        let first = blockRowStarts[index] + index
        return first..<first + blockRowStarts[index + 1] - blockRowStarts[index]
    }

    /// The block a row shows and, unless the row is the separator above that
    /// block, the row's index in `rows`. `row` must be in `0..<rowCount`.
    func locate(_ row: Int) -> (block: Int, row: Int?) {
        var low = 0
        var high = document.blocks.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if blockRowStarts[mid] + mid <= row {
                low = mid
            } else {
                high = mid - 1
            }
        }
        let stored = row - low
        return stored < blockRowStarts[low + 1] ? (low, stored) : (low + 1, nil)
    }

    /// The prefix drawn on a block's first row, if its kind has one.
    static func prefix(of kind: BlockKind) -> String? {
        switch kind {
        case .listItem(let marker): marker + " "
        case .quote: "│ "
        default: nil
        }
    }

    /// A prefix is drawn only when at least two columns (one wide character)
    /// are left beside it.
    static func showsPrefix(_ prefixWidth: Int, width: Int) -> Bool {
        prefixWidth > 0 && width - prefixWidth >= 2
    }
}
