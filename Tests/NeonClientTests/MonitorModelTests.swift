import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

/// A monitor welcomed into room "talk" with ada (reader at 12%) and bob
/// (presenter), a two-section document and a draft of 0/25.
func watchingMonitor(columns: Int = 100, rows: Int = 30) -> MonitorModel {
    var m = MonitorModel(room: "talk", name: "mon", columns: columns, rows: rows)
    _ = m.connected(at: .zero)
    let w = Welcome(you: ClientID("c9"), room: "talk",
                    document: DocumentInfo(title: "Guide", format: .markdown, text: "# Intro\nHello\n# Usage\nMore"),
                    readers: [ReaderInfo(id: ClientID("c1"), name: "ada", role: .reader, percent: 12),
                              ReaderInfo(id: ClientID("c2"), name: "bob", role: .presenter),
                              ReaderInfo(id: ClientID("c9"), name: "mon", role: .observer)],
                    presenter: ClientID("c2"),
                    draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter(limit: 25).status(forCount: 0)))
    _ = m.receive(ServerMessage(seq: 3, .welcome(w)), at: .zero)
    return m
}

func progress(_ id: String, _ percent: Int, section: Int = 0) -> ServerMessage {
    ServerMessage(seq: 0, .progress(ProgressInfo(id: ClientID(id), progress: Double(percent) / 100, percent: percent,
                                                 atBottom: percent == 100, section: section,
                                                 anchor: Anchor(block: 0, offset: 0))))
}

@Suite("Monitor model")
struct MonitorModelTests {
    @Test("it joins as an observer, lists the others without itself, and sends nothing on keys")
    func joinsAsObserver() {
        var m = MonitorModel(room: "talk", name: "mon", columns: 100, rows: 30)
        #expect(m.connected(at: .zero) == [.send(.hello(room: "talk", name: "mon", role: .observer))])
        m = watchingMonitor()
        #expect(m.readers.map(\.name) == ["ada", "bob"])
        for key in [Key.character("j"), .character("k"), .up, .down, .pageUp, .character("G"), .character("?")] {
            #expect(m.handle(.key(key), at: .zero).isEmpty)
        }
        #expect(m.handle(.key(.character("q")), at: .zero) == [.quit])
        #expect(m.handle(.key(.escape), at: .zero) == [.quit])
    }

    @Test("room events become feed lines of their kind, newest last")
    func feedLines() {
        var m = watchingMonitor()
        _ = m.receive(ServerMessage(seq: 4, .joined(ReaderInfo(id: ClientID("c3"), name: "cy", role: .reader))), at: .seconds(1))
        _ = m.receive(ServerMessage(seq: 5, .tab(TabInfo(id: ClientID("c1"), section: 1, source: .selected))), at: .seconds(2))
        _ = m.receive(ServerMessage(seq: 6, .follow(FollowInfo(id: ClientID("c3"), on: true))), at: .seconds(3))
        let crossing = LimitInfo(status: try! DraftCounter(limit: 25).status(forCount: 7), by: ClientID("c3"))
        _ = m.receive(ServerMessage(seq: 7, .limit(crossing)), at: .seconds(4))
        _ = m.receive(ServerMessage(seq: 0, .error(ProtocolError(.notAllowed, "observers cannot scroll"))), at: .seconds(5))
        _ = m.receive(ServerMessage(seq: 8, .left(ReaderInfo(id: ClientID("c3"), name: "cy", role: .reader, percent: 40))), at: .seconds(6))
        #expect(m.feed.lines.map(\.text) == [
            "watching talk: 2 readers",
            "cy joined as reader",
            "ada chose tab 2 \"Usage\"",
            "cy follows the presenter",
            "limit warning 7/25 by cy",
            "error not_allowed: observers cannot scroll",
            "cy left at 40%",
        ])
        #expect(m.feed.lines.map(\.kind) == [.info, .join, .tab, .follow, .limit(.warning), .error, .leave])
        #expect(m.readers.first { $0.name == "ada" }?.section == 1)
        #expect(!m.readers.contains { $0.name == "cy" })
    }

    @Test("progress adds a line only when a reader crosses a 10% step, either way")
    func deciles() {
        var m = watchingMonitor()
        for percent in [15, 19, 20, 29, 35, 31, 28, 100] { _ = m.receive(progress("c1", percent), at: .zero) }
        #expect(m.feed.lines.dropFirst().map(\.text) == [
            "ada 20% step (20%, tab 1)",
            "ada 30% step (35%, tab 1)",
            "ada 20% step (28%, tab 1)",
            "ada 100% step (100%, tab 1), at the bottom",
        ])
        #expect(m.deciles[ClientID("c1")] == 10)
        #expect(m.readers.first?.percent == 100)
    }

    @Test("the ring follows the draft's count and level from limit events")
    func ringLevel() {
        var m = watchingMonitor()
        #expect(m.draft.level == .ok && m.draft.limit == 25)
        for (count, level) in [(6, LimitLevel.warning), (25, .limit), (40, .over), (3, .ok)] {
            let info = LimitInfo(status: try! DraftCounter(limit: 25).status(forCount: count), by: ClientID("c2"))
            _ = m.receive(ServerMessage(seq: 9, .limit(info)), at: .zero)
            #expect(m.draft.count == count && m.draft.level == level)
        }
        let theme = Theme.neon
        #expect(m.style(of: .limit(.warning), theme: theme) == theme.levelWarning)
        #expect(m.style(of: .limit(.over), theme: theme) == theme.levelLimit)
        #expect(m.style(of: .error, theme: theme) == theme.levelLimit)
        #expect(m.style(of: .join, theme: theme) == theme.accent)
        #expect(m.style(of: .leave, theme: theme) == theme.muted)
    }

    @Test("the feed keeps the last N lines and scrolls back with k and forward with j")
    func scrolling() {
        var m = MonitorModel(room: "r", name: "mon", columns: 60, rows: 12, feedCapacity: 5)
        _ = m.connected(at: .zero)
        for i in 0..<8 {
            _ = m.receive(ServerMessage(seq: i, .joined(ReaderInfo(id: ClientID("c\(i)"), name: "r\(i)", role: .observer))), at: .zero)
        }
        #expect(m.feed.lines.map(\.text) == (3..<8).map { "r\($0) joined as observer" })
        _ = m.handle(.key(.character("k")), at: .zero)
        _ = m.handle(.key(.up), at: .zero)
        #expect(m.feed.scrollBack == 2)
        _ = m.handle(.key(.character("j")), at: .zero)
        #expect(m.feed.scrollBack == 1)
        for _ in 0..<10 { _ = m.handle(.key(.down), at: .zero) }
        #expect(m.feed.scrollBack == 0)
    }
}
