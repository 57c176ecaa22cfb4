import NeonTUI
import Testing

@Suite("BorderBox")
struct BorderBoxTests {
    @Test("a rounded box with its title in the top edge, cut by display width with an ellipsis")
    func titled() {
        let buffer = render(BorderBox(title: "Hello 世界 title"), width: 20, height: 4)
        #expect(snapshot(buffer) == """
            ╭─ Hello 世界 tit… ╮
            │                  │
            │                  │
            ╰──────────────────╯
            """)
    }

    @Test("a short title leaves the rest of the edge drawn")
    func shortTitle() {
        let buffer = render(BorderBox(title: "Notes"), width: 16, height: 3)
        #expect(snapshot(buffer) == """
            ╭─ Notes ──────╮
            │              │
            ╰──────────────╯
            """)
    }

    @Test("a swinging title moves inside its field and a wide character cut at the left edge leaves a space",
          arguments: [
              (-1, "╭─ ello 世界 title ╮"),
              (-3, "╭─ lo 世界 title   ╮"),
              (-7, "╭─  界 title       ╮"),
          ])
    func swing(offset: Int, top: String) {
        let buffer = render(BorderBox(title: "Hello 世界 title", titleOffset: offset), width: 20, height: 2)
        #expect(buffer.lines() == [top, "╰──────────────────╯"])
    }

    @Test("the title field is the width less five columns")
    func titleField() {
        #expect(BorderBox.titleFieldWidth(forWidth: 20) == 15)
        #expect(BorderBox.titleFieldWidth(forWidth: 3) == 0)
    }

    @Test("small boxes", arguments: [
        (0, 0, [String]()), (1, 3, ["", "", ""]), (3, 1, [""]), (2, 2, ["╭╮", "╰╯"]),
        (5, 2, ["╭───╮", "╰───╯"]), (6, 2, ["╭─ … ╮", "╰────╯"]),
    ])
    func small(width: Int, height: Int, expected: [String]) {
        let buffer = render(BorderBox(title: "世界"), width: width, height: height)
        #expect(buffer.lines() == expected)
    }

    @Test("ASCII glyphs draw + - |")
    func ascii() {
        let buffer = render(BorderBox(title: "Keys", theme: .monochromeASCII), width: 12, height: 3)
        #expect(snapshot(buffer) == """
            +- Keys ---+
            |          |
            +----------+
            """)
    }

    @Test("the border is accent green, the title bold accent, and monochrome has no colour")
    func styles() {
        let buffer = render(BorderBox(title: "Doc"), width: 10, height: 3)
        #expect(buffer[0, 0].style == Theme.neon.border)
        #expect(buffer[0, 0].style.fg == .rgb(0, 255, 102))
        #expect(buffer[3, 0].style == Theme.neon.strong)
        #expect(buffer[4, 1].style == Theme.neon.background)
        #expect(isColorless(render(BorderBox(title: "Doc", theme: .monochrome), width: 10, height: 3)))
    }

    @Test("the inside is cleared and inner(of:) is the rectangle within the border")
    func inner() {
        var buffer = Buffer(width: 6, height: 3)
        buffer.write("xxxxxx", x: 0, y: 1)
        BorderBox(theme: .monochrome).render(in: buffer.area, into: &buffer)
        #expect(buffer.lines() == ["╭────╮", "│    │", "╰────╯"])
        #expect(BorderBox.inner(of: Rect(x: 2, y: 3, width: 6, height: 3)) == Rect(x: 3, y: 4, width: 4, height: 1))
        #expect(BorderBox.inner(of: Rect(width: 1, height: 1)).isEmpty)
    }
}
