import NeonCore
import NeonTUI
import Testing

@Suite("SwingTextView")
struct SwingTextViewTests {
    @Test("the text shifts left by the offset and wide characters cut at either edge leave a space", arguments: [
        (0, "Hello,"), (-1, "ello, 世"), (-4, "o, 世界!"), (-6, " 世界!"), (-8, " 界!"),
    ])
    func offsets(offset: Int, expected: String) {
        let buffer = render(SwingTextView(text: "Hello, 世界!", offset: offset), width: 8, height: 1)
        #expect(buffer.lines() == [expected])
    }

    @Test("the offsets come from NeonCore's SwingMotion over the field")
    func motion() {
        let text = "Hello, 世界!"
        let motion = SwingTextView.motion(text: text, fieldWidth: 8)
        #expect(motion.amplitude == 4)
        let start = render(SwingTextView(text: text, offset: motion.offset(at: .zero)), width: 8, height: 1)
        #expect(start.lines() == ["Hello,"])
        let end = render(SwingTextView(text: text, offset: motion.offset(at: .seconds(3))), width: 8, height: 1)
        #expect(end.lines() == ["o, 世界!"])
        #expect(!SwingTextView.motion(text: "短い", fieldWidth: 8).swings)
    }

    @Test("text that fits stands still; tiny fields never crash", arguments: [
        (0, [String]()), (1, ["H"]), (2, ["He"]), (80, ["Hello, 世界!"]),
    ])
    func widths(width: Int, expected: [String]) {
        let buffer = render(SwingTextView(text: "Hello, 世界!", offset: 0), width: width, height: width == 0 ? 0 : 1)
        #expect(buffer.lines() == expected)
    }

    @Test("a wide character alone in a one-column field is a space")
    func wideInOneColumn() {
        let buffer = render(SwingTextView(text: "世界", offset: 0), width: 1, height: 1)
        #expect(buffer.lines(trimming: false) == [" "])
    }

    @Test("the text keeps its style and only the first row is drawn")
    func style() {
        var buffer = Buffer(width: 6, height: 2)
        SwingTextView(text: "Title", offset: 0, style: Theme.neon.strong).render(in: buffer.area, into: &buffer)
        #expect(buffer.lines() == ["Title", ""])
        #expect(buffer[0, 0].style == Theme.neon.strong)
        #expect(buffer[5, 0].style == Style(bg: Theme.neon.strong.bg))
    }
}
