import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("Monitor of every room")
struct MonitorEveryRoomTests {
    /// A monitor of every room after an overview of "beta" (ada at 30%, a
    /// draft at its limit) and "alpha" (bob).
    func overviewed(columns: Int = 100, rows: Int = 30) -> MonitorModel {
        var m = MonitorModel(room: nil, name: "ops", columns: columns, rows: rows)
        _ = m.connected(at: .zero)
        let limit = try! DraftCounter(limit: 25)
        let overview = Overview(you: ClientID("c9"), rooms: [
            RoomSummary(room: "alpha", seq: 1, readers: [ReaderInfo(id: ClientID("c2"), name: "bob", role: .reader)],
                        presenter: nil, document: nil, draft: DraftCount(rev: 0, status: limit.status(forCount: 0))),
            RoomSummary(room: "beta", seq: 4, readers: [ReaderInfo(id: ClientID("c1"), name: "ada", role: .presenter, percent: 30)],
                        presenter: ClientID("c1"),
                        document: DocumentHeading(title: "Guide", format: .markdown, sections: ["Intro", "Usage"]),
                        draft: DraftCount(rev: 3, status: limit.status(forCount: 25))),
        ])
        _ = m.receive(ServerMessage(seq: 0, .overview(overview)), at: .zero)
        return m
    }

    func relay(_ room: String, _ payload: ServerMessage.Payload, to: String? = nil) -> ServerMessage {
        ServerMessage(seq: 0, .room(RoomEnvelope(room: room, to: to.map(ClientID.init), message: ServerMessage(seq: 0, payload))))
    }

    @Test("without a room it says hello to \"*\" as an observer and lists the rooms from the overview")
    func overview() {
        var m = MonitorModel(room: nil, name: "ops", columns: 100, rows: 30)
        #expect(m.connected(at: .zero) == [.send(.hello(room: "*", name: "ops", role: .observer))])
        m = overviewed()
        #expect(m.rooms.map(\.name) == ["alpha", "beta"])
        #expect(m.selectedRoom?.name == "alpha" && m.readers.map(\.name) == ["bob"])
        #expect(m.rooms[1].sectionTitles == [0: "Intro", 1: "Usage"] && m.rooms[1].draft.level == .limit)
        #expect(m.feed.lines.map(\.text) == ["watching every room: 2 rooms"])
    }

    @Test("relayed messages update their own room and feed lines name it; errors name whom they went to")
    func relayed() {
        var m = overviewed()
        _ = m.receive(relay("beta", .progress(ProgressInfo(id: ClientID("c1"), progress: 0.55, percent: 55, atBottom: false,
                                                           section: 1, anchor: Anchor(block: 2, offset: 0)))), at: .seconds(1))
        _ = m.receive(relay("beta", .tab(TabInfo(id: ClientID("c1"), section: 1, source: .scrolled))), at: .seconds(1))
        _ = m.receive(relay("gamma", .joined(ReaderInfo(id: ClientID("c5"), name: "cy", role: .reader))), at: .seconds(2))
        _ = m.receive(relay("alpha", .error(ProtocolError(.invalidMessage, "\"section\" in \"tab\" must be a whole number")), to: "c2"),
                      at: .seconds(3))
        #expect(m.feed.lines.map(\.text).dropFirst() == [
            "[beta] ada 50% step (55%, tab 2)",
            "[beta] ada scrolled into tab 2 \"Usage\"",
            "[gamma] cy joined as reader",
            "[alpha] error to bob invalid_message: \"section\" in \"tab\" must be a whole number",
        ])
        #expect(m.rooms.map(\.name) == ["alpha", "beta", "gamma"])
        #expect(m.rooms[1].readers.first?.percent == 55 && m.rooms[2].readers.map(\.name) == ["cy"])
        #expect(m.selectedRoom?.name == "alpha", "the selection stays while rooms come and go")
    }

    @Test("Tab and n select the next room, Shift-Tab and p the previous, wrapping; a new room before it keeps the selection")
    func selection() {
        var m = overviewed()
        #expect(m.handle(.key(.tab), at: .zero).isEmpty)
        #expect(m.selectedRoom?.name == "beta" && m.readers.map(\.name) == ["ada"])
        _ = m.handle(.key(.character("n")), at: .zero)
        #expect(m.selectedRoom?.name == "alpha")
        _ = m.handle(.key(.backTab), at: .zero)
        #expect(m.selectedRoom?.name == "beta")
        _ = m.receive(relay("aardvark", .joined(ReaderInfo(id: ClientID("c7"), name: "di", role: .reader))), at: .zero)
        #expect(m.selectedRoom?.name == "beta")
        _ = m.handle(.key(.character("p")), at: .zero)
        #expect(m.selectedRoom?.name == "alpha")
    }

    @Test("at 100×30 the screen lists the rooms, the selected room's readers and the feed of every room")
    func snapshot() {
        var m = overviewed()
        _ = m.handle(.key(.tab), at: .zero)
        _ = m.receive(relay("beta", .limit(LimitInfo(status: try! DraftCounter(limit: 25).status(forCount: 26), by: ClientID("c1")))),
                      at: .seconds(61))
        let screen = m.view(at: .zero, theme: .neon).lines(trimming: false)
        #expect(screen[0].hasPrefix("Monitor · every room") && screen[0].contains("beta: draft 26/25 limit"))
        #expect(screen[1].hasPrefix("╭─ Rooms (2) "))
        #expect(screen[2].hasPrefix("│  alpha  1 reader · draft 0/25 ok"))
        #expect(screen[3].hasPrefix("│▸ beta   1 reader · draft 26/25 limit · \"Guide\""))
        #expect(screen[5].hasPrefix("╭─ Readers · beta (1) "))
        #expect(screen[6].contains("ada") && screen[6].contains("30%") && screen[6].contains("presenter · tab 1 \"Intro\""))
        #expect(screen.contains { $0.contains("01:01 [beta] limit reached 26/25 by ada") })
        #expect(screen[29].hasPrefix(" Tab next room · j/k scroll events"))
    }
}
