import NeonCore

/// The reading pane: rows `top ..< top + height` of a NeonCore `Layout`,
/// fetched lazily with `layout.line(at:)`, styled by block kind — headings in
/// bold accent, list markers and quote bars in the accent, code on its own
/// background across the row (scrolled sideways by `codeShift`, with "‹"
/// and "›" where a line is cut; highlighted tokens in the theme's code
/// styles; lines a block does not light at this step, and line numbers,
/// dim in the muted colour), tables with their borders in the border
/// colour and header cells bold, card names in bold accent with the headline
/// below, "…" after a cut row — and inline markup: emphasis in italics,
/// strong in bold, strikethrough crossed out, code spans on the code
/// background, link text underlined in the accent with its address muted.
/// An ASCII theme draws bars, bullets, boxes and rules in ASCII. A document
/// with no rows (an empty file) says "empty document" in the middle.
///
/// Search matches are drawn in reverse video, from explicit `highlights` and
/// from every case-insensitive occurrence of `query` in the text shown, a
/// phrase wrapped across rows included. A
/// `Gutter` on either side shows other readers' positions. Wrap the layout
/// to `textWidth(forWidth:gutter:)` so rows fit beside the gutter.
public struct DocumentView: Widget {
    /// The document wrapped to the view's text width.
    public var layout: Layout
    /// The layout row shown on the view's first row; rows outside the
    /// layout are blank.
    public var top: Int
    /// Matches to mark, by layout row.
    public var highlights: [Highlight]
    /// Highlights every occurrence in the blocks shown, ignoring case, on
    /// every row a match spans.
    public var query: String?
    /// Markers of other readers' rows, or no gutter.
    public var gutter: Gutter?
    /// How many columns code rows are scrolled left: 0 shows their start.
    public var codeShift: Int
    public var theme: Theme
    /// What relative link addresses resolve against (a `file://` URL of the
    /// document's directory, ending in "/"), or nil: relative links then
    /// carry no hyperlink (`Hyperlink.resolved`).
    public var linkBase: String?

    /// A view of `layout` from row `top` on.
    public init(layout: Layout, top: Int, highlights: [Highlight] = [], query: String? = nil,
                gutter: Gutter? = nil, codeShift: Int = 0, theme: Theme = .neon, linkBase: String? = nil) {
        self.layout = layout
        self.top = top
        self.highlights = highlights
        self.query = query
        self.gutter = gutter
        self.codeShift = max(codeShift, 0)
        self.theme = theme
        self.linkBase = linkBase
    }

    /// Said in the middle of a document with nothing to show.
    public static let emptyText = "empty document"

    /// The columns left for text in a view `width` wide: the layout width to
    /// wrap to.
    public static func textWidth(forWidth width: Int, gutter: Gutter?) -> Int {
        max(width - (gutter?.width ?? 0), 0)
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme.background)
        let gutterWidth = min(gutter?.width ?? 0, area.width)
        let textX = gutter?.side == .left ? area.x + gutterWidth : area.x
        let text = Rect(x: textX, y: area.y, width: area.width - gutterWidth, height: area.height)
        let gutterX = gutter?.side == .left ? area.x : text.maxX
        if layout.rowCount == 0, !text.isEmpty {
            let width = min(DisplayWidth.of(Self.emptyText), text.width)
            buffer.write(Self.emptyText, x: text.x + (text.width - width) / 2, y: text.y + (text.height - 1) / 2,
                         style: theme.muted, maxWidth: text.width, ellipsis: theme.glyphs.ellipsis)
        }
        let found = query.map { Self.highlights(of: $0, in: layout, rows: top..<top + area.height) } ?? []
        placeImages(in: text, into: &buffer)
        for screenRow in 0..<area.height {
            let row = top + screenRow
            let y = area.y + screenRow
            if let marker = gutter?.markers[row], gutterWidth > 0 {
                let x = gutter?.side == .left || gutterWidth == 1 ? gutterX : gutterX + 1
                buffer.write(String(marker.symbol), x: x, y: y, style: marker.style, clip: gutterX..<gutterX + gutterWidth)
            }
            guard row >= 0, row < layout.rowCount, !text.isEmpty else { continue }
            let line = layout.line(at: row)
            draw(line, in: text.row(screenRow), into: &buffer)
            let shift = Self.isCode(line) ? codeShift : 0
            let prefixWidth = DisplayWidth.of(line.prefix)
            for match in highlights + found where match.row == row {
                var columns = match.columns
                if shift > 0 {
                    columns = max(columns.lowerBound - shift, prefixWidth)..<max(columns.upperBound - shift, prefixWidth)
                }
                mark(columns, style: match.isCurrent ? theme.currentHighlight : theme.highlight,
                     in: text.row(screenRow), into: &buffer)
            }
        }
    }

    private static func isCode(_ line: LayoutLine) -> Bool {
        if case .codeBlock = line.kind, line.part == .text { return true }
        return false
    }

    private func draw(_ line: LayoutLine, in row: Rect, into buffer: inout Buffer) {
        let (prefixStyle, textStyle) = styles(for: line)
        var x = row.x
        if line.numberColumns > 0 {
            // The line number: the prefix's last columns (digits and a
            // space, a column each), dim on the code's background.
            let indent = line.prefix.dropLast(line.numberColumns)
            x += buffer.write(shown(indent), x: x, y: row.y, style: prefixStyle, maxWidth: max(row.maxX - x, 0))
            x += buffer.write(line.prefix.suffix(line.numberColumns), x: x, y: row.y, style: dimmedCode,
                              maxWidth: max(row.maxX - x, 0))
        } else {
            x += buffer.write(shown(line.prefix), x: x, y: row.y, style: prefixStyle, maxWidth: row.maxX - x)
        }
        if Self.isCode(line) {
            drawCode(line.text, tokens: line.isDimmed ? [] : line.tokens, style: line.isDimmed ? dimmedCode : textStyle,
                     in: Rect(x: x, y: row.y, width: max(row.maxX - x, 0), height: 1), into: &buffer)
            return
        }
        switch line.part {
        case .output, .outputHeading:
            // A snippet's output: sanitized text, cut at the row's end.
            buffer.write(shown(line.text), x: x, y: row.y, style: textStyle, maxWidth: row.maxX - x)
            return
        case .rule, .tableHeader, .tableBody, .image:
            drawTableRow(line, style: textStyle, x: x, in: row, into: &buffer)
            return
        default:
            break
        }
        if line.displayWidth > row.width {
            // One grapheme wider than the room, alone on its row (a wide
            // character in a column narrower than it): "…", not a blank.
            buffer.write(shown(line.text), x: x, y: row.y, style: textStyle, maxWidth: row.maxX - x, ellipsis: theme.glyphs.ellipsis)
            return
        }
        var written = 0
        let utf8 = line.text.utf8
        func piece(_ bytes: Range<Int>) -> Substring {
            line.text[utf8.index(utf8.startIndex, offsetBy: bytes.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: bytes.upperBound)]
        }
        for run in line.styles {
            if run.bytes.lowerBound > written {
                x += buffer.write(piece(written..<run.bytes.lowerBound), x: x, y: row.y, style: textStyle, maxWidth: row.maxX - x)
            }
            x += buffer.write(piece(run.bytes), x: x, y: row.y, style: textStyle.patched(with: inlineStyle(run.style)),
                              maxWidth: row.maxX - x)
            written = run.bytes.upperBound
        }
        if written < utf8.count {
            x += buffer.write(piece(written..<utf8.count), x: x, y: row.y, style: textStyle, maxWidth: row.maxX - x)
        }
        if !line.links.isEmpty {
            markLinks(line, from: row.x + DisplayWidth.of(shown(line.prefix)), in: row, into: &buffer)
        }
        if line.isTruncated {
            buffer.write(String(theme.glyphs.ellipsis), x: x, y: row.y, style: theme.muted, maxWidth: row.maxX - x)
        }
    }

    /// Code lines a block does not light at this step (`LayoutLine.isDimmed`)
    /// and line numbers: the muted colour, dim, on the code's background
    /// (dim alone without colour).
    private var dimmedCode: Style {
        theme.code.patched(with: Style(fg: theme.muted.fg, dim: true))
    }

    /// A code line on the code background, `codeShift` columns scrolled,
    /// its highlighted tokens in their theme styles, with "‹" where text is
    /// hidden on the left and "›" on the right.
    private func drawCode(_ text: Substring, tokens: [CodeRun], style: Style, in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme.code)
        let columns = DisplayWidth.of(text)
        let cutLeft = codeShift > 0 && columns > 0 && area.width > 2
        let cutRight = columns - codeShift > area.width && area.width > 2
        let lower = area.x + (cutLeft ? 1 : 0)
        let upper = area.maxX - (cutRight ? 1 : 0)
        if tokens.isEmpty {
            buffer.write(text, x: area.x - codeShift, y: area.y, style: style, clip: lower..<upper)
        } else {
            // Token by token, each in its class's style over the code's, the
            // text between them in the code's: the row's text is unchanged.
            let utf8 = text.utf8
            var x = area.x - codeShift
            var written = 0
            func piece(_ bytes: Range<Int>) -> Substring {
                text[utf8.index(utf8.startIndex, offsetBy: bytes.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: bytes.upperBound)]
            }
            for token in tokens where x < upper {
                if token.bytes.lowerBound > written {
                    x = buffer.write(piece(written..<token.bytes.lowerBound), x: x, y: area.y, style: style, clip: lower..<upper)
                }
                x = buffer.write(piece(token.bytes), x: x, y: area.y, style: style.patched(with: theme.codeStyle(token.kind)),
                                 clip: lower..<upper)
                written = token.bytes.upperBound
            }
            if written < utf8.count, x < upper {
                buffer.write(piece(written..<utf8.count), x: x, y: area.y, style: style, clip: lower..<upper)
            }
        }
        let mark = theme.code.patched(with: theme.muted.with(bg: .default))
        if cutLeft { buffer.write(theme.ascii ? "<" : "‹", x: area.x, y: area.y, style: mark, maxWidth: 1) }
        if cutRight { buffer.write(theme.ascii ? ">" : "›", x: area.maxX - 1, y: area.y, style: mark, maxWidth: 1) }
    }

    /// A table's row: cells in `style`, box lines in the border colour.
    private func drawTableRow(_ line: LayoutLine, style: Style, x: Int, in row: Rect, into buffer: inout Buffer) {
        let end = x + buffer.write(shown(line.text), x: x, y: row.y, style: style, maxWidth: row.maxX - x)
        guard line.part != .rule else { return }
        guard theme.ascii else {
            // The box lines as drawn: read back from the row's cells, which
            // hold each character at its column already.
            buffer.patchStyle(Rect(x: x, y: row.y, width: max(end - x, 0), height: 1), with: theme.border,
                              where: Self.isBoxCharacter)
            return
        }
        // In ASCII the box lines became "|", "-" and "+", which cells may
        // hold too: find them in the text as laid out.
        var column = x
        for character in line.text {
            guard column < row.maxX else { break }
            if Self.isBoxCharacter(character) {
                buffer.patchStyle(Rect(x: column, y: row.y, width: 1, height: 1), with: theme.border)
            }
            column += DisplayWidth.of(character)
        }
    }

    /// Gives the cells of each link on the row its hyperlink (its text and
    /// the address after it), when its address resolves.
    private func markLinks(_ line: LayoutLine, from textX: Int, in row: Rect, into buffer: inout Buffer) {
        let utf8 = line.text.utf8
        for link in line.links {
            guard let url = Hyperlink.resolved(link.url, base: linkBase) else { continue }
            let start = utf8.index(utf8.startIndex, offsetBy: link.bytes.lowerBound)
            let end = utf8.index(utf8.startIndex, offsetBy: link.bytes.upperBound)
            let x = textX + DisplayWidth.of(line.text[..<start])
            let width = DisplayWidth.of(line.text[start..<end])
            let number = buffer.hyperlink(url, id: Hyperlink.id(block: line.block, url: url))
            let span = Rect(x: x, y: row.y, width: width, height: 1).intersection(row)
            buffer.patchStyle(span, with: Style(link: number))
        }
    }

    /// The pictures of the image boxes on screen: each box's inside, as far
    /// as it is within the view.
    private func placeImages(in text: Rect, into buffer: inout Buffer) {
        guard !text.isEmpty else { return }
        for image in layout.imageBoxes where image.box.showsPicture && image.box.columns >= 3 && image.box.rows >= 3 {
            let rows = layout.rows(ofBlock: image.block)
            guard rows.upperBound > top, rows.lowerBound < top + text.height,
                  case .image(let source) = layout.document.blocks[image.block].kind else { continue }
            let area = Rect(x: text.x + image.x + 1, y: text.y + rows.lowerBound - top + 1,
                            width: min(image.box.columns - 2, text.width - image.x - 2), height: image.box.rows - 2)
            let visible = area.intersection(text)
            guard !visible.isEmpty, area.width > 0 else { continue }
            buffer.images.append(ImagePlacement(source: source, area: area, visible: visible))
        }
    }

    private static let boxCharacters: Set<Unicode.Scalar> = ["│", "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼", "─"]

    /// A table's box line, found by its scalar (a `Set<Character>` hashes
    /// each character of the row through Unicode normalization).
    private static func isBoxCharacter(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, (0x2500...0x257F).contains(first.value), scalars.count == 1 else { return false }
        return boxCharacters.contains(first)
    }

    /// Text as the theme draws it: bars, bullets, boxes and rules, and the
    /// marks the layout adds (a cut cell's "…", an image's " · "), in ASCII
    /// for an ASCII theme (one column each, like the glyphs they replace).
    private func shown(_ text: some StringProtocol) -> String {
        guard theme.ascii else { return String(text) }
        return theme.chrome(String(text.map { character -> Character in
            switch character {
            case "│": "|"
            case "─", "╌": "-"
            case "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼": "+"
            case "☐": "o"
            case "☑": "x"
            default: character
            }
        }))
    }

    /// How an inline style changes the text's look.
    private func inlineStyle(_ style: InlineStyle) -> Style {
        var look = Style(bold: style.contains(.strong), italic: style.contains(.emphasis),
                         strikethrough: style.contains(.strikethrough))
        if style.contains(.code) { look = look.patched(with: theme.code) }
        if style.contains(.link) { look = look.patched(with: theme.accent.patched(with: Style(underline: true))) }
        if style.contains(.url) || style.contains(.html) { look = look.patched(with: theme.muted) }
        // A picture inside a line (a badge in a row of them) is its alt
        // text on a label, as a badge looks: reverse video, so that it shows
        // without colour too.
        if style.contains(.image) { look = look.patched(with: Style(fg: theme.muted.fg, reverse: true)) }
        return look
    }

    /// The styles of a line's prefix and text.
    private func styles(for line: LayoutLine) -> (prefix: Style, text: Style) {
        if line.part == .outputHeading { return (theme.accent, theme.accent) }
        if line.part == .output { return (theme.accent, theme.text) }
        switch line.kind {
        case .heading(let level):
            return (theme.strong, level <= 2 ? theme.strong : theme.text.patched(with: Style(bold: true)))
        case .paragraph:
            return (theme.accent, theme.text)
        case .listItem:
            return (theme.accent, theme.text)
        case .quote:
            return (theme.accent, theme.muted.patched(with: Style(italic: true)))
        case .codeBlock:
            return (theme.accent, theme.code)
        case .htmlBlock:
            return (theme.accent, theme.muted)
        case .thematicBreak:
            return (theme.accent, theme.border)
        case .table:
            switch line.part {
            case .rule: return (theme.accent, theme.border)
            case .tableHeader: return (theme.accent, theme.strong)
            default: return (theme.accent, theme.text)
            }
        case .card:
            return (theme.accent, line.part == .cardName ? theme.strong : theme.text)
        case .image:
            return (theme.accent, theme.muted.patched(with: Style(italic: true)))
        }
    }

    private func mark(_ columns: Range<Int>, style: Style, in area: Rect, into buffer: inout Buffer) {
        let span = Rect(x: area.x + columns.lowerBound, y: area.y, width: columns.count, height: 1)
        buffer.patchStyle(span.intersection(area), with: style)
    }
}
