import Foundation

/// A picture that travels with a document (`images` on `document`; added
/// after v1): the local file an image of the Markdown names, as the
/// publishing client read it, so every reader, late joiners and followers
/// too, gets the same picture and the same box. Remote images never travel:
/// no one fetches them.
public struct DocumentImage: Codable, Equatable, Hashable, Sendable {
    /// The image's address exactly as the Markdown writes it
    /// (`![alt](images/logo.png)` → `images/logo.png`).
    public var name: String
    /// `png` or `jpeg`.
    public var format: String
    /// Its size in pixels, as its header gives it.
    public var width: Int
    public var height: Int
    /// The file's bytes in base64.
    public var data: String

    public init(name: String, format: String, width: Int, height: Int, data: String) {
        self.name = name
        self.format = format
        self.width = width
        self.height = height
        self.data = data
    }

    /// The formats that travel.
    public static let formats = ["png", "jpeg"]
    /// At most this many bytes (decoded) per image, and for all of a
    /// document's images together: with the text's `--max-document` (4 MiB by
    /// default) and base64's third, a document with its images still fits
    /// the default `--max-message` of 8 MiB.
    public static let maxBytes = 1 << 20
    public static let maxTotalBytes = 3 << 20
    /// At most this many images per document, and pixels per side.
    public static let maxCount = 64
    public static let maxSide = 16_384

    /// The image's bytes, or nil when `data` is not base64.
    public var bytes: Data? { Data(base64Encoded: data) }

    /// Why a document's images cannot travel, as a sentence naming the
    /// image and the limit; nil when they can. What the server checks on
    /// every `document` (the bytes' format by their signature: it decodes
    /// no picture) and the publishing client before sending.
    public static func problem(with images: [DocumentImage]) -> String? {
        if images.count > maxCount {
            return "the document has \(images.count) images, over the limit of \(maxCount)"
        }
        var total = 0
        var names = Set<String>()
        for image in images {
            guard !image.name.isEmpty, image.name.utf8.count <= 1024, names.insert(image.name).inserted else {
                return "an image's name is empty, longer than 1024 bytes or given twice (\(image.name.prefix(64)))"
            }
            guard formats.contains(image.format) else {
                return "image \(image.name) is \(image.format), not one of \(formats.joined(separator: ", "))"
            }
            guard (1...maxSide).contains(image.width), (1...maxSide).contains(image.height) else {
                return "image \(image.name) says it is \(image.width)×\(image.height) pixels; each side must be 1 to \(maxSide)"
            }
            guard let bytes = image.bytes else { return "image \(image.name) is not base64" }
            guard bytes.count <= maxBytes else {
                return "image \(image.name) is \(bytes.count) bytes, over the limit of \(maxBytes) bytes per image"
            }
            total += bytes.count
            guard total <= maxTotalBytes else {
                return "the document's images are over the limit of \(maxTotalBytes) bytes together (at \(image.name))"
            }
            let signature: [UInt8] = image.format == "png" ? [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] : [0xFF, 0xD8, 0xFF]
            guard bytes.starts(with: signature) else {
                return "image \(image.name) does not start as a \(image.format.uppercased()) file does"
            }
        }
        return nil
    }
}
