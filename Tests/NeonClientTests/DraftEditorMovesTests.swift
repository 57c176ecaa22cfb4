import NeonClient
import NeonCore
import Testing

@Suite("Draft editor cursor moves")
struct DraftEditorMovesTests {
    @Test("left and right step over whole grapheme clusters and stop at the ends")
    func leftRight() {
        var editor = DraftEditor(text: "ae\u{301}👍🏽b")
        var stops: [Int] = [editor.cursor]
        for _ in 0..<5 {
            editor.left()
            stops.append(editor.cursor)
        }
        #expect(stops == [6, 5, 3, 1, 0, 0])
        editor.right()
        editor.right()
        #expect(editor.cursor == 3)
    }

    @Test("word jumps go to word starts leftwards and word ends rightwards")
    func words() {
        var editor = DraftEditor(text: "one two, three 日本語 👍🏽!")
        var left: [Int] = []
        for _ in 0..<6 {
            editor.wordLeft()
            left.append(editor.cursor)
        }
        #expect(left == [19, 15, 9, 4, 0, 0])
        var right: [Int] = []
        for _ in 0..<6 {
            editor.wordRight()
            right.append(editor.cursor)
        }
        #expect(right == [3, 7, 14, 18, 21, 22])
    }

    @Test("Home and End go to the start and end of the cursor's line")
    func lineEnds() {
        var editor = DraftEditor(text: "ab\ncdef\ng")
        editor.up()
        #expect(editor.cursor == 4)
        editor.right()
        editor.lineStart()
        #expect(editor.cursor == 3)
        editor.lineEnd()
        #expect(editor.cursor == 7)
        editor.lineEnd()
        #expect(editor.cursor == 7)
    }

    @Test("up and down keep the display column across shorter lines and wide characters")
    func upDown() {
        // Offsets: "abcdef" 0–5, \n 6, "ab" 7–8, \n 9, 日 10 本 11 語 12 x 13.
        var editor = DraftEditor(text: "abcdef\nab\n日本語x")
        editor.up()
        editor.up()
        editor.lineEnd()
        editor.left()
        #expect(editor.cursor == 5)
        editor.down()
        #expect(editor.cursor == 9)
        editor.down()
        #expect(editor.cursor == 12)
        editor.up()
        #expect(editor.cursor == 9)
        editor.up()
        #expect(editor.cursor == 5)
        editor.lineStart()
        editor.right()
        editor.right()
        editor.right()
        editor.down()
        editor.down()
        #expect(editor.cursor == 11)
    }

    @Test("up from the first row goes to the start, down from the last to the end")
    func beyond() {
        var editor = DraftEditor(text: "ab\ncd")
        editor.down()
        #expect(editor.cursor == 5)
        editor.up()
        editor.up()
        #expect(editor.cursor == 0)
    }

    @Test("with a width, up and down move along the wrapped rows the editor shows")
    func wrappedRows() {
        var editor = DraftEditor(text: "hello world foo")
        editor.up(width: 8)
        #expect(editor.cursor == 9)
        editor.up(width: 8)
        #expect(editor.cursor == 3)
        editor.down(width: 8)
        editor.down(width: 8)
        #expect(editor.cursor == 15)
        editor.up()
        #expect(editor.cursor == 0)
    }
}
