import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import Testing

/// The presenter's notes screen is theirs: the audience does not see it.
@Suite("The audience does not see the presenter's notes screen")
struct NotesScreenAudienceTests {
    let notesScreen = ReaderInfo(id: ClientID("c7"), name: "pat-notes", role: .observer)

    var marked: ReaderInfo {
        var info = notesScreen
        info.notes = true
        return info
    }

    @Test("a follower is not told it joined or left, and does not count or list it; a plain observer still is")
    func followerSeesNothing() {
        var m = welcomed(.follow, presenter: pat)
        _ = m.receive(ServerMessage(seq: 2, .joined(marked)), at: .seconds(1))
        #expect(m.notices.current == nil || m.notices.current?.text.contains("pat-notes") == false)
        #expect(m.headcount.watching == 0 && !m.presence.readers.contains { $0.id == marked.id })
        _ = m.receive(ServerMessage(seq: 3, .left(marked)), at: .seconds(2))
        #expect(m.notices.current?.text.contains("pat-notes") != true)
        let screen = snapshot(m.view(at: .seconds(2), theme: .monochrome))
        #expect(!screen.contains("pat-notes") && !screen.contains("watching"))

        _ = m.receive(ServerMessage(seq: 4, .joined(notesScreen)), at: .seconds(3))
        #expect(m.notices.current?.text == "pat-notes joined as observer" && m.headcount.watching == 1)
    }

    @Test("a welcome lists the notes screen to nobody in the audience, nor does the draft editor count it")
    func welcomeAndDraft() {
        let w = Welcome(you: me, room: "guide", document: DocumentInfo(title: "Guide", format: .markdown, text: guide),
                        readers: [ReaderInfo(id: pat, name: "pat", role: .presenter), marked, ReaderInfo(id: me, name: "ada", role: .reader)],
                        presenter: pat, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        var reader = ReaderModel(mode: .read, room: "guide", name: "ada", columns: 80, rows: 24, at: .zero)
        _ = reader.connected(at: .zero)
        _ = reader.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        #expect(reader.headcount == Headcount(reading: 2, watching: 0))
        var draft = DraftModel(room: "guide", name: "ada", profile: nil, columns: 80, rows: 24)
        _ = draft.connected(at: .zero)
        _ = draft.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        #expect(draft.presence.headcount == Headcount(reading: 2, watching: 0))
    }

    @Test("the monitor and tail show it as the presenter's notes")
    func operatorsSeeIt() {
        var monitor = watchingMonitor()
        _ = monitor.receive(ServerMessage(seq: 4, .joined(marked)), at: .seconds(1))
        _ = monitor.receive(ServerMessage(seq: 5, .left(marked)), at: .seconds(2))
        #expect(monitor.feed.lines.suffix(2).map(\.text) == ["pat-notes opened the presenter's notes", "pat-notes closed the presenter's notes"])
        var tail = TailFeed()
        #expect(tail.describe(ServerMessage(seq: 4, .joined(marked))) == "pat-notes opened the presenter's notes")
    }
}
