import NeonClient
import NeonCore
import NeonTUI
import Testing

@Suite("DraftEditorView.Layout")
struct DraftEditorViewLayoutTests {
    /// Each row's characters.
    func rows(_ text: String, width: Int?) -> [String] {
        DraftEditorView.Layout(text: text, width: width).rows.map { String($0.glyphs.map(\.character)) }
    }

    @Test("an empty text has one empty row, and hard newlines end rows")
    func hardLines() {
        #expect(rows("", width: 10) == [""])
        #expect(rows("ab\n\ncd\n", width: 10) == ["ab", "", "cd", ""])
        #expect(rows("ab\r\ncd", width: nil) == ["ab", "cd"])
    }

    @Test("a long line wraps after its last space that fits")
    func wordWrap() {
        #expect(rows("hello world foo", width: 8) == ["hello ", "world ", "foo"])
        #expect(rows("hello world foo", width: nil) == ["hello world foo"])
        #expect(rows("hello world foo", width: 0) == ["hello world foo"])
    }

    @Test("a word wider than the row breaks between characters")
    func characterWrap() {
        #expect(rows("abcdefgh", width: 3) == ["abc", "def", "gh"])
        #expect(rows("ab abcdefgh", width: 4) == ["ab ", "abcd", "efgh", ""])
    }

    @Test("a space that does not fit hangs past the edge and the cursor before it shows on the next row")
    func hangingSpace() {
        let layout = DraftEditorView.Layout(text: "abc def", width: 3)
        #expect(layout.rows.map { String($0.glyphs.map(\.character)) } == ["abc ", "def", ""])
        #expect(layout.place(of: 3) == (1, 0))
        #expect(layout.place(of: 4) == (1, 0))
        #expect(layout.place(of: 7) == (2, 0))
        #expect(layout.position(row: 0, column: 9) == 2)
    }

    @Test("the end of a line that fills its row gets a row of its own")
    func fullRow() {
        let layout = DraftEditorView.Layout(text: "abc\nd", width: 3)
        #expect(layout.rows.count == 3)
        #expect(layout.place(of: 3) == (1, 0))
        #expect(layout.place(of: 4) == (2, 0))
        #expect(layout.place(of: 5) == (2, 1))
    }

    @Test("wide characters take two columns and wrap whole")
    func wide() {
        let layout = DraftEditorView.Layout(text: "日本語", width: 5)
        #expect(layout.rows.map { String($0.glyphs.map(\.character)) } == ["日本", "語"])
        #expect(layout.place(of: 1) == (0, 2))
        #expect(layout.place(of: 2) == (1, 0))
        #expect(layout.place(of: 3) == (1, 2))
        #expect(layout.position(row: 0, column: 3) == 1)
        #expect(layout.position(row: 1, column: 1) == 2)
        #expect(layout.position(row: 1, column: 2) == 3)
    }

    @Test("a wide character in a one-column row still gets its own row")
    func wideInNarrow() {
        let layout = DraftEditorView.Layout(text: "日本", width: 1)
        #expect(layout.rows.map { String($0.glyphs.map(\.character)) } == ["日", "本", ""])
    }

    @Test("positions count scalars while glyphs are whole grapheme clusters")
    func clusters() {
        let family = "👨‍👩‍👧‍👦"
        let layout = DraftEditorView.Layout(text: "a\(family)b", width: 10)
        #expect(layout.rows[0].glyphs.map(\.offset) == [0, 1, 8])
        #expect(layout.rows[0].glyphs.map(\.column) == [0, 1, 3])
        #expect(layout.place(of: 8) == (0, 3))
        #expect(layout.place(of: 4) == (0, 1))
        #expect(layout.place(of: 9) == (0, 4))
    }
}
