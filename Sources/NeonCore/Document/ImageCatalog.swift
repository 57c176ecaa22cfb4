/// What a layout knows of a document's pictures, by the address the
/// Markdown gives each: the pixel sizes of those that travelled with it
/// (`DocumentInfo.images`) and why the others are not shown
/// (`DocumentInfo.unshown`).
public struct ImageCatalog: Equatable, Sendable {
    public var sizes: [String: ImageSize]
    public var reasons: [String: String]

    public static let none = ImageCatalog()

    /// The reason every client gives a picture whose address has a scheme:
    /// no one fetches anything.
    public static let remoteReason = "remote, not fetched"

    public init(sizes: [String: ImageSize] = [:], reasons: [String: String] = [:]) {
        self.sizes = sizes
        self.reasons = reasons
    }

    /// Why the picture at `source` is drawn as its box only: the reason it
    /// came with, or `remoteReason` for a remote address; nil for a picture
    /// that travelled (and for a local one published without a reason).
    public func reason(for source: String) -> String? {
        if sizes[source] != nil { return nil }
        return reasons[source] ?? (Self.isRemote(source) ? Self.remoteReason : nil)
    }

    /// The box of the picture at `source`, whose alt text is `alt`, in `room` columns.
    func box(for source: String, alt: String, room: Int) -> ImageBox {
        ImageBox(size: sizes[source], room: room, alt: alt, source: source, reason: reason(for: source))
    }

    /// An address with a scheme (`https://…`, `data:…`): not a file on the
    /// publisher's disk.
    public static func isRemote(_ source: String) -> Bool {
        guard let colon = source.firstIndex(of: ":") else { return false }
        return !source[..<colon].contains("/")
    }
}
