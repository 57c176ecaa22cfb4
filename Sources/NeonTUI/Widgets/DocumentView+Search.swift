import NeonCore

extension DocumentView {
    /// A search match to draw: display columns `columns` of layout row `row`,
    /// counted from the row's first column (its prefix included).
    public struct Highlight: Equatable, Hashable, Sendable {
        public var row: Int
        public var columns: Range<Int>
        /// The match the reader is on, drawn bold and underlined too.
        public var isCurrent: Bool

        /// A match on layout row `row` covering `columns`.
        public init(row: Int, columns: Range<Int>, isCurrent: Bool = false) {
            self.row = row
            self.columns = columns
            self.isCurrent = isCurrent
        }
    }

    /// The display columns of every occurrence of `query` in a row's text,
    /// ignoring case, left to right without overlaps, counted from the row's
    /// first column (after its prefix).
    public static func matches(of query: String, in line: LayoutLine) -> [Range<Int>] {
        let needle = query.map(folded)
        guard !needle.isEmpty else { return [] }
        let text = Array(line.text)
        let hay = text.map(folded)
        var columnOf = [DisplayWidth.of(line.prefix)]
        columnOf.reserveCapacity(text.count + 1)
        for character in text {
            columnOf.append(columnOf[columnOf.count - 1] + DisplayWidth.of(character))
        }
        var result: [Range<Int>] = []
        var index = 0
        while index + needle.count <= hay.count {
            if hay[index..<index + needle.count].elementsEqual(needle) {
                result.append(columnOf[index]..<columnOf[index + needle.count])
                index += needle.count
            } else {
                index += 1
            }
        }
        return result
    }

    private static func folded(_ character: Character) -> String {
        character.lowercased()
    }
}
