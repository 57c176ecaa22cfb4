import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import Testing

/// `neonsync notes FILE` reads FILE again as it changes, as `present FILE`
/// does, and places its notes on whichever version the room shows.
@Suite("The notes screen reads each new version of FILE")
struct NotesReloadTests {
    /// A notes screen on `notedTalk`, the presenter on §2 of the room's copy of it.
    func notesScreen() -> NotesModel {
        var n = NotesModel(room: "talk", name: "pat", file: DocumentInfo(title: "talk.md", format: .markdown, text: notedTalk),
                           columns: 70, rows: 20)
        _ = n.update(.connected(to: "ws://server/"), at: .zero)
        let w = Welcome(you: ClientID("c2"), room: "talk",
                        document: DocumentInfo(title: "talk.md", format: .markdown, text: n.published.text, version: 1),
                        readers: [ReaderInfo(id: pat, name: "pat", role: .presenter)], presenter: pat,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = n.update(.received(ServerMessage(seq: 2, .welcome(w)), text: ""), at: .seconds(1))
        let progress = ProgressInfo(id: pat, progress: 0.5, percent: 50, atBottom: false, section: 1, anchor: Anchor(block: 3, offset: 0))
        _ = n.update(.received(ServerMessage(seq: 3, .progress(progress)), text: ""), at: .seconds(1))
        return n
    }

    @Test("a note edited in FILE shows at once, through the runtime's fileChanged event; the room's text did not change, nothing is said")
    func editedNote() {
        var n = notesScreen()
        #expect(n.passageNotes == ["mention the baseline\nthen the chart"])
        let edited = notedTalk.replacingOccurrences(of: "mention the baseline", with: "start from last year's baseline")
        _ = n.update(.fileChanged(text: edited), at: .seconds(2))
        #expect(n.passageNotes == ["start from last year's baseline\nthen the chart"])
        #expect(n.notices.current == nil)
    }

    @Test("a passage edited in FILE: its notes show on the room's version until the presenter's terminal publishes the new one, and no warning comes between")
    func editedPassage() {
        var n = notesScreen()
        let edited = notedTalk.replacingOccurrences(of: "# Results\n\nThe numbers went up.",
                                                    with: "# Results\n\nA new first line.\n\nThe numbers went up a lot.")
            .replacingOccurrences(of: "mention the baseline", with: "mention the new baseline")
        _ = n.update(.fileChanged(text: edited), at: .seconds(2))
        #expect(n.passageNotes == ["mention the new baseline\nthen the chart"], "on the room's version, the nearest passage")
        #expect(n.notices.current == nil, "the room's document is an earlier version of FILE, not another document")
        let published = PresenterSource(markdown: edited).published
        let version = DocumentPublished(DocumentInfo(title: "talk.md", format: .markdown, text: published, version: 2), by: pat, revises: 1)
        _ = n.update(.received(ServerMessage(seq: 4, .document(version)), text: ""), at: .seconds(2))
        let progress = ProgressInfo(id: pat, progress: 0.5, percent: 50, atBottom: false, section: 1, anchor: Anchor(block: 3, offset: 0))
        _ = n.update(.received(ServerMessage(seq: 5, .progress(progress)), text: ""), at: .seconds(2))
        #expect(n.passageNotes == ["mention the new baseline\nthen the chart"])
        #expect(n.notices.current == nil)
        let screen = snapshot(n.view(at: .seconds(2), theme: .monochrome))
        #expect(screen.contains("mention the new baseline") && !screen.contains("is not talk.md"))
    }

    @Test("a room showing another document is still said to be so")
    func anotherDocument() {
        var n = notesScreen()
        let other = DocumentPublished(DocumentInfo(title: "other.md", format: .markdown, text: "# Other", version: 2), by: pat)
        _ = n.update(.received(ServerMessage(seq: 4, .document(other)), text: ""), at: .seconds(2))
        #expect(n.notices.current?.text == "the room's document is not talk.md as it is now: notes may be beside other passages")
    }
}
