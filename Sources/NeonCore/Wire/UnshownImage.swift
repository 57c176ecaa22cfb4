/// A picture of the document that did not travel with it (`unshown` on
/// `document`; added after v1): its address as the Markdown writes it and
/// why the publishing client could not send it ("SVG not shown",
/// "missing", "over 1 MiB"), so that every reader, late joiners and
/// followers too, draws the same box with the same reason.
public struct UnshownImage: Codable, Equatable, Hashable, Sendable {
    /// The image's address exactly as the Markdown writes it.
    public var name: String
    /// A short phrase, shown as it is inside the image's box.
    public var reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    /// At most this many per document, and bytes per reason.
    public static let maxCount = 256
    public static let maxReasonBytes = 64

    /// Why a document's unshown pictures cannot be taken, as a sentence
    /// naming the picture and the limit; nil when they can. What the server
    /// checks on every `document`, beside `DocumentImage.problem(with:)`.
    public static func problem(with unshown: [UnshownImage], images: [DocumentImage]) -> String? {
        if unshown.count > maxCount {
            return "the document lists \(unshown.count) pictures not shown, over the limit of \(maxCount)"
        }
        var names = Set(images.map(\.name))
        for picture in unshown {
            guard !picture.name.isEmpty, picture.name.utf8.count <= 1024, names.insert(picture.name).inserted else {
                return "a picture not shown has a name that is empty, longer than 1024 bytes or given twice (\(picture.name.prefix(64)))"
            }
            guard !picture.reason.isEmpty, picture.reason.utf8.count <= maxReasonBytes,
                  !picture.reason.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return "the reason given for picture \(picture.name) is empty, longer than \(maxReasonBytes) bytes or not on one line"
            }
        }
        return nil
    }
}
