/// How a terminal shows pictures, as the frame writer uses it: the bytes
/// that draw a placement (the cursor moved there included) and that take
/// one away. Made outside the pure modules (decoding and encoding pictures
/// reads libraries); the frame writer decides when.
public protocol GraphicsWriter: AnyObject {
    /// The bytes that draw `placement`'s visible part.
    func draw(_ placement: ImagePlacement) -> String
    /// The bytes that take a placement's picture away; "" for a terminal
    /// where writing the cells under it does (`textErasesPictures`).
    func erase(_ placement: ImagePlacement) -> String
    /// The bytes that take every picture away (a frame drawn whole).
    func eraseAll() -> String
    /// Writing a cell over a picture erases that part of it (sixel, iTerm2)
    /// rather than leaving the picture above the text (kitty).
    var textErasesPictures: Bool { get }
}
