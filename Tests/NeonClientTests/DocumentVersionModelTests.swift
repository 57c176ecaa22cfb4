import NeonClient
import NeonCore
import NeonTUI
import Testing

@Suite("A document that changes while you read it: the reader model")
struct DocumentVersionModelTests {
    let pat = ClientID("c9")
    static let lines = (1...30).map { "Paragraph \($0) of the changing talk." }
    static let first = "# Talk\n\n" + lines.joined(separator: "\n\n")
    static let second = "# Talk\n\nA paragraph written above everyone.\n\nAnother new one.\n\n" + lines.joined(separator: "\n\n")

    func sentDocuments(_ commands: [ClientCommand]) -> [ClientMessage] {
        commands.compactMap { if case let .send(m) = $0, case .document = m { m } else { nil } }
    }

    /// `read FILE` welcomed into its own room, the file published back.
    func reader() -> ReaderModel {
        let file = DocumentInfo(title: "talk.md", format: .markdown, text: Self.first)
        var m = ReaderModel(mode: .read, room: "talk", name: "ada", columns: 80, rows: 24, document: file, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: me, room: "talk", document: nil, readers: [ReaderInfo(id: me, name: "ada", role: .reader)],
                        presenter: nil, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        _ = m.receive(ServerMessage(seq: 2, .document(DocumentPublished(DocumentInfo(title: "talk.md", format: .markdown, text: Self.first, version: 1), by: me))), at: .zero)
        return m
    }

    func topRow(_ m: ReaderModel) -> String {
        m.pane.layout.map { String($0.line(at: m.pane.top).text) } ?? ""
    }

    @Test("a new version of FILE goes to the room as the document's next version; shown when it comes back, on the same words")
    func publishAndKeepPlace() throws {
        var m = reader()
        _ = m.scroll(to: 20, at: .zero)
        let before = topRow(m)
        let out = m.fileChanged(Self.second, at: .seconds(1))
        #expect(sentDocuments(out) == [.document(title: "talk.md", format: .markdown, text: Self.second,
                                                 parser: Document.parserIdentity, revises: 1)])
        #expect(topRow(m) == before && m.roomVersion == 1, "nothing changes here until the room has it")
        let back = DocumentPublished(DocumentInfo(title: "talk.md", format: .markdown, text: Self.second, version: 2), by: me, revises: 1)
        _ = m.receive(ServerMessage(seq: 3, .document(back)), at: .seconds(1))
        #expect(topRow(m) == before, "the same words at the top")
        #expect(m.pane.top == 24 && m.roomVersion == 2)
        #expect(m.notices.current?.text == "“talk.md” changed: the room has version 2")
    }

    @Test("another member's new version: the place, the others' places and a follower's presenter are carried; a notice says by whom")
    func othersVersion() throws {
        var follower = ReaderModel(mode: .follow, room: "talk", name: "ada", columns: 60, rows: 20, at: .zero)
        _ = follower.connected(at: .zero)
        let presenterAnchor = Anchor(block: 10, offset: 0)
        let w = Welcome(you: me, room: "talk", document: DocumentInfo(title: "talk.md", format: .markdown, text: Self.first, version: 1),
                        readers: [ReaderInfo(id: pat, name: "pat", role: .presenter, anchor: presenterAnchor),
                                  ReaderInfo(id: me, name: "ada", role: .reader, following: true)],
                        presenter: pat, draft: DraftInfo(text: "a draft", rev: 1, status: try! DraftCounter().status(forCount: 7)))
        _ = follower.receive(ServerMessage(seq: 5, .welcome(w)), at: .zero)
        let before = topRow(follower)
        #expect(before.hasPrefix("Paragraph 10"))
        let next = DocumentPublished(DocumentInfo(title: "talk.md", format: .markdown, text: Self.second, version: 2), by: pat, revises: 1)
        _ = follower.receive(ServerMessage(seq: 6, .document(next)), at: .seconds(1))
        #expect(topRow(follower) == before, "still with the presenter, on the same words")
        #expect(follower.presence.anchor(of: pat) == Anchor(block: 12, offset: 0))
        #expect(follower.notices.current?.text == "pat published version 2 of “talk.md”; everyone keeps their place")
        #expect(follower.draft.editor.text == "a draft", "the draft is untouched")
    }

    @Test("a version the room refuses (too large) keeps the last good one and says why; one that does not parse is never sent")
    func refusedVersions() throws {
        var m = reader()
        _ = m.fileChanged(Self.second, at: .seconds(1))
        _ = m.receive(ServerMessage(seq: 3, .error(ProtocolError(.documentTooLarge, "the document is 5000000 bytes, over this server's limit"))),
                      at: .seconds(1))
        #expect(m.connection == .joined, "the reader carries on")
        #expect(m.notices.current?.text == "talk.md changed, but the room keeps the version it has: the document is 5000000 bytes, over this server's limit")
        #expect(m.pane.document?.blocks.count == 31)
        let catalog = DocumentInfo(title: "animals.json", format: .catalog, text: #"[{"type":"Cats","body":[]}]"#)
        var c = ReaderModel(mode: .read, room: "zoo", name: "ada", columns: 80, rows: 24, document: catalog, at: .zero)
        #expect(c.fileChanged("[{not json", at: .seconds(1)).isEmpty)
        #expect(c.notices.current?.text.hasPrefix("animals.json changed, but") == true)
        #expect(c.fileUnreadable("is gone", at: .seconds(2)).isEmpty)
        #expect(c.notices.current?.text == "animals.json is gone; showing its last good version")
    }

    @Test("away from the room a new version shows at once, and goes to the room as its next version when it is back")
    func offline() throws {
        var m = reader()
        _ = m.scroll(to: 20, at: .zero)
        let before = topRow(m)
        _ = m.disconnected("gone", at: .seconds(1))
        _ = m.fileChanged(Self.second, at: .seconds(2))
        #expect(topRow(m) == before && m.pane.document?.blocks.count == 33, "shown here at once, on the same words")
        _ = m.connected(at: .seconds(3))
        let w = Welcome(you: ClientID("c2"), room: "talk", document: DocumentInfo(title: "talk.md", format: .markdown, text: Self.first, version: 1),
                        readers: [ReaderInfo(id: ClientID("c2"), name: "ada", role: .reader)], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        let out = m.receive(ServerMessage(seq: 9, .welcome(w)), at: .seconds(3))
        #expect(sentDocuments(out) == [.document(title: "talk.md", format: .markdown, text: Self.second,
                                                 parser: Document.parserIdentity, revises: 1)])
        #expect(topRow(m) == before, "the room's older version is not shown over it")
    }

    @Test("the presenter's notes of a new version show with it")
    func presenterNotes() throws {
        let file = DocumentInfo(title: "talk.md", format: .markdown, text: "# Talk\n\nHello.\n\n<!-- speaker_note: old note -->")
        var m = ReaderModel(mode: .present, room: "talk", name: "pat", columns: 120, rows: 30, document: file, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: pat, room: "talk", document: nil, readers: [ReaderInfo(id: pat, name: "pat", role: .presenter)],
                        presenter: pat, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        let firstText = PresenterSource(markdown: file.text).published
        _ = m.receive(ServerMessage(seq: 2, .document(DocumentPublished(DocumentInfo(title: "talk.md", format: .markdown, text: firstText, version: 1), by: pat))), at: .zero)
        #expect(m.fileChanged("# Talk\n\nHello.\n\n<!-- speaker_note: new note -->", at: .seconds(1)).isEmpty, "the room's text is the same")
        #expect(m.notes.notes.map(\.text) == ["new note"])
        let out = m.fileChanged("# Talk\n\nHello there.\n\n<!-- speaker_note: newest note -->", at: .seconds(2))
        #expect(sentDocuments(out).count == 1 && m.notes.notes.map(\.text) == ["new note"])
        let newest = PresenterSource(markdown: "# Talk\n\nHello there.\n\n<!-- speaker_note: newest note -->").published
        let back = DocumentPublished(DocumentInfo(title: "talk.md", format: .markdown, text: newest, version: 2), by: pat, revises: 1)
        _ = m.receive(ServerMessage(seq: 3, .document(back)), at: .seconds(2))
        #expect(m.notes.notes.map(\.text) == ["newest note"])
    }
}
