import NeonClient
import NeonCore
import Testing

@Suite("Draft editor limit")
struct DraftEditorLimitTests {
    @Test("nothing is highlighted up to the limit; from the 281st character on everything is")
    func highlight() throws {
        let counter = try DraftCounter()
        let full = DraftEditor(text: String(repeating: "a", count: 280))
        #expect(full.overLimitRange(counter: counter) == nil)
        #expect(full.status(counter: counter) == counter.status(forCount: 280))
        let text = String(repeating: "a", count: 280) + "bcd"
        let over = DraftEditor(text: text)
        let range = try #require(over.overLimitRange(counter: counter))
        #expect(over.text[range] == "bcd")
        #expect(over.text.distance(from: over.text.startIndex, to: range.lowerBound) == 280)
    }

    @Test("the limit counts grapheme clusters, not scalars")
    func clusters() throws {
        let counter = try DraftCounter(limit: 3)
        let editor = DraftEditor(text: "👨‍👩‍👧‍👦e\u{301}🇺🇸日本")
        #expect(editor.status(counter: counter).count == 5)
        #expect(editor.status(counter: counter).level == .limit)
        let range = try #require(editor.overLimitRange(counter: counter))
        #expect(editor.text[range] == "日本")
    }

    @Test("the highlight follows edits that cross the limit both ways")
    func crossing() throws {
        let counter = try DraftCounter(limit: 5)
        var editor = DraftEditor(text: "abcde")
        #expect(editor.overLimitRange(counter: counter) == nil)
        _ = editor.insert("f")
        #expect(editor.overLimitRange(counter: counter).map { String(editor.text[$0]) } == "f")
        _ = editor.deleteBackward()
        #expect(editor.overLimitRange(counter: counter) == nil)
    }
}
