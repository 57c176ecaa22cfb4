import CSixel
import Foundation
import NeonCore
import NeonTUI

/// The graphics protocols a terminal may speak.
public enum GraphicsProtocol: String, CaseIterable, Sendable {
    /// kitty's graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm, mintty).
    case iterm2
    /// DEC sixel (foot, xterm -ti vt340, mlterm, Windows Terminal, WezTerm).
    case sixel
}

/// Draws a document's pictures over their boxes in one graphics protocol:
/// the frame writer's `GraphicsWriter`. Pictures are decoded once (libpng,
/// libjpeg-turbo), scaled and encoded for sixel by libsixel, sent to kitty
/// once and then placed (a source rectangle cuts the part scrolled off),
/// and re-encoded for iTerm2 and sixel when only part is on screen. Inside
/// tmux every sequence goes through its passthrough (`allow-passthrough on`).
/// Not Sendable: the client's main thread owns it.
public final class TerminalGraphics: GraphicsWriter {
    public let kind: GraphicsProtocol
    /// Wrap every sequence in tmux's passthrough.
    public let passthrough: Bool
    /// A cell's size in pixels (8×16 when the terminal does not say).
    public var cellWidth: Int
    public var cellHeight: Int
    /// The pictures of the document shown, by name.
    private var images: [String: DocumentImage] = [:]
    private var decoded: [String: Picture?] = [:]
    /// kitty image ids, for the pictures already sent to it.
    private var kittyIDs: [String: Int] = [:]
    /// Encoded sequences by picture, size and visible rows.
    private var encoded: [String: String] = [:]

    public init(kind: GraphicsProtocol, passthrough: Bool = false, cellWidth: Int = 8, cellHeight: Int = 16) {
        self.kind = kind
        self.passthrough = passthrough
        self.cellWidth = cellWidth > 0 ? cellWidth : 8
        self.cellHeight = cellHeight > 0 ? cellHeight : 16
    }

    /// The pictures that came with the document shown; a new set forgets
    /// what was decoded and encoded for the old one.
    public func show(_ images: [DocumentImage]) {
        let named = Dictionary(images.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        guard named != self.images else { return }
        self.images = named
        decoded = [:]
        encoded = [:]
    }

    public var textErasesPictures: Bool { kind != .kitty }

    public func draw(_ placement: ImagePlacement) -> String {
        guard let image = images[placement.source], let picture = picture(placement.source) else { return "" }
        let move = TerminalControl.moveCursor(x: placement.visible.x, y: placement.visible.y)
        // The picture's rows on screen, in its own pixels.
        let top = Double(placement.visible.y - placement.area.y) / Double(placement.area.height)
        let bottom = Double(placement.visible.maxY - placement.area.y) / Double(placement.area.height)
        switch kind {
        case .kitty:
            var out = ""
            let id: Int
            if let known = kittyIDs[placement.source] {
                id = known
            } else {
                id = kittyIDs.count + 1
                kittyIDs[placement.source] = id
                out += kittyTransmit(picture, id: id)
            }
            let y = Int((top * Double(picture.height)).rounded())
            let h = max(Int((bottom * Double(picture.height)).rounded()) - y, 1)
            out += move + wrap("\u{1B}_Ga=p,i=\(id),p=1,x=0,y=\(y),w=\(picture.width),h=\(h),c=\(placement.visible.width),r=\(placement.visible.height),C=1,q=2\u{1B}\\")
            return out
        case .iterm2:
            let key = "\(placement.source)|\(placement.visible.width)x\(placement.visible.height)|\(top)|\(bottom)"
            if let cached = encoded[key] { return move + cached }
            let file: Data?
            if placement.isClipped {
                let y = Int((top * Double(picture.height)).rounded())
                let h = max(Int((bottom * Double(picture.height)).rounded()) - y, 1)
                file = picture.rows(y..<y + h).png()
            } else {
                file = image.bytes
            }
            guard let file else { return "" }
            let sequence = wrap("\u{1B}]1337;File=inline=1;size=\(file.count);width=\(placement.visible.width);height=\(placement.visible.height);preserveAspectRatio=0:\(file.base64EncodedString())\u{07}")
            encoded[key] = sequence
            return move + sequence
        case .sixel:
            let width = placement.area.width * cellWidth, height = placement.area.height * cellHeight
            let key = "\(placement.source)|\(width)x\(height)|\(top)|\(bottom)"
            if let cached = encoded[key] { return move + cached }
            guard let scaled = Self.scale(picture, width: width, height: height) else { return "" }
            let y = Int((top * Double(height)).rounded())
            let h = max(Int((bottom * Double(height)).rounded()) - y, 1)
            guard let sixel = Self.sixel(scaled.rows(y..<y + h)) else { return "" }
            let sequence = wrap(sixel)
            encoded[key] = sequence
            return move + sequence
        }
    }

    public func erase(_ placement: ImagePlacement) -> String {
        guard kind == .kitty, let id = kittyIDs[placement.source] else { return "" }
        return wrap("\u{1B}_Ga=d,d=i,i=\(id),p=1,q=2\u{1B}\\")
    }

    public func eraseAll() -> String {
        kind == .kitty && !kittyIDs.isEmpty ? wrap("\u{1B}_Ga=d,d=a,q=2\u{1B}\\") : ""
    }

    /// The picture `name`, decoded once; nil when it does not decode.
    private func picture(_ name: String) -> Picture? {
        if let known = decoded[name] { return known }
        let picture = images[name]?.bytes.flatMap { try? Picture.decode($0) }
        decoded[name] = picture
        return picture
    }

    /// kitty: the picture's RGBA sent once under `id`, in chunks of 4,096
    /// base64 characters, quietly (q=2).
    private func kittyTransmit(_ picture: Picture, id: Int) -> String {
        let payload = Data(picture.rgba).base64EncodedString()
        var out = ""
        var start = payload.startIndex
        var first = true
        while start < payload.endIndex {
            let end = payload.index(start, offsetBy: 4096, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let keys = first ? "a=t,f=32,s=\(picture.width),v=\(picture.height),i=\(id),q=2,m=\(more)" : "m=\(more)"
            out += wrap("\u{1B}_G\(keys);\(payload[start..<end])\u{1B}\\")
            first = false
            start = end
        }
        return out
    }

    /// `sequence` through tmux's passthrough when inside tmux: ESC P tmux;
    /// with every ESC doubled, then ST.
    func wrap(_ sequence: String) -> String {
        guard passthrough else { return sequence }
        return "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }

    /// `picture` scaled to `width`×`height` by libsixel's scaler (bilinear).
    static func scale(_ picture: Picture, width: Int, height: Int) -> Picture? {
        guard width > 0, height > 0 else { return nil }
        if width == picture.width, height == picture.height { return picture }
        var allocator: OpaquePointer?
        guard sixel_allocator_new(&allocator, nil, nil, nil, nil) == SIXEL_OK, let allocator else { return nil }
        defer { sixel_allocator_unref(allocator) }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let status = out.withUnsafeMutableBufferPointer { target in
            picture.rgba.withUnsafeBufferPointer { source in
                sixel_helper_scale_image(target.baseAddress, source.baseAddress, Int32(picture.width), Int32(picture.height),
                                         Int32(SIXEL_PIXELFORMAT_RGBA8888), Int32(width), Int32(height),
                                         Int32(SIXEL_RES_BILINEAR), allocator)
            }
        }
        return status == SIXEL_OK ? Picture(width: width, height: height, rgba: out) : nil
    }

    /// `picture` as a sixel sequence (DCS … ST), by libsixel's encoder with
    /// a palette of 256 colours made for it.
    static func sixel(_ picture: Picture) -> String? {
        var dither: OpaquePointer?
        guard sixel_dither_new(&dither, 256, nil) == SIXEL_OK, let dither else { return nil }
        defer { sixel_dither_unref(dither) }
        var pixels = picture.rgba
        let initialized = pixels.withUnsafeMutableBufferPointer { buffer in
            sixel_dither_initialize(dither, buffer.baseAddress, Int32(picture.width), Int32(picture.height),
                                    Int32(SIXEL_PIXELFORMAT_RGBA8888), Int32(SIXEL_LARGE_AUTO), Int32(SIXEL_REP_AUTO),
                                    Int32(SIXEL_QUALITY_AUTO))
        }
        guard initialized == SIXEL_OK else { return nil }
        let sink = SixelSink()
        var output: OpaquePointer?
        let context = Unmanaged.passUnretained(sink).toOpaque()
        guard sixel_output_new(&output, { data, size, context in
            guard let data, let context, size > 0 else { return 0 }
            let sink = Unmanaged<SixelSink>.fromOpaque(context).takeUnretainedValue()
            data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { sink.bytes.append($0, count: Int(size)) }
            return size
        }, context, nil) == SIXEL_OK, let output else { return nil }
        defer { sixel_output_unref(output) }
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            sixel_encode(buffer.baseAddress, Int32(picture.width), Int32(picture.height), 0, dither, output)
        }
        guard status == SIXEL_OK else { return nil }
        return String(decoding: sink.bytes, as: UTF8.self)
    }
}

/// What libsixel's encoder writes, collected.
private final class SixelSink {
    var bytes = Data()
}
