import Foundation
import NeonCore

/// The pictures a document being published takes along: every image block
/// whose address is a local file (relative to the document's directory, or
/// absolute) that exists, read, checked and decoded (so a file that is no
/// picture never travels), within `DocumentImage`'s limits. Remote
/// addresses, and files that do not exist, stay boxes with their alt text.
public enum DocumentPictures {
    /// The document's local pictures; a picture that cannot go is a
    /// `NeonError` naming the file and the limit or the reason (bad usage).
    public static func collect(for info: DocumentInfo, directory: String) throws(NeonError) -> [DocumentImage] {
        guard info.format == .markdown, let document = try? Document.parse(title: info.title, format: info.format, text: info.text) else {
            return []
        }
        var images: [DocumentImage] = []
        var seen = Set<String>()
        var total = 0
        for block in document.blocks {
            guard case .image(let source) = block.kind, isLocal(source), seen.insert(source).inserted else { continue }
            let path = source.hasPrefix("/") ? source : directory + "/" + source
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            guard Int(status.st_size) <= DocumentImage.maxBytes else {
                throw NeonError.usage("the image \(path) is \(status.st_size) bytes, over the limit of \(DocumentImage.maxBytes) bytes per image; make it smaller or link to it instead")
            }
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw NeonError.usage("cannot read the image \(path); check its permissions")
            }
            total += bytes.count
            guard total <= DocumentImage.maxTotalBytes else {
                throw NeonError.usage("the document's images are over the limit of \(DocumentImage.maxTotalBytes) bytes together at \(path); make them smaller or link to some instead")
            }
            guard images.count < DocumentImage.maxCount else {
                throw NeonError.usage("the document shows more than \(DocumentImage.maxCount) local images (at \(path)); link to some instead")
            }
            let picture: Picture
            do {
                picture = try Picture.decode(bytes)
            } catch {
                throw NeonError(error).at("the image \(path) cannot be shown").advising("fix or remove it").exiting(with: NeonError.usageStatus)
            }
            images.append(DocumentImage(name: source, format: Picture.format(of: bytes) ?? "png", width: picture.width,
                                        height: picture.height, data: bytes.base64EncodedString()))
        }
        return images
    }

    /// An address with no scheme (`images/a.png`, `/tmp/a.png`), which
    /// names a file on the publisher's disk.
    static func isLocal(_ source: String) -> Bool {
        guard let colon = source.firstIndex(of: ":") else { return true }
        return source[..<colon].contains("/")
    }
}
