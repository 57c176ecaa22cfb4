import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("DraftEditorView")
struct DraftEditorViewTests {
    /// An editor view of `text` with its status from a 280 counter.
    func view(_ text: String, cursor: Int? = nil, remote: [DraftEditorView.RemoteCursor] = [], overLimit: Bool = false,
              pulse: Bool = false, scrollTop: Int = 0, theme: Theme = .neon) throws -> DraftEditorView {
        let counter = try DraftCounter()
        let range = overLimit ? text.index(text.startIndex, offsetBy: counter.limit)..<text.endIndex : nil
        return DraftEditorView(text: text, cursor: cursor ?? text.unicodeScalars.count, remoteCursors: remote,
                               status: counter.status(of: text), overLimit: range, pulse: pulse,
                               scrollTop: scrollTop, theme: theme)
    }

    @Test("at width 20 the text wraps by words, keeps its newlines, and the ring sits in the footer")
    func width20() throws {
        let buffer = render(try view("Hello world, this is a draft\nsecond line"), width: 20, height: 5)
        #expect(snapshot(buffer) == """
            Hello world, this is
            a draft
            second line

                        40/280 ◔
            """)
        let theme = Theme.neon
        #expect(buffer[0, 0].style == theme.text)
        #expect(buffer[11, 2].style == theme.background.patched(with: Style(reverse: true)))
        #expect(buffer[10, 2].style == theme.text)
        #expect(buffer[19, 4].style == theme.levelNormal)
    }

    @Test("the local cursor reverses the cell of the character it is on, both halves of a wide one")
    func cursorOnCharacter() throws {
        let buffer = render(try view("a日b", cursor: 1), width: 10, height: 2)
        #expect(buffer.lines() == ["a日b", "   3/280 ◔"])
        #expect(buffer[1, 0].style.reverse && buffer[2, 0].style.reverse)
        #expect(!buffer[0, 0].style.reverse && !buffer[3, 0].style.reverse)
    }

    @Test("at width 60 the text past 280 characters is on red and the footer keeps the count, the limit and the red negative number")
    func overLimit() throws {
        let text = String(repeating: "x", count: 290)
        let buffer = render(try view(text, overLimit: true), width: 60, height: 7)
        #expect(buffer.lines() == Array(repeating: String(repeating: "x", count: 60), count: 4)
            + [String(repeating: "x", count: 50), "", String(repeating: " ", count: 49) + "290/280 -10"])
        let theme = Theme.neon
        #expect(buffer[39, 4].style == theme.text)
        #expect(buffer[40, 4].style.bg == theme.levelLimit.fg)
        #expect(buffer[49, 4].style.bg == .rgb(244, 33, 46))
        #expect(buffer[50, 4].style.reverse)
        #expect((49..<56).allSatisfy { buffer[$0, 6].style == theme.levelLimit })
        #expect((57..<60).allSatisfy { buffer[$0, 6].style == theme.levelLimit })
    }

    @Test("at width 0 nothing is drawn; at width 1 the text runs a character a row")
    func narrow() throws {
        #expect(render(try view("ab"), width: 0, height: 3).lines() == ["", "", ""])
        #expect(render(try view("ab"), width: 5, height: 0).lines().isEmpty)
        let buffer = render(try view("ab"), width: 1, height: 3)
        #expect(buffer.lines() == ["b", "", "◔"])
        #expect(buffer[0, 1].style.reverse)
        let single = render(try view("ab", cursor: 0), width: 1, height: 1)
        #expect(single.lines() == ["a"])
        #expect(single[0, 0].style.reverse)
    }

    @Test("CJK text wraps by display width without splitting a character")
    func cjk() throws {
        let buffer = render(try view("日本語のテキスト", cursor: 0), width: 7, height: 4)
        #expect(buffer.lines() == ["日本語", "のテキ", "スト", "8/280 ◔"])
        #expect(buffer[0, 0].style.reverse && buffer[1, 0].style.reverse && !buffer[2, 0].style.reverse)
    }

    @Test("without colour the part past the limit is underlined, the cursor reversed, another cursor bold and underlined")
    func monochrome() throws {
        let text = String(repeating: "y", count: 285)
        let remote = [DraftEditorView.RemoteCursor(name: "Ada", position: 10)]
        let buffer = render(try view(text, cursor: 0, remote: remote, overLimit: true, theme: .monochrome),
                            width: 60, height: 6)
        #expect(isColorless(buffer))
        #expect(buffer[0, 0].style == Style(reverse: true))
        #expect(buffer[10, 0].style == Style(bold: true, underline: true))
        #expect(buffer[39, 4].style == .plain)
        #expect(buffer[40, 4].style == Style(underline: true))
        #expect(buffer.lines()[5] == "Ada" + String(repeating: " ", count: 45) + "285/280 ● -5")
    }

    @Test("other people's cursors take their colour as a cursor cell, a blank one at a line's end, and are named in the footer")
    func remoteCursors() throws {
        let remote = [DraftEditorView.RemoteCursor(name: "Ada", position: 3),
                      DraftEditorView.RemoteCursor(name: "Bo", position: 8)]
        let buffer = render(try view("hi there", cursor: 0, remote: remote), width: 20, height: 2)
        #expect(buffer.lines() == ["hi there", "Ada Bo       8/280 ◔"])
        let ada = buffer[3, 0].style
        #expect(ada.underline && ada.bg != Theme.neon.background.bg && ada.fg == Theme.neon.background.bg)
        #expect(buffer[0, 1].style == ada)
        #expect(buffer[8, 0].style == buffer[4, 1].style)
        #expect(buffer[1, 1].style == Theme.neon.muted)
    }

    @Test("a name that does not fit left of the count is left out")
    func namesThatDoNotFit() throws {
        let remote = [DraftEditorView.RemoteCursor(name: "Ada", position: 0),
                      DraftEditorView.RemoteCursor(name: "Grace Hopper", position: 0)]
        let buffer = render(try view("x", remote: remote), width: 12, height: 2)
        #expect(buffer.lines()[1] == "Ada  1/280 ◔")
    }

    @Test("the pulse at the limit draws the ring as a bold reversed badge a cell wider each side")
    func pulse() throws {
        let text = String(repeating: "z", count: 280)
        let plain = render(try view(text), width: 10, height: 30)
        let pulsing = render(try view(text, pulse: true), width: 10, height: 30)
        #expect(plain.lines()[29] == "       ● 0")
        #expect(pulsing.lines()[29] == "       ● 0")
        let badge = Theme.neon.levelLimit.patched(with: Style(bold: true, reverse: true))
        #expect((6...8).allSatisfy { pulsing[$0, 29].style == badge })
        #expect(plain[6, 29].style == Theme.neon.background)
        #expect(plain[7, 29].style == Theme.neon.levelLimit)
        #expect(pulsing[9, 29].style == Theme.neon.levelLimit)
    }

    @Test("the view scrolls just enough to keep the cursor in sight")
    func scrolling() throws {
        let text = (1...10).map(String.init).joined(separator: "\n")
        let area = Rect(width: 6, height: 4)
        #expect(try view(text, cursor: 0).visibleTop(in: area) == 0)
        #expect(try view(text).visibleTop(in: area) == 7)
        #expect(render(try view(text), width: 6, height: 4).lines() == ["8", "9", "10", "     ◔"])
        #expect(try view(text, cursor: 8, scrollTop: 3).visibleTop(in: area) == 3)
        #expect(render(try view(text, cursor: 8, scrollTop: 3), width: 6, height: 4).lines() == ["4", "5", "6", "     ◔"])
        #expect(try view(text, cursor: 8, scrollTop: 0).visibleTop(in: area) == 2)
        #expect(try view(text, cursor: 18, scrollTop: 50).visibleTop(in: area) == 7)
        #expect(try view("short", scrollTop: 4).visibleTop(in: area) == 0)
    }

    @Test("the editor draws only inside its rectangle at every size and theme")
    func staysInside() throws {
        let sentinel = Cell("x", style: Style(fg: .brightMagenta))
        let remote = [DraftEditorView.RemoteCursor(name: "李小龍", position: 3)]
        let text = "日本語 👨‍👩‍👧‍👦 text\n" + String(repeating: "長い", count: 150)
        for theme in [Theme.neon, .monochrome, .monochromeASCII] {
            for width in [0, 1, 2, 3, 7, 20] {
                for height in [0, 1, 2, 5] {
                    var buffer = Buffer(width: width + 4, height: height + 4)
                    buffer.fill(buffer.area, style: sentinel.style, character: "x")
                    let area = Rect(x: 2, y: 2, width: width, height: height)
                    try view(text, cursor: 5, remote: remote, overLimit: true, pulse: true, theme: theme)
                        .render(in: area, into: &buffer)
                    for y in 0..<buffer.height {
                        for x in 0..<buffer.width where !area.contains(x: x, y: y) {
                            #expect(buffer[x, y] == sentinel, "drew at \(x),\(y) in \(width)×\(height)")
                        }
                    }
                }
            }
        }
    }
}
