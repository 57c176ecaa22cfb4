import NeonTUI

/// Where each part of the reader's screen goes for a terminal size.
///
/// ```
/// row 0        title (swings when too wide)            room · name · status
/// rows 1–2     tab header (titles, underline)
/// rows 3…      ╭ bordered document box ╮  presence panel (when wide enough)
/// last 3 rows  progress bar / wheel, back-to-top     (and the status line)
/// ```
public struct ScreenGeometry: Equatable, Sendable {
    public static let presenceWidth = 30
    public static let presenceMinimumColumns = 90

    public let columns: Int
    public let rows: Int
    /// Rows given to the draft panel under the document (0 when closed).
    public let draftRows: Int

    public init(columns: Int, rows: Int, draftRows: Int = 0) {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        self.draftRows = max(min(draftRows, rows - 10), 0)
    }

    /// The draft panel: under the document box, above the indicator.
    public var draft: Rect {
        Rect(x: 0, y: max(rows - 4 - draftRows, 3), width: columns, height: draftRows)
    }

    public var showsPresence: Bool { columns >= Self.presenceMinimumColumns }

    public var title: Rect { Rect(x: 0, y: 0, width: columns, height: min(1, rows)) }
    public var tabs: Rect { Rect(x: 0, y: 1, width: columns, height: max(min(2, rows - 1), 0)) }

    /// The bordered box around the document.
    public var box: Rect {
        let width = showsPresence ? columns - Self.presenceWidth - 1 : columns
        return Rect(x: 0, y: 3, width: width, height: max(rows - 3 - 4 - draftRows, 0))
    }

    /// The document text inside the box, leaving a one-column gutter on the
    /// right for the other readers' markers.
    public var document: Rect {
        let inner = box.inset(by: 1)
        return Rect(x: inner.x, y: inner.y, width: max(inner.width - 1, 0), height: inner.height)
    }

    /// The marker gutter just right of the text.
    public var gutter: Rect {
        let d = document
        return Rect(x: d.maxX, y: d.y, width: d.width > 0 ? 1 : 0, height: d.height)
    }

    public var presence: Rect {
        guard showsPresence else { return Rect(width: 0, height: 0) }
        return Rect(x: columns - Self.presenceWidth, y: 3, width: Self.presenceWidth, height: box.height)
    }

    /// The bar / wheel area: three rows above the status line.
    public var indicator: Rect { Rect(x: 0, y: max(rows - 4, 0), width: columns, height: min(3, rows)) }

    public var status: Rect { Rect(x: 0, y: rows - 1, width: columns, height: 1) }

    /// The width documents are wrapped to.
    public var wrapWidth: Int { max(document.width, 1) }
}
