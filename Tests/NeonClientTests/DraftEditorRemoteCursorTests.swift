import NeonClient
import NeonCore
import NeonTUI
import Testing

@Suite("Draft editor remote cursors")
struct DraftEditorRemoteCursorTests {
    let bob = ClientID("c2")

    @Test("an edit broadcast puts its author's cursor at the end of the insertion, before any cursor message")
    func editShowsCursor() throws {
        var m = joinedDraft(text: "hello world")
        #expect(m.editor.remoteCursors.isEmpty)
        _ = m.receive(ServerMessage(seq: 2, .edit(EditInfo(rev: 1, ops: TextOperation([.retain(5), .insert(", dear"), .retain(6)]),
                                                           by: bob, key: nil))), at: .seconds(1))
        #expect(m.editor.text == "hello, dear world")
        #expect(m.editor.remoteCursors == [bob: 11])
        _ = m.receive(ServerMessage(seq: 3, .edit(EditInfo(rev: 2, ops: TextOperation([.delete(7), .retain(10)]),
                                                           by: bob, key: nil))), at: .seconds(2))
        #expect(m.editor.remoteCursors == [bob: 0])
        let footer = m.view(at: .seconds(2), theme: .monochrome).lines()
        #expect(footer.contains { $0.contains("bob") }, "the footer names bob as soon as he types")
    }

    @Test("a welcome after a reconnect clears the others' cursors, and typing brings them back")
    func welcomeClears() throws {
        var m = joinedDraft(text: "abc")
        _ = m.receive(ServerMessage(seq: 2, .edit(EditInfo(rev: 1, ops: TextOperation([.retain(3), .insert("X")]), by: bob))),
                      at: .seconds(1))
        #expect(m.editor.remoteCursors == [bob: 4])
        _ = m.disconnected("gone", at: .seconds(1))
        _ = m.connected(at: .seconds(2))
        let w = Welcome(you: ClientID("c7"), room: "post", document: nil,
                        readers: [ReaderInfo(id: ClientID("c7"), name: "ada", role: .reader),
                                  ReaderInfo(id: bob, name: "bob", role: .reader)],
                        presenter: nil, draft: DraftInfo(text: "abcXd", rev: 2, status: try! DraftCounter().status(forCount: 5),
                                                         missed: [EditInfo(rev: 2, ops: TextOperation([.retain(4), .insert("d")]), by: bob)]))
        _ = m.receive(ServerMessage(seq: 9, .welcome(w)), at: .seconds(2))
        #expect(m.editor.text == "abcXd" && m.editor.revision == 2)
        #expect(m.editor.remoteCursors.isEmpty)
        _ = m.receive(ServerMessage(seq: 10, .edit(EditInfo(rev: 3, ops: TextOperation([.retain(5), .insert("!")]), by: bob))),
                      at: .seconds(3))
        #expect(m.editor.remoteCursors == [bob: 6])
    }

    @Test("a rebase forgets the others' cursors; the editor's own cursor keeps its place")
    func rebase() {
        var editor = DraftEditor(text: "abcdef")
        editor.left()
        editor.setRemoteCursor(bob, at: 3)
        #expect(editor.rebase(onto: "abcdefgh", revision: 4) == nil)
        #expect(editor.remoteCursors.isEmpty)
        #expect(editor.cursor == 5)
    }
}
