import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

/// A reader welcomed into a room showing `text` (Markdown), with `others`
/// in the room besides the reader.
func reading(_ text: String, columns: Int, rows: Int = 24, others: [ReaderInfo] = []) -> ReaderModel {
    var m = ReaderModel(mode: .join, room: "find", name: "ada", columns: columns, rows: rows, at: .zero)
    _ = m.connected(at: .zero)
    let w = Welcome(you: me, room: "find", document: DocumentInfo(title: "Find", format: .markdown, text: text),
                    readers: [ReaderInfo(id: me, name: "ada", role: .reader)] + others, presenter: nil,
                    draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
    _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
    return m
}

@Suite("Reader search, presence and tabs")
struct ReadingFindTests {
    /// Two paragraphs: the first wraps "three seconds" at 80 columns, the
    /// second at 120 (the wrap widths of those terminals).
    static let wrapped = "# Search\n\n" + paragraph(wrappingAt: ScreenGeometry(columns: 80, rows: 24).wrapWidth)
        + "\n\n" + paragraph(wrappingAt: ScreenGeometry(columns: 120, rows: 24).wrapWidth)
        + "\n\nThe end, three\nseconds apart on two lines of a hard break."

    @Test("a phrase wrapped between two rows is found at 80 and at 120 columns, and every row it spans is highlighted",
          arguments: [80, 120])
    func wrappedPhrase(columns: Int) throws {
        var m = reading(Self.wrapped, columns: columns)
        m.beginSearch()
        m.editSearch(appending: "three seconds")
        _ = m.commitSearch(at: .seconds(1))
        #expect(m.search.matches.count == 3, "a Markdown line break inside a paragraph reads as a space")
        #expect(m.notices.current?.text == "match 1 of 3 for “three seconds”")
        let spanning = try #require(m.search.matches.first { $0.rows.count == 2 })
        #expect(spanning.place.block == (columns == 80 ? 1 : 2))
        let screen = m.view(at: .seconds(1), theme: .monochrome)
        let y = m.geometry.document.y + spanning.row - m.pane.top
        let x = m.geometry.document.x
        let width = m.geometry.wrapWidth
        #expect((width - 5..<width).allSatisfy { screen[x + $0, y].style.reverse })
        #expect((0..<7).allSatisfy { screen[x + $0, y + 1].style.reverse })
        #expect(!screen[x + width - 6, y].style.reverse && !screen[x + 7, y + 1].style.reverse)
    }

    @Test("n and N go through matches in document order, wrapping around; a resize keeps the current match")
    func navigation() throws {
        let text = (1...30).map { "Paragraph \($0) mentions the needle once." }.joined(separator: "\n\n")
        var m = reading(text, columns: 80, rows: 14)
        m.beginSearch()
        m.editSearch(appending: "NEEDLE")
        _ = m.commitSearch(at: .seconds(1))
        #expect(m.search.matches.count == 30 && m.search.current == 0)
        _ = m.nextMatch(forward: false, at: .seconds(2))
        #expect(m.search.current == 29)
        #expect(m.pane.top == m.maximumTop)
        _ = m.nextMatch(forward: true, at: .seconds(3))
        #expect(m.search.current == 0 && m.pane.top == 0)
        for _ in 0..<12 { _ = m.nextMatch(forward: true, at: .seconds(4)) }
        #expect(m.search.current == 12)
        let place = m.search.matches[12].place
        #expect(place.block == 12)
        #expect(m.search.matches[12].rows.lowerBound >= m.pane.top && m.search.matches[12].rows.upperBound <= m.pane.top + m.viewportRows)
        _ = m.resize(columns: 30, rows: 14, at: .seconds(5))
        #expect(m.search.current == 12 && m.search.matches[12].place == place)
        let rows = m.search.matches[12].rows
        _ = m.nextMatch(forward: true, at: .seconds(6))
        #expect(m.search.current == 13 && m.search.matches[13].rows.lowerBound > rows.lowerBound,
                "current \(String(describing: m.search.current)), top \(m.pane.top), rows of 12: \(rows), viewport \(m.viewportRows)")
    }

    @Test("a 1 MB single line counts every one of its 100,000 matches and n walks them in order")
    func megabyteLine() throws {
        let line = String(repeating: "neon sync ", count: 100_000)
        var m = reading(line, columns: 80)
        m.beginSearch()
        m.editSearch(appending: "sync")
        _ = m.commitSearch(at: .seconds(1))
        #expect(m.search.matches.count == 100_000)
        #expect(m.notices.current?.text == "match 1 of 100000 for “sync”")
        _ = m.scroll(to: 5_000, at: .seconds(2))
        _ = m.nextMatch(forward: true, at: .seconds(3))
        let current = try #require(m.search.current)
        #expect(m.search.matches[current].row >= 5_000)
        #expect(current == 0 || m.search.matches[current - 1].row < 5_000)
        _ = m.view(at: .seconds(3), theme: .neon)
    }

    @Test("observers are not readers: the status line, the presence box and its order count readers, observers apart")
    func observers() {
        let others = [ReaderInfo(id: ClientID("o1"), name: "olga", role: .observer, percent: 0),
                      ReaderInfo(id: pat, name: "pat", role: .reader, percent: 40)]
        let m = reading("# One\n\nText.", columns: 100, rows: 24, others: others)
        #expect(m.headcount == Headcount(reading: 2, watching: 1))
        let lines = m.view(at: .seconds(1), theme: .monochrome).lines()
        #expect(lines.last?.hasSuffix("2 here · 1 watching · 100%") == true, "\(lines.last ?? "")")
        #expect(lines.contains { $0.contains("Readers (2) · 1 watching") })
        let ada = lines.firstIndex { $0.contains("ada") && $0.contains("0%") }
        let patRow = lines.firstIndex { $0.contains("pat") && $0.contains("40%") }
        let olga = lines.firstIndex { $0.contains("olga") && $0.contains("watching") && !$0.contains("%") }
        #expect(ada != nil && patRow != nil && olga != nil)
        #expect((ada ?? 0) < (olga ?? 0) && (patRow ?? 0) < (olga ?? 0))
        let narrow = reading("# One\n\nText.", columns: 60, rows: 20, others: others)
        let narrowStatus = narrow.view(at: .seconds(1), theme: .monochrome).lines().last ?? ""
        #expect(narrowStatus.contains("2 here · 1 watching"), "\(narrowStatus)")
    }

    @Test("the monitor and the draft editor count the same readers, observers apart")
    func otherViews() {
        var monitor = watchingMonitor()
        _ = monitor.receive(ServerMessage(seq: 4, .joined(ReaderInfo(id: ClientID("c5"), name: "tia", role: .observer))),
                            at: .seconds(1))
        let lines = monitor.view(at: .seconds(1), theme: .monochrome).lines()
        #expect(lines.contains { $0.contains("Readers (2) · 1 watching") })
        #expect(lines.contains { $0.contains("◦ tia") && $0.contains("watching") && !$0.contains("%") })
        var draft = DraftModel(room: "post", name: "ada", profile: nil, columns: 60, rows: 12)
        _ = draft.connected(at: .zero)
        let w = Welcome(you: ClientID("c1"), room: "post", document: nil,
                        readers: [ReaderInfo(id: ClientID("c1"), name: "ada", role: .reader),
                                  ReaderInfo(id: ClientID("c3"), name: "mon", role: .observer)],
                        presenter: nil, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = draft.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        #expect(draft.view(at: .zero, theme: .monochrome).lines().last?.hasSuffix("rev 0 · 1 here · 1 watching") == true)
    }

    /// Sections with long and emoji titles, each long enough to reach the
    /// top of the viewport.
    static let tabs = ["Intro", "A remarkably long section title that keeps going", "👨‍👩‍👧 Family", "👩🏽‍💻 Pairing"]
        .map { title in "# \(title)\n\n" + (1...12).map { "Paragraph \($0) of \(title)." }.joined(separator: "\n\n") }
        .joined(separator: "\n\n")

    @Test("the current tab's long title swings and the other long titles end in …", arguments: [100, 60])
    func swingingTab(columns: Int) throws {
        var m = reading(Self.tabs, columns: columns)
        _ = m.chooseTab(1, at: .zero)
        _ = m.tick(at: .seconds(5))
        m.settle()
        #expect(m.nextWake(after: .seconds(10)) != nil)
        let early = m.view(at: .seconds(12), theme: .monochrome).lines()[1]
        let late = m.view(at: .seconds(15), theme: .monochrome).lines()[1]
        #expect(early.contains("A remarkably long"))
        #expect(!early.contains("A remarkably long section…"))
        #expect(late.contains("keeps going"), "the title swings to its end: \(late)")
        _ = m.chooseTab(3, at: .seconds(20))
        _ = m.tick(at: .seconds(25))
        m.settle()
        let header = m.view(at: .seconds(30), theme: .monochrome).lines()[1]
        #expect(header.contains("👩🏽‍💻 Pairing"))
        if columns == 100 {
            #expect(header.contains("A remarkably long secti…"))
            #expect(header.contains("👨‍👩‍👧 Family"))
        }
    }
}
