/// Turns one frame into the next on a terminal: given the buffer on screen
/// (or nil when the screen is unknown) and the new one, the bytes to write.
///
/// Only changed cells are sent; runs of unchanged cells are skipped with a
/// cursor move (CUF on the same row, CUP otherwise). Styles are selected only
/// when they change, and a frame that selected a style ends with a reset, so
/// the next frame starts from the default style. Wide characters are written
/// once from their left cell; continuation cells are never written alone.
/// After a cluster of several scalars (a ZWJ sequence, a skin tone, a flag,
/// a letter with combining marks) the next cell is reached by an absolute
/// move, so a terminal that draws the cluster narrower or wider than
/// `DisplayWidth` says never pushes the rest of the row, or a border, out of
/// line. An identical frame gives an empty string.
///
/// With `hyperlinks`, cells that belong to a link (`Style.link`) are written
/// inside an OSC 8 pair: the link is opened before its first cell written
/// in a run and closed before any cursor move, before a cell of another
/// link or none, and at the end of the frame, so no link is left open and
/// a link cut by the screen's edge or half scrolled off covers exactly the
/// cells it has on screen. A cell whose link changed (another address, or
/// none any more) is written again even when its character and colours are
/// the same. Without `hyperlinks` no OSC 8 is written.
///
/// With `graphics`, the frame's pictures (`Buffer.images`) follow the
/// cells: a picture gone or moved is taken away first (kitty: deleted;
/// sixel and iTerm2: the cells it covered are written again, which erases
/// it), then the cells, then every picture new or moved, and one whose
/// cells were written over this frame where text erases pictures. A frame
/// drawn whole takes every picture away first.
public enum FrameWriter {
    /// The bytes that turn `previous` into `next` on screen. A nil or
    /// differently sized `previous` gives a full redraw after clearing.
    public static func diff(from previous: Buffer?, to next: Buffer, hyperlinks: Bool = false,
                            graphics: (any GraphicsWriter)? = nil) -> String {
        let full = previous.map { $0.width != next.width || $0.height != next.height } ?? true
        // Bytes, not a String: a frame appends thousands of characters and
        // escapes, and appending to a String costs a grapheme check each.
        var out: [UInt8] = []
        out.reserveCapacity(next.width * next.height * 2)
        func put(_ text: String) { out.append(contentsOf: text.utf8) }
        var style = Style.plain
        var cursor: (x: Int, y: Int)?
        var openLink: Hyperlink?
        // A frame selects the same few styles again and again.
        var selections: [Style: String] = [:]
        let before = full ? [] : previous?.images ?? []
        let gone = before.filter { !next.images.contains($0) }
        var rewrite: [Rect] = []
        if let graphics {
            if full {
                put(graphics.eraseAll())
            } else if graphics.textErasesPictures {
                rewrite = gone.map(\.visible)
            } else {
                for placement in gone { put(graphics.erase(placement)) }
            }
        }
        var written = graphics?.textErasesPictures == true ? [Bool](repeating: false, count: next.width * next.height) : []
        if full {
            put(TerminalControl.resetStyle + TerminalControl.clearScreen)
            cursor = (0, 0)
        }
        let cells = next.cells
        let shown = full ? [] : previous?.cells ?? []
        let width = next.width
        for y in 0..<next.height {
            for x in 0..<width {
                let index = y * width + x
                guard !cells[index].isContinuation else { continue }
                if !full, let previous, !changed(index, x, y, shown, cells, width: width, previous, next),
                   !rewrite.contains(where: { $0.contains(x: x, y: y) }) { continue }
                let cell = cells[index]
                if !written.isEmpty { written[y * next.width + x] = true }
                let step = move(from: cursor, to: (x, y))
                let link = hyperlinks ? next.hyperlink(atX: x, y: y) : nil
                if openLink != nil, !step.isEmpty || link != openLink {
                    put(Hyperlink.close)
                    openLink = nil
                }
                put(step)
                if let link, link != openLink {
                    put(link.open)
                    openLink = link
                }
                let look = cell.style.unlinked
                if look != style {
                    if let known = selections[look] {
                        put(known)
                    } else {
                        let selection = TerminalControl.select(look)
                        selections[look] = selection
                        put(selection)
                    }
                    style = look
                }
                let single: Bool
                if let byte = cell.glyph.asciiByte {
                    out.append(byte)
                    single = true
                } else {
                    cell.glyph.appendUTF8(to: &out)
                    single = cell.glyph.isSingleScalar
                }
                cursor = single ? (x + Self.cells(at: x, y, next), y) : nil
            }
        }
        if openLink != nil { put(Hyperlink.close) }
        if style != .plain {
            put(TerminalControl.resetStyle)
            style = .plain
        }
        if let graphics {
            for placement in next.images {
                let overwritten = !written.isEmpty && placement.visible.cells.contains { written[$0.y * next.width + $0.x] }
                if !before.contains(placement) || overwritten { put(graphics.draw(placement)) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the character starting at `x` must be written: its cell or,
    /// for a wide character, one of its continuations differs, or the
    /// hyperlink it belongs to does.
    private static func changed(_ index: Int, _ x: Int, _ y: Int, _ before: [Cell], _ cells: [Cell], width: Int,
                                _ previous: Buffer, _ next: Buffer) -> Bool {
        if before[index] != cells[index] { return true }
        if cells[index].style.link != 0, previous.hyperlink(atX: x, y: y) != next.hyperlink(atX: x, y: y) { return true }
        var column = x + 1
        while column < width, cells[index + column - x].isContinuation {
            if before[index + column - x] != cells[index + column - x] { return true }
            column += 1
        }
        return false
    }

    /// The columns the character starting at `x` takes: its cell and its
    /// continuations.
    private static func cells(at x: Int, _ y: Int, _ buffer: Buffer) -> Int {
        var column = x + 1
        while column < buffer.width, buffer[column, y].isContinuation { column += 1 }
        return column - x
    }

    /// The shortest move from a known cursor position, or an absolute one.
    private static func move(from cursor: (x: Int, y: Int)?, to target: (x: Int, y: Int)) -> String {
        guard let cursor, cursor.y == target.y, cursor.x <= target.x else {
            return TerminalControl.moveCursor(x: target.x, y: target.y)
        }
        switch target.x - cursor.x {
        case 0: return ""
        case 1: return TerminalControl.csi + "C"
        case let n: return TerminalControl.csi + "\(n)C"
        }
    }
}
