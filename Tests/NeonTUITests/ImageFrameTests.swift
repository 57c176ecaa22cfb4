import NeonCore
import NeonTUI
import Testing

/// Stands in for a terminal's graphics protocol: says what it was asked.
final class RecordingGraphics: GraphicsWriter {
    let textErasesPictures: Bool
    init(textErasesPictures: Bool) { self.textErasesPictures = textErasesPictures }
    func draw(_ p: ImagePlacement) -> String { "<draw \(p.source) \(p.visible.y)+\(p.visible.height)>" }
    func erase(_ p: ImagePlacement) -> String { "<erase \(p.source) \(p.visible.y)>" }
    func eraseAll() -> String { "<erase all>" }
}

/// Pictures in frames: where the view places them, and when the frame
/// writer draws, moves and takes them away.
@Suite("Images in frames")
struct ImageFrameTests {
    static let markdown = "Before.\n\n![The logo](logo.png)\n\nAfter."
    static let sizes = ["logo.png": ImageSize(width: 160, height: 96)]

    func frame(top: Int, height: Int = 8) throws -> Buffer {
        let layout = Layout(document: try Document.parse(title: "t", format: .markdown, text: Self.markdown), width: 30,
                            images: Self.sizes)
        var buffer = Buffer(width: 30, height: height)
        DocumentView(layout: layout, top: top, theme: .monochrome).render(in: buffer.area, into: &buffer)
        return buffer
    }

    @Test("the view places the picture over the box's inside, cut where the box is scrolled off")
    func placements() throws {
        let whole = try frame(top: 0, height: 12)
        #expect(whole.images == [ImagePlacement(source: "logo.png", area: Rect(x: 1, y: 3, width: 18, height: 4),
                                                visible: Rect(x: 1, y: 3, width: 18, height: 4))])
        let half = try frame(top: 4, height: 12)
        #expect(half.images.first?.area == Rect(x: 1, y: -1, width: 18, height: 4))
        #expect(half.images.first?.visible == Rect(x: 1, y: 0, width: 18, height: 3))
        #expect(half.images.first?.isClipped == true)
        #expect(try frame(top: 9, height: 4).images.isEmpty, "a box scrolled off has no picture")
    }

    @Test("kitty-like terminals: a new picture is drawn after the cells, a moved one deleted then drawn again, an unmoved one left alone")
    func aboveText() throws {
        let graphics = RecordingGraphics(textErasesPictures: false)
        let first = FrameWriter.diff(from: nil, to: try frame(top: 0), graphics: graphics)
        #expect(first.hasPrefix("<erase all>"))
        #expect(first.hasSuffix("<draw logo.png 3+4>"))
        #expect(FrameWriter.diff(from: try frame(top: 0), to: try frame(top: 0), graphics: graphics) == "")
        let moved = FrameWriter.diff(from: try frame(top: 0), to: try frame(top: 1), graphics: graphics)
        #expect(moved.hasPrefix("<erase logo.png 3>"))
        #expect(moved.hasSuffix("<draw logo.png 2+4>"))
        let gone = FrameWriter.diff(from: try frame(top: 4, height: 4), to: try frame(top: 9, height: 4), graphics: graphics)
        #expect(gone.hasPrefix("<erase logo.png 0>") && !gone.contains("<draw"))
    }

    @Test("sixel and iTerm2 terminals: a picture that leaves is erased by writing its cells again, and one written over is drawn again")
    func erasedByText() throws {
        let graphics = RecordingGraphics(textErasesPictures: true)
        // The picture leaves: every cell it covered is written, no erase is asked for.
        let before = try frame(top: 0)
        var after = before
        after.images = []
        let gone = FrameWriter.diff(from: before, to: after, graphics: graphics)
        #expect(!gone.contains("<erase"))
        #expect(gone.contains("\u{1B}[4;2H") && gone.contains("\u{1B}[7;2H"), "the rows the picture covered are written again: \(gone.debugDescription)")
        // A cell inside the picture changes: the picture is drawn again over it.
        var written = before
        written.set("x", x: 5, y: 4)
        let over = FrameWriter.diff(from: before, to: written, graphics: graphics)
        #expect(over.hasSuffix("<draw logo.png 3+4>"))
        // A cell elsewhere changes: the picture stays as it is.
        var elsewhere = before
        elsewhere.set("x", x: 25, y: 0)
        #expect(!FrameWriter.diff(from: before, to: elsewhere, graphics: graphics).contains("<draw"))
    }

    @Test("without a graphics protocol the frame is the box, with the alt text and the file name")
    func boxOnly() throws {
        let bytes = FrameWriter.diff(from: nil, to: try frame(top: 0, height: 12))
        #expect(bytes.contains("The logo") && bytes.contains("logo.png") && bytes.contains("┌"))
    }
}
