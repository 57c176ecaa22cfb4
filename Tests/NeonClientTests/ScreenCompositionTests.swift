import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("Widgets composed into a screen")
struct ScreenCompositionTests {
    @Test("the reader screen: tabs, a boxed document, the reading bar and back-to-top at the bottom")
    func readerScreen() throws {
        let text = "# Intro\n\nNeon text.\n\n# 使い方\n\nRead along."
        let document = try Document.parse(title: "guide.md", format: .markdown, text: text)
        let titles = document.sections.map(\.title)
        var screen = Buffer(width: 40, height: 13, style: Theme.monochrome.background)
        let tabs = Rect(x: 0, y: 0, width: 40, height: 2)
        TabHeader(titles: titles, current: 1,
                  offset: TabHeader.scrollOffset(titles: titles, current: 1, width: tabs.width, previous: 0),
                  theme: .monochrome).render(in: tabs, into: &screen)
        let box = Rect(x: 0, y: 2, width: 40, height: 7)
        BorderBox(title: document.title, theme: .monochrome).render(in: box, into: &screen)
        let inner = BorderBox.inner(of: box)
        let layout = Layout(document: document, width: inner.width)
        DocumentView(layout: layout, top: 2, theme: .monochrome).render(in: inner, into: &screen)
        let button = BackToTopButton.size()
        BackToTopButton(theme: .monochrome).render(in: Rect(x: 0, y: 9, width: button.width, height: 3), into: &screen)
        ProgressBar(try progress(1), style: .reading, theme: .monochrome)
            .render(in: Rect(x: button.width + 1, y: 9, width: 26, height: 3), into: &screen)
        StatusLine(left: "guide.md", right: "100%", theme: .monochrome).render(in: screen.area.row(12), into: &screen)
        #expect(snapshot(screen) == """
             Intro  使い方
            ────────━━━━━━──────────────────────────
            ╭─ guide.md ───────────────────────────╮
            │Neon text.                            │
            │                                      │
            │使い方                                │
            │                                      │
            │Read along.                           │
            ╰──────────────────────────────────────╯
            ╭───────────╮ ╭────────────────────────╮
            │ ↑ top [g] │ │ 100% █████████████████ │
            ╰───────────╯ ╰────────────────────────╯
             guide.md                          100%
            """)
    }
}
