import NeonTUI
import Testing

@Suite("TextCut")
struct TextCutTests {
    @Test("text that fits stays whole; wider text keeps whole characters and ends in the ellipsis", arguments: [
        ("Reading", 7, "Reading"), ("Reading", 6, "Readi…"), ("漢字と絵文字", 7, "漢字と…"), ("漢字と絵文字", 6, "漢字…"),
        ("edit the draft", 10, "edit the…"), ("🎉 party", 2, "…"), ("abc", 1, "…"), ("abc", 0, ""),
    ])
    func fitting(text: String, width: Int, expected: String) {
        #expect(TextCut.fitting(text, width: width, ellipsis: "…") == expected)
    }

    @Test("a buffer write with an ellipsis cuts at the buffer's edge as well as at maxWidth")
    func bufferEdge() {
        var buffer = Buffer(width: 8, height: 1)
        buffer.write("Monitoring", x: 2, y: 0, maxWidth: 20, ellipsis: "…")
        #expect(buffer.lines() == ["  Monit…"])
        buffer.write("ab", x: 2, y: 0, maxWidth: 20, ellipsis: "…")
        #expect(buffer.lines() == ["  abnit…"])
    }
}
