import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

/// Lines lit step by step on the reader's screens: the presenter's step keys
/// walk through a block's groups, a follower shows the presenter's group,
/// a document read as one scroll lights each block's last group.
@Suite("Lit lines in the reader")
struct LitLinesModelTests {
    let pat = ClientID("c9")
    let fay = ClientID("c8")

    static let deck = """
    # Code

    ```rust {1|3|all} +line_numbers
    fn main() {
        let x = 1;
        println!("{x}");
    }
    ```

    <!-- end_slide -->

    # Next

    ```rust {2}
    let a = 1;
    let b = 2;
    ```
    """

    static let lines = ["fn main() {", "let x = 1;", "println!(\"{x}\");"]

    func welcome(you: ClientID, readers: [ReaderInfo], document: DocumentInfo?) -> ServerMessage {
        ServerMessage(seq: 1, .welcome(Welcome(you: you, room: "lit", document: document, readers: readers, presenter: pat,
                                                draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))))
    }

    func presenter() -> ReaderModel {
        let file = DocumentInfo(title: "deck.md", format: .markdown, text: Self.deck)
        var m = ReaderModel(mode: .present, room: "lit", name: "pat", columns: 80, rows: 24, document: file, at: .zero)
        _ = m.connected(at: .zero)
        _ = m.receive(welcome(you: pat, readers: [ReaderInfo(id: pat, name: "pat", role: .presenter)], document: nil), at: .zero)
        return m
    }

    /// Whether the first cell of `text`'s row on screen is dim (monochrome:
    /// dim is the only style a dimmed line has), and the line number before it.
    func look(of text: String, in m: ReaderModel) throws -> (dim: Bool, number: String) {
        let buffer = m.view(at: .zero, theme: .monochrome)
        let lines = buffer.lines()
        let row = try #require(lines.firstIndex { $0.contains(text) }, "\(text) on screen:\n\(lines.joined(separator: "\n"))")
        let column = try #require(lines[row].range(of: text)).lowerBound
        let x = lines[row].distance(from: lines[row].startIndex, to: column)
        let before = lines[row][..<column].trimmingCharacters(in: .whitespaces).split(separator: " ").last.map(String.init) ?? ""
        return (buffer.styles(row: row)[x].dim, before)
    }

    func dims(_ m: ReaderModel) throws -> [Bool] {
        try Self.lines.map { try look(of: $0, in: m).dim }
    }

    @Test("the presenter's → lights the next group, step after step, then goes to the next slide; ← goes back a group")
    func presenterSteps() throws {
        var m = presenter()
        #expect(m.slides.place == SlidePlace(slide: 0, slides: 2, step: 0, steps: 3))
        #expect(try dims(m) == [false, true, true])
        #expect(try Self.lines.map { try look(of: $0, in: m).number } == ["1", "2", "3"], "line numbers before the code")
        _ = m.handle(.key(.right), at: .zero)
        #expect(m.slides.step == 1)
        #expect(try dims(m) == [true, true, false])
        _ = m.handle(.key(.right), at: .zero)
        #expect(m.slides.step == 2)
        #expect(try dims(m) == [false, false, false])
        _ = m.handle(.key(.left), at: .zero)
        #expect(try dims(m) == [true, true, false])
        _ = m.handle(.key(.right), at: .zero)
        _ = m.handle(.key(.right), at: .zero)
        #expect(m.slides.slide == 1 && m.slides.place?.steps == 1, "one group adds no step")
        #expect(try look(of: "let a = 1;", in: m).dim)
        #expect(try !look(of: "let b = 2;", in: m).dim)
    }

    @Test("a follower shows the group of the presenter's step; the document read as one scroll lights each block's last group")
    func followerAndScroll() throws {
        var f = ReaderModel(mode: .follow, room: "lit", name: "fay", columns: 60, rows: 20, at: .zero)
        _ = f.connected(at: .zero)
        var presenterInfo = ReaderInfo(id: pat, name: "pat", role: .presenter, anchor: Anchor(block: 0, offset: 0))
        presenterInfo.slidePlace = SlidePlace(slide: 0, slides: 2, step: 1, steps: 3)
        let file = DocumentInfo(title: "deck.md", format: .markdown, text: Self.deck, version: 1)
        _ = f.receive(welcome(you: fay, readers: [presenterInfo, ReaderInfo(id: fay, name: "fay", role: .reader, following: true)],
                              document: file), at: .zero)
        #expect(f.slides.isOn && f.slides.step == 1)
        #expect(try dims(f) == [true, true, false])
        let next = ProgressInfo(id: pat, progress: 0.5, percent: 50, atBottom: false, section: 0, anchor: Anchor(block: 0, offset: 0),
                                slidePlace: SlidePlace(slide: 0, slides: 2, step: 2, steps: 3))
        _ = f.receive(ServerMessage(seq: 5, .progress(next)), at: .seconds(1))
        #expect(try dims(f) == [false, false, false])

        var r = ReaderModel(mode: .read, room: "lit", name: "rob", columns: 80, rows: 30, document: file, at: .zero)
        _ = r.connected(at: .zero)
        #expect(!r.slides.isOn)
        #expect(try dims(r) == [false, false, false], "the scroll shows the block's last group, all")
        #expect(try look(of: "let a = 1;", in: r).dim)
        #expect(try !look(of: "let b = 2;", in: r).dim)
    }
}
