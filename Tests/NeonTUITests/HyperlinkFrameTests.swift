import NeonCore
import NeonTUI
import Testing

/// Links as the frame writer puts them on a terminal: OSC 8 pairs around
/// exactly the cells of each link, kept right across diffs.
@Suite("Hyperlinks in frames")
struct HyperlinkFrameTests {
    static let open = "\u{1B}]8;"
    static let close = "\u{1B}]8;;\u{1B}\\"

    /// The document view of `markdown` at `width`×`height` from `top`.
    func screen(_ markdown: String, width: Int, height: Int = 1, top: Int = 0, base: String? = nil) throws -> Buffer {
        let layout = Layout(document: try Document.parse(title: "t", format: .markdown, text: markdown), width: width)
        var buffer = Buffer(width: width, height: height)
        DocumentView(layout: layout, top: top, theme: .monochrome, linkBase: base).render(in: buffer.area, into: &buffer)
        return buffer
    }

    /// The text between each OSC 8 open and its close, with its address.
    func linked(_ bytes: String) -> [(url: String, text: String)] {
        var out: [(String, String)] = []
        for part in bytes.components(separatedBy: Self.open).dropFirst() where !part.hasPrefix(";\u{1B}") {
            guard let urlStart = part.firstIndex(of: ";"), let urlEnd = part.range(of: "\u{1B}\\") else { continue }
            let url = String(part[part.index(after: urlStart)..<urlEnd.lowerBound])
            let text = String(part[urlEnd.upperBound...]).replacing(/\x1B\[[0-9;]*[mHC]/, with: "")
            out.append((url, text.hasSuffix("\u{1B}]8") ? String(text.dropLast(3)) : text))
        }
        return out
    }

    @Test("a link's text and address are written inside one OSC 8 pair with its id, and every open is closed")
    func pair() throws {
        let bytes = FrameWriter.diff(from: nil, to: try screen("See [the spec](https://example.com/spec) now.", width: 60),
                                     hyperlinks: true)
        #expect(linked(bytes).map(\.url) == ["https://example.com/spec"])
        #expect(linked(bytes).first?.text == "the spec (https://example.com/spec)")
        #expect(bytes.contains("\u{1B}]8;id=neonsync-0-"))
        #expect(bytes.components(separatedBy: Self.open).count - 1 == 2 * (bytes.components(separatedBy: Self.close).count - 1))
        #expect(bytes.hasSuffix(Self.close) || bytes.range(of: Self.close)!.upperBound < bytes.range(of: "now")!.lowerBound)
    }

    @Test("without hyperlinks no OSC 8 is written, and the screen's text is the same")
    func off() throws {
        let buffer = try screen("See [the spec](https://example.com/spec) now.", width: 60)
        #expect(!FrameWriter.diff(from: nil, to: buffer).contains("\u{1B}]8"))
        #expect(buffer.lines() == ["See the spec (https://example.com/spec) now."])
    }

    @Test("autolinks and reference links are hyperlinks; a link in a table and a place in the document are not")
    func kinds() throws {
        let markdown = "Go to https://www.example.org and [ref][r] or [here](#usage).\n\n[r]: https://example.net/ref"
        let bytes = FrameWriter.diff(from: nil, to: try screen(markdown, width: 120), hyperlinks: true)
        #expect(linked(bytes).map(\.url) == ["https://www.example.org", "https://example.net/ref"])
        let table = FrameWriter.diff(from: nil, to: try screen("| a |\n|---|\n| [x](https://t.example) |", width: 30, height: 5),
                                     hyperlinks: true)
        #expect(!table.contains("\u{1B}]8"))
    }

    @Test("a link cut by the screen's edge covers only the cells on screen, and is closed at the row's end")
    func cutAtEdge() throws {
        let buffer = try screen("[abcdefghij](https://e.example/x)", width: 6)
        // Words wrap: the link's text is on the first row, cut at 6 columns.
        let bytes = FrameWriter.diff(from: nil, to: buffer, hyperlinks: true)
        let links = linked(bytes)
        #expect(links.count == 1 && links[0].url == "https://e.example/x")
        #expect(links[0].text == buffer.lines()[0])
    }

    @Test("a link wrapped over two rows, scrolled half off the top, keeps its hyperlink on the row still shown")
    func scrolledHalfOff() throws {
        let markdown = "[one two three four five six](https://w.example/long)"
        let whole = try screen(markdown, width: 12, height: 4)
        let ids = Set((0..<2).compactMap { whole.hyperlink(atX: 0, y: $0)?.id })
        #expect(ids.count == 1, "one id for both rows of the link")
        let scrolled = try screen(markdown, width: 12, height: 4, top: 1)
        let bytes = FrameWriter.diff(from: whole, to: scrolled, hyperlinks: true)
        #expect(scrolled.hyperlink(atX: 0, y: 0)?.url == "https://w.example/long")
        #expect(bytes.contains("\u{1B}]8;id=\(ids.first!);https://w.example/long\u{1B}\\"))
        #expect(bytes.hasSuffix(Self.close) || bytes.hasSuffix(Self.close + "\u{1B}[0m"))
    }

    @Test("a row repainted without its link is written again, outside any link, even where its characters stay")
    func repaintWithoutLink() throws {
        var before = Buffer(width: 10, height: 1)
        before.write("click here", x: 0, y: 0, style: Style(link: before.hyperlink("https://a.example", id: "a")))
        var after = Buffer(width: 10, height: 1)
        after.write("click here", x: 0, y: 0)
        let bytes = FrameWriter.diff(from: before, to: after, hyperlinks: true)
        #expect(bytes.contains("click here"))
        #expect(!bytes.contains("\u{1B}]8;id"))
        var moved = Buffer(width: 10, height: 1)
        moved.write("click here", x: 0, y: 0, style: Style(link: moved.hyperlink("https://b.example", id: "b")))
        let relinked = FrameWriter.diff(from: before, to: moved, hyperlinks: true)
        #expect(relinked.contains("\u{1B}]8;id=b;https://b.example\u{1B}\\click here\u{1B}]8;;\u{1B}\\"))
        #expect(FrameWriter.diff(from: moved, to: moved, hyperlinks: true) == "")
    }

    @Test("only the changed cells of a link are written, inside the link, and closed before the cursor jumps")
    func partialDiff() throws {
        var before = Buffer(width: 20, height: 2)
        let link = before.hyperlink("https://a.example", id: "a")
        before.write("abcdef", x: 0, y: 0, style: Style(link: link))
        var after = before
        after.write("X", x: 3, y: 0, style: Style(link: link))
        after.write("Y", x: 5, y: 1)
        let bytes = FrameWriter.diff(from: before, to: after, hyperlinks: true)
        #expect(bytes == "\u{1B}[1;4H\u{1B}]8;id=a;https://a.example\u{1B}\\X\u{1B}]8;;\u{1B}\\\u{1B}[2;6HY")
    }

    @Test("relative links resolve against the publisher's directory, and are text for everyone else")
    func relative() throws {
        let markdown = "Read [the guide](docs/guide.md), [up](../x.md) and [root](/r.md)."
        let mine = FrameWriter.diff(from: nil, to: try screen(markdown, width: 100, base: "file://host/home/ada/proj/"),
                                    hyperlinks: true)
        #expect(linked(mine).map(\.url) == ["file://host/home/ada/proj/docs/guide.md", "file://host/home/ada/proj/../x.md",
                                             "file://host/r.md"])
        let theirs = FrameWriter.diff(from: nil, to: try screen(markdown, width: 100), hyperlinks: true)
        #expect(!theirs.contains("\u{1B}]8"))
    }

    @Test("an address with spaces or non-ASCII letters is percent-encoded, so nothing in it ends the sequence")
    func encoded() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.write("link", x: 0, y: 0, style: Style(link: buffer.hyperlink("file://h/a b/é\u{1B}", id: "e")))
        #expect(FrameWriter.diff(from: nil, to: buffer, hyperlinks: true).contains(";file://h/a%20b/%C3%A9%1B\u{1B}\\link"))
    }

    @Test("terminals that show hyperlinks are told apart by their environment; inside tmux only 3.4 and later",
          arguments: [
            (["TERM": "xterm-kitty"], true), (["TERM_PROGRAM": "WezTerm"], true), (["TERM_PROGRAM": "iTerm.app"], true),
            (["TERM": "foot"], true), (["VTE_VERSION": "7600"], true), (["VTE_VERSION": "4800"], false),
            (["WT_SESSION": "x"], true), (["KONSOLE_VERSION": "230800"], true), (["TERM": "xterm-256color"], false),
            (["TERM": "xterm-kitty", "TMUX": "/tmp/t", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"], false),
            (["TMUX": "/tmp/t", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"], true),
            (["VTE_VERSION": "7600", "TMUX": "/tmp/t"], false), (["FORCE_HYPERLINK": "1"], true), (["FORCE_HYPERLINK": "0", "TERM": "foot"], false),
          ])
    func detection(environment: [String: String], expected: Bool) {
        #expect(HyperlinkChoice.supported(in: environment) == expected)
        #expect(HyperlinkChoice.auto.enabled(in: environment) == expected)
        #expect(HyperlinkChoice.always.enabled(in: environment))
        #expect(!HyperlinkChoice.never.enabled(in: environment))
    }
}
