import Foundation
import NeonCore
import Testing

@Suite("Images: pictures that cannot be drawn")
struct UnshownImageTests {
    static let markdown = """
        # Pictures

        ![A tour of the code](docs/images/tour-code.svg)

        ![The room](gone.png)

        ![A photo](big.jpg)

        ![Build](https://ci.example/b.svg)
        """

    static let unshown = [
        UnshownImage(name: "docs/images/tour-code.svg", reason: "SVG not shown"),
        UnshownImage(name: "gone.png", reason: "missing"),
        UnshownImage(name: "big.jpg", reason: "over 1 MiB"),
    ]

    /// The rows of each image block, by its alt text.
    func boxes(_ layout: Layout) -> [[String]] {
        layout.imageBoxes.map { image in
            layout.rows(ofBlock: image.block).map { String(layout.line(at: $0).text) }
        }
    }

    @Test("a picture that is not shown is a box as wide as its labels: the alt text, then the file name and why (an SVG, a missing file, one over the limit, a remote address)")
    func boxesWithReasons() throws {
        let document = try Document.parse(title: "t", format: .markdown, text: Self.markdown)
        let info = DocumentInfo(title: "t", format: .markdown, text: Self.markdown, unshown: Self.unshown)
        let layout = Layout(document: document, width: 60, images: info.pictures)
        #expect(boxes(layout) == [
            ["┌───────────────────────────────┐",
             "│      A tour of the code       │",
             "│ tour-code.svg · SVG not shown │",
             "└───────────────────────────────┘"],
            ["┌────────────────────┐",
             "│      The room      │",
             "│ gone.png · missing │",
             "└────────────────────┘"],
            ["┌──────────────────────┐",
             "│       A photo        │",
             "│ big.jpg · over 1 MiB │",
             "└──────────────────────┘"],
            ["┌─────────────────────────────┐",
             "│            Build            │",
             "│ b.svg · remote, not fetched │",
             "└─────────────────────────────┘"],
        ])
        #expect(layout.imageBoxes.allSatisfy { !$0.box.showsPicture }, "no terminal draws a picture into them")
        let spans = layout.spans(of: TextSearch("tour of")!, in: 0..<layout.rowCount)
        #expect(spans.count == 1, "search finds the alt text in its box")
    }

    @Test("in a narrow room the file name is cut before the reason, and nothing is wider than the room")
    func narrow() throws {
        let document = try Document.parse(title: "t", format: .markdown, text: Self.markdown)
        let info = DocumentInfo(title: "t", format: .markdown, text: Self.markdown, unshown: Self.unshown)
        let layout = Layout(document: document, width: 24, images: info.pictures)
        #expect(boxes(layout)[0] == [
            "┌──────────────────────┐",
            "│  A tour of the code  │",
            "│tour-… · SVG not shown│",
            "└──────────────────────┘",
        ])
        for width in [1, 2, 3, 5, 12, 13, 24, 200] {
            let cramped = Layout(document: document, width: width, images: info.pictures)
            #expect(cramped.lines(0..<cramped.rowCount).allSatisfy { $0.displayWidth <= width }, "width \(width)")
        }
    }

    @Test("the pictures not shown travel with the document: in the broadcast, in a late joiner's welcome, in the room's image; a bad list is refused and changes nothing")
    func room() throws {
        var r = RoomState(name: "pics")
        _ = r.apply(.joined(ada, name: "ada", role: .presenter), at: .zero)
        let bad = DocumentInfo(title: "P", format: .markdown, text: Self.markdown,
                               unshown: [UnshownImage(name: "gone.png", reason: "missing\nand more")])
        #expect(r.apply(.documentPublished(ada, bad), at: .zero).errorCodes == [.invalidDocument])
        let twice = DocumentInfo(title: "P", format: .markdown, text: Self.markdown,
                                 unshown: Self.unshown + [UnshownImage(name: "gone.png", reason: "missing")])
        #expect(r.apply(.documentPublished(ada, twice), at: .zero).errorCodes == [.invalidDocument])
        let many = DocumentInfo(title: "P", format: .markdown, text: Self.markdown,
                                unshown: (0...UnshownImage.maxCount).map { UnshownImage(name: "p\($0).png", reason: "missing") })
        #expect(r.apply(.documentPublished(ada, many), at: .zero).errorCodes == [.documentTooLarge])
        #expect(r.document == nil)

        let good = DocumentInfo(title: "P", format: .markdown, text: Self.markdown, unshown: Self.unshown)
        let out = r.apply(.documentPublished(ada, good), at: .zero)
        guard case let .document(published) = out.broadcasts.first?.payload else { Issue.record("no document"); return }
        #expect(published.unshown == Self.unshown)
        #expect(out.logs.first { $0.event == "document" }?.fields.contains(LogField("unshown", .int(3))) == true)
        let joined = r.apply(.joined(bob, name: "bob", role: .reader), at: .zero)
        guard case let .welcome(welcome) = joined.sent(to: bob).first?.payload else { Issue.record("no welcome"); return }
        #expect(welcome.document?.unshown == Self.unshown)
        let stored = try JSONDecoder().decode(RoomImage.self, from: JSONEncoder().encode(r.image))
        #expect(stored.document?.unshown == Self.unshown, "the room's image as Redis keeps it carries them")
    }

    @Test("unshown crosses the wire as an addition: absent when none, decoded by clients that know it")
    func wire() throws {
        let codec = WireCodec()
        let plain = String(decoding: codec.encode(ClientMessage.document(title: "T", format: .markdown, text: "x")), as: UTF8.self)
        #expect(!plain.contains("unshown"))
        let message = ClientMessage.document(title: "T", format: .markdown, text: Self.markdown, unshown: Self.unshown)
        let object = try JSONSerialization.jsonObject(with: Data(codec.encode(message))) as? [String: Any]
        let entries = try #require(object?["unshown"] as? [[String: String]])
        #expect(entries == [["name": "docs/images/tour-code.svg", "reason": "SVG not shown"],
                            ["name": "gone.png", "reason": "missing"], ["name": "big.jpg", "reason": "over 1 MiB"]])
        #expect(try codec.decodeClient(codec.encode(message)).get() == message)
    }
}
