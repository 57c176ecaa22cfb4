import NeonCore
import NeonTUI

/// The reader's document pane, as bubbles' viewport: the room's document
/// laid out for this terminal's width, the row at the top of the view, how
/// far wide code is shifted sideways, a running eased scroll, the bottom
/// indicator's idle timer (bar or wheel), and whether the pane tracks the
/// presenter. The reader sets its size (`fit`, `resize`) whenever the
/// screen's geometry changes.
public struct DocumentPane: Sendable {
    public internal(set) var document: Document?
    /// The document as it came from the room, to tell a reconnect's welcome
    /// (same document: keep the place) from a new one.
    var shownDocument: DocumentInfo?
    public internal(set) var layout: Layout?
    public internal(set) var top = 0
    /// How many columns code lines too wide for the screen are scrolled
    /// left (← → h l), at most the layout's `codeOverflow`.
    public internal(set) var codeShift = 0
    public internal(set) var animation: ScrollAnimation?
    public internal(set) var indicator: Indicator
    /// Tracking the presenter (follow mode starts so; scrolling detaches).
    public internal(set) var following: Bool
    /// The tokens of the document's highlighted code, once the runtime has
    /// made them (`ClientCommand.highlight`); none until then.
    public private(set) var highlights = CodeHighlights.none
    /// Counts the documents shown, so that highlights made for one are
    /// never laid on another.
    public private(set) var documentVersion = 0
    /// The document has code to highlight that was not asked for yet.
    private var highlightWanted = false
    /// What the shown document's relative links resolve against: the
    /// directory of the file this client published, while that file is the
    /// room's document; nil otherwise (others see relative links as text).
    public internal(set) var linkBase: String?
    /// The pictures that came with the document (their sizes) and why the
    /// others are not shown: what its image boxes are made from.
    private(set) var pictures = ImageCatalog.none
    /// The snippet outputs the document shows.
    private(set) var outputs = SnippetShelf.none
    /// The width the document is wrapped to.
    public private(set) var width = 1
    /// The rows of the document on screen.
    public private(set) var viewport = 0

    init(following: Bool, at time: Duration) {
        self.following = following
        indicator = Indicator(startingAt: time)
    }

    public var contentRows: Int { layout?.rowCount ?? 0 }

    public var maximumTop: Int { max(contentRows - viewport, 0) }

    /// The pane's place: NeonCore's numbers for the top row.
    public var position: ReadingPosition? {
        try? ReadingPosition(top: min(top, contentRows), viewport: viewport, content: contentRows)
    }

    /// The rows on screen.
    var visibleRows: Range<Int> { top..<top + viewport }

    func clamp(_ row: Int) -> Int { min(max(row, 0), maximumTop) }

    /// A new size: the document wrapped to `width`, `viewport` rows shown
    /// (no picture's box taller than them), the top and the code shift kept
    /// within them; the same document laid out again keeps the text at its
    /// top (a picture above it may have grown or shrunk).
    mutating func fit(width: Int, viewport: Int) {
        self.width = width
        self.viewport = viewport
        guard let document else { layout = nil; return }
        let images = pictures.fitting(rows: viewport)
        let boxesChanged = layout.map { !$0.imageBoxes.isEmpty && $0.images != images } ?? false
        if layout?.width != width || layout?.document != document || boxesChanged || layout?.outputs != outputs {
            let kept = layout.flatMap { $0.document == document && top > 0 ? $0.anchor(forRow: top) : nil }
            layout = Layout(document: document, width: width, images: images, outputs: outputs)
            layout?.highlights = highlights
            if let kept, let layout { top = layout.row(for: kept) }
        }
        top = clamp(top)
        codeShift = min(codeShift, layout?.codeOverflow ?? 0)
    }

    /// A new terminal size: re-wrapped, the place kept by its anchor.
    mutating func resize(width: Int, viewport: Int) {
        let anchor = layout.map { $0.anchor(forRow: top) }
        fit(width: width, viewport: viewport)
        if let anchor, let layout {
            top = clamp(layout.row(for: anchor))
        }
        animation = nil
    }

    /// Shows `shelf`'s outputs: laid out again, the text at the top kept.
    mutating func show(_ shelf: SnippetShelf) {
        guard shelf != outputs else { return }
        outputs = shelf
        fit(width: width, viewport: viewport)
    }

    /// Shows `document` from its top.
    mutating func show(_ document: Document, as info: DocumentInfo) {
        shownDocument = info
        self.document = document
        pictures = info.pictures
        documentVersion += 1
        highlights = .none
        layout = nil
        highlightWanted = !CodeHighlights.requests(in: document).isEmpty
        fit(width: width, viewport: viewport)
        top = 0
        animation = nil
    }

    /// Shows the next version of the document at `row` (the reader's place
    /// carried onto it): re-laid out, nothing else reset.
    mutating func showVersion(_ document: Document, as info: DocumentInfo, at row: Int) {
        shownDocument = info
        self.document = document
        if info.pictures != pictures {
            pictures = info.pictures
            layout = nil
        }
        fit(width: width, viewport: viewport)
        top = clamp(row)
        animation = nil
    }

    /// The room's document `info` could not be read: nothing to show.
    mutating func showUnreadable(_ info: DocumentInfo) {
        shownDocument = info
        document = nil
        layout = nil
        documentVersion += 1
        highlights = .none
        highlightWanted = false
    }

    /// The command that has the document's code highlighted, once per
    /// document: nil when it was asked for already or there is no code in
    /// a language.
    mutating func highlightRequest() -> ClientCommand? {
        guard highlightWanted, let document else { return nil }
        highlightWanted = false
        return .highlight(document, version: documentVersion)
    }

    /// The runtime highlighted document `version`'s code: laid on the
    /// layout when it is still the document shown. No row changes.
    mutating func highlighted(_ highlights: CodeHighlights, version: Int) {
        guard version == documentVersion else { return }
        self.highlights = highlights
        layout?.highlights = highlights
    }

    /// Puts `row` at the top (as far as the document scrolls), as the
    /// screen's own doing: the indicator does not count it as a scroll.
    mutating func jump(to row: Int) {
        top = clamp(row)
    }

    /// A move by hand (keys, wheel) to `row`, at once.
    mutating func scroll(to row: Int, at time: Duration) {
        animation = nil
        top = clamp(row)
        indicator.scrolled(at: time)
    }

    /// An eased move to `row` (a chosen tab, back to the top).
    mutating func ease(to row: Int, at time: Duration) {
        animation = ScrollAnimation(from: top, to: clamp(row), start: time)
        indicator.scrolled(at: time)
    }

    /// Moves to the presenter's place on this pane's size: their anchor on
    /// the top row, or this pane's own top or bottom when they are at theirs
    /// (`Layout.followedTop`). False without a document.
    mutating func reposition(to anchor: Anchor, atBottom: Bool, at time: Duration) -> Bool {
        guard let layout else { return false }
        animation = nil
        top = clamp(layout.followedTop(anchor: anchor, atBottom: atBottom, viewport: viewport))
        indicator.scrolled(at: time)
        return true
    }

    /// Advances a running animation to `time`; false when none runs.
    mutating func advance(at time: Duration) -> Bool {
        guard let running = animation else { return false }
        top = clamp(running.position(at: time))
        indicator.scrolled(at: time)
        if running.isFinished(at: time) { animation = nil }
        return true
    }

    /// Stops a running animation where it is.
    mutating func stop() {
        animation = nil
    }

    /// Code lines scroll sideways by `columns` (negative: back to the left).
    mutating func shiftCode(by columns: Int) {
        codeShift = min(max(codeShift + columns, 0), layout?.codeOverflow ?? 0)
    }

    mutating func follow(_ on: Bool) {
        following = on
    }

    mutating func inputBegan(at time: Duration) { indicator.inputBegan(at: time) }

    mutating func inputEnded(at time: Duration) { indicator.inputEnded(at: time) }

    /// Draws the document into `area` (its text and the marker gutter on
    /// the right), with `highlights` over it, the other members of
    /// `presence` in the gutter, the room's `questions` over them and its
    /// `pointers` over all.
    func render(in area: Rect, highlights: [DocumentView.Highlight], presence: Presence, pointers: PointerPart,
                questions: QuestionPart, theme: Theme, into buffer: inout Buffer) {
        guard let layout else { return }
        let marks = markers(of: presence, theme: theme).merging(questions.markers(in: layout, theme: theme)) { _, question in question }
            .merging(pointers.markers(in: layout, theme: theme)) { _, pointer in pointer }
        let gutter = DocumentView.Gutter(side: .right, width: 1, markers: marks)
        DocumentView(layout: layout, top: top, highlights: highlights, query: nil, gutter: gutter,
                     codeShift: codeShift, theme: theme, linkBase: linkBase)
            .render(in: area, into: &buffer)
        let text = Rect(x: area.x, y: area.y, width: DocumentView.textWidth(forWidth: area.width, gutter: gutter), height: area.height)
        pointers.render(over: layout, top: top, codeShift: codeShift, in: text, theme: theme, into: &buffer)
    }

    /// Other readers' places as gutter markers: the presenter ▶, others by
    /// their initial; on a row several readers share, the presenter's mark
    /// wins (drawn last). A reader without an anchor on this document is
    /// placed by their percent.
    private func markers(of presence: Presence, theme: Theme) -> [Int: DocumentView.GutterMarker] {
        guard let layout else { return [:] }
        var out: [Int: DocumentView.GutterMarker] = [:]
        let readers = presence.readers
        let presenterLast = readers.filter { $0.role != .presenter } + readers.filter { $0.role == .presenter }
        for reader in presenterLast where reader.id != presence.me && reader.role != .observer {
            let row = reader.anchor.map(layout.row(for:)) ?? reader.percent * maximumTop / 100
            let initial = reader.name.first.flatMap { DisplayWidth.of($0) == 1 ? $0 : nil } ?? "•"
            let symbol: Character = reader.role == .presenter ? (theme.ascii ? ">" : "▶") : Character(initial.uppercased())
            out[row] = DocumentView.GutterMarker(symbol, style: reader.role == .presenter ? theme.strong : theme.accent)
        }
        return out
    }
}
