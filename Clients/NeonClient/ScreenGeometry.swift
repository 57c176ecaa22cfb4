import NeonTUI

/// Where each part of the reader's screen goes for a terminal size.
///
/// ```
/// row 0        title (swings when too wide)            room · name · status
/// rows 1–2     tab header (titles, underline)
/// rows 3…      ╭ bordered document box ╮  presence panel (when wide enough)
///              (the draft panel, when open)
/// last 4 rows  progress bar / wheel, back-to-top, and the status line
/// ```
///
/// A short terminal gives the document what the chrome can spare, step by
/// step: below `foldedIndicatorRows` the progress box folds into the status
/// line, below `oneRowTabsRows` the tab header loses its underline row,
/// below `borderedRows` the document box its border (and the presence
/// panel goes), and below `tabRows` the tab header goes too. At 40 × 12 the
/// document keeps 7 rows; at 20 × 5, 3.
public struct ScreenGeometry: Equatable, Sendable {
    public static let presenceWidth = 30
    public static let presenceMinimumColumns = 90
    /// Below this many rows the progress box folds into the status line.
    public static let foldedIndicatorRows = 16
    /// Below this many rows the tab header is one row.
    public static let oneRowTabsRows = 13
    /// Below this many rows the document has no border.
    public static let borderedRows = 8
    /// Below this many rows there is no tab header.
    public static let tabRows = 6
    /// The progress box's height when it is not folded.
    static let indicatorHeight = 3

    public let columns: Int
    public let rows: Int
    /// Rows given to the draft panel under the document (0 when closed).
    public let draftRows: Int

    public init(columns: Int, rows: Int, draftRows: Int = 0) {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        let body = max(self.rows - 1 - Self.tabHeight(rows: self.rows) - Self.indicatorRows(rows: self.rows) - 1, 0)
        self.draftRows = max(min(draftRows, body / 2), 0)
    }

    private static func tabHeight(rows: Int) -> Int {
        rows < tabRows ? 0 : rows < oneRowTabsRows ? 1 : 2
    }

    private static func indicatorRows(rows: Int) -> Int {
        rows < foldedIndicatorRows ? 0 : indicatorHeight
    }

    /// Whether the progress shows in the status line instead of its box.
    public var foldsIndicator: Bool { rows < Self.foldedIndicatorRows }

    /// Whether the document box has its border.
    public var isBordered: Bool { rows >= Self.borderedRows }

    public var showsPresence: Bool { columns >= Self.presenceMinimumColumns && isBordered }

    public var title: Rect { Rect(x: 0, y: 0, width: columns, height: min(1, rows)) }
    public var tabs: Rect { Rect(x: 0, y: 1, width: columns, height: Self.tabHeight(rows: rows)) }

    /// The first row under the tab header.
    private var bodyTop: Int { min(1 + tabs.height, rows) }

    /// The rows between the tab header and the indicator (or status line).
    private var bodyHeight: Int { max(indicator.y - bodyTop, 0) }

    /// The box around the document: bordered, or (on a very short
    /// terminal) just the document and its gutter.
    public var box: Rect {
        let width = showsPresence ? columns - Self.presenceWidth - 1 : columns
        return Rect(x: 0, y: bodyTop, width: width, height: max(bodyHeight - draftRows, 0))
    }

    /// The draft panel: under the document box, above the indicator.
    public var draft: Rect {
        Rect(x: 0, y: box.maxY, width: columns, height: draftRows)
    }

    /// The document text inside the box, leaving a one-column gutter on the
    /// right for the other readers' markers.
    public var document: Rect {
        let inner = isBordered ? box.inset(by: 1) : box
        return Rect(x: inner.x, y: inner.y, width: max(inner.width - 1, 0), height: max(inner.height, 0))
    }

    /// The marker gutter just right of the text.
    public var gutter: Rect {
        let d = document
        return Rect(x: d.maxX, y: d.y, width: d.width > 0 ? 1 : 0, height: d.height)
    }

    public var presence: Rect {
        guard showsPresence else { return Rect(width: 0, height: 0) }
        return Rect(x: columns - Self.presenceWidth, y: bodyTop, width: Self.presenceWidth, height: box.height)
    }

    /// The bar / wheel area: three rows above the status line; empty (on
    /// the status line's row) when the progress is folded into it.
    public var indicator: Rect {
        let height = Self.indicatorRows(rows: rows)
        return Rect(x: 0, y: max(rows - 1 - height, 0), width: columns, height: height)
    }

    public var status: Rect { Rect(x: 0, y: rows - 1, width: columns, height: 1) }

    /// The width documents are wrapped to.
    public var wrapWidth: Int { max(document.width, 1) }
}
