import NeonCore
import NeonTUI
import Testing

@Suite("ProgressBar, bar, reading and spinner styles")
struct ProgressStyleTests {
    @Test("the bar style puts the label above and the value inside the filled part")
    func barStyle() throws {
        let model = try progress(30, total: 100, label: "Processing…")
        let buffer = render(ProgressBar(model, style: .bar, theme: .monochrome), width: 24, height: 4)
        #expect(snapshot(buffer) == """
            Processing…
            ███████▏░░░░░░░░░░░░░░░░
            ██30%██▏░░░░░░░░░░░░░░░░
            ███████▏░░░░░░░░░░░░░░░░
            """)
        #expect(buffer[2, 2].style == Style(bold: true, reverse: true))
        #expect(isColorless(buffer))
    }

    @Test("the bar style grows to three rows at most and the value sits on the middle one")
    func barRows() throws {
        let model = try progress(0.5, label: "Sync")
        let buffer = render(ProgressBar(model, style: .bar, theme: .monochrome), width: 10, height: 7)
        #expect(buffer.lines() == ["Sync", "█████░░░░░", "█50%█░░░░░", "█████░░░░░", "", "", ""])
    }

    @Test("the bar style centres the value on the whole bar while the fill is too short")
    func barShortFill() throws {
        let buffer = render(ProgressBar(try progress(0.1), style: .bar, theme: .monochrome), width: 12, height: 1)
        #expect(snapshot(buffer) == "█▏░░10%░░░░░")
        #expect(buffer[4, 0].style == Style(bold: true))
    }

    @Test("the bar style draws the value dark on the accent, or on the tint")
    func barColours() throws {
        let model = try progress(30, total: 100, label: "Processing…")
        let buffer = render(ProgressBar(model, style: .bar), width: 24, height: 2)
        #expect(buffer.lines() == ["Processing…", "██30%██▏"])
        #expect(buffer[3, 1].style == Theme.neon.barLabel)
        #expect(buffer[3, 1].style.bg == .rgb(0, 255, 102))
        #expect(buffer[0, 0].style == Theme.neon.text)
        let tinted = render(ProgressBar(model, style: .bar, tint: .magenta), width: 24, height: 2)
        #expect(tinted[3, 1].style.bg == .magenta)
        #expect(tinted[0, 1].style.fg == .magenta)
    }

    @Test("the bar style at narrow widths", arguments: [0, 1, 3])
    func barNarrow(width: Int) throws {
        let buffer = render(ProgressBar(try progress(30, total: 100, label: "Processing…"), style: .bar,
                                        theme: .monochrome), width: width, height: 1)
        let expected = ["", "3", "30%"][[0, 1, 3].firstIndex(of: width) ?? 0]
        #expect(buffer.lines() == (width == 0 ? [""] : [expected]))
    }

    @Test("the reading bar is NN% in bold accent then the bar, boxed on three rows")
    func reading() throws {
        let buffer = render(ProgressBar(try progress(0.42), style: .reading), width: 26, height: 3)
        #expect(snapshot(buffer) == """
            ╭────────────────────────╮
            │ 42%  ███████▏          │
            ╰────────────────────────╯
            """)
        #expect(buffer[2, 1].style == Theme.neon.strong)
        #expect(buffer[2, 1].style.bold)
        #expect(buffer[0, 0].style == Theme.neon.border)
    }

    @Test("the reading bar without rows for a box", arguments: [
        (8, "42%  █▎░"), (5, "42%"), (1, "▍"), (0, ""),
    ])
    func readingNarrow(width: Int, expected: String) throws {
        let buffer = render(ProgressBar(try progress(0.42), style: .reading, theme: .monochrome), width: width, height: 1)
        #expect(buffer.lines() == [expected])
    }

    @Test("the reading bar at full width shows 100% and a full bar")
    func readingWide() throws {
        let buffer = render(ProgressBar(try progress(1), style: .reading, theme: .monochrome), width: 80, height: 3)
        #expect(buffer.lines()[1] == "│ 100% " + String(repeating: "█", count: 71) + " │")
    }

    @Test("an indeterminate model draws a spinner in every style")
    func indeterminate() {
        let model = ProgressModel(indeterminateLabel: "Connecting")
        for style in ProgressStyle.allCases {
            let buffer = render(ProgressBar(model, style: style, frame: 3), width: 20, height: 1)
            #expect(buffer.lines() == ["⠸ Connecting"], "\(style)")
        }
    }

    @Test("the spinner style of a determinate model shows the label and the value")
    func spinnerDeterminate() throws {
        let buffer = render(ProgressBar(try progress(0.3, label: "Benchmark"), style: .spinner, frame: 12),
                            width: 20, height: 1)
        #expect(buffer.lines() == ["⠹ Benchmark 30%"])
    }

    @Test("preferred sizes fit what each style draws")
    func preferredSizes() {
        #expect(ProgressStyle.wheel.preferredSize == (7, 3))
        #expect(ProgressStyle.reading.preferredSize.height == 3)
        #expect(ProgressStyle.linear.preferredSize.height == 1)
    }
}
