import NeonTUI
import Testing

@Suite("Buffer")
struct BufferTests {
    @Test("a new buffer is blank and reads blank cells outside its bounds")
    func blank() {
        let buffer = Buffer(width: 3, height: 2)
        #expect(buffer.lines() == ["", ""])
        #expect(buffer.lines(trimming: false) == ["   ", "   "])
        #expect(buffer[5, 5] == .blank)
        #expect(buffer[-1, 0] == .blank)
    }

    @Test("writing returns the columns used, counting wide characters as two")
    func writeColumns() {
        var buffer = Buffer(width: 10, height: 1)
        #expect(buffer.write("ab世界", x: 1, y: 0) == 6)
        #expect(buffer.lines() == [" ab世界"])
        #expect(buffer[3, 0].character == "世")
        #expect(buffer[4, 0].isContinuation)
        #expect(buffer[5, 0].character == "界")
    }

    @Test("box lines and Latin text are written a scalar a column, clipped as any text; a combining mark still joins its letter")
    func narrowText() {
        var buffer = Buffer(width: 12, height: 2)
        #expect(buffer.write("┌─Ünï─┐ … x", x: 0, y: 0, maxWidth: 9) == 9)
        #expect(buffer.lines().first == "┌─Ünï─┐ …")
        #expect(buffer[2, 0].character == "Ü" && !buffer[3, 0].isContinuation)
        #expect(buffer.write("│e\u{301}│", x: 0, y: 1) == 3)
        #expect(buffer[1, 1].character == "e\u{301}" && buffer[2, 1].character == "│")
    }

    @Test("a style laid over only the cells whose character matches keeps the others and every character")
    func patchWhere() {
        var buffer = Buffer(width: 8, height: 1)
        buffer.write("│ a │ b", x: 0, y: 0)
        buffer.patchStyle(buffer.area, with: Style(fg: .red), where: { $0 == "│" })
        #expect(buffer.lines() == ["│ a │ b"])
        #expect((0..<8).filter { buffer[$0, 0].style.fg == .red } == [0, 4])
    }

    @Test("a cell keeps any grapheme: ASCII, accented, wide, and clusters longer than fifteen bytes (a family emoji, a flag) come back whole and are written whole")
    func cellsKeepGraphemes() {
        let family: Character = "👨‍👩‍👧‍👦"
        #expect(family.utf8.count > 15)
        for character: Character in ["a", "é", "│", "漢", "🇫🇷", family, "e\u{301}"] {
            #expect(Cell(character).character == character)
        }
        #expect(Cell(family) == Cell(family) && Cell(family) != Cell("👨"))
        #expect(Cell("é") != Cell("e\u{301}"), "cells compare the bytes a terminal is sent")
        var buffer = Buffer(width: 8, height: 1)
        buffer.write("a\(family)b", x: 0, y: 0)
        #expect(buffer.lines() == ["a\(family)b"])
        #expect(FrameWriter.diff(from: nil, to: buffer).contains("a\(family)"))
    }

    @Test("writing clips at the right edge and a straddling wide character becomes a space")
    func clipAtEdge() {
        var buffer = Buffer(width: 5, height: 1)
        #expect(buffer.write("ab世界", x: 0, y: 0, style: Style(bold: true)) == 5)
        #expect(buffer.lines(trimming: false) == ["ab世 "])
        #expect(buffer[4, 0] == Cell(" ", style: Style(bold: true)))
    }

    @Test("maxWidth clips by display width, never splitting a wide character")
    func clipAtMaxWidth() {
        var buffer = Buffer(width: 10, height: 1)
        #expect(buffer.write("世界世界", x: 0, y: 0, maxWidth: 3) == 3)
        #expect(buffer.lines(trimming: false) == ["世        "])
        #expect(!buffer[2, 0].isContinuation)
        #expect(buffer.write("xyz", x: 0, y: 0, maxWidth: 0) == 0)
    }

    @Test("emoji and combining marks take their display width")
    func emojiAndCombining() {
        var buffer = Buffer(width: 8, height: 1)
        #expect(buffer.write("👩‍💻e\u{301}!", x: 0, y: 0) == 4)
        #expect(buffer.lines() == ["👩‍💻é!"])
        #expect(buffer[0, 0].character == "👩‍💻")
        #expect(buffer[1, 0].isContinuation)
    }

    @Test("zero-width characters and controls are not stored")
    func zeroWidth() {
        var buffer = Buffer(width: 4, height: 1)
        #expect(buffer.write("a\tb\u{301}", x: 0, y: 0) == 2)
        buffer.set("\u{301}", x: 3, y: 0)
        #expect(buffer.lines() == ["ab\u{301}"])
        #expect(buffer[3, 0] == .blank)
    }

    @Test("overwriting half of a wide character blanks the other half")
    func overwriteWideHalves() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.write("世界", x: 0, y: 0)
        buffer.set("x", x: 1, y: 0)
        #expect(buffer.lines() == [" x界"])
        buffer.set("y", x: 2, y: 0)
        #expect(buffer.lines() == [" xy"])
        #expect(!buffer[3, 0].isContinuation)
        buffer.write("界", x: 3, y: 0)
        buffer.write("世", x: 2, y: 0)
        #expect(buffer.lines() == [" x世"])
        #expect(!buffer[4, 0].isContinuation)
    }

    @Test("an emoji with a skin tone takes the four cells tmux gives it, and overwriting any of them blanks the rest")
    func fourColumns() {
        var buffer = Buffer(width: 8, height: 1)
        #expect(buffer.write("a👩🏽‍💻b", x: 0, y: 0) == 6)
        #expect(buffer.lines() == ["a👩🏽‍💻b"])
        #expect((2...4).allSatisfy { buffer[$0, 0].isContinuation })
        #expect(buffer[5, 0].character == "b")
        buffer.set("x", x: 3, y: 0)
        #expect(buffer.lines() == ["a  x b"])
        #expect((0..<8).allSatisfy { !buffer[$0, 0].isContinuation })
        buffer.write("👍🏽", x: 4, y: 0)
        #expect(buffer.lines() == ["a  x👍🏽"])
        #expect(buffer.write("👍🏽", x: 5, y: 0) == 3)
        #expect(buffer.lines() == ["a  x"], "a four-column emoji that does not fit leaves spaces, and cutting one blanks it")
        #expect((0..<8).allSatisfy { !buffer[$0, 0].isContinuation })
    }

    @Test("a wide character in the last column becomes a space")
    func wideInLastColumn() {
        var buffer = Buffer(width: 3, height: 1)
        buffer.set("世", x: 2, y: 0)
        #expect(buffer.lines(trimming: false) == ["   "])
    }

    @Test("writes outside the buffer are ignored, and 0 or 1 column buffers never crash")
    func outOfRange() {
        var empty = Buffer(width: 0, height: 0)
        #expect(empty.write("hello", x: 0, y: 0) == 0)
        empty.set("x", x: 0, y: 0)
        empty.fill(Rect(width: 5, height: 5), style: Style(bold: true))
        #expect(empty.lines() == [])

        var one = Buffer(width: 1, height: 1)
        #expect(one.write("世界", x: 0, y: 0) == 1)
        #expect(one.lines(trimming: false) == [" "])
        #expect(one.write("ab", x: -1, y: 0) == 1)
        #expect(one.lines() == ["b"])
        #expect(one.write("ab", x: 0, y: 1) == 0)
        #expect(one.write("ab", x: 3, y: 0) == 0)
        one.set("z", x: -1, y: -1)
        #expect(one.lines() == ["b"])
    }

    @Test("writing from a negative column shows only what lies inside")
    func negativeStart() {
        var buffer = Buffer(width: 6, height: 1)
        #expect(buffer.write("世界abc", x: -1, y: 0) == 6)
        #expect(buffer.lines() == [" 界abc"])
    }

    @Test("fill paints a clipped rectangle and patchStyle keeps the characters")
    func fillAndPatch() {
        var buffer = Buffer(width: 4, height: 2)
        buffer.fill(Rect(x: 2, y: 1, width: 9, height: 9), style: Style(bg: .blue), character: "#")
        #expect(buffer.lines() == ["", "  ##"])
        #expect(buffer[3, 1].style == Style(bg: .blue))
        buffer.patchStyle(Rect(x: 3, y: 0, width: 1, height: 2), with: Style(fg: .red, reverse: true))
        #expect(buffer[3, 1] == Cell("#", style: Style(fg: .red, bg: .blue, reverse: true)))
        #expect(buffer[2, 1].style == Style(bg: .blue))
        #expect(buffer.styles(row: 1).count == 4)
        #expect(buffer.styles(row: 2).isEmpty)
    }

    @Test("patching a style keeps colours the overlay leaves default and adds attributes")
    func stylePatch() {
        let base = Style(fg: .green, bg: .black, bold: true)
        #expect(base.patched(with: Style(reverse: true)) == Style(fg: .green, bg: .black, bold: true, reverse: true))
        #expect(base.patched(with: Style(fg: .indexed(9))) == Style(fg: .indexed(9), bg: .black, bold: true))
        #expect(Style.plain.hasColor == false)
        #expect(base.with(bg: .default).with(fg: .rgb(1, 2, 3)) == Style(fg: .rgb(1, 2, 3), bold: true))
    }

    @Test("rectangles intersect, centre and split into rows")
    func rects() {
        let rect = Rect(x: 2, y: 1, width: 10, height: 4)
        #expect(rect.intersection(Rect(width: 5, height: 3)) == Rect(x: 2, y: 1, width: 3, height: 2))
        #expect(rect.intersection(Rect(x: 50, y: 50, width: 1, height: 1)).isEmpty)
        #expect(rect.centered(width: 4, height: 2) == Rect(x: 5, y: 2, width: 4, height: 2))
        #expect(rect.centered(width: 40, height: 9) == rect)
        #expect(rect.row(3) == Rect(x: 2, y: 4, width: 10, height: 1))
        #expect(rect.row(4).isEmpty)
        #expect(rect.contains(x: 11, y: 4))
        #expect(!rect.contains(x: 12, y: 4))
        #expect(Rect(width: 1, height: 1).inset(by: 1).isEmpty)
    }
}
