import NeonCore

/// A grid of cells that widgets draw into and `FrameWriter` puts on screen.
///
/// Every write keeps the grid consistent: a character N columns wide (2 for
/// CJK, up to 4 for an emoji with a skin tone) has N − 1 continuation cells,
/// overwriting any part of a wide character turns the rest into spaces, and a wide character that does not fit is drawn
/// as a space. Writes outside the grid are ignored, so widgets may draw into
/// any rectangle, even one of width 0. While a widget draws (`clipped(to:)`,
/// which `Widget.render` enters), writes outside the area it was given are
/// dropped too, and counted in `faults`, as are texts cut without an
/// ellipsis: what the sweep test asks of every frame.
public struct Buffer: Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Row by row; read directly by `FrameWriter`, which compares every
    /// cell of a frame, without the subscript's bounds checks.
    private(set) var cells: [Cell]
    /// The hyperlinks cells point to (`Style.link` is an index here plus
    /// one), each once.
    public private(set) var hyperlinks: [Hyperlink] = []
    private var hyperlinkNumbers: [Hyperlink: UInt16] = [:]
    /// The pictures shown over the cells, in the order they were placed.
    public var images: [ImagePlacement] = []
    /// Where writes land: the area of the widget drawing now, within the
    /// grid; the whole grid when none is.
    var clip: Rect
    /// Writes aimed outside the area of the widget making them, and texts
    /// cut without an ellipsis, since the buffer was made.
    public internal(set) var faults = DrawFaults()

    /// A buffer of spaces in `style`; negative sizes count as 0.
    public init(width: Int, height: Int, style: Style = .plain) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Cell(style: style), count: self.width * self.height)
        clip = Rect(width: self.width, height: self.height)
    }

    /// The number a style carries (`Style.linked`) for the hyperlink to
    /// `url`, grouped by `id` (the cells of one link wrapped over several
    /// rows share it); 0, no link, past 65,535 links.
    public mutating func hyperlink(_ url: String, id: String) -> UInt16 {
        let link = Hyperlink(url: url, id: id)
        if let number = hyperlinkNumbers[link] { return number }
        guard hyperlinks.count < Int(UInt16.max) else { return 0 }
        hyperlinks.append(link)
        let number = UInt16(hyperlinks.count)
        hyperlinkNumbers[link] = number
        return number
    }

    /// The hyperlink of the cell at column `x`, row `y`, if it has one.
    public func hyperlink(atX x: Int, y: Int) -> Hyperlink? {
        let number = Int(self[x, y].style.link)
        return number > 0 && number <= hyperlinks.count ? hyperlinks[number - 1] : nil
    }

    /// The whole buffer as a rectangle at the origin.
    public var area: Rect { Rect(width: width, height: height) }

    /// The cell at column `x`, row `y`; a blank cell outside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        guard contains(x, y) else { return .blank }
        return cells[y * width + x]
    }

    /// Puts one grapheme at column `x`, row `y`. A character of width 0 (a
    /// lone combining mark or a control character) is ignored; a 2-column
    /// character in the last column becomes a space.
    public mutating func set(_ character: Character, x: Int, y: Int, style: Style = .plain) {
        guard clip.contains(x: x, y: y) else {
            stray("\(character)", at: Rect(x: x, y: y, width: 1, height: 1))
            return
        }
        put(character, columns: DisplayWidth.of(character), x: x, y: y, style: style)
    }

    /// `set` with the character's width already known (the hot path of
    /// `write` and `fill`, which measure each character once).
    private mutating func put(_ character: Character, columns: Int, x: Int, y: Int, style: Style) {
        put(Glyph(character), columns: columns, x: x, y: y, style: style)
    }

    private mutating func put(_ glyph: Glyph, columns: Int, x: Int, y: Int, style: Style) {
        guard columns > 0 else { return }
        if columns >= 2 {
            guard x + columns <= width else {
                place(Cell(glyph: Self.space, style: style), x: x, y: y)
                return
            }
            place(Cell(glyph: glyph, style: style), x: x, y: y)
            for column in x + 1..<x &+ columns {
                place(Cell(glyph: Self.space, style: style, isContinuation: true), x: column, y: y)
            }
        } else {
            place(Cell(glyph: glyph, style: style), x: x, y: y)
        }
    }

    private static let space = Glyph(ascii: 0x20)

    /// Writes `text` from column `x` on row `y`, clipped at the buffer's
    /// right edge and after `maxWidth` columns, by display width. A 2-column
    /// character that would straddle the clip edge is drawn as a space, so
    /// wide characters never spill past it. Returns the columns written.
    /// A text cut by `maxWidth` counts as a bare cut in `faults` (cut text
    /// ends in an ellipsis: `write(_:x:y:style:maxWidth:ellipsis:)`), one
    /// reaching past the area of the widget drawing it as a stray.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style = .plain,
                               maxWidth: Int = .max) -> Int {
        guard maxWidth > 0, !text.isEmpty else { return 0 }
        let asked = maxWidth > clip.maxX &- x ? Int.max : x &+ maxWidth
        let lower = max(x, clip.x)
        let right = min(asked, clip.maxX)
        guard y >= clip.y, y < clip.maxY, lower < right else {
            stray(text, at: Rect(x: x, y: y, width: min(maxWidth, DisplayWidth.of(text)), height: 1))
            return 0
        }
        if x < lower { stray(text, at: Rect(x: x, y: y, width: lower - x, height: 1)) }
        let (end, cut) = draw(text, x: x, y: y, style: style, lower: lower, upper: right)
        if cut, x >= lower {
            if asked > clip.maxX {
                stray(text, at: Rect(x: x, y: y, width: DisplayWidth.of(text), height: 1))
            } else {
                faults.cut(text, at: x, y)
            }
        }
        return max(min(end, right) - lower, 0)
    }

    /// Writes `text` starting at column `x` (which may lie left of the clip)
    /// but only into the columns of `clip`; characters cut by either edge of
    /// the clip leave spaces in the columns they would have covered. Returns
    /// the column where the text ended or where drawing stopped. (A window
    /// on a text, as code scrolled sideways or a swinging title, is no cut;
    /// columns of `clip` outside the area of the widget drawing are strays
    /// when the text reaches them.)
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style, clip window: Range<Int>) -> Int {
        guard !window.isEmpty, !text.isEmpty else { return x }
        let lower = max(window.lowerBound, clip.x)
        let upper = min(window.upperBound, clip.maxX)
        let rowInside = y >= clip.y && y < clip.maxY
        if !rowInside || lower != window.lowerBound || upper != window.upperBound {
            let span = Rect(x: x, y: y, width: DisplayWidth.of(text), height: 1)
                .intersection(Rect(x: window.lowerBound, y: y, width: window.count, height: 1))
            if !span.isEmpty, !clip.contains(span) { stray(text, at: span) }
        }
        guard rowInside, lower < upper else { return x }
        return draw(text, x: x, y: y, style: style, lower: lower, upper: upper).end
    }

    /// Draws `text` from column `x` into the columns `lower..<upper` (inside
    /// the grid) of row `y`: the column where it ended or drawing stopped,
    /// and whether it was cut (a character of it left out at `upper`, or a
    /// wide one split by either edge).
    private mutating func draw(_ text: some StringProtocol, x: Int, y: Int, style: Style,
                               lower: Int, upper: Int) -> (end: Int, cut: Bool) {
        var column = x
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Printable ASCII: one column per byte, no grapheme breaking.
            for byte in text.utf8 {
                guard column < upper else { return (column, true) }
                if column >= lower {
                    put(Glyph(ascii: byte), columns: 1, x: column, y: y, style: style)
                }
                column += 1
            }
            return (column, false)
        }
        if text.unicodeScalars.allSatisfy(DisplayWidth.isNarrowAlone) {
            // Each scalar a grapheme of one column (box lines, Latin text):
            // no grapheme breaking.
            for scalar in text.unicodeScalars {
                guard column < upper else { return (column, true) }
                if column >= lower {
                    put(scalar.value < 0x80 ? Glyph(ascii: UInt8(scalar.value)) : Glyph(Character(scalar)), columns: 1,
                        x: column, y: y, style: style)
                }
                column += 1
            }
            return (column, false)
        }
        var cut = false
        for character in text {
            let columns = DisplayWidth.of(character)
            guard columns > 0 else { continue }
            guard column < upper else { return (column, true) }
            let end = column + columns
            if column >= lower, end <= upper {
                put(character, columns: columns, x: column, y: y, style: style)
            } else if end > lower {
                for split in max(column, lower)..<min(end, upper) {
                    put(" ", columns: 1, x: split, y: y, style: style)
                }
                cut = true
            }
            column = end
        }
        return (column, cut)
    }

    /// Fills the part of `rect` inside the buffer with `character` (a space
    /// by default) in `style`.
    public mutating func fill(_ rect: Rect, style: Style, character: Character = " ") {
        let clipped = confined(rect)
        let columns = DisplayWidth.of(character)
        guard columns == 1 else {
            for y in clipped.y..<clipped.maxY {
                for x in clipped.x..<clipped.maxX {
                    put(character, columns: columns, x: x, y: y, style: style)
                }
            }
            return
        }
        // One-column fills: mend the wide characters cut at the two edges,
        // then store the run directly.
        let cell = Cell(character, style: style)
        for y in clipped.y..<clipped.maxY where clipped.width > 0 {
            place(cell, x: clipped.x, y: y)
            place(cell, x: clipped.maxX - 1, y: y)
            let inner = clipped.width - 2
            guard inner > 0 else { continue }
            let start = y * width + clipped.x + 1
            cells.withUnsafeMutableBufferPointer { all in
                all.baseAddress!.advanced(by: start).update(repeating: cell, count: inner)
            }
        }
    }

    /// Lays `overlay` over the style of the cells of `rect` inside the
    /// buffer whose character is `drawn`, keeping the characters: a table's
    /// box lines in the border colour.
    public mutating func patchStyle(_ rect: Rect, with overlay: Style, where drawn: (Character) -> Bool) {
        let clipped = confined(rect)
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX where drawn(cells[y * width + x].character) {
                cells[y * width + x].style = cells[y * width + x].style.patched(with: overlay)
            }
        }
    }

    /// Lays `overlay` over the style of every cell of `rect` inside the
    /// buffer (see `Style.patched(with:)`), keeping the characters: search
    /// highlights, selections.
    public mutating func patchStyle(_ rect: Rect, with overlay: Style) {
        let clipped = confined(rect)
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX {
                cells[y * width + x].style = cells[y * width + x].style.patched(with: overlay)
            }
        }
    }

    /// The text of each row, continuation cells skipped; trailing spaces are
    /// dropped unless `trimming` is false. Made for snapshot tests.
    public func lines(trimming: Bool = true) -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where !cells[y * width + x].isContinuation {
                line.append(cells[y * width + x].character)
            }
            guard trimming else { return line }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The styles of row `y`, one per cell (continuations included); empty
    /// outside the buffer. Made for style assertions.
    public func styles(row y: Int) -> [Style] {
        guard y >= 0, y < height else { return [] }
        return cells[y * width..<(y + 1) * width].map(\.style)
    }

    private func contains(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && x < width && y >= 0 && y < height
    }

    /// The part of `rect` inside the clip; the rest, if any, is a stray.
    private mutating func confined(_ rect: Rect) -> Rect {
        let inside = rect.intersection(clip)
        if !rect.isEmpty, inside.width != rect.width || inside.height != rect.height { stray("", at: rect) }
        return inside
    }

    /// Stores `cell`, first turning into spaces the rest of any wide
    /// character it would cut: the cells left of it when it lands inside
    /// one (unless it is a continuation itself), and the continuations right
    /// of it.
    private mutating func place(_ cell: Cell, x: Int, y: Int) {
        let row = y * width
        if cells[row + x].isContinuation, !cell.isContinuation {
            var left = x - 1
            while left >= 0, cells[row + left].isContinuation {
                cells[row + left] = Cell(glyph: Self.space, style: cells[row + left].style)
                left -= 1
            }
            if left >= 0 { cells[row + left] = Cell(glyph: Self.space, style: cells[row + left].style) }
        }
        var right = x + 1
        while right < width, cells[row + right].isContinuation {
            cells[row + right] = Cell(glyph: Self.space, style: cells[row + right].style)
            right += 1
        }
        cells[row + x] = cell
    }
}
