import Foundation
import NeonCore

/// The pictures a document being published takes along: every image block
/// whose address is a local file (relative to the document's directory, or
/// absolute), read, checked and decoded (so a file that is no picture
/// never travels), within `DocumentImage`'s limits. A local picture that
/// cannot go (an SVG, another format, missing, unreadable, over a limit) is
/// listed in `unshown` with a short reason, which travels instead: every
/// reader draws its box with the alt text and that reason. Nothing here
/// refuses the document. Remote addresses are no one's to fetch: every
/// client boxes them alike (`ImageCatalog.remoteReason`).
public struct DocumentPictures: Equatable, Sendable {
    public var images: [DocumentImage]
    public var unshown: [UnshownImage]

    public init(images: [DocumentImage] = [], unshown: [UnshownImage] = []) {
        self.images = images
        self.unshown = unshown
    }

    /// The bytes read to tell a file's format before reading it whole.
    static let headBytes = 4096

    /// The local pictures of `info`'s Markdown, read from `directory`.
    public static func collect(for info: DocumentInfo, directory: String) -> DocumentPictures {
        var pictures = DocumentPictures()
        guard info.format == .markdown, let document = try? Document.parse(title: info.title, format: info.format, text: info.text) else {
            return pictures
        }
        var seen = Set<String>()
        var total = 0
        for block in document.blocks {
            guard case .image(let source) = block.kind, !ImageCatalog.isRemote(source), seen.insert(source).inserted else { continue }
            let path = source.hasPrefix("/") ? source : directory + "/" + source
            switch take(source, at: path, total: total, count: pictures.images.count) {
            case let .success(image):
                total += image.bytes?.count ?? 0
                pictures.images.append(image)
            case let .failure(reason) where pictures.unshown.count < UnshownImage.maxCount:
                pictures.unshown.append(UnshownImage(name: source, reason: reason.text))
            case .failure:
                break
            }
        }
        return pictures
    }

    /// A short phrase: why a picture does not travel.
    struct Reason: Error {
        let text: String
    }

    /// The picture at `path`, read and checked, or why it cannot travel;
    /// `total` and `count`: the bytes and pictures already taken.
    private static func take(_ source: String, at path: String, total: Int, count: Int) -> Result<DocumentImage, Reason> {
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(Reason(text: errno == ENOENT ? "missing" : "cannot be read")) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return .failure(Reason(text: "not a file")) }
        guard let file = FileHandle(forReadingAtPath: path) else { return .failure(Reason(text: "cannot be read")) }
        defer { try? file.close() }
        guard let head = try? file.read(upToCount: headBytes) ?? Data() else { return .failure(Reason(text: "cannot be read")) }
        guard let format = Picture.format(of: head) else {
            let kind = otherFormat(of: head, source: source)
            return .failure(Reason(text: kind.map { "\($0) not shown" } ?? Picture.Problem.notPNGOrJPEG.reason))
        }
        // At most one byte past the limit is read: enough to tell a file over it.
        guard let rest = try? file.read(upToCount: DocumentImage.maxBytes + 1 - min(head.count, DocumentImage.maxBytes)) ?? Data() else {
            return .failure(Reason(text: "cannot be read"))
        }
        let bytes = head + rest
        guard bytes.count <= DocumentImage.maxBytes else { return .failure(Reason(text: "over \(mebibytes(DocumentImage.maxBytes))")) }
        guard count < DocumentImage.maxCount else { return .failure(Reason(text: "over \(DocumentImage.maxCount) pictures")) }
        guard total + bytes.count <= DocumentImage.maxTotalBytes else {
            return .failure(Reason(text: "over the \(mebibytes(DocumentImage.maxTotalBytes)) of all pictures"))
        }
        let picture: Picture
        do {
            picture = try Picture.read(bytes)
        } catch {
            return .failure(Reason(text: error.reason))
        }
        guard picture.width <= DocumentImage.maxSide, picture.height <= DocumentImage.maxSide else {
            return .failure(Reason(text: "over \(DocumentImage.maxSide) pixels a side"))
        }
        return .success(DocumentImage(name: source, format: format, width: picture.width, height: picture.height,
                                      data: bytes.base64EncodedString()))
    }

    /// `bytes` in whole mebibytes ("1 MiB").
    private static func mebibytes(_ bytes: Int) -> String {
        "\(bytes >> 20) MiB"
    }

    /// The name of a picture format this client does not draw, from a
    /// file's first bytes (and, for compressed SVG, its name); nil when
    /// they say none.
    static func otherFormat(of head: Data, source: String) -> String? {
        let bytes = [UInt8](head)
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "GIF" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "WebP" }
        if starts(Array("ftypavif".utf8), at: 4) || starts(Array("ftypavis".utf8), at: 4) { return "AVIF" }
        if starts(Array("ftypheic".utf8), at: 4) || starts(Array("ftypmif1".utf8), at: 4) { return "HEIF" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts(Array("BM".utf8)), bytes.count >= 14 { return "BMP" }
        if starts([0x00, 0x00, 0x01, 0x00]) { return "ICO" }
        if isSVG(bytes) { return "SVG" }
        if starts([0x1F, 0x8B]), source.lowercased().hasSuffix(".svgz") { return "SVG" }
        return nil
    }

    /// Whether a file starts as SVG does: an `<svg` element first, after an
    /// optional byte-order mark, XML declaration, comments and doctype.
    private static func isSVG(_ bytes: [UInt8]) -> Bool {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop { $0.isWhitespace }
        guard trimmed.hasPrefix("<") else { return false }
        return trimmed.hasPrefix("<svg") || trimmed.range(of: "<svg") != nil && (trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<!"))
    }
}
