// A libFuzzer target over the pictures a document carries: the bytes of an
// image file as the publishing client reads it and every reader's client
// decodes it (NeonRender's Picture, through libpng and libjpeg-turbo), and
// the server's checks of a document's images (DocumentImage.problem) and of
// the pictures it lists as not shown (UnshownImage.problem).
// Built and run by scripts/fuzz.sh with NeonCore and NeonRender's Picture.
//
// Checks: decoding never crashes and never allocates for more than
// Picture.maxPixels pixels; a decoded picture has the pixels its size says;
// re-encoded as PNG it decodes to the same picture; its rows cut as for a
// picture scrolled half off are whole rows; the server's check of it as a
// travelling image, and of its bytes as the reason a picture is not
// shown, answers without crashing.

import Foundation

func fuzzPictures(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let bytes = Data(bytes: data, count: size)
    let format = Picture.format(of: bytes) ?? "png"
    _ = DocumentImage.problem(with: [DocumentImage(name: "fuzz", format: format, width: 1, height: 1,
                                                   data: bytes.base64EncodedString())])
    _ = UnshownImage.problem(with: [UnshownImage(name: "fuzz", reason: String(decoding: bytes.prefix(80), as: UTF8.self))], images: [])
    guard let picture = try? Picture.decode(bytes) else { return }
    guard picture.width * picture.height <= Picture.maxPixels, picture.rgba.count == picture.width * picture.height * 4 else {
        fatalError("a decoded picture of \(picture.width)×\(picture.height) has \(picture.rgba.count) bytes")
    }
    let half = picture.rows(picture.height / 2..<picture.height)
    if half.rgba.count != half.width * half.height * 4 || half.height != picture.height - picture.height / 2 {
        fatalError("cutting rows of a \(picture.width)×\(picture.height) picture gave \(half.height) rows")
    }
    guard let png = picture.png(), let again = try? Picture.decode(png), again == picture else {
        fatalError("a \(picture.width)×\(picture.height) picture did not survive PNG")
    }
}

/// A gradient as PNG, the same with a header claiming 60000×60000 pixels,
/// and cut short.
func pictureSeeds() -> [[UInt8]] {
    var rgba: [UInt8] = []
    for y in 0..<24 { for x in 0..<32 { rgba += [UInt8(x * 8), UInt8(y * 10), 128, 255] } }
    let png = Picture(width: 32, height: 24, rgba: rgba).png()!
    var huge = png
    huge.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
    return [Array(png), Array(huge), Array(png.prefix(60)), [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]]
}
