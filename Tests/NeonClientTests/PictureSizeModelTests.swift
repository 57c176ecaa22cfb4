import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

/// The same picture in reading and in slides: samples/deck.md's slide 5
/// shows room.png (360×180 pixels) and its alt text.
@Suite("Pictures: one size rule in reading and in slides")
struct PictureSizeModelTests {
    let pat = ClientID("c9")
    static let room = DocumentImage(name: "room.png", format: "png", width: 360, height: 180, data: "")
    static var deck: DocumentInfo {
        DocumentInfo(title: "deck.md", format: .markdown, text: sampleDeck, images: [room])
    }

    func presenter(columns: Int, rows: Int) -> ReaderModel {
        var m = ReaderModel(mode: .present, room: "deck", name: "pat", columns: columns, rows: rows, document: Self.deck, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: pat, room: "deck", document: nil, readers: [ReaderInfo(id: pat, name: "pat", role: .presenter)],
                        presenter: pat, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        _ = m.handle(.key(.character("5")), at: .zero)
        _ = m.handle(.key(.enter), at: .zero)
        return m
    }

    func reader(columns: Int, rows: Int) -> ReaderModel {
        var m = ReaderModel(mode: .read, room: "deck", name: "rea", columns: columns, rows: rows, document: Self.deck, at: .zero)
        let block = m.pane.document?.blocks.firstIndex { $0.kind == .image(source: "room.png") } ?? 0
        _ = m.scroll(to: m.pane.layout?.rows(ofBlock: block).lowerBound ?? 0, at: .zero)
        return m
    }

    /// The picture's box on screen: its columns and rows, borders included,
    /// and its rows as drawn.
    func box(_ m: ReaderModel) -> (columns: Int, rows: Int, lines: [String])? {
        let lines = snapshot(m.view(at: .zero, theme: .monochrome)).split(separator: "\n").map(String.init)
        guard let top = lines.firstIndex(where: { $0.contains("┌") }),
              let start = lines[top].firstIndex(of: "┌"), let end = lines[top][start...].firstIndex(of: "┐") else { return nil }
        let column = lines[top].distance(from: lines[top].startIndex, to: start)
        let width = lines[top].distance(from: start, to: end) + 1
        let drawn = lines[top...].prefix { line in
            line.count > column && "┌│└".contains(line[line.index(line.startIndex, offsetBy: column)])
        }
        let inner = drawn.map { String($0.dropFirst(column).prefix(width)) }
        return (width, drawn.count, inner)
    }

    @Test("room.png is the same 45×11 box when read and when presented as slides at 120×40: a column per 8 pixels, cells twice as tall as wide")
    func sameBox() throws {
        let read = try #require(box(reader(columns: 120, rows: 40)))
        let shown = try #require(box(presenter(columns: 120, rows: 40)))
        #expect(read.columns == 45 && read.rows == 11, "\(read.lines.joined(separator: "\n"))")
        #expect(shown.columns == read.columns && shown.rows == read.rows, "\(shown.lines.joined(separator: "\n"))")
        #expect(shown.lines.contains { $0.contains("a diagram of the room") } && shown.lines.contains { $0.contains("room.png") })
    }

    @Test("a slide with less room shrinks the picture to fit, keeping its shape (2:1 pixels, 4:1 cells) and its alt text whole, so the text under it shows")
    func shrinksToFit() throws {
        let m = presenter(columns: 100, rows: 30)
        let shown = try #require(box(m))
        #expect(shown.rows < 11, "the slide is taller than the \(m.slides.viewport) rows shown: the picture gives way")
        #expect(shown.columns == shown.rows * 4, "its shape kept: \(shown.columns)×\(shown.rows)")
        #expect(shown.lines.contains { $0.contains("│  a diagram of the room   │") }, "\(shown.lines.joined(separator: "\n"))")
        let text = snapshot(m.view(at: .zero, theme: .monochrome))
        #expect(text.contains("graph LR"), "the code after the picture is on screen")
        #expect(m.slides.rowCount <= m.slides.viewport + 4, "nearly the whole slide fits: \(m.slides.rowCount) rows in \(m.slides.viewport)")
    }

    @Test("reading, a picture is no taller than the rows on screen, and never so small that its alt text is cut")
    func readingFitsTheView() throws {
        let small = try #require(box(reader(columns: 100, rows: 18)))
        #expect(small.rows <= 10 && small.columns == small.rows * 4, "\(small.columns)×\(small.rows)")
        #expect(small.lines.contains { $0.contains("a diagram of the room") })
        let tiny = try #require(box(reader(columns: 100, rows: 12)))
        #expect(tiny.columns >= "a diagram of the room".count + 4, "the alt text stays whole: \(tiny.columns)×\(tiny.rows)")
        #expect(tiny.lines.contains { $0.contains("a diagram of the room") })
    }

    @Test("opening the draft panel shrinks the rows a picture may take, and the text at the top of the view stays there")
    func placeKept() throws {
        var m = reader(columns: 100, rows: 24)
        let document = try #require(m.pane.document)
        let after = try #require(document.blocks.firstIndex { $0.text.hasPrefix("graph LR") })
        _ = m.scroll(to: try #require(m.pane.layout?.rows(ofBlock: after).lowerBound), at: .zero)
        let top = m.pane.layout?.anchor(forRow: m.pane.top)
        #expect(m.pane.layout?.imageBoxes.first?.box.rows == 11)
        _ = m.handle(.key(.character("e")), at: .zero)
        #expect(m.pane.viewport < 11, "the panel leaves fewer rows than the picture took: \(m.pane.viewport)")
        #expect(m.pane.layout?.imageBoxes.first?.box.rows == 7, "the picture above gave way")
        #expect(m.pane.layout?.anchor(forRow: m.pane.top) == top, "the same text at the top")
    }
}
