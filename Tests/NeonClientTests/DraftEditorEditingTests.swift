import NeonClient
import NeonCore
import Testing

@Suite("Draft editor editing")
struct DraftEditorEditingTests {
    /// An editor whose edits are all acknowledged at once, so each returns
    /// its own operation.
    private func typed(_ pieces: [String], into editor: inout DraftEditor) throws {
        for piece in pieces {
            _ = editor.insert(piece)
            _ = try editor.acknowledged()
        }
    }

    @Test("typing sends the first edit and buffers the rest until the server acknowledges it")
    func typingAndBuffering() throws {
        var editor = DraftEditor()
        #expect(editor.insert("a") == TextOperation([.insert("a")]))
        #expect(editor.insert("b") == nil)
        #expect(editor.insert("c") == nil)
        #expect(editor.text == "abc")
        #expect(editor.cursor == 3)
        #expect(try editor.acknowledged() == TextOperation([.retain(1), .insert("bc")]))
        #expect(editor.revision == 1)
        #expect(try editor.acknowledged() == nil)
        #expect(editor.revision == 2)
        #expect(throws: OTClientError.unexpectedAcknowledgement(revision: 2)) { try editor.acknowledged() }
    }

    @Test("an editor opens on the server's text with the cursor at its end")
    func opening() {
        let editor = DraftEditor(text: "héllo 👋", revision: 7)
        #expect(editor.cursor == "héllo 👋".unicodeScalars.count)
        #expect(editor.revision == 7)
        #expect(!editor.canUndo && !editor.canRedo)
    }

    @Test("emoji, CJK and ZWJ sequences go in as typed and move the cursor by their scalars")
    func wideAndClustered() throws {
        var editor = DraftEditor()
        try typed(["日本", "👨‍👩‍👧‍👦", "e", "\u{301}", "🇺🇸"], into: &editor)
        #expect(editor.text == "日本👨‍👩‍👧‍👦é🇺🇸")
        #expect(editor.text.count == 5)
        #expect(editor.cursor == 2 + 7 + 2 + 2)
    }

    @Test("backspace deletes one grapheme cluster however many scalars it has")
    func backspaceByCluster() throws {
        var editor = DraftEditor()
        try typed(["a", "👨‍👩‍👧‍👦", "e", "\u{301}", "🇺🇸"], into: &editor)
        #expect(editor.deleteBackward() == TextOperation([.retain(10), .delete(2)]))
        #expect(editor.text == "a👨‍👩‍👧‍👦é")
        _ = try editor.acknowledged()
        #expect(editor.deleteBackward() == TextOperation([.retain(8), .delete(2)]))
        _ = try editor.acknowledged()
        #expect(editor.deleteBackward() == TextOperation([.retain(1), .delete(7)]))
        #expect(editor.text == "a")
        #expect(editor.cursor == 1)
    }

    @Test("backspace at the start and delete at the end change nothing and send nothing")
    func edges() {
        var editor = DraftEditor(text: "ab")
        #expect(editor.deleteForward() == nil)
        editor.lineStart()
        #expect(editor.deleteBackward() == nil)
        #expect(editor.text == "ab")
        #expect(!editor.canUndo)
    }

    @Test("delete removes the cluster after the cursor and leaves the cursor in place")
    func deleteForward() throws {
        var editor = DraftEditor(text: "👍🏽x")
        editor.lineStart()
        #expect(editor.deleteForward() == TextOperation([.delete(2), .retain(1)]))
        #expect(editor.text == "x")
        #expect(editor.cursor == 0)
    }

    @Test("a cluster completed by inserting before it keeps the cursor on a cluster boundary")
    func insertJoiningCluster() {
        var editor = DraftEditor(text: "🇺🇸")
        editor.lineStart()
        _ = editor.insert("🇫")
        #expect(editor.text.unicodeScalars.count == 3)
        #expect(editor.text.count == 2)
        #expect(editor.cursor == 2)
    }

    @Test("Ctrl-W deletes back over spaces and punctuation, then the word")
    func deleteWord() throws {
        var editor = DraftEditor(text: "hello, wörld 日本  ")
        #expect(editor.deleteWordBackward() == TextOperation([.retain(13), .delete(4)]))
        #expect(editor.text == "hello, wörld ")
        _ = try editor.acknowledged()
        _ = editor.deleteWordBackward()
        #expect(editor.text == "hello, ")
        _ = try editor.acknowledged()
        _ = editor.deleteWordBackward()
        #expect(editor.text == "")
        #expect(editor.deleteWordBackward() == nil)
    }

    @Test("a paste is one edit with its line breaks made LF, tabs made spaces and control characters dropped")
    func paste() {
        var editor = DraftEditor(text: "> ")
        #expect(editor.paste("one\r\ntwo\rthree\tfour\u{7}") == TextOperation([.retain(2), .insert("one\ntwo\nthree four")]))
        #expect(editor.text == "> one\ntwo\nthree four")
        #expect(editor.cursor == editor.text.unicodeScalars.count)
        #expect(editor.paste("\u{1B}") == nil)
        #expect(editor.insert("") == nil)
    }

    @Test("typing in the middle inserts at the cursor")
    func middle() throws {
        var editor = DraftEditor(text: "ac")
        editor.left()
        #expect(editor.insert("b") == TextOperation([.retain(1), .insert("b"), .retain(1)]))
        #expect(editor.text == "abc")
        #expect(editor.cursor == 2)
    }
}
