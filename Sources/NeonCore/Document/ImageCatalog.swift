/// What a layout knows of a document's pictures, by the address the
/// Markdown gives each: the pixel sizes of those that travelled with it
/// (`DocumentInfo.images`), why the others are not shown
/// (`DocumentInfo.unshown`), and the most rows a picture's box may take.
public struct ImageCatalog: Equatable, Sendable {
    public var sizes: [String: ImageSize]
    public var reasons: [String: String]
    /// The most rows a picture's box takes: the rows the view shows when
    /// reading, what the rest of the slide leaves in slides
    /// (`ImageBox.maximumRows` at most, `ImageBox.minimumRows` at least).
    public var maximumRows: Int

    public static let none = ImageCatalog()

    /// The reason every client gives a picture whose address has a scheme:
    /// no one fetches anything.
    public static let remoteReason = "remote, not fetched"

    public init(sizes: [String: ImageSize] = [:], reasons: [String: String] = [:], maximumRows: Int = ImageBox.maximumRows) {
        self.sizes = sizes
        self.reasons = reasons
        self.maximumRows = maximumRows
    }

    /// This catalog with boxes of at most `rows` rows.
    public func fitting(rows: Int) -> ImageCatalog {
        var copy = self
        copy.maximumRows = rows
        return copy
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
        ImageBox(size: sizes[source], room: room, maximumRows: maximumRows, alt: alt, source: source, reason: reason(for: source))
    }

    /// An address with a scheme (`https://…`, `data:…`): not a file on the
    /// publisher's disk.
    public static func isRemote(_ source: String) -> Bool {
        guard let colon = source.firstIndex(of: ":") else { return false }
        return !source[..<colon].contains("/")
    }
}
