import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

let guide = """
# Welcome
NeonSync lets several people read one document together from their terminals, each at their own pace.

# Reading
Scroll with j and k, page with space, jump with g and G. The bar at the bottom shows how far you are.

# Presenting
A presenter leads; followers land on the same text even when their terminal has another size.

# Drafting
Compose a short text together and watch the ring fill as you approach the limit.
"""

let me = ClientID("c1"), pat = ClientID("c9")

func welcomed(_ mode: ClientMode = .read, columns: Int = 80, rows: Int = 24, presenter: ClientID? = nil,
              document: Bool = true) -> ReaderModel {
    var m = ReaderModel(mode: mode, room: "guide", name: "ada", columns: columns, rows: rows, at: .zero)
    _ = m.connected(at: .zero)
    var readers = [ReaderInfo(id: me, name: "ada", role: mode.role)]
    if let presenter { readers.append(ReaderInfo(id: presenter, name: "pat", role: .presenter)) }
    let w = Welcome(you: me, room: "guide",
                    document: document ? DocumentInfo(title: "Guide", format: .markdown, text: guide) : nil,
                    readers: readers, presenter: presenter,
                    draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
    _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
    return m
}

func scrolls(_ commands: [ClientCommand]) -> [ClientMessage] {
    commands.compactMap { if case let .send(m) = $0, case .scroll = m { m } else { nil } }
}

@Suite("Reader model")
struct ReaderModelTests {
    @Test("hello first, then the welcome's document is laid out and the place is shared")
    func joinFlow() {
        var m = ReaderModel(mode: .join, room: "guide", name: "ada", columns: 80, rows: 24, at: .zero)
        #expect(m.connected(at: .zero) == [.send(.hello(room: "guide", name: "ada", role: .reader))])
        let w = Welcome(you: me, room: "guide", document: DocumentInfo(title: "Guide", format: .markdown, text: guide),
                        readers: [ReaderInfo(id: me, name: "ada", role: .reader)], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        let out = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        #expect(m.connection == .joined && m.pane.layout != nil)
        #expect(scrolls(out) == [.scroll(top: 0, viewport: m.viewportRows, content: m.contentRows, anchor: .top)])
    }

    @Test("read FILE publishes the file when the room has none")
    func publishes() {
        let file = DocumentInfo(title: "notes.md", format: .markdown, text: "# A\nx")
        var m = ReaderModel(mode: .read, room: "notes", name: "ada", columns: 80, rows: 24, document: file, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: me, room: "notes", document: nil, readers: [], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        let out = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        #expect(out.contains(.send(.document(title: "notes.md", format: .markdown, text: "# A\nx",
                                             parser: Document.parserIdentity))), "the document says how this client numbers blocks")
    }

    @Test("a document from a server that numbers blocks another way is shown with a warning saying so")
    func parserMismatch() throws {
        var m = ReaderModel(mode: .read, room: "notes", name: "ada", columns: 80, rows: 24, document: nil, at: .zero)
        _ = m.connected(at: .zero)
        let json = ##"{"type":"welcome","seq":1,"you":"c1-1","room":"notes","document":{"title":"N","format":"markdown","text":"# A","parser":"other-parser/9"},"readers":[],"presenter":null,"draft":{"text":"","rev":0,"count":0,"remaining":280,"limit":280,"level":"ok"}}"##
        let message = try WireCodec().decodeServer(Array(json.utf8))
        _ = m.receive(message, at: .zero)
        #expect(m.pane.document?.sections.map(\.title) == ["A"], "the document is still read")
        let notice = try #require(m.notices.current)
        #expect(notice.text.contains("other-parser/9") && notice.text.contains(Document.parserIdentity))
        var same = ReaderModel(mode: .read, room: "notes", name: "ada", columns: 80, rows: 24, document: nil, at: .zero)
        _ = same.connected(at: .zero)
        let matching = json.replacingOccurrences(of: "other-parser/9", with: Document.parserIdentity)
        _ = same.receive(try WireCodec().decodeServer(Array(matching.utf8)), at: .zero)
        #expect(same.notices.current == nil || same.notices.current?.text.contains("numbers") == false)
    }

    @Test("scrolling clamps to the content and sends NeonCore's place once per change")
    func scrolling() {
        var m = welcomed(rows: 12)
        let out = m.scroll(by: 3, at: .seconds(1))
        #expect(m.pane.top == 3)
        #expect(scrolls(out).count == 1)
        #expect(m.scroll(by: 0, at: .seconds(1)).isEmpty)
        _ = m.scroll(by: 10_000, at: .seconds(2))
        #expect(m.pane.top == m.maximumTop)
        #expect(m.position?.percent == 100 && m.position?.atBottom == true)
        _ = m.scroll(by: -10_000, at: .seconds(3))
        #expect(m.pane.top == 0 && m.position?.percent == 0)
    }

    @Test("the bar turns into the wheel 3 s after the last scroll")
    func wheel() {
        var m = welcomed(rows: 12)
        _ = m.scroll(by: 2, at: .seconds(10))
        #expect(m.pane.indicator.mode(at: .milliseconds(12_999)) == .bar)
        #expect(m.pane.indicator.mode(at: .seconds(13)) == .wheel)
    }

    @Test("choosing a tab eases to the section while the tab holds, then the spy follows")
    func tabJump() {
        var m = welcomed(rows: 12)
        let out = m.chooseTab(2, at: .seconds(1))
        #expect(out == [.send(.tab(section: 2))])
        let target = m.pane.layout!.firstRow(ofSection: 2)
        _ = m.tick(at: .milliseconds(1750))
        #expect(m.pane.top > 0 && m.pane.top < target)
        #expect(m.tabs.spy.current == 2)
        _ = m.tick(at: .milliseconds(2500))
        #expect(m.pane.top == min(target, m.maximumTop))
        #expect(m.pane.animation == nil)
    }

    @Test("back to top eases to row 0 over 1.5 s")
    func backToTop() {
        var m = welcomed(rows: 12)
        _ = m.scroll(by: 10_000, at: .seconds(1))
        _ = m.backToTop(at: .seconds(2))
        _ = m.tick(at: .milliseconds(2750))
        #expect(m.pane.top > 0)
        _ = m.tick(at: .milliseconds(3500))
        #expect(m.pane.top == 0)
    }

    @Test("a follower lands on the presenter's anchor on any terminal size, and scrolling detaches")
    func follow() {
        var narrow = welcomed(.follow, columns: 40, rows: 14, presenter: pat)
        var wide = welcomed(.follow, columns: 120, rows: 30, presenter: pat)
        let doc = narrow.pane.layout!.document
        let anchor = Anchor(block: doc.sections[3].firstBlock + 1, offset: 20)
        let progress = ServerMessage(seq: 2, .progress(ProgressInfo(id: pat, progress: 0.8, percent: 80, atBottom: false, section: 3, anchor: anchor)))
        _ = narrow.receive(progress, at: .seconds(1))
        _ = wide.receive(progress, at: .seconds(1))
        for m in [narrow, wide] {
            let shown = m.pane.layout!.anchor(forRow: m.pane.top)
            #expect(shown.block == anchor.block || m.pane.top == m.maximumTop)
            #expect(m.pane.layout!.section(atTop: m.pane.top) == 3 || m.pane.top == m.maximumTop)
        }
        let detach = narrow.scroll(by: -1, at: .seconds(2))
        #expect(detach.first == .send(.follow(on: false)))
        #expect(!narrow.isFollowing)
        #expect(narrow.notices.current?.text.contains("f follows again") == true)
        let before = narrow.pane.top
        _ = narrow.receive(ServerMessage(seq: 3, .progress(ProgressInfo(id: pat, progress: 0, percent: 0, atBottom: false, section: 0, anchor: .top))), at: .seconds(3))
        #expect(narrow.pane.top == before)
        let again = narrow.attach(at: .seconds(4))
        #expect(again.first == .send(.follow(on: true)))
        #expect(narrow.pane.top == 0)
    }

    @Test("a resize re-wraps and keeps the place by anchor")
    func resize() {
        var m = welcomed(columns: 100, rows: 14)
        _ = m.scroll(by: 9, at: .seconds(1))
        let anchor = m.pane.layout!.anchor(forRow: m.pane.top)
        _ = m.resize(columns: 30, rows: 14, at: .seconds(2))
        #expect(m.pane.layout!.width == m.geometry.wrapWidth)
        let after = m.pane.layout!.anchor(forRow: m.pane.top)
        #expect(after.block == anchor.block)
    }

    @Test("search finds every match, jumps to it, and n wraps around")
    func search() {
        var m = welcomed(rows: 10)
        m.beginSearch()
        m.editSearch(appending: "TERMINAL")
        _ = m.commitSearch(at: .seconds(1))
        #expect(m.search.matches.count == 2)
        #expect(m.search.current == 0)
        _ = m.nextMatch(forward: true, at: .seconds(2))
        #expect(m.search.current == 1)
        _ = m.nextMatch(forward: true, at: .seconds(3))
        #expect(m.search.current == 0)
        m.beginSearch()
        m.editSearch(appending: "zebra")
        _ = m.commitSearch(at: .seconds(4))
        #expect(m.search.matches.isEmpty && m.notices.current?.isError == true)
    }

    @Test("a gap in seq (position updates the server skipped for a slow connection) is applied without a resync")
    func gap() {
        var m = welcomed(presenter: pat)
        let out = m.receive(ServerMessage(seq: 5, .follow(FollowInfo(id: pat, on: true))), at: .zero)
        #expect(out.isEmpty)
        #expect(m.presence.readers.first { $0.id == pat }?.following == true )
    }

    @Test("a refused hello closes with the server's reason")
    func refused() {
        var m = ReaderModel(mode: .present, room: "r", name: "ada", columns: 80, rows: 24, at: .zero)
        _ = m.connected(at: .zero)
        _ = m.receive(ServerMessage(seq: 0, .error(ProtocolError(.presenterTaken, "room r already has a presenter (pat)"))), at: .zero)
        #expect(m.connection == .closed("room r already has a presenter (pat)"))
    }
}

@Suite("Reader model: mouse and keys")
struct ReaderModelInputTests {
    @Test("a click on a tab title chooses that section; the wheel scrolls three rows")
    func clickTab() throws {
        var m = welcomed(columns: 100, rows: 20)
        m.settle()
        let header = m.view(at: .zero, theme: .neon).lines()[1]
        let column = try #require(header.range(of: "Presenting")).lowerBound.utf16Offset(in: header)
        let out = m.handle(.mouse(MouseEvent(.press(.left), x: column + 2, y: 1)), at: .seconds(1))
        #expect(out.contains(.send(.tab(section: 2))))
        _ = m.handle(.mouse(MouseEvent(.release(.left), x: column + 2, y: 1)), at: .seconds(1))
        _ = m.tick(at: .seconds(3))
        let before = m.pane.top
        let wheel = m.handle(.mouse(MouseEvent(.wheelUp, x: 10, y: 8)), at: .seconds(4))
        #expect(scrolls(wheel).count == 1)
        #expect(m.pane.top == before - 3)
    }

    @Test("at the bottom a click on the back-to-top button eases to row 0")
    func clickBackToTop() throws {
        var m = welcomed(columns: 100, rows: 20)
        _ = m.handle(.key(.character("G")), at: .seconds(1))
        let button = try #require(m.indicatorPlacement(at: .seconds(1)).button)
        _ = m.handle(.mouse(MouseEvent(.press(.left), x: button.x + 2, y: button.y + 1)), at: .seconds(1))
        #expect(m.pane.animation?.to == 0)
        _ = m.tick(at: .seconds(3))
        #expect(m.pane.top == 0)
        #expect(m.indicatorPlacement(at: .seconds(3)).button == nil)
    }

    @Test("holding the mouse button keeps the bar; releasing starts the 3 s timer")
    func heldInput() {
        var m = welcomed(rows: 20)
        _ = m.handle(.mouse(MouseEvent(.press(.left), x: 5, y: 8)), at: .seconds(1))
        #expect(m.pane.indicator.mode(at: .seconds(30)) == .bar)
        _ = m.handle(.mouse(MouseEvent(.release(.left), x: 5, y: 8)), at: .seconds(30))
        #expect(m.pane.indicator.mode(at: .seconds(33)) == .wheel)
    }

    @Test("q and Ctrl-C quit; ? opens the help and any key closes it")
    func keys() {
        var m = welcomed()
        #expect(m.handle(.key(.character("q")), at: .zero) == [.quit])
        #expect(m.handle(.key(.ctrl("c")), at: .zero) == [.quit])
        _ = m.handle(.key(.character("?")), at: .zero)
        #expect(m.keyList.isOpen)
        #expect(m.view(at: .zero, theme: .neon).lines().contains { $0.contains("back to top (eased)") })
        _ = m.handle(.key(.character("x")), at: .zero)
        #expect(!m.keyList.isOpen)
    }

    @Test("NO_COLOR's monochrome theme draws the same text without any colour, tracks as ░")
    func monochrome() {
        let m = welcomed(columns: 100, rows: 20)
        let color = m.view(at: .zero, theme: .neon)
        let mono = m.view(at: .zero, theme: .monochrome)
        #expect(color.lines() == mono.lines().map { $0.replacingOccurrences(of: "░", with: " ") })
        #expect(mono.lines().contains { $0.contains("0%   ░░░") }, "without colour the bar's track shows as ░")
        for row in 0..<mono.height {
            #expect(mono.styles(row: row).allSatisfy { $0.fg == .default && $0.bg == .default })
        }
    }
}

@Suite("Reader model: the draft panel")
struct ReaderDraftPanelTests {
    @Test("e opens the draft under the document and types into it; Esc gives the keys back to the document")
    func panel() {
        var m = welcomed(columns: 100, rows: 30)
        let fullViewport = m.viewportRows
        let opened = m.handle(.key(.character("e")), at: .seconds(1))
        m.settle()
        #expect(m.draftPanel == .focused)
        #expect(m.viewportRows == fullViewport - ReaderModel.draftPanelRows)
        #expect(scrolls(opened).first == .scroll(top: 0, viewport: m.viewportRows, content: m.contentRows, anchor: .top))
        #expect(m.handle(.key(.character("j")), at: .seconds(2)).map(\.withoutKey) == [.send(.edit(rev: 0, ops: TextOperation([.insert("j")])))])
        let screen = m.view(at: .seconds(2), theme: .neon).lines()
        #expect(screen.contains { $0.contains("Draft · graphemes, limit 280") })
        #expect(screen.contains { $0.hasPrefix("│j") })
        _ = m.handle(.key(.escape), at: .seconds(3))
        #expect(m.draftPanel != .focused)
        #expect(scrolls(m.handle(.key(.character("j")), at: .seconds(3))).count == 1)
        _ = m.receive(ServerMessage(seq: 2, .ack(rev: 1)), at: .seconds(3))
        #expect(m.draft.editor.revision == 1)
        _ = m.handle(.key(.character("E")), at: .seconds(4))
        #expect(!m.draftPanel.isOpen && m.viewportRows == fullViewport)
    }
}

@Suite("Reader model: reconnecting")
struct ReaderReconnectTests {
    @Test("the draft panel sends nothing while the reader reconnects; the welcome sends what was typed")
    func draftWaitsForTheWelcome() throws {
        var m = welcomed(columns: 100, rows: 30)
        _ = m.handle(.key(.character("e")), at: .seconds(1))
        _ = m.disconnected("server restarted", at: .seconds(2))
        _ = m.connected(at: .seconds(3))
        #expect(m.handle(.key(.character("j")), at: .seconds(3)).isEmpty)
        let w = Welcome(you: ClientID("c7"), room: "guide", document: DocumentInfo(title: "Guide", format: .markdown, text: guide),
                        readers: [ReaderInfo(id: ClientID("c7"), name: "ada", role: .reader)], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0), missed: []))
        let out = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .seconds(4))
        #expect(out.filter { if case .send(.edit) = $0 { true } else { false } }.map(\.withoutKey)
            == [.send(.edit(rev: 0, ops: TextOperation([.insert("j")])))])
    }

    @Test("a reconnect's welcome with the same document keeps the reader's place and shares it again")
    func keepsPlace() {
        var m = welcomed(rows: 12)
        _ = m.scroll(by: 5, at: .seconds(1))
        _ = m.disconnected("server restarted", at: .seconds(2))
        let hello = m.connected(at: .seconds(3))
        #expect(hello == [.send(.hello(room: "guide", name: "ada", role: .reader, draftRev: 0))])
        let w = Welcome(you: ClientID("c7"), room: "guide", document: DocumentInfo(title: "Guide", format: .markdown, text: guide),
                        readers: [ReaderInfo(id: ClientID("c7"), name: "ada", role: .reader)], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0), missed: []))
        let out = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .seconds(3))
        #expect(m.pane.top == 5)
        #expect(scrolls(out).first == .scroll(top: 5, viewport: m.viewportRows, content: m.contentRows,
                                              anchor: m.pane.layout!.anchor(forRow: 5)))
    }
}

@Suite("Reader model: wide code")
struct ReaderWideCodeTests {
    @Test("← → scroll wide code sideways within its overflow; a search match past the edge is scrolled into view")
    func sideways() throws {
        let code = "```\n" + String(repeating: "x", count: 100) + " needle\n```\n\nafter"
        let info = DocumentInfo(title: "C", format: .markdown, text: code)
        var m = ReaderModel(mode: .read, room: "c", name: "ada", columns: 60, rows: 20, document: nil, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: me, room: "c", document: info, readers: [], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        let overflow = try #require(m.pane.layout?.codeOverflow)
        #expect(overflow > 40)
        _ = m.handle(.key(.left), at: .zero)
        #expect(m.pane.codeShift == 0)
        _ = m.handle(.key(.right), at: .zero)
        _ = m.handle(.key(.character("l")), at: .zero)
        #expect(m.pane.codeShift == 16)
        for _ in 0..<20 { _ = m.handle(.key(.right), at: .zero) }
        #expect(m.pane.codeShift == overflow)
        _ = m.handle(.key(.character("h")), at: .zero)
        #expect(m.pane.codeShift == overflow - 8)
        for _ in 0..<20 { _ = m.handle(.key(.left), at: .zero) }
        #expect(m.pane.codeShift == 0)
        _ = m.handle(.key(.character("/")), at: .zero)
        for c in "needle" { _ = m.handle(.key(.character(c)), at: .zero) }
        _ = m.handle(.key(.enter), at: .zero)
        #expect(m.pane.codeShift > 0)
        let screen = m.view(at: .zero, theme: .monochrome).lines().joined(separator: "\n")
        #expect(screen.contains("needle"), "\(screen)")
    }
}
