import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("The parts screens are composed of")
struct ScreenPartsTests {
    @Test("a member's place is kept once: the welcome brings it, a progress moves it, a new document forgets it")
    func placeKeptOnce() {
        let start = Anchor(block: 2, offset: 0)
        var m = ReaderModel(mode: .join, room: "guide", name: "ada", columns: 80, rows: 24, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: me, room: "guide", document: DocumentInfo(title: "Guide", format: .markdown, text: guide),
                        readers: [ReaderInfo(id: me, name: "ada", role: .reader),
                                  ReaderInfo(id: pat, name: "pat", role: .presenter, percent: 40, anchor: start)],
                        presenter: pat, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        #expect(m.presence.presenter == pat && m.presence.anchor(of: pat) == start)

        let moved = Anchor(block: 5, offset: 3)
        _ = m.receive(ServerMessage(seq: 2, .progress(ProgressInfo(id: pat, progress: 0.6, percent: 60, atBottom: false,
                                                                   section: 2, anchor: moved))), at: .seconds(1))
        #expect(m.presence.anchor(of: pat) == moved && m.presence.member(pat)?.percent == 60)

        let other = DocumentInfo(title: "Other", format: .markdown, text: "# One\n\nx\n\n# Two\n\ny")
        _ = m.receive(ServerMessage(seq: 3, .document(DocumentPublished(other, by: pat))), at: .seconds(2))
        #expect(m.pane.document?.title == "Other")
        #expect(m.presence.anchor(of: pat) == nil && m.presence.member(pat)?.percent == 60,
                "the old document's anchor means nothing on the new one; the percent still places the marker")

        _ = m.receive(ServerMessage(seq: 4, .left(ReaderInfo(id: pat, name: "pat", role: .presenter))), at: .seconds(3))
        #expect(m.presence.member(pat) == nil && m.presence.presenter == nil)
    }

    @Test("the same document published again keeps everyone's place")
    func sameDocumentKeepsPlaces() {
        var m = welcomed(.join, presenter: pat)
        let place = Anchor(block: 4, offset: 0)
        _ = m.receive(ServerMessage(seq: 2, .progress(ProgressInfo(id: pat, progress: 0.5, percent: 50, atBottom: false,
                                                                   section: 1, anchor: place))), at: .seconds(1))
        let same = DocumentInfo(title: "Guide", format: .markdown, text: guide)
        _ = m.receive(ServerMessage(seq: 3, .document(DocumentPublished(same, by: pat))), at: .seconds(2))
        #expect(m.presence.anchor(of: pat) == place)
    }

    @Test("the offline notice stays while the room is away and goes with the next welcome; other notices run out")
    func noticeLine() {
        var m = welcomed()
        _ = m.disconnected("gone", at: .seconds(10))
        let offline = m.notices.current
        #expect(offline?.text.hasPrefix("room guide is offline") == true && offline?.until == .seconds(3610))
        _ = m.connected(at: .seconds(20))
        let w = Welcome(you: me, room: "guide", document: DocumentInfo(title: "Guide", format: .markdown, text: guide),
                        readers: [ReaderInfo(id: me, name: "ada", role: .reader)], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .seconds(20))
        #expect(m.notices.current == nil)

        var draft = DraftModel(room: "guide", name: "ada", profile: nil, columns: 40, rows: 10)
        _ = draft.receive(ServerMessage(seq: 1, .error(ProtocolError(.invalidMessage, "no"))), at: .seconds(1))
        #expect(draft.notices.current?.text == "no" && draft.notices.current?.isError == true)
        #expect(draft.view(at: .seconds(8), theme: .monochrome).lines().last?.hasPrefix(" no ") == true)
        #expect(draft.view(at: .seconds(9), theme: .monochrome).lines().last?.hasPrefix(" type to edit") == true)
    }
}
