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

    @Test("publishing takes local pictures along, decoded; too large or malformed files are refused with a sentence naming them; remote ones stay boxes")
    func publishing() throws {
        let directory = NSTemporaryDirectory() + "neonsync-pictures-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/img", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try gradient(40, 20).png()!.write(to: URL(fileURLWithPath: directory + "/img/a.png"))
        try jpeg(gradient(30, 30)).write(to: URL(fileURLWithPath: directory + "/b.jpg"))
        let text = "![A](img/a.png)\n\n![B](b.jpg)\n\n![Remote](https://example.com/r.png)\n\n![Missing](nope.png)"
        let images = try DocumentPictures.collect(for: DocumentInfo(title: "t", format: .markdown, text: text), directory: directory)
        #expect(images.map(\.name) == ["img/a.png", "b.jpg"])
        #expect(images.map(\.format) == ["png", "jpeg"])
        #expect(images.map { [$0.width, $0.height] } == [[40, 20], [30, 30]])
        #expect(DocumentImage.problem(with: images) == nil)

        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/bad.png"))
        #expect(throws: NeonError.self) {
            try DocumentPictures.collect(for: DocumentInfo(title: "t", format: .markdown, text: "![x](bad.png)"), directory: directory)
        }
        do {
            _ = try DocumentPictures.collect(for: DocumentInfo(title: "t", format: .markdown, text: "![x](bad.png)"), directory: directory)
        } catch {
            #expect(error.description.hasPrefix("the image \(directory)/bad.png cannot be shown: it is not a readable PNG"))
        }
        try Data(count: DocumentImage.maxBytes + 1).write(to: URL(fileURLWithPath: directory + "/big.png"))
        do {
            _ = try DocumentPictures.collect(for: DocumentInfo(title: "t", format: .markdown, text: "![x](big.png)"), directory: directory)
            Issue.record("a picture over the limit went")
        } catch {
            #expect(error.description == "the image \(directory)/big.png is \(DocumentImage.maxBytes + 1) bytes, over the limit of 1048576 bytes per image; make it smaller or link to it instead")
        }
    }
}
