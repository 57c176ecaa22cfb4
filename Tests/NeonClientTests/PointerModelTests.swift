import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

/// A talk long enough to scroll, with a table.
let pointerTalk = """
# Start

The first paragraph says hello to everyone in the room.

| Name | Taste |
| ---- | ----- |
| Potato | Great |
| Carrot | Fine |

# Middle

""" + (1...12).map { "Middle paragraph \($0) has a few words to wrap on narrow screens." }.joined(separator: "\n\n") + """


# End

The pointed paragraph at the end of the talk.
"""

@Suite("Pointers in the reader")
struct PointerModelTests {
    let pat = ClientID("c9")

    func model(_ mode: ClientMode, columns: Int = 80, rows: Int = 24, pointers: [PointerInfo] = []) -> ReaderModel {
        var m = ReaderModel(mode: mode, room: "talk", name: mode == .present ? "pat" : "ada", columns: columns, rows: rows, at: .zero)
        _ = m.connected(at: .zero)
        let you = mode == .present ? pat : me
        var readers = [ReaderInfo(id: pat, name: "pat", role: .presenter, anchor: .top)]
        if mode != .present { readers.append(ReaderInfo(id: me, name: "ada", role: .reader, following: mode == .follow)) }
        let w = Welcome(you: you, room: "talk", document: DocumentInfo(title: "talk.md", format: .markdown, text: pointerTalk),
                        readers: readers, presenter: pat,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)), pointers: pointers)
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        return m
    }

    func sentPoints(_ commands: [ClientCommand]) -> [ClientMessage] {
        commands.compactMap { if case let .send(m) = $0, case .point = m { m } else { nil } }
    }

    /// The underlined text of the document's text area (not its gutter),
    /// row after row.
    func underlined(_ buffer: Buffer, in area: Rect) -> String {
        var out = ""
        for y in area.y..<area.maxY {
            let styles = buffer.styles(row: y)
            let text = Array(buffer.lines()[y]) + Array(repeating: " ", count: buffer.width)
            let row = String((area.x..<area.maxX).filter { styles[$0].underline }.map { text[$0] })
            if !row.isEmpty { out += (out.isEmpty ? "" : " ") + row.trimmingCharacters(in: .whitespaces) }
        }
        return out
    }

    @Test("the presenter tells who may point, then p points at the paragraph at the top, or at the table row there")
    func presenterKeys() throws {
        var m = ReaderModel(mode: .present, room: "talk", name: "pat", columns: 80, rows: 24, pointing: .presenter, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: pat, room: "talk", document: DocumentInfo(title: "talk.md", format: .markdown, text: pointerTalk),
                        readers: [ReaderInfo(id: pat, name: "pat", role: .presenter)], presenter: pat,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        #expect(m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero).contains(.send(.pointing(who: .presenter))))
        _ = m.scroll(to: 2, at: .zero)
        #expect(sentPoints(m.handle(.key(.character("p")), at: .zero))
                == [.point(anchor: Anchor(block: 1, offset: 0), length: "The first paragraph says hello to everyone in the room.".count)])
        let tableTop = try #require(m.pane.layout.map { layout in (0..<layout.rowCount).first { layout.line(at: $0).text.contains("Potato") } } ?? nil)
        _ = m.scroll(to: tableTop, at: .zero)
        let row = "Potato\tGreat"
        let offset = "Name\tTaste\n".count
        #expect(sentPoints(m.handle(.key(.character("p")), at: .zero)) == [.point(anchor: Anchor(block: 2, offset: offset), length: row.count)])
    }

    @Test("p points at the search match on screen, and a click at the row clicked")
    func searchAndClick() {
        var m = model(.read)
        _ = m.handle(.key(.character("/")), at: .zero)
        for c in "says hello" { _ = m.handle(.key(.character(c)), at: .zero) }
        _ = m.handle(.key(.enter), at: .zero)
        #expect(sentPoints(m.handle(.key(.character("p")), at: .zero)) == [.point(anchor: Anchor(block: 1, offset: 20), length: 10)])
        let g = m.geometry
        let clicked = m.handle(.mouse(MouseEvent(.press(.left), x: g.document.x + 3, y: g.document.y)), at: .zero)
        #expect(sentPoints(clicked) == [.point(anchor: Anchor(block: 0, offset: 0), length: 5)])
    }

    @Test("a follower is brought to the presenter's pointer; the passage is underlined and marked ◆ in the gutter")
    func followerBroughtToPointer() throws {
        var m = model(.follow, columns: 60, rows: 20)
        #expect(m.pane.top == 0)
        let last = Anchor(block: 17, offset: 0)
        let pointer = PointerInfo(id: pat, name: "pat", lead: true, anchor: last, length: "The pointed paragraph at the end of the talk.".count)
        _ = m.receive(ServerMessage(seq: 2, .pointer(pointer)), at: .zero)
        let passage = try #require(pointer.passage)
        let rows = try #require(m.pane.layout?.rows(of: passage))
        #expect(rows.lowerBound >= m.pane.top && rows.upperBound <= m.pane.top + m.viewportRows, "in view")
        let screen = m.view(at: .zero, theme: .monochrome)
        #expect(underlined(screen, in: m.geometry.document).contains("The pointed paragraph"))
        #expect(screen.lines().contains { $0.contains("The pointed") && $0.contains("◆") })
        // The presenter's place again, unchanged: the pointer stays in view.
        let same = ProgressInfo(id: pat, progress: 0, percent: 0, atBottom: false, section: 0, anchor: .top)
        _ = m.receive(ServerMessage(seq: 3, .progress(same)), at: .zero)
        #expect(rows.lowerBound >= m.pane.top && rows.upperBound <= m.pane.top + m.viewportRows)
        // The presenter moves on: the follower goes with them.
        let moved = ProgressInfo(id: pat, progress: 0.1, percent: 10, atBottom: false, section: 1, anchor: Anchor(block: 4, offset: 0))
        _ = m.receive(ServerMessage(seq: 4, .progress(moved)), at: .zero)
        #expect(m.pane.top == m.pane.layout?.row(for: Anchor(block: 4, offset: 0)))
    }

    @Test("a detached reader sees the mark and a notice, and ' goes there; a reader's pointer moves nobody and shows their initial")
    func detachedReader() throws {
        var m = model(.read, columns: 60, rows: 20)
        let pointer = PointerInfo(id: pat, name: "pat", lead: true, anchor: Anchor(block: 17, offset: 0), length: 45)
        _ = m.receive(ServerMessage(seq: 2, .pointer(pointer)), at: .zero)
        #expect(m.pane.top == 0)
        #expect(m.notices.current?.text == "pat points at “The pointed paragraph at the end…” — ' goes there")
        _ = m.handle(.key(.character("'")), at: .zero)
        let passage = try #require(pointer.passage)
        let rows = try #require(m.pane.layout?.rows(of: passage))
        #expect(rows.lowerBound >= m.pane.top && rows.upperBound <= m.pane.top + m.viewportRows)

        var follower = model(.follow, columns: 60, rows: 20)
        let bob = PointerInfo(id: ClientID("c5"), name: "bob", lead: false, anchor: Anchor(block: 17, offset: 4), length: 7)
        _ = follower.receive(ServerMessage(seq: 2, .pointer(bob)), at: .zero)
        #expect(follower.pane.top == 0, "a reader's pointer moves nobody")
        _ = follower.handle(.key(.character("'")), at: .zero)
        let screen = follower.view(at: .zero, theme: .monochrome)
        #expect(underlined(screen, in: follower.geometry.document) == "pointed")
        #expect(screen.lines().contains { $0.contains("pointed") && $0.hasSuffix("B│") })
    }

    @Test("the welcome's pointers show at once; P clears your own; a leaving reader's pointer goes")
    func welcomeAndClear() {
        let lead = PointerInfo(id: pat, name: "pat", lead: true, anchor: Anchor(block: 1, offset: 0), length: 10)
        let mine = PointerInfo(id: me, name: "ada", lead: false, anchor: Anchor(block: 0, offset: 0), length: 5)
        var m = model(.read, pointers: [lead, mine])
        #expect(underlined(m.view(at: .zero, theme: .monochrome), in: m.geometry.document).contains("The first"))
        #expect(m.handle(.key(.character("P")), at: .zero).contains(.send(.unpoint)))
        _ = m.receive(ServerMessage(seq: 2, .left(ReaderInfo(id: me, name: "ada", role: .reader))), at: .zero)
        #expect(m.pointers.all == [lead])
    }
}
