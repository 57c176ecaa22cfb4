import NeonCore
import NeonTUI

/// One slide of a deck laid out for a width: its blocks in parts stacked
/// top to bottom, one blank row apart. A part is the whole width, or
/// presenterm's columns (`<!-- column_layout: [3, 2] -->`, `<!-- column: 1
/// -->`, `<!-- reset_layout -->`) side by side, each column its own NeonCore
/// `Layout`, or blank rows (`<!-- new_lines: 2 -->`). Comment commands and
/// plain comments are not drawn; everything else is, as the document view
/// draws it. Columns too narrow to read (under 12 columns each) stack
/// instead. Rows are the slide's own: `top` scrolls within it. A picture
/// keeps its shape and is no taller than the rows shown; when the slide is
/// taller than them, its pictures shrink by the difference, down to half
/// the rows shown and never so far that an alt text is cut (`ImageBox`; a
/// slide that still does not fit scrolls).
struct SlideLayout: Sendable {
    /// A column of a part: the layout of its blocks, the document's blocks
    /// it shows (its block `i` is the document's `blocks[i]`), where it
    /// stands in the slide's width.
    struct Column: Sendable {
        var layout: Layout
        var blocks: [Int]
        var x: Int
        var width: Int
    }

    struct Part: Sendable {
        /// One for the whole width, several side by side; none for blank rows.
        var columns: [Column]
        var height: Int
        var firstRow: Int
    }

    let slide: Int
    let width: Int
    let parts: [Part]
    let rowCount: Int
    /// The columns its widest row takes: the slide is centred by it.
    let usedWidth: Int
    /// The slide's first block, for a slide with nothing to draw.
    let firstBlock: Int

    /// The narrowest a column is drawn beside another.
    static let narrowestColumn = 12
    /// Columns between two columns.
    static let columnGap = 2

    /// A part before it is laid out: blocks across the whole width, columns
    /// of blocks with their ratios, or blank rows.
    private enum Run {
        case whole([Int])
        case columns([Int], [[Int]])
        case blank(Int)
    }

    /// `images`: the document's pictures; `height`: the rows the slide is
    /// shown in, which its pictures fit.
    init(document: Document, deck: SlideDeck, slide index: Int, width: Int, images: ImageCatalog = .none,
         height: Int = .max, outputs: SnippetShelf = .none) {
        let width = max(width, 1)
        let slide = deck.slides[min(max(index, 0), deck.slides.count - 1)]
        self.slide = index
        self.width = width
        firstBlock = slide.blocks.lowerBound
        let runs = Self.runs(of: slide, in: document)
        let height = max(height, 1)
        let fitted = images.fitting(rows: min(images.maximumRows, height))
        var laid = Self.layOut(runs, document: document, title: slide.title, width: width, images: fitted, outputs: outputs)
        let pictureRows = laid.parts.flatMap(\.columns).flatMap(\.layout.imageBoxes).filter(\.box.showsPicture).map(\.box.rows)
        if laid.rowCount > height, let tallest = pictureRows.max() {
            let rows = max(tallest - (laid.rowCount - height), height / 2)
            if rows < tallest {
                laid = Self.layOut(runs, document: document, title: slide.title, width: width, images: fitted.fitting(rows: rows),
                                   outputs: outputs)
            }
        }
        parts = laid.parts
        rowCount = laid.rowCount
        usedWidth = min(parts.flatMap(\.columns).map { column in
            column.x + min((0..<column.layout.rowCount).map { column.layout.line(at: $0).displayWidth }.max() ?? 0, column.width)
        }.max() ?? 0, width)
    }

    /// The slide's blocks as parts to lay out, by its comment commands.
    private static func runs(of slide: SlideDeck.Slide, in document: Document) -> [Run] {
        var runs: [Run] = []
        var whole: [Int] = []
        var columns: (ratios: [Int], blocks: [[Int]], current: Int)?
        func flushWhole() {
            if !whole.isEmpty { runs.append(.whole(whole)) }
            whole = []
        }
        func flushColumns() {
            if let open = columns, open.blocks.contains(where: { !$0.isEmpty }) { runs.append(.columns(open.ratios, open.blocks)) }
            columns = nil
        }
        for block in slide.blocks {
            let command: CommentCommand? = {
                if case .htmlBlock = document.blocks[block].kind { return CommentCommand(html: document.blocks[block].text) }
                return nil
            }()
            switch command {
            case nil, .snippetOutput?:
                if let open = columns {
                    var blocks = open.blocks
                    blocks[open.current].append(block)
                    columns = (open.ratios, blocks, open.current)
                } else {
                    whole.append(block)
                }
            case let .columnLayout(ratios)?:
                flushWhole()
                flushColumns()
                columns = (ratios, Array(repeating: [], count: ratios.count), 0)
            case let .column(index)?:
                if let open = columns { columns = (open.ratios, open.blocks, min(index, open.ratios.count - 1)) }
            case .resetLayout?:
                flushColumns()
            case let .newLines(count)? where columns == nil && count > 0:
                flushWhole()
                runs.append(.blank(count))
            default:
                break
            }
        }
        flushWhole()
        flushColumns()
        return runs
    }

    /// The parts of `runs` laid out at `width`, and the rows they take.
    private static func layOut(_ runs: [Run], document: Document, title: String, width: Int,
                               images: ImageCatalog, outputs: SnippetShelf) -> (parts: [Part], rowCount: Int) {
        var parts: [Part] = []
        var row = 0
        func add(_ columns: [Column], height: Int) {
            if !parts.isEmpty { row += 1 }
            parts.append(Part(columns: columns, height: height, firstRow: row))
            row += height
        }
        func wholeWidth(_ blocks: [Int]) -> Column {
            Column(layout: Layout(document: document.slice(blocks, title: title), width: width, images: images,
                                  outputs: outputs.sliced(blocks)), blocks: blocks,
                   x: 0, width: width)
        }
        for run in runs {
            switch run {
            case let .whole(blocks):
                let column = wholeWidth(blocks)
                add([column], height: column.layout.rowCount)
            case let .blank(count):
                add([], height: count)
            case let .columns(ratios, blocks):
                let room = width - Self.columnGap * (ratios.count - 1)
                let total = max(ratios.reduce(0, +), 1)
                var widths = ratios.map { room * $0 / total }
                widths[widths.count - 1] = room - widths.dropLast().reduce(0, +)
                guard widths.allSatisfy({ $0 >= Self.narrowestColumn }) else {
                    for column in blocks where !column.isEmpty {
                        let laid = wholeWidth(column)
                        add([laid], height: laid.layout.rowCount)
                    }
                    continue
                }
                var x = 0
                var laid: [Column] = []
                for (index, column) in blocks.enumerated() {
                    if !column.isEmpty {
                        let layout = Layout(document: document.slice(column, title: title), width: widths[index], images: images,
                                            outputs: outputs.sliced(column))
                        laid.append(Column(layout: layout, blocks: column, x: x, width: widths[index]))
                    }
                    x += widths[index] + Self.columnGap
                }
                add(laid, height: laid.map(\.layout.rowCount).max() ?? 0)
            }
        }
        return (parts, row)
    }

    /// The part `row` is in, or the part after the gap it is in.
    private func part(at row: Int) -> Part? {
        parts.first { row < $0.firstRow + $0.height } ?? parts.last
    }

    /// The anchor of row `row`: the first column's place there (a column
    /// shorter than the row gives way to the next); rows between parts
    /// anchor to the part below.
    func anchor(forRow row: Int) -> Anchor {
        guard let part = part(at: row) else { return Anchor(block: firstBlock, offset: 0) }
        let local = max(row - part.firstRow, 0)
        guard let column = part.columns.first(where: { local < $0.layout.rowCount }) ?? part.columns.first else {
            let next = parts.first { $0.firstRow > part.firstRow && !$0.columns.isEmpty }
            return next.map { Anchor(block: $0.columns[0].blocks.first ?? firstBlock, offset: 0) } ?? Anchor(block: firstBlock, offset: 0)
        }
        let anchor = column.layout.anchor(forRow: min(local, column.layout.rowCount - 1))
        return Anchor(block: column.blocks.indices.contains(anchor.block) ? column.blocks[anchor.block] : firstBlock,
                      offset: anchor.offset)
    }

    /// The anchor of the cell at slide row `row`, `x` columns into the
    /// slide: the column there, else the row's anchor.
    func anchor(forRow row: Int, x: Int) -> Anchor {
        guard let part = part(at: row), row >= part.firstRow,
              let column = part.columns.first(where: { x >= $0.x && x < $0.x + $0.width }),
              row - part.firstRow < column.layout.rowCount else { return anchor(forRow: row) }
        let anchor = column.layout.anchor(forRow: row - part.firstRow)
        return Anchor(block: column.blocks[anchor.block], offset: anchor.offset)
    }

    /// The part and column that show the document's block `block`.
    private func place(of block: Int) -> (part: Part, column: Column, index: Int)? {
        for part in parts {
            for column in part.columns {
                if let index = column.blocks.firstIndex(of: block) { return (part, column, index) }
            }
        }
        return nil
    }

    /// The slide row showing `anchor`; a block the slide does not draw (a
    /// comment) gives the row of the next block it draws.
    func row(for anchor: Anchor) -> Int {
        if let (part, column, index) = place(of: anchor.block) {
            return part.firstRow + column.layout.row(for: Anchor(block: index, offset: anchor.offset))
        }
        for part in parts {
            for column in part.columns where (column.blocks.first ?? -1) > anchor.block {
                return part.firstRow
            }
        }
        return 0
    }

    /// The rows a passage is drawn on, in the slide's rows; nil when the
    /// slide does not draw it.
    func rows(of passage: DocumentMatch) -> Range<Int>? {
        guard let (part, column, index) = place(of: passage.block) else { return nil }
        var local = passage
        local.block = index
        return column.layout.rows(of: local).map { part.firstRow + $0.lowerBound..<part.firstRow + $0.upperBound }
    }

    /// Draws the slide's rows from `top` into `area`, `area.width` being
    /// this layout's width: rows of blocks past `hidden` (a pause not yet
    /// passed) stay blank, code blocks light the group of lines `lit` gives
    /// (by the document's block), the pointers are underlined.
    func render(in area: Rect, top: Int, hidden: Int?, lit: [Int: Int] = [:], pointers: PointerPart, theme: Theme,
                into buffer: inout Buffer) {
        for part in parts {
            let first = max(part.firstRow, top), end = min(part.firstRow + part.height, top + area.height)
            guard first < end else { continue }
            let visible = first..<end
            for column in part.columns {
                let localTop = visible.lowerBound - part.firstRow
                let rect = Rect(x: area.x + column.x, y: area.y + visible.lowerBound - top, width: column.width, height: visible.count)
                    .intersection(area)
                guard !rect.isEmpty else { continue }
                var layout = column.layout
                if !lit.isEmpty {
                    layout.litGroups = Dictionary(uniqueKeysWithValues: column.blocks.enumerated().compactMap { local, block in
                        lit[block].map { (local, $0) }
                    })
                }
                DocumentView(layout: layout, top: localTop, theme: theme).render(in: rect, into: &buffer)
                let shown = localTop..<localTop + visible.count
                for pointer in pointers.all.reversed() {
                    guard var passage = pointer.passage, let index = column.blocks.firstIndex(of: passage.block) else { continue }
                    passage.block = index
                    let style = PointerPart.style(of: pointer, theme: theme)
                    for span in column.layout.spans(of: passage, in: shown) {
                        let cells = Rect(x: rect.x + span.columns.lowerBound, y: rect.y + span.row - localTop,
                                         width: span.columns.count, height: 1)
                        buffer.patchStyle(cells.intersection(rect), with: style)
                    }
                }
                guard let hidden else { continue }
                for local in shown where local < column.layout.rowCount {
                    let block = column.blocks[column.layout.line(at: local).block]
                    if block > hidden { buffer.fill(rect.row(local - localTop), style: theme.background) }
                }
            }
        }
    }
}
