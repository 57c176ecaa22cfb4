import CPNG
import CTurboJPEG
import Foundation
import NeonCore

/// A decoded picture: RGBA, 8 bits a channel, row after row.
public struct Picture: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The largest picture decoded, in pixels: a PNG or JPEG header may claim
    /// any size, and decoding allocates for what it claims.
    public static let maxPixels = 40_000_000

    /// The format a file's first bytes say: "png", "jpeg", or nil.
    public static func format(of bytes: Data) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
        return nil
    }

    /// Why bytes are not a picture this client draws: a sentence
    /// (`description`) and a short phrase for the picture's box (`reason`).
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Neither PNG nor JPEG.
        case notPNGOrJPEG
        /// A PNG or JPEG that its library cannot read, with what it said.
        case unreadable(format: String, sentence: String)
        /// A header that claims more than `maxPixels` pixels.
        case tooLarge(width: Int, height: Int)

        public var description: String {
            switch self {
            case .notPNGOrJPEG: "it is neither a PNG nor a JPEG file"
            case let .unreadable(_, sentence): sentence
            case let .tooLarge(width, height): "it says it is \(width)×\(height) pixels, over the \(maxPixels) pixels decoded"
            }
        }

        public var reason: String {
            switch self {
            case .notPNGOrJPEG: "not a PNG or JPEG"
            case let .unreadable(format, _): "unreadable \(format)"
            case .tooLarge: "over \(maxPixels / 1_000_000) million pixels"
            }
        }
    }

    /// Decodes a PNG (libpng) or JPEG (libjpeg-turbo) file's bytes; a file
    /// of another kind, a malformed one or one of more than `maxPixels`
    /// pixels is a `NeonError` naming what is wrong.
    public static func decode(_ bytes: Data) throws(NeonError) -> Picture {
        do {
            return try read(bytes)
        } catch {
            throw NeonError(error.description)
        }
    }

    /// `decode`, with why it failed as a `Problem`.
    public static func read(_ bytes: Data) throws(Problem) -> Picture {
        switch format(of: bytes) {
        case "png": return try decodePNG(bytes)
        case "jpeg": return try decodeJPEG(bytes)
        default: throw .notPNGOrJPEG
        }
    }

    private static func decodePNG(_ bytes: Data) throws(Problem) -> Picture {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard begun != 0 else { throw .unreadable(format: "PNG", sentence: "it is not a readable PNG (\(message(of: image)))") }
        defer { png_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= maxPixels else { throw .tooLarge(width: width, height: height) }
        image.format = neon_png_format_rgba
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = bytes.withUnsafeBytes { _ in
            pixels.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
            }
        }
        guard finished != 0 else { throw .unreadable(format: "PNG", sentence: "it is not a readable PNG (\(message(of: image)))") }
        return Picture(width: width, height: height, rgba: pixels)
    }

    private static func message(of image: png_image) -> String {
        var image = image
        return withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func decodeJPEG(_ bytes: Data) throws(Problem) -> Picture {
        guard let handle = tjInitDecompress() else { throw .unreadable(format: "JPEG", sentence: "libjpeg-turbo could not start") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBytes { raw in
            tjDecompressHeader3(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                                &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw unreadableJPEG(handle) }
        guard width > 0, height > 0, Int(width) * Int(height) <= maxPixels else {
            throw .tooLarge(width: Int(width), height: Int(height))
        }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let decoded = bytes.withUnsafeBytes { raw in
            pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), out.baseAddress,
                              width, 0, height, Int32(TJPF_RGBA.rawValue), 0)
            }
        }
        guard decoded == 0 else { throw unreadableJPEG(handle) }
        return Picture(width: Int(width), height: Int(height), rgba: pixels)
    }

    private static func unreadableJPEG(_ handle: tjhandle) -> Problem {
        .unreadable(format: "JPEG", sentence: "it is not a readable JPEG (\(String(cString: tjGetErrorStr2(handle))))")
    }

    /// This picture's rows `rows` (a part scrolled off cut away).
    public func rows(_ rows: Range<Int>) -> Picture {
        let rows = rows.clamped(to: 0..<height)
        return Picture(width: width, height: rows.count, rgba: Array(rgba[rows.lowerBound * width * 4..<rows.upperBound * width * 4]))
    }

    /// This picture as a PNG file (libpng), for protocols that take files.
    public func png() -> Data? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = neon_png_format_rgba
        var size = 0
        let counted = rgba.withUnsafeBytes { raw in
            png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress, Int32(width * 4), nil)
        }
        guard counted != 0, size > 0 else { return nil }
        var out = Data(count: size)
        let written = out.withUnsafeMutableBytes { target in
            rgba.withUnsafeBytes { raw in
                png_image_write_to_memory(&image, target.baseAddress, &size, 0, raw.baseAddress, Int32(width * 4), nil)
            }
        }
        return written != 0 ? out.prefix(size) : nil
    }
}
