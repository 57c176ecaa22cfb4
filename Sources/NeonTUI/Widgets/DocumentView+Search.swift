import NeonCore

extension DocumentView {
    /// A search match to draw: display columns `columns` of layout row `row`,
    /// counted from the row's first column (its prefix included). A match
    /// the layout wraps over several rows has one highlight per row.
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

        /// The part of a match on one row.
        public init(_ span: Layout.MatchSpan, isCurrent: Bool = false) {
            self.init(row: span.row, columns: span.columns, isCurrent: isCurrent)
        }
    }

    /// Every occurrence of `query` (ignoring case, see NeonCore's
    /// `TextSearch`) drawn on the rows in `rows` of `layout`: matches are
    /// found in the whole text of the blocks shown, so a phrase wrapped
    /// across two rows is highlighted on both.
    public static func highlights(of query: String, in layout: Layout, rows: Range<Int>) -> [Highlight] {
        guard let search = TextSearch(query) else { return [] }
        return layout.spans(of: search, in: rows).map { Highlight($0) }
    }
}
