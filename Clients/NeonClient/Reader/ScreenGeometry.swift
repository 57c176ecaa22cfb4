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
/// step, and a taller one never shows fewer rows of document than a
/// shorter one: each row more goes to the document or to one row more of
/// chrome, never two. So the progress box unfolds a row at a time from
/// `foldedIndicatorRows` (its bar on one row, then two, then boxed on
/// three; below, the progress folds into the status line), and the
/// document's border (two rows, from `borderedRows`; the presence panel
/// goes with it) comes as the tab header gives up the underline row it had
/// for the one height below it. Below `oneRowTabsRows` the tab header is
/// one row, and below `tabRows` there is none. At 40 × 12 the document
/// keeps 7 rows; at 80 × 16, 9, as at 80 × 15; at 20 × 5, 3.
///
/// The presenter's speaker notes, when shown, take a column right of the
/// document on a terminal of `notesBesideColumns` or more (in place of the
/// presence panel), else rows under it when the terminal has
/// `notesUnderRows` rows; a smaller terminal has no room for them.
public struct ScreenGeometry: Equatable, Sendable {
    public static let presenceWidth = 30
    public static let presenceMinimumColumns = 90
    /// Below this many rows the progress box folds into the status line;
    /// from it, the box takes a row, then two, then three.
    public static let foldedIndicatorRows = 16
    /// Below this many rows the tab header is one row (but for the one
    /// height below `borderedRows`).
    public static let oneRowTabsRows = 13
    /// Below this many rows the document has no border.
    public static let borderedRows = 9
    /// Below this many rows there is no tab header.
    public static let tabRows = 6
    /// The progress box's height when it is not folded.
    static let indicatorHeight = 3
    /// From this many columns the speaker notes stand right of the document.
    public static let notesBesideColumns = 110
    /// From this many rows (and fewer columns) the notes go under the document.
    public static let notesUnderRows = 18

    public let columns: Int
    public let rows: Int
    /// Rows given to the draft panel under the document (0 when closed).
    public let draftRows: Int
    /// The title row, the body and the status line.
    public let frame: ScreenFrame
    public let tabs: Rect
    /// The box around the document: bordered, or (on a very short
    /// terminal) just the document and its gutter.
    public let box: Rect
    /// The draft panel: under the document box, above the indicator.
    public let draft: Rect
    /// The presence panel right of the box; empty when it does not show.
    public let presence: Rect
    /// The speaker notes, right of the box or under it; empty when they are
    /// not shown or do not fit.
    public let notes: Rect
    /// The bar / wheel area: three rows above the status line; empty (on
    /// the status line's row) when the progress is folded into it.
    public let indicator: Rect
    /// The document and its gutter, where the document view draws.
    public let page: Rect
    /// The document text inside the box, leaving a one-column gutter on the
    /// right for the other readers' markers.
    public let document: Rect
    /// The marker gutter just right of the text; none without a column of
    /// text beside it.
    public let gutter: Rect

    public init(columns: Int, rows: Int, draftRows: Int = 0, showsNotes: Bool = false) {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        frame = ScreenFrame(columns: self.columns, rows: self.rows)
        let indicatorRows = min(max(self.rows - Self.foldedIndicatorRows + 1, 0), Self.indicatorHeight)
        let body = Stack.vertical([.length(Self.tabHeight(rows: self.rows)), .fill(1), .length(indicatorRows)]).split(frame.body)
        tabs = body[0]
        indicator = body[2]
        self.draftRows = max(min(draftRows, body[1].height / 2), 0)
        let panels = Stack.vertical([.fill(1), .length(self.draftRows)]).split(body[1])
        draft = panels[1]
        let isBordered = self.rows >= Self.borderedRows
        let none = Rect(width: 0, height: 0)
        if showsNotes && self.columns >= Self.notesBesideColumns && isBordered {
            let width = min(max(self.columns / 3, 30), 50)
            let beside = Stack.horizontal([.fill(1), .length(1), .length(width)]).split(panels[0])
            box = beside[0]
            notes = beside[2]
            presence = none
        } else if showsNotes && self.rows >= Self.notesUnderRows {
            let height = min(max(self.rows / 4, 5), 10)
            let under = Stack.vertical([.fill(1), .length(height)]).split(panels[0])
            notes = under[1]
            if self.columns >= Self.presenceMinimumColumns {
                let beside = Stack.horizontal([.fill(1), .length(1), .length(Self.presenceWidth)]).split(under[0])
                box = beside[0]
                presence = beside[2]
            } else {
                box = under[0]
                presence = none
            }
        } else if self.columns >= Self.presenceMinimumColumns && isBordered {
            let beside = Stack.horizontal([.fill(1), .length(1), .length(Self.presenceWidth)]).split(panels[0])
            box = beside[0]
            presence = beside[2]
            notes = none
        } else {
            box = panels[0]
            presence = none
            notes = none
        }
        let inside = isBordered ? BorderBox.inner(of: box) : box
        let text = Stack.horizontal([.fill(1), .length(1)]).split(inside)
        document = text[0]
        gutter = document.width > 0 ? text[1] : Rect(x: document.maxX, y: document.y, width: 0, height: document.height)
        page = Rect(x: document.x, y: document.y, width: document.width + gutter.width, height: document.height)
    }

    /// The tab header's rows: its underline row also at the height just
    /// below `borderedRows`, so that the border's two rows come as it
    /// goes (one row more of chrome, not two).
    private static func tabHeight(rows: Int) -> Int {
        if rows < tabRows { return 0 }
        return rows >= oneRowTabsRows || rows == borderedRows - 1 ? 2 : 1
    }

    /// Whether the progress shows in the status line instead of its box.
    public var foldsIndicator: Bool { rows < Self.foldedIndicatorRows }

    /// Whether the document box has its border.
    public var isBordered: Bool { rows >= Self.borderedRows }

    public var showsPresence: Bool { !presence.isEmpty }

    /// Whether the speaker notes have a place on this screen.
    public var showsNotes: Bool { !notes.isEmpty }

    public var title: Rect { frame.title }

    public var status: Rect { frame.status }

    /// The width documents are wrapped to.
    public var wrapWidth: Int { max(document.width, 1) }
}
