import NeonCore
import NeonTUI
import Testing

@Suite("StatusLine items and HelpOverlay scrolling")
struct StatusLineFittingTests {
    let hints = ["? keys", "j/k scroll", "Tab sections", "/ search", "q quit"]

    @Test("a reserve for the right side keeps the hints the same while its numbers grow")
    func reserve() {
        let widest = DisplayWidth.of("row 400/400 · 2 here · 100%")
        var lines: [String] = []
        for right in [["row 3/400", "2 here", "0%"], ["row 40/400", "2 here", "42%"], ["row 380/400", "2 here", "100%"]] {
            var line = StatusLine(items: hints, right: right, theme: .monochrome)
            line.rightReserve = widest
            lines.append(render(line, width: 82, height: 1).lines()[0])
        }
        #expect(lines.allSatisfy { $0.hasPrefix(" ? keys · j/k scroll · Tab sections · / search  ") })
        #expect(lines[0].hasSuffix("row 3/400 · 2 here · 0%") && lines[2].hasSuffix("row 380/400 · 2 here · 100%"))
    }

    @Test("hints that do not fit go whole, from the end, before the right side loses its first items", arguments: [
        (81, " ? keys · j/k scroll · Tab sections · / search · q quit  row 3/40 · 2 here · 42%"),
        (80, " ? keys · j/k scroll · Tab sections · / search          row 3/40 · 2 here · 42%"),
        (60, " ? keys · j/k scroll                row 3/40 · 2 here · 42%"),
        (40, " ? keys         row 3/40 · 2 here · 42%"),
        (30, " ? keys          2 here · 42%"),
        (12, "        42%"),
    ])
    func dropsWholeItems(width: Int, expected: String) {
        let line = StatusLine(items: hints, right: ["row 3/40", "2 here", "42%"], theme: .monochrome)
        let shown = render(line, width: width, height: 1).lines()[0]
        #expect(shown == expected.trimmingTrailingSpaces)
        #expect(!shown.contains("qui ") && !shown.hasSuffix("qui"))
    }

    @Test("no hint is ever cut inside a word, at any width")
    func neverCutsWords() {
        for width in 0...90 {
            let line = StatusLine(items: hints, right: ["2 here", "100%"], theme: .monochrome)
            let fitted = line.fitting(width: max(width - 2, 0))
            let shown = render(line, width: width, height: width == 0 ? 0 : 1).lines().first ?? ""
            for item in fitted.left { #expect(shown.contains(item), "\(width): \(shown)") }
            for item in hints where !fitted.left.contains(item) {
                #expect(!shown.contains(String(item.prefix(3))), "\(width): \(shown)")
            }
        }
    }

    @Test("a lone message too wide ends in an ellipsis, and is left out when only a few columns remain")
    func longMessage() {
        let line = StatusLine(left: "pat published “A very long title indeed”", right: "42%", theme: .monochrome)
        #expect(render(line, width: 30, height: 1).lines() == [" pat published “A very…   42%"])
        #expect(render(line, width: 9, height: 1).lines() == ["     42%"])
    }

    @Test("the folded progress bar sits at the right end when the line is wide enough")
    func foldedBar() {
        let line = StatusLine(items: ["? keys"], right: ["2 here", "50%"], progress: 0.5, theme: .monochrome)
        let wide = render(line, width: 60, height: 1).lines()[0]
        #expect(wide.hasSuffix("2 here · 50% █████░░░░░"), "\(wide)")
        let narrow = render(line, width: 40, height: 1).lines()[0]
        #expect(narrow.hasSuffix("2 here · 50%") && !narrow.contains("█"))
    }

    let keys: [HelpOverlay.Line] = (1...10).map { HelpOverlay.Line(key: "k\($0)", action: "action \($0)") }

    @Test("a help overlay taller than its area shows a window of lines and says what lies beyond")
    func scrolls() {
        let top = render(HelpOverlay(lines: keys, scroll: 0, theme: .monochrome), width: 24, height: 5).lines()
        #expect(top == [
            "   ╭─ Keys ─────────╮",
            "   │ k1   action 1  │",
            "   │ k2   action 2  │",
            "   │ k3   action 3  │",
            "   ╰─ more below j ─╯",
        ])
        let middle = render(HelpOverlay(lines: keys, scroll: 4, theme: .monochrome), width: 24, height: 5).lines()
        #expect(middle[1].contains("k5") && middle[3].contains("k7"))
        #expect(middle[4].contains(HelpOverlay.moreBelow))
        let end = render(HelpOverlay(lines: keys, scroll: 99, theme: .monochrome), width: 24, height: 5).lines()
        #expect(end[3].contains("k10") && !end[4].contains("more"))
        #expect(HelpOverlay(lines: keys).maxScroll(width: 24, height: 5) == 7)
        #expect(HelpOverlay(lines: keys).visibleRowCount(width: 24, height: 5) == 3)
        #expect(HelpOverlay(lines: keys).maxScroll(width: 24, height: 40) == 0)
    }

    @Test("the scroll marks fall back to a short form in a narrow box and never overwrite the title")
    func narrowMarks() {
        let lines = render(HelpOverlay(lines: keys, scroll: 3, theme: .monochrome), width: 14, height: 5).lines()
        #expect(lines[0].hasPrefix("╭─ Keys ") && lines[0].contains("k…"), "\(lines)")
        #expect(lines[4].contains("j…"), "\(lines)")
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
