/// An image's size in pixels.
public struct ImageSize: Equatable, Hashable, Sendable {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// The box an image block takes in a layout: its aspect ratio when the
/// picture's size is known (it travels with the document, so every reader
/// knows the same sizes), three rows across the room when it is not (a
/// remote image, or a local one that did not travel), with the alt text
/// and the file name inside. A terminal that can show pictures draws the
/// picture over the box's inside; every other shows the box, so rows and
/// anchors are the same everywhere.
public struct ImageBox: Equatable, Sendable {
    /// Columns and rows, border included.
    public let columns: Int
    public let rows: Int

    /// Pixels a cell is taken to be wide (for the box's natural width) and
    /// how much taller than wide (for its height).
    static let cellPixels = 8
    static let cellAspect = 2.0
    static let minimumRows = 3
    static let maximumRows = 20
    static let minimumColumns = 12

    /// The box for a picture of `size` (nil: unknown) in `room` columns.
    public init(size: ImageSize?, room: Int) {
        let room = max(room, 1)
        guard let size, size.width > 0, size.height > 0 else {
            columns = room
            rows = Self.minimumRows
            return
        }
        let ratio = Double(size.height) / Double(size.width)
        var columns = min(room, max((size.width + Self.cellPixels - 1) / Self.cellPixels, min(Self.minimumColumns, room)))
        var rows = Int((Double(columns) * ratio / Self.cellAspect).rounded())
        if rows > Self.maximumRows {
            rows = Self.maximumRows
            columns = min(room, max(Int((Double(rows) * Self.cellAspect / ratio).rounded()), min(Self.minimumColumns, room)))
        }
        self.columns = columns
        self.rows = max(rows, Self.minimumRows)
    }

    /// The box's rows as text: a border, the alt text on the middle row and
    /// the file name below it (both cut with "…"), and where the alt text
    /// is on its row (UTF-8 offsets), for search.
    func lines(alt: String, source: String) -> [(text: String, alt: Range<Int>?)] {
        let name = source.split(separator: "/").last.map(String.init) ?? source
        guard columns >= 3 else {
            return (0..<rows).map { $0 == 0 ? (Self.cut(alt.isEmpty ? name : alt, to: columns), nil) : ("", nil) }
        }
        let inner = columns - 2
        let horizontal = String(repeating: "─", count: inner)
        var out: [(String, Range<Int>?)] = [("┌" + horizontal + "┐", nil)]
        let middle = (rows - 2 - 1) / 2
        let labels: [(String, Bool)] = alt.isEmpty ? [(name, false)] : [(alt, true), (name, false)]
        for row in 0..<(rows - 2) {
            let index = row - middle
            if rows - 2 == 1, !alt.isEmpty {
                let text = Self.cut(alt + " · " + name, to: inner)
                out.append(Self.centered(text, inner: inner, isAlt: true))
            } else if index >= 0, index < labels.count {
                out.append(Self.centered(Self.cut(labels[index].0, to: inner), inner: inner, isAlt: labels[index].1))
            } else {
                out.append(("│" + String(repeating: " ", count: inner) + "│", nil))
            }
        }
        out.append(("└" + horizontal + "┘", nil))
        return out
    }

    private static func centered(_ text: String, inner: Int, isAlt: Bool) -> (String, Range<Int>?) {
        let width = DisplayWidth.of(text)
        let left = max((inner - width) / 2, 0)
        let line = "│" + String(repeating: " ", count: left) + text + String(repeating: " ", count: max(inner - width - left, 0)) + "│"
        let start = "│".utf8.count + left
        return (line, isAlt ? start..<start + text.utf8.count : nil)
    }

    /// `text` on one line in at most `width` columns, "…" where it was cut.
    static func cut(_ text: String, to width: Int) -> String {
        let line = SourceText.singleLine(text)
        guard DisplayWidth.of(line) > width else { return line }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var out = ""
        var used = 0
        for character in line {
            let w = DisplayWidth.of(character)
            guard used + w <= width - 1 else { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }
}
