import NeonClient
import NeonCore
import Testing

/// tail, the monitor and replay say the same things the same way.
@Suite("tail, the monitor and replay agree")
struct RoomLineTests {
    let talk = "# Intro\nHello\n\n# Client → server\nThe client sends its place.\n"
    let ada = ClientID("c1"), bob = ClientID("c2")

    /// The monitor and tail, both welcomed into "talk" with `talk`.
    func watching() -> (MonitorModel, TailFeed) {
        let w = Welcome(you: ClientID("c9"), room: "talk", document: DocumentInfo(title: "Talk", format: .markdown, text: talk),
                        readers: [ReaderInfo(id: ada, name: "ada", role: .presenter), ReaderInfo(id: bob, name: "bob", role: .reader)],
                        presenter: ada, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter(limit: 25).status(forCount: 0)))
        var monitor = MonitorModel(room: "talk", name: "mon", columns: 120, rows: 30)
        _ = monitor.connected(at: .zero)
        _ = monitor.receive(ServerMessage(seq: 3, .welcome(w)), at: .zero)
        var tail = TailFeed()
        _ = tail.describe(ServerMessage(seq: 3, .welcome(w)))
        return (monitor, tail)
    }

    @Test("a pointer is named by the words it marks and their section, in the monitor as in tail")
    func pointerNamed() {
        var (monitor, tail) = watching()
        for (seq, pointer) in [PointerInfo(id: ada, name: "ada", lead: true, anchor: Anchor(block: 3, offset: 4), length: 7),
                               PointerInfo(id: bob, name: "bob", lead: false, anchor: Anchor(block: 1, offset: 0), length: 0),
                               PointerInfo(id: ada, name: "ada", lead: true)].enumerated() {
            let message = ServerMessage(seq: 4 + seq, .pointer(pointer))
            _ = monitor.receive(message, at: .seconds(1))
            #expect(monitor.feed.lines.last?.text == tail.describe(message))
        }
        #expect(monitor.feed.lines.suffix(3).map(\.text) == [
            "ada points at \"client\" in §2 \"Client → server\"",
            "bob points at \"Hello\" in §1 \"Intro\"",
            "ada cleared the presenter's pointer",
        ])
    }

    @Test("a draft at its limit says `limit reached`, not `limit limit`, in the monitor as in tail")
    func limitReached() {
        var (monitor, tail) = watching()
        for count in [20, 25, 35, 3] {
            let message = ServerMessage(seq: 4, .limit(LimitInfo(status: try! DraftCounter(limit: 25).status(forCount: count), by: bob)))
            _ = monitor.receive(message, at: .seconds(1))
            #expect(monitor.feed.lines.last?.text == tail.describe(message))
        }
        #expect(monitor.feed.lines.suffix(4).map(\.text)
                == ["limit warning 20/25 by bob", "limit reached 25/25 by bob", "limit over 35/25 by bob", "limit ok 3/25 by bob"])
    }

    @Test("replay --summary gives the furthest a reader read, from the leave line, though they went back up before leaving")
    func furthestRead() throws {
        let log = """
            {"ts":"2026-12-03T10:00:00.000Z","level":"info","event":"join","room":"talk","client":"c1","name":"ada","role":"reader","members":1}
            {"ts":"2026-12-03T10:00:01.000Z","level":"info","event":"progress","room":"talk","client":"c1","step":20,"percent":21,"atBottom":false,"section":1}
            {"ts":"2026-12-03T10:00:05.000Z","level":"info","event":"leave","room":"talk","client":"c1","name":"ada","role":"reader","percent":4,"members":0,"furthest":29}
            """
        let summary = ReplaySummary(entries: try ServerLogEntry.parse(log, file: "talk.jsonl"))
        #expect(summary.rooms.first?.furthest.map(\.percent) == [29])

        var room = RoomState(name: "talk")
        _ = room.apply(.joined(ada, name: "ada", role: .reader), at: .zero)
        _ = room.apply(.documentPublished(ada, DocumentInfo(title: "Talk", format: .text, text: (1...100).map { "line \($0)" }.joined(separator: "\n\n"))), at: .zero)
        _ = room.apply(.scrolled(ada, top: 29, viewport: 10, content: 110, anchor: Anchor(block: 29, offset: 0)), at: .zero)
        _ = room.apply(.scrolled(ada, top: 4, viewport: 10, content: 110, anchor: Anchor(block: 4, offset: 0)), at: .zero)
        let leave = room.apply(.left(ada), at: .zero).compactMap { if case let .log(record) = $0 { record } else { nil } }.first
        #expect(leave?["percent"] == .int(4) && leave?["furthest"] == .int(29))
    }
}
