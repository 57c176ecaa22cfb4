import NeonClient
import NeonCore
import NeonTUI
import Testing

/// Issue 35's smaller points, on the screen models: a tab title a column
/// too wide, join notices over the key hints, the ASCII theme, the rooms
/// box that hid rooms.
@Suite("What a new user tripped over: cut titles, passing notices, ASCII, hidden rooms")
struct SmallerPointsTests {
    /// A reader at `columns` x `rows` of `text`, joined, with bob in the room.
    func reader(_ text: String, mode: ClientMode = .join, columns: Int = 100, rows: Int = 24) -> ReaderModel {
        var m = ReaderModel(mode: mode, room: "talk", name: "ada", columns: columns, rows: rows,
                            document: mode == .present ? DocumentInfo(title: "deck.md", format: .markdown, text: text) : nil,
                            at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: me, room: "talk", document: mode == .present ? nil : DocumentInfo(title: "Protocol", format: .markdown, text: text),
                        readers: [ReaderInfo(id: me, name: "ada", role: mode.role)], presenter: mode == .present ? me : nil,
                        draft: DraftInfo(text: "", rev: 0, status: DraftCounter.standard.status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        m.settle()
        return m
    }

    @Test("the current tab's title one column too wide ends in … and stands still, as does the document's title a column too wide for the title row")
    func titleOneColumnTooWide() {
        let m = reader("# NeonSync wire protocol v1\n\nThe wire.\n\n# Messages\n\nHello.\n")
        let frames = [Duration.zero, .milliseconds(1500), .seconds(2), .seconds(3)].map { m.view(at: $0, theme: .monochrome).lines() }
        for lines in frames {
            #expect(lines[1].contains("NeonSync wire protocol…"), "\(lines[1])")
            #expect(!lines[1].contains("eonSync wire protocol v1") && !lines[1].contains("NeonSync wire protocol v "))
        }
        #expect(frames.allSatisfy { $0[1] == frames[0][1] }, "no swing by a column")
        #expect(m.nextWake(after: .seconds(3)) == nil || m.nextWake(after: .seconds(3))! > .seconds(4), "nothing animates")

        var narrow = ReaderModel(mode: .join, room: "talk", name: "ada", columns: 40, rows: 24, at: .zero)
        _ = narrow.connected(at: .zero)
        // The title row: the title's field, a column, then " talk · ada ".
        let field = 40 - 1 - " talk · ada ".count
        let long = "Reading " + String(repeating: "y", count: field + 1 - 8)
        _ = narrow.receive(ServerMessage(seq: 1, .welcome(Welcome(
            you: me, room: "talk", document: DocumentInfo(title: long, format: .markdown, text: "# One\n\nText.\n"),
            readers: [], presenter: nil, draft: DraftInfo(text: "", rev: 0, status: DraftCounter.standard.status(forCount: 0))))),
            at: .zero)
        let rows = [Duration.zero, .milliseconds(1500), .seconds(2)].map { narrow.view(at: $0, theme: .monochrome).lines()[0] }
        #expect(rows.allSatisfy { $0.hasPrefix(String(long.prefix(field - 1)) + "…") }, "\(rows)")
    }

    @Test("a join notice gives the key hints back at the presenter's next key, and after 2 s without one")
    func joinNoticePasses() {
        let deck = "# One\n\nA.\n\n<!-- end_slide -->\n\n# Two\n\nB.\n\n<!-- end_slide -->\n\n# Three\n\nC.\n\n<!-- end_slide -->\n\n# Four\n\nD.\n"
        var m = reader(deck, mode: .present)
        func status(_ time: Duration) -> String { m.view(at: time, theme: .monochrome).lines().last ?? "" }
        #expect(status(.zero).contains("→ next"))
        _ = m.receive(ServerMessage(seq: 2, .joined(ReaderInfo(id: ClientID("c2"), name: "fay", role: .reader))), at: .seconds(1))
        #expect(status(.seconds(1)).contains("fay joined as reader"))
        _ = m.handle(.key(.right), at: .milliseconds(1200))
        #expect(m.slides.slide == 1)
        #expect(status(.milliseconds(1200)).contains("→ next") && !status(.milliseconds(1200)).contains("joined"),
                "the slide change gives the hints back: \(status(.milliseconds(1200)))")
        _ = m.receive(ServerMessage(seq: 3, .left(ReaderInfo(id: ClientID("c2"), name: "fay", role: .reader))), at: .seconds(5))
        #expect(status(.seconds(5)).contains("fay left"))
        #expect(status(.milliseconds(7100)).contains("→ next"), "2 s later without a key")
        _ = m.handle(.key(.character("9")), at: .seconds(8))
        _ = m.handle(.key(.enter), at: .seconds(8))
        _ = m.handle(.key(.right), at: .milliseconds(8100))
        #expect(status(.milliseconds(8100)).contains("slide 9 does not exist") || m.notices.current?.isError == true,
                "a notice that is no news about others stays its time")
    }

    @Test("--theme ascii draws every screen's own words in ASCII: separators, arrows, quotes, ellipses, markers")
    func asciiTheme() throws {
        let ascii = "# One\n\nPlain words, a [link](https://example.com).\n\n# Two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
        let deck = "Intro\n---\n\nHello.\n\n<!-- speaker_note: say hi -->\n\n<!-- pause -->\n\nMore.\n\n<!-- end_slide -->\n\nNext\n---\n\nBye.\n"
        var frames: [(String, Buffer)] = []
        var read = reader(ascii, columns: 120, rows: 30)
        frames.append(("reading", read.view(at: .zero, theme: .monochromeASCII)))
        for key: Key in [.character("/"), .character("w")] { _ = read.handle(.key(key), at: .zero) }
        frames.append(("typing a search", read.view(at: .zero, theme: .monochromeASCII)))
        _ = read.handle(.key(.escape), at: .zero)
        _ = read.handle(.key(.character("?")), at: .zero)
        frames.append(("the help", read.view(at: .zero, theme: .monochromeASCII)))
        _ = read.handle(.key(.escape), at: .zero)
        _ = read.disconnected("refused", at: .seconds(1))
        frames.append(("offline", read.view(at: .seconds(1), theme: .monochromeASCII)))
        var present = reader(deck, mode: .present, columns: 120, rows: 30)
        _ = present.handle(.key(.right), at: .zero)
        frames.append(("presenting", present.view(at: .zero, theme: .monochromeASCII)))
        var notes = NotesModel(room: "talk", name: "ada-notes", file: DocumentInfo(title: "deck.md", format: .markdown, text: deck),
                               columns: 100, rows: 20)
        _ = notes.connected(at: .zero)
        frames.append(("the notes", notes.view(at: .zero, theme: .monochromeASCII)))
        var monitor = MonitorModel(room: nil, name: "ops", columns: 120, rows: 30)
        _ = monitor.connected(at: .zero)
        let rooms = (1...3).map { RoomSummary(room: "r\($0)", seq: 1, readers: [ReaderInfo(id: ClientID("c\($0)"), name: "u\($0)", role: .reader)],
                                              presenter: nil, document: DocumentHeading(title: "T", format: .markdown, sections: ["S"]),
                                              draft: DraftCount(rev: 0, status: DraftCounter.standard.status(forCount: 3))) }
        _ = monitor.receive(ServerMessage(seq: 0, .overview(Overview(you: ClientID("c9"), rooms: rooms))), at: .zero)
        frames.append(("the monitor", monitor.view(at: .zero, theme: .monochromeASCII)))
        var draft = DraftModel(room: "talk", name: "ada", profile: nil, columns: 80, rows: 20)
        _ = draft.connected(at: .zero)
        frames.append(("the draft", draft.view(at: .zero, theme: .monochromeASCII)))
        for (what, buffer) in frames {
            let odd = buffer.lines().joined(separator: "\n").filter { !$0.isASCII }
            #expect(odd.isEmpty, "\(what): \(odd) in\n\(buffer.lines().joined(separator: "\n"))")
        }
    }

    @Test("the monitor of every room says how many rooms its box does not show, below and above")
    func hiddenRooms() {
        var m = MonitorModel(room: nil, name: "ops", columns: 100, rows: 30)
        _ = m.connected(at: .zero)
        let rooms = (1...14).map { RoomSummary(room: String(format: "room-%02d", $0), seq: 1, readers: [], presenter: nil, document: nil,
                                               draft: DraftCount(rev: 0, status: DraftCounter.standard.status(forCount: 0))) }
        _ = m.receive(ServerMessage(seq: 0, .overview(Overview(you: ClientID("c9"), rooms: rooms))), at: .zero)
        let top = m.view(at: .zero, theme: .monochrome).lines()
        let shown = top.filter { $0.hasPrefix("│") && $0.contains(" room-") }.count
        #expect(shown < 14)
        #expect(top.contains { $0.contains("Rooms (14) · \(14 - shown) more below") }, "\(top.joined(separator: "\n"))")
        for _ in 0..<13 { _ = m.handle(.key(.tab), at: .zero) }
        let bottom = m.view(at: .zero, theme: .monochrome).lines()
        #expect(bottom.contains { $0.contains("Rooms (14) · \(14 - shown) more above") }, "\(bottom.joined(separator: "\n"))")
        #expect(bottom.contains { $0.contains("▸ room-14") })
        for _ in 0..<10 { _ = m.handle(.key(.tab), at: .zero) }
        #expect(m.view(at: .zero, theme: .monochrome).lines().contains { $0.contains("above,") && $0.contains("below") })
    }
}
