/// A document wrapped to a terminal width: the rows a reader scrolls.
///
/// Each block takes one or more rows and one blank separator row comes
/// between consecutive blocks (none before the first or after the last, and
/// none between the items of a tight list). A block's indent (quote bars,
/// list markers) is drawn before its rows when at least two columns are
/// left beside it; an indent wider than half the width keeps only its
/// innermost columns. Headings take rows of their own; code keeps one row per
/// line, never wrapped: a line wider than the room is cut (a renderer scrolls
/// it sideways, see `codeOverflow`); a table is box-drawn with columns sized
/// to their content, wrapped cells when it is wider than the room, and a
/// stacked "header: value" form when even that does not fit; a card takes its
/// name's row (cut with "…" when too wide) and at most two rows of headline.
/// No row but a code row is wider than `width`, except a grapheme wider than
/// the room beside its indent on a row of its own.
///
/// Rows are stored compactly, as character and byte offsets into the block
/// texts; `line(at:)` slices a row's text only when a renderer asks. Table
/// rows are drawn once, here, and kept with the cells they show.
public struct Layout: Sendable {
    public let document: Document
    /// The columns rows are wrapped to, at least 1.
    public let width: Int
    /// How many columns the widest code line goes past the room it has:
    /// how far a renderer may scroll code sideways. 0 when every line fits.
    public let codeOverflow: Int
    /// Blocks' rows without separators, block after block.
    let rows: [Row]
    /// For each block, the index in `rows` of its first row, then `rows.count`.
    let blockRowStarts: [Int]
    /// For each block, the row (separators counted) its first row is on.
    let blockTops: [Int]
    /// For each section, the row its first block starts on.
    let sectionFirstRows: [Int]
    /// The drawn rows of tables, which `Row.drawn` points into.
    let drawnLines: [DrawnLine]
    /// The indent drawn before each block's rows at this width.
    let indents: [BlockIndent]
    /// The image blocks in order, with their boxes and the column the box
    /// starts at (after the block's indent).
    public let imageBoxes: [(block: Int, box: ImageBox, x: Int)]
    /// What the image boxes were made from.
    public let images: ImageCatalog
    /// The tokens of highlighted code blocks, handed to each code row's
    /// line (`LayoutLine.tokens`). Setting them changes no row.
    public var highlights: CodeHighlights = .none
    /// The snippet outputs drawn (`SnippetShelf`).
    public let outputs: SnippetShelf
    /// The columns of the line-number gutter of each code block that draws
    /// one (`+line_numbers`): its widest number and a space. A block gets
    /// none where it would leave fewer than two columns for its code.
    let numberColumns: [Int: Int]
    /// Which group of lines each code block with groups (`{1,3|5-7|all}`)
    /// lights, by block: its other lines are dimmed (`LayoutLine.isDimmed`).
    /// A block not named lights its last group, as it is once its slide is
    /// shown whole. Setting them changes no row.
    public var litGroups: [Int: Int] = [:]

    /// Where a row starts and ends in its block's text (or a card's name).
    struct Row {
        /// The offset, in characters, of the row's first character: the
        /// anchor offset of the row. Never smaller than the row above's in
        /// the same block.
        var characterStart: Int
        var byteStart: Int
        /// Where the row's visible text ends, trailing spaces left out.
        var byteEnd: Int
        /// The text goes on past the row's end: a renderer draws "…" after
        /// it (a cut code line: a cut mark).
        var isTruncated = false
        /// The index in `drawnLines` of a table row's text; -1 for a row
        /// that is a slice of its block's text.
        var drawn: Int32 = -1
    }

    /// `images` sizes image boxes by the pictures' pixels and labels those
    /// not shown with why (by the name the Markdown gives each;
    /// `DocumentInfo.pictures`).
    public init(document: Document, width: Int, images: ImageCatalog = .none, outputs: SnippetShelf = .none) {
        let width = max(width, 1)
        var imageBoxes: [(block: Int, box: ImageBox, x: Int)] = []
        var wrapper = LineWrapper()
        var drawnLines: [DrawnLine] = []
        var indents: [BlockIndent] = []
        var codeOverflow = 0
        var numberColumns: [Int: Int] = [:]
        var blockRowStarts: [Int] = []
        var blockTops: [Int] = []
        blockRowStarts.reserveCapacity(document.blocks.count + 1)
        blockTops.reserveCapacity(document.blocks.count)
        indents.reserveCapacity(document.blocks.count)
        var nextTop = 0
        for (index, block) in document.blocks.enumerated() {
            if index > 0, !block.isTight { nextTop += 1 }
            blockTops.append(nextTop)
            blockRowStarts.append(wrapper.rows.count)
            let indent = Self.indent(block.indent, width: width)
            indents.append(indent)
            let room = width - DisplayWidth.of(indent.first)
            switch block.kind {
            case .heading, .paragraph, .listItem, .quote:
                wrapper.wrap(block.text, width: room, mode: .words)
            case .codeBlock where block.fence?.exec == .replace && outputs.byBlock[index] != nil,
                 .htmlBlock where outputs.output(at: index, in: document) != nil:
                // An output in place of the code, or at its comment.
                break
            case .htmlBlock where CommentCommand(html: block.text) != nil:
                // A comment, or a presenting command: one row, drawn as a
                // slide break or left blank (`line(at:)`), never its text.
                wrapper.wrap("", width: room, mode: .characters)
            case .htmlBlock:
                wrapper.wrap(block.text, width: room, mode: .characters)
            case .thematicBreak:
                wrapper.wrap("", width: room, mode: .characters)
            case .codeBlock:
                let gutter = Self.numberColumns(of: block, room: room)
                if gutter > 0 { numberColumns[index] = gutter }
                codeOverflow = max(codeOverflow, wrapper.cutLines(block.text, width: room - gutter))
            case .table(let shape):
                TableDrawing(shape: shape, width: room).append(to: &wrapper, drawn: &drawnLines)
            case .image(let source):
                let box = images.box(for: source, alt: block.text, room: room)
                imageBoxes.append((index, box, DisplayWidth.of(indent.first)))
                for line in box.lines(alt: block.text, source: source, reason: images.reason(for: source)) {
                    wrapper.appendDrawn(drawnLines.count, characterStart: 0)
                    drawnLines.append(DrawnLine(text: line.text, role: .image,
                                                segments: line.alt.map { [DrawnLine.Segment(bytes: $0, characterStart: 0)] } ?? []))
                }
            case .card(let name):
                wrapper.wrap(name, width: width, mode: .characters, maxRows: 1)
                if !block.text.isEmpty {
                    wrapper.wrap(block.text, width: width, mode: .words, maxRows: 2)
                }
            }
            if let output = outputs.output(at: index, in: document) {
                let start = block.fence?.exec == .replace || block.text.isEmpty ? 0 : block.text.count
                for (number, row) in output.rows.enumerated() {
                    wrapper.appendDrawn(drawnLines.count, characterStart: start)
                    drawnLines.append(DrawnLine(text: row, role: number == 0 ? .outputHeading : .output, segments: []))
                }
            }
            nextTop += wrapper.rows.count - blockRowStarts[index]
        }
        blockRowStarts.append(wrapper.rows.count)
        self.document = document
        self.width = width
        self.codeOverflow = codeOverflow
        self.imageBoxes = imageBoxes
        self.images = images
        self.outputs = outputs
        self.rows = wrapper.rows
        self.blockRowStarts = blockRowStarts
        self.blockTops = blockTops
        self.drawnLines = drawnLines
        self.indents = indents
        self.numberColumns = numberColumns
        self.sectionFirstRows = document.sections.map { section in
            section.firstBlock < document.blocks.count ? blockTops[section.firstBlock] : 0
        }
    }

    /// A layout whose pictures are known by their sizes only.
    public init(document: Document, width: Int, images sizes: [String: ImageSize]) {
        self.init(document: document, width: width, images: ImageCatalog(sizes: sizes))
    }

    /// The number of rows, separators included; 0 for an empty document.
    public var rowCount: Int {
        guard let last = blockTops.last else { return 0 }
        return last + rows.count - blockRowStarts[blockTops.count - 1]
    }

    /// The rows block `index` takes, without separators; empty for a block
    /// that does not exist.
    public func rows(ofBlock index: Int) -> Range<Int> {
        guard document.blocks.indices.contains(index) else { return 0..<0 }
        let first = blockTops[index]
        return first..<first + blockRowStarts[index + 1] - blockRowStarts[index]
    }

    /// The row on screen of `stored`, an index in `rows` of block `block`.
    func screenRow(_ stored: Int, block: Int) -> Int {
        stored - blockRowStarts[block] + blockTops[block]
    }

    /// The block a row shows and, unless the row is the separator above that
    /// block, the row's index in `rows`. `row` must be in `0..<rowCount`.
    func locate(_ row: Int) -> (block: Int, row: Int?) {
        var low = 0
        var high = document.blocks.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if blockTops[mid] <= row {
                low = mid
            } else {
                high = mid - 1
            }
        }
        let stored = blockRowStarts[low] + row - blockTops[low]
        return stored < blockRowStarts[low + 1] ? (low, stored) : (low + 1, nil)
    }

    /// The indent drawn at `width`: none when fewer than two columns would
    /// be left beside it; its innermost columns only when it takes more
    /// than half the width (deeply nested lists and quotes).
    static func indent(_ indent: BlockIndent, width: Int) -> BlockIndent {
        guard !indent.isEmpty else { return indent }
        var shown = indent
        var columns = DisplayWidth.of(indent.first)
        if columns > width / 2 {
            let keep = max(width / 2, 2)
            let first = Array(indent.first)
            let rest = Array(indent.rest)
            let cut = max(first.count - keep, 0)
            shown = BlockIndent(first: String(first[cut...]), rest: String(rest[min(cut, rest.count)...]))
            columns = DisplayWidth.of(shown.first)
        }
        return showsPrefix(columns, width: width) ? shown : .none
    }

    /// The columns a code block's line numbers take in `room`: as many as
    /// its last line's number has digits, and a space; none without
    /// `+line_numbers`, or where fewer than two columns would be left.
    static func numberColumns(of block: Block, room: Int) -> Int {
        guard block.fence?.lineNumbers == true else { return 0 }
        let lines = block.text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let columns = String(lines).utf8.count + 1
        return room - columns >= 2 ? columns : 0
    }

    /// A prefix is drawn only when at least two columns (one wide character)
    /// are left beside it.
    static func showsPrefix(_ prefixWidth: Int, width: Int) -> Bool {
        prefixWidth > 0 && width - prefixWidth >= 2
    }
}

/// A row drawn by the layout itself (a table's border or cells), with the
/// places of the cell text it shows.
struct DrawnLine: Sendable {
    enum Role: Sendable {
        case rule, header, body, image
        /// A row of a snippet's output, and the heading above it (`SnippetShelf`).
        case output, outputHeading
    }

    /// A stretch of the drawn text that shows a block's text.
    struct Segment: Sendable {
        /// UTF-8 offsets in `text`.
        var bytes: Range<Int>
        /// The offset, in characters of the block's text, of its first
        /// character.
        var characterStart: Int
    }

    var text: String
    var role: Role
    var segments: [Segment]
}
