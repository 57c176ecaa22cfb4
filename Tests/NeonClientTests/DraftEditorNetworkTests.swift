import NeonClient
import NeonCore
import Testing

@Suite("Draft editor network")
struct DraftEditorNetworkTests {
    private let ada = ClientID("ada"), bo = ClientID("bo")

    @Test("someone else's insert before the cursor shifts it, after it does not")
    func shifts() throws {
        var editor = DraftEditor(text: "abcd")
        editor.left()
        editor.left()
        try editor.receive(TextOperation([.insert("日本"), .retain(4)]))
        #expect(editor.cursor == 4)
        try editor.receive(TextOperation([.retain(5), .insert("x"), .retain(1)]))
        #expect(editor.text == "日本abcxd")
        #expect(editor.cursor == 4)
        #expect(editor.revision == 2)
    }

    @Test("text typed right at the cursor goes after it, but the author's own cursor follows it")
    func insertAtCursor() throws {
        var editor = DraftEditor(text: "ab")
        editor.left()
        editor.setRemoteCursor(ada, at: 1)
        editor.setRemoteCursor(bo, at: 1)
        try editor.receive(TextOperation([.retain(1), .insert("XYZ"), .retain(1)]), from: ada)
        #expect(editor.text == "aXYZb")
        #expect(editor.cursor == 1)
        #expect(editor.remoteCursors == [ada: 4, bo: 1])
    }

    @Test("a delete around the cursor pulls it to where the deleted text was")
    func deleteAround() throws {
        var editor = DraftEditor(text: "abcdef")
        editor.left()
        editor.left()
        editor.setRemoteCursor(ada, at: 6)
        try editor.receive(TextOperation([.retain(1), .delete(4), .retain(1)]))
        #expect(editor.text == "af")
        #expect(editor.cursor == 1)
        #expect(editor.remoteCursors[ada] == 2)
    }

    @Test("someone else's edit is transformed past this user's unacknowledged typing")
    func pendingTyping() throws {
        var editor = DraftEditor(text: "ab", revision: 4)
        #expect(editor.insert("!") == TextOperation([.retain(2), .insert("!")]))
        _ = editor.insert("?")
        try editor.receive(TextOperation([.insert(">"), .retain(2)]))
        #expect(editor.text == ">ab!?")
        #expect(editor.cursor == 5)
        #expect(try editor.acknowledged() == TextOperation([.retain(4), .insert("?")]))
        #expect(editor.revision == 6)
    }

    @Test("this user's edits move the others' cursors; a remote cursor lands on a cluster boundary")
    func ownEditsMoveOthers() throws {
        var editor = DraftEditor(text: "a👨‍👩‍👧‍👦b")
        editor.setRemoteCursor(ada, at: 3)
        editor.setRemoteCursor(bo, at: 99)
        #expect(editor.remoteCursors == [ada: 8, bo: 9])
        editor.lineStart()
        _ = editor.insert("12")
        #expect(editor.remoteCursors == [ada: 10, bo: 11])
        editor.removeRemoteCursor(bo)
        #expect(editor.remoteCursors == [ada: 10])
    }

    @Test("an edit that does not fit is refused and changes nothing")
    func mismatch() throws {
        var editor = DraftEditor(text: "abc")
        _ = editor.insert("d")
        let before = editor
        #expect(throws: OTClientError.self) { try editor.receive(TextOperation([.retain(9)])) }
        #expect(editor == before)
    }

    @Test("a rebase takes the server's text with the edits still awaiting it moved onto it, keeps the cursor, and forgets the history and the others' cursors")
    func rebase() throws {
        var editor = DraftEditor(text: "hello world")
        editor.wordLeft()
        _ = editor.insert("big ")
        editor.setRemoteCursor(ada, at: 12)
        let pending = editor.rebase(onto: "oh hello world", revision: 12)
        #expect(pending == TextOperation([.retain(9), .insert("big "), .retain(5)]))
        #expect(editor.text == "oh hello big world")
        #expect(editor.confirmed == "oh hello world")
        #expect(editor.cursor == 13)
        #expect(editor.remoteCursors.isEmpty)
        #expect(editor.revision == 12)
        #expect(!editor.canUndo)
        #expect(editor.insert("x") == nil)
        #expect(editor.text == "oh hello big xworld")
    }

    @Test("a rebase with nothing awaiting the server takes its text as it is and sends nothing")
    func rebaseWithoutEdits() throws {
        var editor = DraftEditor(text: "hello world")
        editor.wordLeft()
        #expect(editor.rebase(onto: "oh hello world", revision: 12) == nil)
        #expect(editor.text == "oh hello world" && editor.cursor == 9 && editor.revision == 12)
        #expect(editor.insert("x") == TextOperation([.retain(9), .insert("x"), .retain(5)]))
    }

    @Test("a rebase keeps a delete of a character the server kept, and the text the server added stays")
    func rebaseKeepsDeletes() throws {
        var editor = DraftEditor(text: "abcXdef")
        editor.textStart()
        for _ in 0..<4 { editor.right() }
        _ = editor.deleteBackward()
        #expect(editor.text == "abcdef")
        // The server changed both ends meanwhile; X, which this user
        // deleted, is still there in its text.
        let pending = editor.rebase(onto: "AbcXdeF", revision: 30)
        #expect(pending == TextOperation([.retain(3), .delete(1), .retain(3)]))
        #expect(editor.text == "AbcdeF")
    }
}
