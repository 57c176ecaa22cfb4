/// An image's size in pixels.
public struct ImageSize: Equatable, Hashable, Sendable {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// The box an image block takes in a layout. A picture whose size is known
/// (it travelled with the document, so every reader knows the same sizes)
/// gets its aspect ratio: a column per 8 pixels, no wider than the room,
/// rows for cells twice as tall as wide, 3 to `maximumRows` rows (the rows
/// there are for it: the view's when reading, what a slide leaves; at most
/// 20), though never so narrow that its labels no longer fit while the
/// picture is wider than them; with the alt text and the file name inside. A terminal that can show pictures draws the picture over
/// the box's inside; every other shows the box, so rows and anchors are the
/// same everywhere. A picture that cannot be drawn (not sent, remote, of a
/// format not decoded) gets a box as wide as its labels: the alt text, and
/// the file name with the reason it is not shown.
public struct ImageBox: Equatable, Sendable {
    /// Columns and rows, border included.
    public let columns: Int
    public let rows: Int
    /// Whether the box has a picture's shape: a terminal with graphics
    /// draws the picture inside it. False for a box of labels only.
    public let showsPicture: Bool

    /// Pixels a cell is taken to be wide (for the box's natural width) and
    /// how much taller than wide (for its height).
    static let cellPixels = 8
    static let cellAspect = 2.0
    public static let minimumRows = 3
    public static let maximumRows = 20
    static let minimumColumns = 12

    /// The box for a picture of `size` in `room` columns, at most
    /// `maximumRows` rows (never under `minimumRows`); nil `size`: the box
    /// of a picture not shown, as wide as the labels `lines` draws for
    /// `alt`, `source` and `reason`.
    public init(size: ImageSize?, room: Int, maximumRows: Int = Self.maximumRows,
                alt: String = "", source: String = "", reason: String? = nil) {
        let room = max(room, 1)
        let tallest = min(max(maximumRows, Self.minimumRows), Self.maximumRows)
        guard let size, size.width > 0, size.height > 0 else {
            let labels = Self.labels(alt: alt, source: source, reason: reason)
            let widest = labels.map { DisplayWidth.of($0.text) }.max() ?? 0
            columns = min(room, max(widest + 4, Self.minimumColumns))
            rows = 2 + labels.count
            showsPicture = false
            return
        }
        let ratio = Double(size.height) / Double(size.width)
        let narrowest = min(Self.minimumColumns, room)
        // Sizes are clamped as doubles first: a side may be any Int.
        func rowsAcross(_ columns: Int) -> Int {
            Int(min(Double(columns) * ratio / Self.cellAspect, Double(Self.maximumRows + 1)).rounded())
        }
        func columnsDown(_ rows: Int) -> Int {
            max(Int(min(Double(rows) * Self.cellAspect / ratio, Double(room)).rounded()), narrowest)
        }
        let natural = min(room, max(size.width / Self.cellPixels + (size.width % Self.cellPixels > 0 ? 1 : 0), narrowest))
        var columns = natural
        var rows = rowsAcross(natural)
        if rows > tallest {
            let naturalRows = rows
            rows = tallest
            columns = columnsDown(tallest)
            let labels = max(DisplayWidth.of(SourceText.singleLine(alt)), DisplayWidth.of(Self.fileName(of: source)))
            let legible = min(natural, labels + 4)
            if columns < legible {
                let needed = Int(min(Double(legible) * ratio / Self.cellAspect, Double(Self.maximumRows)).rounded(.up))
                rows = min(needed, naturalRows, Self.maximumRows)
                columns = columnsDown(rows)
            }
        }
        self.columns = columns
        self.rows = max(rows, Self.minimumRows)
        showsPicture = true
    }

    /// The file name an address ends with.
    static func fileName(of source: String) -> String {
        source.split(separator: "/").last.map(String.init) ?? source
    }

    /// The labels of a box not shown: the alt text (when there is one),
    /// then the file name with the reason after it.
    private static func labels(alt: String, source: String, reason: String?) -> [(text: String, isAlt: Bool)] {
        let name = fileName(of: source)
        let detail = reason.map { name.isEmpty ? $0 : name + " · " + $0 } ?? name
        let single = SourceText.singleLine(alt)
        return single.isEmpty ? [(detail, false)] : [(single, true), (detail, false)]
    }

    /// The box's rows as text: a border, the labels on the middle rows
    /// (cut with "…"; a reason keeps its words, the file name is cut
    /// first), and where the alt text is on its row (UTF-8 offsets), for
    /// search.
    func lines(alt: String, source: String, reason: String? = nil) -> [(text: String, alt: Range<Int>?)] {
        let name = Self.fileName(of: source)
        guard columns >= 3 else {
            return (0..<rows).map { $0 == 0 ? (Self.cut(alt.isEmpty ? name : alt, to: columns), nil) : ("", nil) }
        }
        let inner = columns - 2
        let horizontal = String(repeating: "─", count: inner)
        var out: [(String, Range<Int>?)] = [("┌" + horizontal + "┐", nil)]
        if !showsPicture {
            for label in Self.labels(alt: alt, source: source, reason: nil) {
                let text = label.isAlt ? Self.cut(label.text, to: inner) : Self.cut(name: name, reason: reason, to: inner)
                out.append(Self.centered(text, inner: inner, isAlt: label.isAlt))
            }
            while out.count < rows - 1 { out.append(("│" + String(repeating: " ", count: inner) + "│", nil)) }
            out.append(("└" + horizontal + "┘", nil))
            return out
        }
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

    /// "name · reason" in `width` columns: the name cut first, so the
    /// reason stays whole while at least a few columns of the name fit.
    private static func cut(name: String, reason: String?, to width: Int) -> String {
        guard let reason else { return cut(name, to: width) }
        guard !name.isEmpty else { return cut(reason, to: width) }
        let tail = " · " + reason
        let left = width - DisplayWidth.of(tail)
        guard DisplayWidth.of(name) + DisplayWidth.of(tail) > width, left >= 4 else { return cut(name + tail, to: width) }
        return cut(name, to: left) + tail
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
