import NeonCore
import NeonTUI

extension ReaderModel {
    /// Presenting a deck (slide separators, or `--slides`): the document
    /// shows as slides, from the first.
    mutating func startSlidesIfPresenting(_ document: Document) {
        guard mode == .present, slidesAsked || SlideDeck(document).isSeparated else { return }
        slides.start(document)
        let g = geometry
        slides.fit(width: g.page.width, viewport: g.document.height, document: document)
    }

    /// A key while slides show: moves through the deck, or nil when the key
    /// is not a slide key (it does what it does in the document).
    mutating func slideKey(_ key: Key, at time: Duration) -> [ClientCommand]? {
        let document = pane.document
        switch Self.slideKeys.action(for: key) {
        case nil:
            return nil
        case .forward:
            return slideMoved(slides.forward(in: document), at: time)
        case .backward:
            return slideMoved(slides.backward(in: document), at: time)
        case .typeDigit:
            if case let .character(digit) = key { slides.type(digit) }
            return []
        case .goToTyped:
            return goToTypedSlide(at: time)
        case .cancelTyped:
            guard !slides.typed.isEmpty else { return nil }
            slides.clearTyped()
            return []
        case .nextSlide:
            guard slides.slide + 1 < (slides.deck?.slides.count ?? 0) else { return [] }
            slides.go(to: slides.slide + 1, step: 0, in: document)
            return slideMoved(true, at: time)
        case .previousSlide:
            guard slides.slide > 0 else { return [] }
            slides.go(to: slides.slide - 1, step: 0, in: document)
            return slideMoved(true, at: time)
        case .firstSlide:
            slides.go(to: 0, step: 0, in: document)
            return slideMoved(true, at: time)
        case .lastSlide:
            let last = max((slides.deck?.slides.count ?? 1) - 1, 0)
            slides.go(to: last, step: (slides.deck?.slides[last].steps ?? 1) - 1, in: document)
            return slideMoved(true, at: time)
        case .rowDown:
            slides.scroll(to: slides.top + 1)
            return slideMoved(true, at: time)
        case .rowUp:
            slides.scroll(to: slides.top - 1)
            return slideMoved(true, at: time)
        case .halfPageDown:
            slides.scroll(to: slides.top + max(slides.viewport / 2, 1))
            return slideMoved(true, at: time)
        case .halfPageUp:
            slides.scroll(to: slides.top - max(slides.viewport / 2, 1))
            return slideMoved(true, at: time)
        case .slideTop:
            slides.scroll(to: 0)
            return slideMoved(true, at: time)
        }
    }

    /// Enter while slides show: the slide whose number was typed, or the
    /// next step when none was.
    private mutating func goToTypedSlide(at time: Duration) -> [ClientCommand] {
        let document = pane.document
        guard let number = Int(slides.typed) else { return slideMoved(slides.forward(in: document), at: time) }
        let count = slides.deck?.slides.count ?? 0
        guard number >= 1, number <= count else {
            slides.clearTyped()
            notices.note("slide \(number) does not exist; this deck has slides 1–\(count)", error: true, at: time)
            return []
        }
        slides.go(to: number - 1, step: 0, in: document)
        return slideMoved(true, at: time)
    }

    /// The reader moved through the slides by hand: a follower detaches,
    /// the room is told.
    mutating func slideMoved(_ moved: Bool, at time: Duration) -> [ClientCommand] {
        slides.clearTyped()
        guard moved else { return [] }
        var out = detachIfFollowing(at: time)
        pane.indicator.scrolled(at: time)
        out += self.moved(at: time)
        return out
    }

    /// Follows the presenter's slide: the same slide and step, the
    /// presenter's anchor on the top row within it (its top when the
    /// presenter is at the slide's top).
    mutating func followSlide(anchor: Anchor, place: SlidePlace, at time: Duration) -> [ClientCommand] {
        guard let document = pane.document else { return [] }
        if !slides.isOn {
            slides.start(document)
            fitPane()
        }
        guard let deck = slides.deck else { return [] }
        let index = deck.slide(containing: anchor.block)
        if index != slides.slide || place.step != slides.step {
            slides.go(to: index, step: place.step, in: document)
        }
        if let layout = slides.layout {
            slides.scroll(to: anchor == layout.anchor(forRow: 0) ? 0 : layout.row(for: anchor))
        }
        if pointers.leadIsNews { bringLeadPointerIntoView() }
        pane.indicator.scrolled(at: time)
        return moved(at: time)
    }

    /// A reader who is not presenting sees slides while the presenter
    /// shows them (a follower on the presenter's slide, anyone else on the
    /// slide of their own place), and the document once the presenter
    /// stops.
    mutating func matchPresenterSlides(_ place: SlidePlace?) {
        guard mode != .present, let document = pane.document else { return }
        if place != nil, !slides.isOn {
            let own = pane.layout?.anchor(forRow: pane.top) ?? .top
            slides.start(document)
            fitPane()
            if let deck = slides.deck { slides.go(to: deck.slide(containing: own.block), step: 0, in: document) }
        } else if place == nil, slides.isOn {
            slides.stop()
        }
    }

    /// The slide header in place of the tabs: the slide's number and title,
    /// its steps as dots, and the deck's progress as a line.
    func renderSlideHeader(in area: Rect, theme: Theme, into buffer: inout Buffer) {
        guard let place = slides.place, let current = slides.current, area.height > 0 else { return }
        let dots = current.steps > 1
            ? "  " + (0..<current.steps).map { $0 <= place.step ? (theme.ascii ? "*" : "●") : (theme.ascii ? "o" : "○") }.joined(separator: " ")
            : ""
        let label = theme.chrome(" Slide \(place.slide + 1) of \(place.slides) · ") + current.title
        // The dots stand whole after the label, or not at all where they
        // would leave the label fewer than `labelRoom` columns.
        let labelRoom = min(DisplayWidth.of(label), 12)
        let room = area.width - DisplayWidth.of(dots) >= labelRoom ? area.width - DisplayWidth.of(dots) : area.width
        let used = buffer.write(label, x: area.x, y: area.y, style: theme.strong, maxWidth: room, ellipsis: theme.glyphs.ellipsis)
        if room < area.width { buffer.write(dots, x: area.x + used, y: area.y, style: theme.accent, maxWidth: area.width - used) }
        guard area.height > 1 else { return }
        let filled = area.width * (place.slide + 1) / max(place.slides, 1)
        let line = String(repeating: theme.ascii ? "=" : "━", count: filled) + String(repeating: theme.ascii ? "-" : "─", count: area.width - filled)
        buffer.write(line, x: area.x, y: area.y + 1, style: theme.trackLine, maxWidth: area.width)
        buffer.patchStyle(Rect(x: area.x, y: area.y + 1, width: filled, height: 1), with: theme.accent)
    }

    /// The indicator while slides show: the deck's progress, the same on
    /// every terminal whatever the slide's height there (a slide taller
    /// than the screen scrolls within itself without moving it); the
    /// reading bar or, idle, the wheel, as for the document.
    func renderSlideIndicator(in area: Rect, at time: Duration, theme: Theme, into buffer: inout Buffer) {
        guard !area.isEmpty, let place = slides.place else { return }
        guard let model = try? ProgressModel(value: place.progress) else { return }
        if pane.indicator.mode(at: time) == .wheel {
            let size = ProgressStyle.wheel.preferredSize
            let columns = Stack.horizontal([.fill(1), .length(size.width), .length(1)]).split(area)
            ProgressBar(model, style: .wheel, theme: theme).render(in: Stack.vertical([.length(size.height)]).split(columns[1])[0], into: &buffer)
        } else {
            let bar = Stack.horizontal([.fill(1), .length(DocumentPane.barWidth), .fill(1)]).split(area)[1]
            ProgressBar(model, style: .reading, theme: theme).render(in: bar, into: &buffer)
        }
    }

    /// The status line's hints while slides show.
    func slideStatusItems() -> [String] {
        if !slides.typed.isEmpty { return ["go to slide \(slides.typed)▏", "Enter goes", "Esc cancels"] }
        var items = ["→ next", "← back", "N Enter goes to slide N"]
        if isFollowing, let presenter = presence.presenter { items.insert("following \(presence.name(of: presenter))", at: 0) }
        if mode == .present { items += ["p points", "\(NotesPanel.key) notes"] }
        return items + ["? keys"]
    }
}
