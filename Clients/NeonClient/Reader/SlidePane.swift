import NeonCore
import NeonTUI

/// The reader's slides: the document as a deck (`SlideDeck`), the slide
/// and step on screen, the slide laid out centred in the page (at most
/// `maximumWidth` columns), and how far a slide taller than the screen is
/// scrolled within itself. Off (no deck) the reader shows the document as
/// one scroll.
public struct SlidePane: Sendable {
    public internal(set) var deck: SlideDeck?
    public internal(set) var slide = 0
    public internal(set) var step = 0
    /// The first slide row on screen.
    public internal(set) var top = 0
    /// Digits typed toward a slide number (Enter goes there).
    public internal(set) var typed = ""
    var layout: SlideLayout?
    /// The page's size: the text's width and the rows shown.
    private(set) var pageWidth = 1
    public private(set) var viewport = 0
    /// The document's pictures, which a slide fits in the rows shown.
    var images = ImageCatalog.none
    /// The snippet outputs the slides show.
    var outputs = SnippetShelf.none

    /// The widest a slide is laid out, centred in a wider page.
    static let maximumWidth = 100

    init() {}

    public var isOn: Bool { deck != nil }

    /// The slide shown, when slides are on.
    public var current: SlideDeck.Slide? { deck.map { $0.slides[min(slide, $0.slides.count - 1)] } }

    public var rowCount: Int { layout?.rowCount ?? 0 }

    public var maximumTop: Int { max(rowCount - viewport, 0) }

    /// The slide's place in the deck.
    public var place: SlidePlace? {
        guard let deck, let current else { return nil }
        return SlidePlace(slide: slide, slides: deck.slides.count, step: step, steps: current.steps)
    }

    /// The first block not shown yet (a pause not passed), if any.
    var hidden: Int? { current?.hidden(from: step) }

    /// The group of lines each code block with groups lights at this step.
    var lit: [Int: Int] { current?.litGroups(at: step) ?? [:] }

    /// Shows `document` as slides from `slide`, step `step`.
    mutating func start(_ document: Document, slide: Int = 0, step: Int = 0) {
        let deck = SlideDeck(document)
        self.deck = deck
        go(to: slide, step: step, in: document)
    }

    mutating func stop() {
        deck = nil
        layout = nil
        typed = ""
    }

    /// A new page size: the slide laid out again, its top row's text kept.
    mutating func fit(width: Int, viewport: Int, document: Document?) {
        let anchor = layout.map { $0.anchor(forRow: top) }
        pageWidth = max(width, 1)
        self.viewport = viewport
        layOut(document)
        if let anchor, let layout, top > 0 { top = min(layout.row(for: anchor), maximumTop) }
        top = min(top, maximumTop)
    }

    /// Goes to slide `index` (clamped), revealed to `step` (clamped), at its top.
    mutating func go(to index: Int, step: Int, in document: Document?) {
        guard let deck else { return }
        slide = min(max(index, 0), deck.slides.count - 1)
        self.step = min(max(step, 0), deck.slides[slide].steps - 1)
        top = 0
        typed = ""
        layOut(document)
    }

    /// The next step, or the next slide's first; false at the deck's end.
    mutating func forward(in document: Document?) -> Bool {
        guard let deck, let current else { return false }
        if step + 1 < current.steps {
            step += 1
            return true
        }
        guard slide + 1 < deck.slides.count else { return false }
        go(to: slide + 1, step: 0, in: document)
        return true
    }

    /// The step before, or the slide before, shown whole; false at the start.
    mutating func backward(in document: Document?) -> Bool {
        guard let deck else { return false }
        if step > 0 {
            step -= 1
            return true
        }
        guard slide > 0 else { return false }
        go(to: slide - 1, step: deck.slides[slide - 1].steps - 1, in: document)
        return true
    }

    /// Scrolls within the slide.
    mutating func scroll(to row: Int) {
        top = min(max(row, 0), maximumTop)
    }

    mutating func type(_ digit: Character) {
        if typed.count < 4 { typed.append(digit) }
    }

    mutating func clearTyped() {
        typed = ""
    }

    /// The layout's width: the page less its gutter, at most `maximumWidth`.
    var contentWidth: Int { max(min(pageWidth - 1, Self.maximumWidth), 1) }

    /// Lays the slide out again (a slide is small: every change does).
    private mutating func layOut(_ document: Document?) {
        guard let deck, let document else { layout = nil; return }
        layout = SlideLayout(document: document, deck: deck, slide: slide, width: contentWidth, images: images, height: viewport,
                             outputs: outputs)
    }

    /// Shows `shelf`'s outputs: the slide laid out again, its top kept.
    mutating func show(_ shelf: SnippetShelf, document: Document?) {
        guard shelf != outputs else { return }
        outputs = shelf
        let kept = top
        layOut(document)
        top = min(kept, maximumTop)
    }

    /// A new version of the document: its deck, on the slide holding
    /// `anchor` (carried onto it), the step kept as far as it goes.
    mutating func showVersion(_ document: Document, at anchor: Anchor) {
        let deck = SlideDeck(document)
        self.deck = deck
        let index = deck.slide(containing: anchor.block)
        let keptStep = step
        slide = index
        step = min(keptStep, deck.slides[index].steps - 1)
        layOut(document)
        top = min(layout?.row(for: anchor) ?? 0, maximumTop)
    }

    /// Where the slide is drawn in `page` (the document's rect with its
    /// gutter): centred across, and down when it is shorter than the page.
    func frame(in page: Rect) -> Rect {
        let width = min(contentWidth, max(page.width - 1, 0))
        let height = min(rowCount, page.height)
        let used = min(layout?.usedWidth ?? width, width)
        let x = page.x + max((page.width - 1 - used) / 2, 0)
        let y = page.y + max((page.height - height) / 2, 0)
        return Rect(x: x, y: y, width: used, height: rowCount <= page.height ? height : page.height)
    }

    /// Draws the slide into `page`, the pointers' gutter marks at its right.
    func render(in page: Rect, pointers: PointerPart, theme: Theme, into buffer: inout Buffer) {
        guard let layout, !page.isEmpty else { return }
        let area = frame(in: page)
        layout.render(in: area, top: top, hidden: hidden, lit: lit, pointers: pointers, theme: theme, into: &buffer)
        for pointer in pointers.all.reversed() {
            guard let passage = pointer.passage, let rows = layout.rows(of: passage), rows.lowerBound >= top,
                  rows.lowerBound < top + area.height else { continue }
            let initial = pointer.name.first.flatMap { DisplayWidth.of($0) == 1 ? $0 : nil } ?? "•"
            let symbol = pointer.lead ? (theme.ascii ? "*" : "◆") : String(initial).uppercased()
            buffer.write(symbol, x: page.maxX - 1, y: area.y + rows.lowerBound - top,
                         style: PointerPart.style(of: pointer, theme: theme), maxWidth: 1)
        }
    }

    /// The slide row under the screen cell (x, y) of `page`, nil outside it.
    func row(atScreen x: Int, y: Int, in page: Rect) -> (row: Int, column: Int)? {
        let area = frame(in: page)
        guard area.contains(x: x, y: y) else { return nil }
        return (top + y - area.y, x - area.x)
    }
}
