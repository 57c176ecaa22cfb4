import NeonClient
import NeonCore
import Testing

@Suite("Draft editor undo")
struct DraftEditorUndoTests {
    /// `editor` after typing `text` a character at a time, acknowledged as
    /// it goes.
    private func type(_ text: String, into editor: inout DraftEditor) throws {
        for character in text {
            _ = editor.insert(String(character))
            _ = try editor.acknowledged()
        }
    }

    @Test("typing is undone a word at a time and redone the same way")
    func words() throws {
        var editor = DraftEditor()
        try type("hello world", into: &editor)
        #expect(editor.undo() == TextOperation([.retain(6), .delete(5)]))
        #expect(editor.text == "hello ")
        #expect(editor.cursor == 6)
        _ = try editor.acknowledged()
        _ = editor.undo()
        #expect(editor.text == "")
        #expect(!editor.canUndo)
        _ = try editor.acknowledged()
        _ = editor.redo()
        #expect(editor.text == "hello ")
        _ = try editor.acknowledged()
        _ = editor.redo()
        #expect(editor.text == "hello world")
        #expect(editor.cursor == 11)
        #expect(!editor.canRedo)
        #expect(editor.redo() == nil)
    }

    @Test("a pause of a second between keys ends the undo step, even inside a word; a shorter one does not")
    func pauses() throws {
        var m = joinedDraft()
        func type(_ text: String, from start: Duration) {
            for (index, character) in text.enumerated() {
                _ = m.handle(.key(.character(character)), at: start + .milliseconds(100 * index))
            }
        }
        type("alpha", from: .zero)
        type("beta", from: .milliseconds(400) + .milliseconds(900))
        type("gamma", from: .seconds(4))
        #expect(m.editor.text == "alphabetagamma")
        _ = m.handle(.key(.ctrl("z")), at: .seconds(6))
        #expect(m.editor.text == "alphabeta")
        _ = m.handle(.key(.ctrl("z")), at: .seconds(6))
        #expect(m.editor.text == "")
    }

    @Test("a run of backspaces is one step, and a move ends the run of typing")
    func runs() throws {
        var editor = DraftEditor()
        try type("abc", into: &editor)
        editor.left()
        editor.right()
        try type("de", into: &editor)
        for _ in 0..<4 {
            _ = editor.deleteBackward()
            _ = try editor.acknowledged()
        }
        #expect(editor.text == "a")
        _ = editor.undo()
        #expect(editor.text == "abcde")
        _ = try editor.acknowledged()
        _ = editor.undo()
        #expect(editor.text == "abc")
    }

    @Test("a new edit after an undo drops the redo history")
    func newEditDropsRedo() throws {
        var editor = DraftEditor()
        try type("ab", into: &editor)
        _ = editor.undo()
        #expect(editor.canRedo)
        _ = editor.insert("x")
        #expect(!editor.canRedo)
        #expect(editor.text == "x")
    }

    @Test("undo after someone else's edit removes only this user's text")
    func onlyOwnText() throws {
        var editor = DraftEditor(text: "", revision: 0)
        try type("hello", into: &editor)
        // Someone puts "XY" inside the word and " there" after it.
        try editor.receive(TextOperation([.retain(2), .insert("XY"), .retain(3)]))
        try editor.receive(TextOperation([.retain(7), .insert(" there")]))
        #expect(editor.text == "heXYllo there")
        #expect(editor.undo() == TextOperation([.delete(2), .retain(2), .delete(3), .retain(6)]))
        #expect(editor.text == "XY there")
        #expect(editor.cursor == 2)
        _ = try editor.acknowledged()
        _ = editor.redo()
        #expect(editor.text == "heXYllo there")
    }

    @Test("undoing a delete after someone else's edit restores the text where it now belongs")
    func restoreDeleted() throws {
        var editor = DraftEditor(text: "abcdef", revision: 3)
        editor.left()
        editor.left()
        _ = editor.deleteBackward()
        _ = editor.deleteBackward()
        #expect(editor.text == "abef")
        try editor.receive(TextOperation([.insert("Z"), .retain(6)]))
        #expect(editor.text == "Zabef")
        _ = editor.undo()
        #expect(editor.text == "Zabcdef")
        #expect(editor.cursor == 5)
    }

    @Test("a step whose text someone else deleted is dropped from the history")
    func droppedStep() throws {
        var editor = DraftEditor(text: "x")
        try type("hi", into: &editor)
        try editor.receive(TextOperation([.retain(1), .delete(2)]))
        #expect(editor.text == "x")
        #expect(!editor.canUndo)
        #expect(editor.undo() == nil)
    }

    @Test("typing after the others deleted this user's last step starts a new step")
    func runEndsWhenStepDropped() throws {
        var editor = DraftEditor()
        try type("ab x", into: &editor)
        try editor.receive(TextOperation([.retain(2), .delete(2)]))
        #expect(editor.canUndo)
        try type("y", into: &editor)
        #expect(editor.text == "aby")
        _ = editor.undo()
        #expect(editor.text == "ab")
        _ = try editor.acknowledged()
        _ = editor.undo()
        #expect(editor.text == "")
    }

    @Test("only the newest undo steps are kept")
    func limit() throws {
        var editor = DraftEditor()
        for _ in 0..<(DraftEditor.undoLimit + 3) {
            _ = editor.paste("x")
            _ = try editor.acknowledged()
        }
        var undone = 0
        while editor.undo() != nil {
            _ = try editor.acknowledged()
            undone += 1
        }
        #expect(undone == DraftEditor.undoLimit)
        #expect(editor.text == "xxx")
    }
}
