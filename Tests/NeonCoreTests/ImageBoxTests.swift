import Foundation
import NeonCore
import Testing

/// A tiny PNG's bytes (a signature and an IHDR are all the checks read).
let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data(repeating: 7, count: 40)

func travelling(_ name: String, width: Int = 800, height: Int = 400, bytes: Data = pngBytes, format: String = "png") -> DocumentImage {
    DocumentImage(name: name, format: format, width: width, height: height, data: bytes.base64EncodedString())
}

@Suite("Images: blocks and boxes")
struct ImageBoxTests {
    static let markdown = "# Pictures\n\n![The logo](images/logo.png)\n\nText with ![an icon](i.png) inside.\n\n[![Badge](https://b.example/x.svg)](https://ci.example)\n\nAfter."

    @Test("an image alone in its paragraph is an image block; numbering and texts are those of the paragraphs it was")
    func blocks() throws {
        let document = try Document.parse(title: "t", format: .markdown, text: Self.markdown)
        #expect(document.blocks.count == 5)
        #expect(document.blocks[1].kind == .image(source: "images/logo.png"))
        #expect(document.blocks[1].text == "The logo")
        #expect(document.blocks[2].kind == .paragraph)
        #expect(document.blocks[2].text == "Text with an icon inside.")
        #expect(document.blocks[3].kind == .image(source: "https://b.example/x.svg"))
    }

    @Test("a known picture gets a box of its aspect ratio (cells twice as tall as wide), capped at 20 rows; an unknown one as wide as its labels")
    func sizes() {
        #expect(ImageBox(size: ImageSize(width: 800, height: 400), room: 80) == ImageBox(size: ImageSize(width: 1600, height: 800), room: 80))
        let wide = ImageBox(size: ImageSize(width: 800, height: 400), room: 80)
        #expect(wide.columns == 80 && wide.rows == 20)
        let square = ImageBox(size: ImageSize(width: 160, height: 160), room: 80)
        #expect(square.columns == 20 && square.rows == 10)
        let tall = ImageBox(size: ImageSize(width: 400, height: 1600), room: 80)
        #expect(tall.rows == 20 && tall.columns == 12, "at least 12 columns, for the text")
        let unknown = ImageBox(size: nil, room: 60, alt: "The logo", source: "images/logo.png")
        #expect(unknown.columns == 12 && unknown.rows == 4, "its two labels, at least 12 columns")
    }

    @Test("the box shows the alt text and the file name, at every width; its rows do not depend on the terminal's graphics")
    func drawn() throws {
        let document = try Document.parse(title: "t", format: .markdown, text: "![The logo](images/logo.png)")
        let layout = Layout(document: document, width: 30, images: ["images/logo.png": ImageSize(width: 160, height: 96)])
        let lines = layout.lines(0..<layout.rowCount).map { String($0.text) }
        #expect(lines == [
            "┌──────────────────┐",
            "│                  │",
            "│     The logo     │",
            "│     logo.png     │",
            "│                  │",
            "└──────────────────┘",
        ])
        #expect(layout.lines(0..<layout.rowCount).allSatisfy { $0.part == .image })
        for width in [1, 2, 5, 12, 200] {
            let narrow = Layout(document: document, width: width, images: ["images/logo.png": ImageSize(width: 160, height: 96)])
            #expect(narrow.rowCount >= 3)
            #expect(narrow.lines(0..<narrow.rowCount).allSatisfy { $0.displayWidth <= width })
        }
        let remote = Layout(document: try Document.parse(title: "t", format: .markdown, text: "![Build](https://b.example/x.svg)"), width: 40)
        #expect(remote.lines(0..<remote.rowCount).map { String($0.text) } == [
            "┌─────────────────────────────┐",
            "│            Build            │",
            "│ x.svg · remote, not fetched │",
            "└─────────────────────────────┘",
        ])
    }

    @Test("search finds an image's alt text in its box")
    func search() throws {
        let document = try Document.parse(title: "t", format: .markdown, text: "![The logo](images/logo.png)")
        let layout = Layout(document: document, width: 30, images: ["images/logo.png": ImageSize(width: 160, height: 96)])
        let spans = layout.spans(of: TextSearch("logo")!, in: 0..<layout.rowCount)
        #expect(spans.map(\.row) == [2])
        #expect(spans.first?.columns == 10..<14)
    }

    @Test("images travel within limits; each refusal names the image and the limit")
    func limits() {
        #expect(DocumentImage.problem(with: [travelling("a.png")]) == nil)
        #expect(DocumentImage.problem(with: [travelling("a.png", bytes: Data([1, 2, 3]))]) == "image a.png does not start as a PNG file does")
        #expect(DocumentImage.problem(with: [travelling("a.jpg", format: "gif")]) == "image a.jpg is gif, not one of png, jpeg")
        #expect(DocumentImage.problem(with: [travelling("a.png", width: 0)]) == "image a.png says it is 0×400 pixels; each side must be 1 to 16384")
        let big = pngBytes + Data(count: DocumentImage.maxBytes)
        #expect(DocumentImage.problem(with: [travelling("big.png", bytes: big)])
            == "image big.png is \(big.count) bytes, over the limit of 1048576 bytes per image")
        let most = pngBytes + Data(count: DocumentImage.maxBytes - pngBytes.count)
        let four = (1...4).map { travelling("p\($0).png", bytes: most) }
        #expect(DocumentImage.problem(with: four) == "the document's images are over the limit of 3145728 bytes together (at p4.png)")
        #expect(DocumentImage.problem(with: [travelling("a.png"), travelling("a.png")])?.contains("given twice") == true)
        var broken = travelling("a.png")
        broken.data = "not base64!"
        #expect(DocumentImage.problem(with: [broken]) == "image a.png is not base64")
    }

    @Test("the room keeps a document's images for late joiners, and refuses a document whose images cannot travel, changing nothing")
    func room() {
        var r = RoomState(name: "pics")
        _ = r.apply(.joined(ada, name: "ada", role: .presenter), at: .zero)
        let bad = DocumentInfo(title: "P", format: .markdown, text: "![x](a.png)", images: [travelling("a.png", bytes: Data([0]))])
        let refused = r.apply(.documentPublished(ada, bad), at: .zero)
        #expect(refused.errorCodes == [.invalidDocument])
        #expect(r.document == nil)
        let good = DocumentInfo(title: "P", format: .markdown, text: "![x](a.png)", images: [travelling("a.png")])
        let out = r.apply(.documentPublished(ada, good), at: .zero)
        guard case let .document(published) = out.broadcasts.first?.payload else { Issue.record("no document"); return }
        #expect(published.images == good.images)
        #expect(out.logs.first { $0.event == "document" }?.fields.contains(LogField("images", .int(1))) == true,
                "the document line counts the pictures")
        #expect(r.apply(.documentPublished(ada, DocumentInfo(title: "Q", format: .markdown, text: "none")), at: .zero)
                    .logs.first { $0.event == "document" }?.fields.contains { $0.key == "images" } == false,
                "and says nothing of pictures when there are none")
        _ = r.apply(.documentPublished(ada, good), at: .zero)
        let joined = r.apply(.joined(bob, name: "bob", role: .reader), at: .zero)
        guard case let .welcome(welcome) = joined.sent(to: bob).first?.payload else { Issue.record("no welcome"); return }
        #expect(welcome.document?.images == good.images)
        #expect(RoomState(image: r.image).document?.images == good.images, "a cluster node taking the room up gets them too")
        let stored = try? JSONDecoder().decode(RoomImage.self, from: JSONEncoder().encode(r.image))
        #expect(stored?.document?.images == good.images, "the room's image as Redis keeps it (JSON) carries them")
    }

    @Test("images cross the wire as an addition: absent when none, decoded by clients that know them")
    func wire() throws {
        let codec = WireCodec()
        let plain = String(decoding: codec.encode(ClientMessage.document(title: "T", format: .markdown, text: "x")), as: UTF8.self)
        #expect(!plain.contains("images"))
        let message = ClientMessage.document(title: "T", format: .markdown, text: "![x](a.png)", images: [travelling("a.png")])
        #expect(try codec.decodeClient(codec.encode(message)).get() == message)
    }
}
