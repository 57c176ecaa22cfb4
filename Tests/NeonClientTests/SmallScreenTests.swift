import NeonClient
import NeonCore
import NeonTUI
import Testing

@Suite("Reader on small terminals")
struct SmallScreenTests {
    @Test("a short terminal folds the progress box a row at a time, then the tab underline, the border and the tab header, never showing fewer document rows on a taller terminal", arguments: [
        (80, 24, 3, 2, true, 15), (80, 18, 3, 2, true, 9), (80, 17, 2, 2, true, 9), (80, 16, 1, 2, true, 9),
        (80, 15, 0, 2, true, 9), (40, 12, 0, 1, true, 7), (40, 9, 0, 1, true, 4), (40, 8, 0, 2, false, 4),
        (40, 7, 0, 1, false, 4), (20, 5, 0, 0, false, 3), (20, 1, 0, 0, false, 0),
    ])
    func geometry(columns: Int, rows: Int, indicatorRows: Int, tabRows: Int, bordered: Bool, documentRows: Int) {
        let g = ScreenGeometry(columns: columns, rows: rows)
        #expect(g.foldsIndicator == (indicatorRows == 0))
        #expect(g.indicator.height == indicatorRows)
        #expect(g.tabs.height == tabRows)
        #expect(g.isBordered == bordered)
        #expect(g.document.height == documentRows)
        #expect(g.document.height == 0 || g.document.maxY <= g.status.y)
    }

    @Test("the draft panel takes at most half of what the document would have")
    func draftPanel() {
        let tall = ScreenGeometry(columns: 80, rows: 24, draftRows: 8)
        #expect(tall.draftRows == 8 && tall.draft.y == tall.box.maxY && tall.draft.maxY == tall.indicator.y)
        let short = ScreenGeometry(columns: 40, rows: 12, draftRows: 8)
        #expect(short.draftRows == 4 && short.draft.maxY == short.status.y)
    }

    @Test("at 40x12 the document keeps 7 rows and the status line carries the percent without cut words")
    func fortyByTwelve() {
        var m = welcomed(columns: 40, rows: 12)
        m.settle()
        let lines = m.view(at: .zero, theme: .monochrome).lines()
        #expect(lines.count == 12)
        #expect(lines[2].hasPrefix("╭") && lines[10].hasPrefix("╰"))
        #expect(lines[3].contains("Welcome"))
        #expect(lines[11] == " ? keys · j/k scroll        1 here · 0%", "\(lines[11])")
        _ = m.handle(.key(.character("G")), at: .seconds(1))
        let bottom = m.view(at: .seconds(1), theme: .monochrome).lines()
        #expect(bottom[11].hasPrefix(" t back to top") && bottom[11].hasSuffix("100%"), "\(bottom[11])")
    }

    @Test("at 20x5 the document is still shown, with the percent in the status line")
    func twentyByFive() {
        var m = welcomed(columns: 20, rows: 5)
        m.settle()
        let lines = m.view(at: .zero, theme: .monochrome).lines()
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("Welcome"))
        #expect(lines[4].hasPrefix(" ? keys") && lines[4].hasSuffix("0%"), "\(lines[4])")
    }

    @Test("every size from 1x1 to 30x20 draws without a crash, wide characters whole")
    func everySize() {
        for columns in 1...30 {
            for rows in 1...20 {
                var m = welcomed(columns: columns, rows: rows)
                m.settle()
                _ = m.handle(.key(.character("?")), at: .zero)
                let buffer = m.view(at: .zero, theme: .neon)
                #expect(buffer.width == columns && buffer.height == rows)
            }
        }
    }

    @Test("the help overlay scrolls with j and k, says there is more, and any other key closes it")
    func helpScrolls() {
        var m = welcomed(columns: 60, rows: 10)
        _ = m.handle(.key(.character("?")), at: .zero)
        #expect(m.keyList.isOpen && m.keyList.scroll == 0)
        let first = m.view(at: .zero, theme: .monochrome).lines()
        #expect(first.contains { $0.contains(HelpOverlay.moreBelow) })
        #expect(!first.contains { $0.contains(HelpOverlay.moreAbove) })
        _ = m.handle(.key(.character("j")), at: .zero)
        _ = m.handle(.key(.down), at: .zero)
        #expect(m.keyList.scroll == 2)
        _ = m.handle(.key(.character("G")), at: .zero)
        let maximum = m.keyList.scroll
        #expect(maximum > 2)
        let last = m.view(at: .zero, theme: .monochrome).lines()
        #expect(last.contains { $0.contains("slides: go to slide 3") } && last.contains { $0.contains(HelpOverlay.moreAbove) }, "\(last)")
        _ = m.handle(.key(.character("k")), at: .zero)
        #expect(m.keyList.scroll == maximum - 1)
        _ = m.handle(.mouse(MouseEvent(.wheelUp, x: 1, y: 1)), at: .zero)
        #expect(m.keyList.isOpen)
        _ = m.handle(.key(.escape), at: .zero)
        #expect(!m.keyList.isOpen)
        _ = m.handle(.key(.function(1)), at: .zero)
        #expect(m.keyList.isOpen && m.keyList.scroll == 0)
    }

    @Test("the monitor's help scrolls the same way on a short terminal, and q there quits")
    func monitorHelp() {
        var m = MonitorModel(room: "talk", name: "ada", columns: 40, rows: 6)
        _ = m.handle(.key(.character("?")), at: .zero)
        _ = m.handle(.key(.character("j")), at: .zero)
        #expect(m.keyList.isOpen && m.keyList.scroll == 1)
        #expect(m.view(at: .zero, theme: .monochrome).lines().joined().contains(HelpOverlay.moreAbove))
        #expect(m.handle(.key(.character("q")), at: .zero) == [.quit])
    }

    @Test("the paging keys of less move the help, clamped to its ends")
    func helpScrolling() {
        #expect(HelpScrolling(.key(.character("j")), page: 5).scroll(from: 0, maximum: 3) == 1)
        #expect(HelpScrolling(.key(.pageDown), page: 5).scroll(from: 0, maximum: 10) == 4)
        #expect(HelpScrolling(.key(.character(" ")), page: 5).scroll(from: 9, maximum: 10) == 10)
        #expect(HelpScrolling(.key(.character("b")), page: 5).scroll(from: 2, maximum: 10) == 0)
        #expect(HelpScrolling(.key(.character("k")), page: 5).scroll(from: 12, maximum: 10) == 9)
        #expect(HelpScrolling(.key(.end), page: 5).scroll(from: 0, maximum: 10) == 10)
        #expect(HelpScrolling(.paste("x"), page: 5).scroll(from: 4, maximum: 10) == 4)
        #expect(HelpScrolling(.key(.character("q")), page: 5).scroll(from: 4, maximum: 10) == nil)
        #expect(HelpScrolling(.key(.escape), page: 5) == .close)
    }
}

@Suite("Draft keys: help, cursor at the end, word-sized undo")
struct DraftKeysTests {
    @Test("F1 and Ctrl-G open the draft editor's keys without typing; ? types; any other key closes them")
    func help() {
        var m = joinedDraft(text: "hi", rev: 1)
        #expect(m.handle(.key(.function(1)), at: .zero).isEmpty)
        #expect(m.keyList.isOpen && m.editor.text == "hi")
        let screen = m.view(at: .zero, theme: .monochrome).lines().joined(separator: "\n")
        #expect(screen.contains("Draft keys") && screen.contains("undo / redo a word or burst"))
        #expect(m.handle(.key(.escape), at: .zero).isEmpty)
        #expect(!m.keyList.isOpen)
        _ = m.handle(.key(.ctrl("g")), at: .zero)
        #expect(m.keyList.isOpen)
        _ = m.handle(.key(.character("x")), at: .zero)
        #expect(!m.keyList.isOpen && m.editor.text == "hi")
        _ = m.handle(.key(.character("?")), at: .zero)
        #expect(m.editor.text == "hi?")
        #expect(m.view(at: .zero, theme: .monochrome).lines().last?.contains("F1 keys") == true)
    }

    @Test("the draft editor starts with the cursor at the end of the draft; Alt-< and Alt-> go to its ends")
    func cursorAtEnd() {
        var m = joinedDraft(text: "hello world", rev: 4)
        #expect(m.editor.cursor == 11)
        _ = m.handle(.key(.alt("<")), at: .zero)
        #expect(m.editor.cursor == 0)
        #expect(m.handle(.key(.alt(">")), at: .zero) == [.send(.cursor(position: 11, rev: 4))])
    }

    @Test("e in the reader opens the draft with the cursor at its end, and shares the cursor")
    func readerOpensAtEnd() {
        var m = welcomedWithDraft("existing text")
        #expect(m.draft.editor.cursor == 13)
        _ = m.handle(.key(.character("e")), at: .zero)
        _ = m.handle(.key(.home), at: .zero)
        #expect(m.draft.editor.cursor == 0)
        _ = m.handle(.key(.escape), at: .zero)
        _ = m.handle(.key(.character("E")), at: .zero)
        #expect(!m.draftPanel.isOpen)
        let out = m.handle(.key(.character("e")), at: .zero)
        #expect(m.draftPanel == .focused && m.draft.editor.cursor == 13)
        #expect(out.contains(.send(.cursor(position: 13, rev: 2))))
        _ = m.handle(.key(.function(1)), at: .zero)
        #expect(m.keyList.isOpen && m.draft.editor.text == "existing text")
        #expect(m.view(at: .zero, theme: .monochrome).lines().contains { $0.contains("Draft keys") })
        _ = m.handle(.key(.escape), at: .zero)
        #expect(!m.keyList.isOpen && m.draftPanel == .focused)
    }

    @Test("a typed word and the space after it are one undo step; a paste is one step")
    func wordSteps() throws {
        var editor = DraftEditor()
        for character in "one two  three" {
            _ = editor.insert(String(character))
            _ = try editor.acknowledged()
        }
        _ = editor.undo()
        #expect(editor.text == "one two  ")
        _ = try editor.acknowledged()
        _ = editor.undo()
        #expect(editor.text == "one ")
        _ = try editor.acknowledged()
        _ = editor.paste("pasted words, thirty characters")
        _ = try editor.acknowledged()
        _ = editor.insert("!")
        _ = try editor.acknowledged()
        _ = editor.undo()
        #expect(editor.text == "one pasted words, thirty characters")
        _ = try editor.acknowledged()
        _ = editor.undo()
        #expect(editor.text == "one ")
    }
}

/// A reader welcomed into a room whose draft holds `text`.
func welcomedWithDraft(_ text: String) -> ReaderModel {
    var m = ReaderModel(mode: .join, room: "guide", name: "ada", columns: 80, rows: 24, at: .zero)
    _ = m.connected(at: .zero)
    let w = Welcome(you: me, room: "guide", document: DocumentInfo(title: "Guide", format: .markdown, text: guide),
                    readers: [ReaderInfo(id: me, name: "ada", role: .reader)], presenter: nil,
                    draft: DraftInfo(text: text, rev: 2, status: try! DraftCounter().status(of: text)))
    _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
    m.settle()
    return m
}
