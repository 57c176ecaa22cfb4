import NeonCore
import NeonTUI
import Testing

@Suite("FrameWriter and TerminalControl")
struct FrameWriterTests {
    @Test("a first frame clears the screen and draws every cell")
    func fullRedraw() {
        var buffer = Buffer(width: 3, height: 2)
        buffer.write("ab", x: 0, y: 0)
        buffer.write("世", x: 1, y: 1, style: Style(fg: .green))
        #expect(FrameWriter.diff(from: nil, to: buffer)
            == "\u{1B}[0m\u{1B}[2J\u{1B}[Hab \u{1B}[2;1H \u{1B}[0;32m世\u{1B}[0m")
    }

    @Test("an identical frame emits nothing")
    func identical() {
        var buffer = Buffer(width: 200, height: 60, style: Theme.neon.background)
        buffer.write("Neon 世界", x: 3, y: 3, style: Theme.neon.strong)
        #expect(FrameWriter.diff(from: buffer, to: buffer) == "")
    }

    @Test("changing one cell of a 200×60 screen emits a few bytes")
    func oneCell() {
        let before = Buffer(width: 200, height: 60)
        var after = before
        after.set("X", x: 100, y: 30)
        let output = FrameWriter.diff(from: before, to: after)
        #expect(output == "\u{1B}[31;101HX")
        #expect(output.utf8.count < 40)
        var styled = before
        styled.set("X", x: 199, y: 59, style: Style(fg: .green, bold: true))
        let styledOutput = FrameWriter.diff(from: before, to: styled)
        #expect(styledOutput == "\u{1B}[60;200H\u{1B}[0;1;32mX\u{1B}[0m")
        #expect(styledOutput.utf8.count < 40)
    }

    @Test("unchanged runs on a row are skipped with a forward move, other rows with a jump")
    func skips() {
        let before = Buffer(width: 20, height: 3)
        var after = before
        after.write("AB", x: 2, y: 0)
        after.set("C", x: 5, y: 0)
        after.set("D", x: 15, y: 0)
        after.set("E", x: 0, y: 2)
        #expect(FrameWriter.diff(from: before, to: after) == "\u{1B}[1;3HAB\u{1B}[CC\u{1B}[9CD\u{1B}[3;1HE")
    }

    @Test("a wide character is written once and its continuation never alone")
    func wide() {
        let before = Buffer(width: 6, height: 1)
        var after = before
        after.write("世X", x: 0, y: 0)
        #expect(FrameWriter.diff(from: before, to: after) == "\u{1B}[1;1H世X")
        var narrowed = after
        narrowed.set("a", x: 0, y: 0)
        #expect(FrameWriter.diff(from: after, to: narrowed) == "\u{1B}[1;1Ha ")
        var rightHalf = after
        rightHalf.set("b", x: 1, y: 0)
        #expect(FrameWriter.diff(from: after, to: rightHalf) == "\u{1B}[1;1H b")
    }

    @Test("a frame of another size is a full redraw")
    func resized() {
        let output = FrameWriter.diff(from: Buffer(width: 2, height: 1), to: Buffer(width: 3, height: 1))
        #expect(output == "\u{1B}[0m\u{1B}[2J\u{1B}[H   ")
        #expect(FrameWriter.diff(from: nil, to: Buffer(width: 0, height: 0)) == "\u{1B}[0m\u{1B}[2J\u{1B}[H")
    }

    @Test("colours select truecolor, 256-colour or basic SGR parameters")
    func colours() {
        #expect(Color.rgb(0, 255, 102).sgrParameters(background: false) == "38;2;0;255;102")
        #expect(Color.rgb(13, 13, 13).sgrParameters(background: true) == "48;2;13;13;13")
        #expect(Color.indexed(47).sgrParameters(background: false) == "38;5;47")
        #expect(Color.indexed(233).sgrParameters(background: true) == "48;5;233")
        #expect(Color.red.sgrParameters(background: false) == "31")
        #expect(Color.white.sgrParameters(background: true) == "47")
        #expect(Color.brightGreen.sgrParameters(background: false) == "92")
        #expect(Color.brightBlack.sgrParameters(background: true) == "100")
        #expect(Color.default.sgrParameters(background: false) == "39")
        #expect(TerminalControl.select(Theme.neon.strong) == "\u{1B}[0;1;38;2;0;255;102;48;2;13;13;13m")
        #expect(TerminalControl.select(Style(dim: true, italic: true, underline: true, reverse: true))
            == "\u{1B}[0;2;3;4;7m")
        #expect(TerminalControl.select(.plain) == "\u{1B}[0m")
    }

    @Test("terminal modes are the standard private-mode sequences")
    func modes() {
        #expect(TerminalControl.alternateScreenOn == "\u{1B}[?1049h")
        #expect(TerminalControl.alternateScreenOff == "\u{1B}[?1049l")
        #expect(TerminalControl.hideCursor == "\u{1B}[?25l")
        #expect(TerminalControl.showCursor == "\u{1B}[?25h")
        #expect(TerminalControl.mouseOn == "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h")
        #expect(TerminalControl.mouseOff == "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l")
        #expect(TerminalControl.bracketedPasteOn == "\u{1B}[?2004h")
        #expect(TerminalControl.bracketedPasteOff == "\u{1B}[?2004l")
        #expect(TerminalControl.clearScreen == "\u{1B}[2J\u{1B}[H")
        #expect(TerminalControl.moveCursor(x: 0, y: 0) == "\u{1B}[1;1H")
        #expect(TerminalControl.enterFullScreen.hasPrefix(TerminalControl.alternateScreenOn))
        #expect(TerminalControl.leaveFullScreen.hasSuffix(TerminalControl.alternateScreenOff))
    }

    @Test("after a cluster of several scalars the next cell is reached by an absolute move, so a terminal that draws it another width keeps the row in line")
    func clusters() {
        var buffer = Buffer(width: 10, height: 1)
        buffer.write("👩🏽‍💻│世│e\u{301}│", x: 0, y: 0)
        #expect(FrameWriter.diff(from: nil, to: buffer)
            == "\u{1B}[0m\u{1B}[2J\u{1B}[H👩🏽‍💻\u{1B}[1;5H│世│e\u{301}\u{1B}[1;10H│")
    }

    @Test("applying every diff of a run of random frames reproduces each frame on a terminal")
    func randomFrames() throws {
        var random = SplitMix(seed: 0x5EED)
        let characters: [Character] = ["a", "b", " ", "─", "█", "世", "界", "👩‍💻", "é", "▏", "👩🏽‍💻", "🇫🇷"]
        let styles = [Style.plain, Theme.neon.strong, Theme.neon256.barFill, Style(fg: .red, reverse: true),
                      Theme.monochrome.highlight]
        var terminal = VirtualTerminal(width: 17, height: 6)
        var previous: Buffer?
        for _ in 0..<200 {
            var next = previous ?? Buffer(width: 17, height: 6)
            for _ in 0..<random.next(below: 25) {
                let character = characters[random.next(below: characters.count)]
                next.set(character, x: random.next(below: 17), y: random.next(below: 6),
                         style: styles[random.next(below: styles.count)])
            }
            let selected = try terminal.apply(FrameWriter.diff(from: previous, to: next))
            #expect(terminal.screen == next)
            #expect(selected == .plain)
            previous = next
        }
    }
}

/// A small deterministic generator for reproducible random frames.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
