import CTurboJPEG
import Foundation
import NeonCore
import NeonRender
import NeonTUI
import Testing

/// A `width`×`height` gradient.
func gradient(_ width: Int, _ height: Int) -> Picture {
    var rgba: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width { rgba += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), 128, 255] }
    }
    return Picture(width: width, height: height, rgba: rgba)
}

/// `picture` as a JPEG file, by libjpeg-turbo.
func jpeg(_ picture: Picture) -> Data {
    let handle = tjInitCompress()!
    defer { tjDestroy(handle) }
    var out: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    _ = picture.rgba.withUnsafeBufferPointer { pixels in
        tjCompress2(handle, pixels.baseAddress, Int32(picture.width), 0, Int32(picture.height), Int32(TJPF_RGBA.rawValue),
                    &out, &size, Int32(TJSAMP_444.rawValue), 90, 0)
    }
    defer { tjFree(out) }
    return Data(bytes: out!, count: Int(size))
}

@Suite("Pictures: decoding, protocols, publishing")
struct PictureTests {
    @Test("PNG and JPEG files decode to their size and pixels; anything else is refused with a sentence")
    func decode() throws {
        let picture = gradient(16, 8)
        let png = try #require(picture.png())
        #expect(try Picture.decode(png) == picture)
        let fromJPEG = try Picture.decode(jpeg(picture))
        #expect(fromJPEG.width == 16 && fromJPEG.height == 8)
        #expect(throws: NeonError("it is neither a PNG nor a JPEG file")) { try Picture.decode(Data("GIF89a".utf8)) }
        #expect(throws: NeonError.self) { try Picture.decode(png.prefix(40)) }
        #expect(throws: NeonError.self) { try Picture.decode(jpeg(picture).prefix(30)) }
    }

    @Test("a header claiming a huge picture is refused before anything is allocated for it")
    func huge() throws {
        var png = try #require(gradient(4, 4).png())
        // IHDR's width and height: 60000 × 60000.
        png.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
        #expect(throws: NeonError.self) { try Picture.decode(png) }
    }

    func document(_ picture: Picture = gradient(160, 96)) -> DocumentImage {
        let png = picture.png()!
        return DocumentImage(name: "logo.png", format: "png", width: picture.width, height: picture.height, data: png.base64EncodedString())
    }

    @Test("kitty: the picture is sent once, placed in its cells with a source rectangle for the part on screen, and deleted by id")
    func kitty() {
        let graphics = TerminalGraphics(kind: .kitty)
        graphics.show([document()])
        let whole = ImagePlacement(source: "logo.png", area: Rect(x: 1, y: 3, width: 18, height: 4), visible: Rect(x: 1, y: 3, width: 18, height: 4))
        let first = graphics.draw(whole)
        #expect(first.hasPrefix("\u{1B}_Ga=t,f=32,s=160,v=96,i=1,q=2,m=1;"))
        #expect(first.hasSuffix("\u{1B}[4;2H\u{1B}_Ga=p,i=1,p=1,x=0,y=0,w=160,h=96,c=18,r=4,C=1,q=2\u{1B}\\"))
        let half = ImagePlacement(source: "logo.png", area: Rect(x: 1, y: -1, width: 18, height: 4), visible: Rect(x: 1, y: 0, width: 18, height: 3))
        #expect(graphics.draw(half) == "\u{1B}[1;2H\u{1B}_Ga=p,i=1,p=1,x=0,y=24,w=160,h=72,c=18,r=3,C=1,q=2\u{1B}\\", "sent once, then only placed")
        #expect(graphics.erase(half) == "\u{1B}_Ga=d,d=i,i=1,p=1,q=2\u{1B}\\")
        #expect(graphics.eraseAll() == "\u{1B}_Ga=d,d=a,q=2\u{1B}\\")
    }

    @Test("iTerm2: the file inline in the box's cells; a picture cut by the screen's edge is its visible rows, encoded again as PNG")
    func iterm2() throws {
        let graphics = TerminalGraphics(kind: .iterm2)
        let image = document()
        graphics.show([image])
        let whole = graphics.draw(ImagePlacement(source: "logo.png", area: Rect(x: 0, y: 0, width: 20, height: 6), visible: Rect(x: 0, y: 0, width: 20, height: 6)))
        #expect(whole == "\u{1B}[1;1H\u{1B}]1337;File=inline=1;size=\(image.bytes!.count);width=20;height=6;preserveAspectRatio=0:\(image.data)\u{07}")
        let cut = graphics.draw(ImagePlacement(source: "logo.png", area: Rect(x: 0, y: -3, width: 20, height: 6), visible: Rect(x: 0, y: 0, width: 20, height: 3)))
        let payload = try #require(cut.split(separator: ":").last?.dropLast())
        let picture = try Picture.decode(try #require(Data(base64Encoded: String(payload))))
        #expect(picture.width == 160 && picture.height == 48)
        #expect(graphics.textErasesPictures)
    }

    @Test("sixel: the picture scaled to the box's pixels by libsixel and encoded as one DCS sequence, only its visible rows")
    func sixel() {
        let graphics = TerminalGraphics(kind: .sixel, cellWidth: 10, cellHeight: 20)
        graphics.show([document()])
        let whole = graphics.draw(ImagePlacement(source: "logo.png", area: Rect(x: 2, y: 1, width: 8, height: 3), visible: Rect(x: 2, y: 1, width: 8, height: 3)))
        #expect(whole.hasPrefix("\u{1B}[2;3H\u{1B}P"))
        #expect(whole.hasSuffix("\u{1B}\\"))
        #expect(whole.contains("\"1;1;80;60"), "raster attributes: 80×60 pixels")
        let cut = graphics.draw(ImagePlacement(source: "logo.png", area: Rect(x: 2, y: -1, width: 8, height: 3), visible: Rect(x: 2, y: 0, width: 8, height: 2)))
        #expect(cut.contains("\"1;1;80;40"), "the two rows on screen: 80×40 pixels")
    }

    @Test("inside tmux every sequence goes through its passthrough, every ESC doubled")
    func tmux() {
        let graphics = TerminalGraphics(kind: .kitty, passthrough: true)
        graphics.show([document(gradient(2, 2))])
        let out = graphics.draw(ImagePlacement(source: "logo.png", area: Rect(x: 0, y: 0, width: 2, height: 1), visible: Rect(x: 0, y: 0, width: 2, height: 1)))
        #expect(out.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,f=32,s=2,v=2,i=1"))
        #expect(out.hasSuffix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=p,i=1,p=1,x=0,y=0,w=2,h=2,c=2,r=1,C=1,q=2\u{1B}\u{1B}\\\u{1B}\\"))
    }

    @Test("the terminal's answers tell the protocol: kitty's OK, iTerm2's name, sixel among the device attributes")
    func probe() {
        let da = Array("\u{1B}[?62;4;22c".utf8)
        #expect(GraphicsProbe.detected(reply: Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8) + da, termProgram: nil) == .kitty)
        #expect(GraphicsProbe.detected(reply: Array("\u{1B}P>|iTerm2 3.5\u{1B}\\\u{1B}[?62;22c".utf8), termProgram: nil) == .iterm2)
        #expect(GraphicsProbe.detected(reply: da, termProgram: nil) == .sixel)
        #expect(GraphicsProbe.detected(reply: Array("\u{1B}[?62;22c".utf8), termProgram: nil) == nil)
        #expect(GraphicsProbe.isComplete(da) && !GraphicsProbe.isComplete(Array("\u{1B}_Gi=31;OK".utf8)))
    }

    @Test("publishing takes local pictures along, decoded; an SVG, a GIF, a malformed, missing or oversized file stays a box with a short reason, and nothing refuses the document; remote ones are every client's to box")
    func publishing() throws {
        let directory = NSTemporaryDirectory() + "neonsync-pictures-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/img", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try gradient(40, 20).png()!.write(to: URL(fileURLWithPath: directory + "/img/a.png"))
        try jpeg(gradient(30, 30)).write(to: URL(fileURLWithPath: directory + "/b.jpg"))
        try Data("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"/>".utf8)
            .write(to: URL(fileURLWithPath: directory + "/tour.svg"))
        try Data("GIF89a".utf8 + [1, 0, 1, 0]).write(to: URL(fileURLWithPath: directory + "/anim.gif"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/bad.png"))
        try (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: DocumentImage.maxBytes))
            .write(to: URL(fileURLWithPath: directory + "/big.png"))
        try Data("plain words".utf8).write(to: URL(fileURLWithPath: directory + "/notes.png"))
        try FileManager.default.createDirectory(atPath: directory + "/folder.png", withIntermediateDirectories: true)
        let text = """
            ![A](img/a.png)

            ![B](b.jpg)

            ![Tour](tour.svg)

            ![Spinner](anim.gif)

            ![Bad](bad.png)

            ![Big](big.png)

            ![Notes](notes.png)

            ![Folder](folder.png)

            ![Missing](nope.png)

            ![Remote](https://example.com/r.png)

            ![A again](img/a.png)
            """
        let pictures = DocumentPictures.collect(for: DocumentInfo(title: "t", format: .markdown, text: text), directory: directory)
        #expect(pictures.images.map(\.name) == ["img/a.png", "b.jpg"])
        #expect(pictures.images.map(\.format) == ["png", "jpeg"])
        #expect(pictures.images.map { [$0.width, $0.height] } == [[40, 20], [30, 30]])
        #expect(DocumentImage.problem(with: pictures.images) == nil)
        #expect(pictures.unshown == [
            UnshownImage(name: "tour.svg", reason: "SVG not shown"),
            UnshownImage(name: "anim.gif", reason: "GIF not shown"),
            UnshownImage(name: "bad.png", reason: "unreadable PNG"),
            UnshownImage(name: "big.png", reason: "over 1 MiB"),
            UnshownImage(name: "notes.png", reason: "not a PNG or JPEG"),
            UnshownImage(name: "folder.png", reason: "not a file"),
            UnshownImage(name: "nope.png", reason: "missing"),
        ])
        #expect(UnshownImage.problem(with: pictures.unshown, images: pictures.images) == nil, "what the server checks lets it through")
    }

    @Test("pictures past the document's limits together stay boxes: the 3 MiB of all pictures, then the 64 pictures")
    func together() throws {
        let directory = NSTemporaryDirectory() + "neonsync-pictures-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Four of 900 KiB each: the fourth passes 3 MiB together.
        var large = try #require(gradient(8, 8).png())
        large.append(Data(count: 900 << 10))
        for index in 1...4 { try large.write(to: URL(fileURLWithPath: directory + "/large\(index).png")) }
        let small = try #require(gradient(2, 2).png())
        for index in 1...70 { try small.write(to: URL(fileURLWithPath: directory + "/s\(index).png")) }
        let text = ((1...4).map { "![L\($0)](large\($0).png)" } + (1...70).map { "![S\($0)](s\($0).png)" }).joined(separator: "\n\n")
        let pictures = DocumentPictures.collect(for: DocumentInfo(title: "t", format: .markdown, text: text), directory: directory)
        #expect(pictures.images.count == DocumentImage.maxCount)
        #expect(pictures.unshown.first == UnshownImage(name: "large4.png", reason: "over the 3 MiB of all pictures"))
        #expect(pictures.unshown.dropFirst().map(\.reason) == Array(repeating: "over 64 pictures", count: 9))
        #expect(DocumentImage.problem(with: pictures.images) == nil)
        #expect(UnshownImage.problem(with: pictures.unshown, images: pictures.images) == nil)
    }
}
