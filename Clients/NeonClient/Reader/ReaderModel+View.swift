import NeonCore
import NeonTUI

extension ReaderModel {
    /// Where the bottom indicator puts the bar, the button and the wheel.
    public func indicatorPlacement(at time: Duration) -> DocumentPane.IndicatorPlacement {
        pane.indicatorPlacement(in: geometry.indicator, at: time)
    }

    /// The pictures that came with the document shown.
    public var pictures: [DocumentImage] { pane.shownDocument?.images ?? [] }

    /// Draws the whole screen for `time`.
    public func view(at time: Duration, theme: Theme) -> Buffer {
        var buffer = Buffer(width: columns, height: rows, style: theme.background)
        let g = geometry
        buffer.clipped(to: g.title) { drawTitle(into: &$0, at: time, theme: theme) }
        if pane.layout != nil, slides.isOn {
            buffer.clipped(to: g.tabs) { renderSlideHeader(in: g.tabs, theme: theme, into: &$0) }
            if g.isBordered { BorderBox(theme: theme).render(in: g.box, into: &buffer) }
            buffer.clipped(to: g.page) { slides.render(in: g.page, pointers: pointers, theme: theme, into: &$0) }
            buffer.clipped(to: g.page) { questions.renderMarks(on: slides, pointers: pointers, in: g.page, theme: theme, into: &$0) }
            buffer.clipped(to: g.indicator) { renderSlideIndicator(in: g.indicator, at: time, theme: theme, into: &$0) }
        } else if pane.layout != nil {
            tabs.render(in: g.tabs, current: currentSection, at: time, theme: theme, into: &buffer)
            if g.isBordered { BorderBox(theme: theme).render(in: g.box, into: &buffer) }
            buffer.clipped(to: g.page) {
                pane.render(in: g.page, highlights: search.highlights(in: pane.layout, rows: pane.visibleRows),
                            presence: presence, pointers: pointers, questions: questions, theme: theme, into: &$0)
            }
            buffer.clipped(to: g.indicator) { pane.renderIndicator(in: g.indicator, at: time, theme: theme, into: &$0) }
        } else {
            if g.isBordered { BorderBox(theme: theme).render(in: g.box, into: &buffer) }
            let inner = g.isBordered ? BorderBox.inner(of: g.box) : g.box
            let waiting = ProgressModel(indeterminateLabel: waitingLabel)
            ProgressBar(waiting, style: .spinner, frame: SpinnerClock(frameCount: Spinner.frameCount(for: theme)).frame(at: time), theme: theme)
                .render(in: inner.centered(width: min(inner.width, DisplayWidth.of(waitingLabel) + 4), height: 1), into: &buffer)
        }
        if g.showsPresence {
            presence.renderPanel(in: g.presence, at: time, theme: theme, into: &buffer)
        }
        if g.showsNotes {
            notes.render(in: g.notes, passage: notesPassage, theme: theme, into: &buffer)
        }
        if draftPanel.isOpen {
            buffer.clipped(to: g.draft) { draft.renderEditor(into: &$0, at: time, theme: theme, focused: draftPanel == .focused) }
        }
        if questions.isListOpen { questions.renderList(in: g.box, theme: theme, into: &buffer) }
        statusLine(at: time, theme: theme).render(in: g.status, into: &buffer)
        keyList.render(helpOverlay(theme: theme), into: &buffer)
        return buffer
    }

    private var waitingLabel: String {
        switch connection {
        case .connecting: "connecting to the room…"
        case .joined: "waiting for a document in \(room)…"
        case let .closed(reason): "disconnected: \(reason)"
        }
    }

    /// The title row: the document's title on the left, swinging when it is
    /// wider than its field, and ` room · name ` on the right (at most half
    /// the row).
    private func drawTitle(into buffer: inout Buffer, at time: Duration, theme: Theme) {
        guard !geometry.title.isEmpty else { return }
        let fields = titleFields
        let title = pane.layout?.document.title ?? "NeonSync"
        let motion = SwingTextView.motion(text: title, fieldWidth: fields.title.width)
        if motion.isCut {
            buffer.write(title, x: fields.title.x, y: fields.title.y, style: theme.strong, maxWidth: fields.title.width,
                         ellipsis: theme.glyphs.ellipsis)
        } else {
            SwingTextView(text: title, offset: motion.offset(at: time), style: theme.strong).render(in: fields.title, into: &buffer)
        }
        buffer.write(theme.chrome(titleRight), x: fields.right.x, y: fields.right.y, style: theme.muted, maxWidth: fields.right.width,
                     ellipsis: theme.glyphs.ellipsis)
    }

    /// The right of the title row: where the reader is.
    var titleRight: String { " \(room) · \(name) " }

    /// The title row's two fields, a column apart.
    var titleFields: (title: Rect, right: Rect) {
        let g = geometry
        let right = min(DisplayWidth.of(titleRight), g.columns / 2)
        let fields = Stack.horizontal([.fill(1), .length(1), .length(right)]).split(g.title)
        return (fields[0], fields[2])
    }

    /// The status line: the search being typed or a notice, else hints;
    /// the place on the right, with the reading bar folded in on a short
    /// terminal.
    func statusLine(at time: Duration, theme: Theme) -> StatusLine {
        var line = statusContent(at: time, theme: theme)
        line.rightReserve = DisplayWidth.of(widest(line.right).joined(separator: StatusLine.separator))
        return line
    }

    private func statusContent(at time: Duration, theme: Theme) -> StatusLine {
        let right = statusRight(at: time)
        let folded = geometry.foldsIndicator && pane.layout != nil && connection == .joined ? position?.progress : nil
        if search.editing {
            return StatusLine(message: "/" + search.query + "▏", right: right, progress: folded, theme: theme)
        }
        if let prompt = questions.prompt, let status = questionStatus {
            let count = "\(status.count)/\(status.limit) " + DraftRing.text(for: status, theme: theme)
            // A notice (why Enter sent nothing, who joined) shows first
            // while it lasts.
            let notice = notices.text(at: time).map { $0 + "  " } ?? ""
            return StatusLine(message: notice + "ask: " + prompt.text + "▏", right: [count], theme: theme)
        }
        if draftPanel != .focused, let notice = notices.text(at: time) {
            return StatusLine(message: notice, right: right, progress: folded, theme: theme)
        }
        return StatusLine(items: statusItems(at: time), right: right, progress: folded, theme: theme)
    }

    /// The status line's hints, most important first: the status line drops
    /// the last ones when they do not fit.
    func statusItems(at time: Duration) -> [String] {
        if draftPanel == .focused { return ["draft", "Esc back to the document", "F1 keys", "Ctrl-Z undo"] }
        if slides.isOn, pane.layout != nil { return slideStatusItems() }
        var items: [String]
        if mode == .present {
            items = ["presenting", "your scroll and tabs lead", "p points", "\(NotesPanel.key) notes", "? keys"]
        } else if isFollowing {
            items = presence.presenter.map { ["following \(presence.name(of: $0))", "scroll to detach", "? keys"] }
                ?? ["following", "waiting for a presenter", "? keys"]
        } else if mode == .follow {
            items = ["detached", "f follows again", "? keys"]
        } else {
            items = ["? keys", "j/k scroll", "Tab sections", "/ search", "q quit"]
        }
        if geometry.foldsIndicator, pane.top > 0, position?.atBottom == true {
            items.insert("\(DocumentPane.backToTopKey) back to top", at: 0)
        }
        return items
    }

    /// The items of `statusRight` at their widest for this document: the
    /// row counter at the last row, the percent at 100%.
    private func widest(_ items: [String]) -> [String] {
        let rows = max(contentRows, 1)
        return items.map { item in
            if item.hasPrefix("row ") { return "row \(rows)/\(rows)" }
            if item.hasSuffix("%"), item.dropLast().allSatisfy(\.isNumber) { return "100%" }
            return item
        }
    }

    /// The place and the connection, most important last.
    func statusRight(at time: Duration) -> [String] {
        switch connection {
        case .connecting:
            let frame = SpinnerClock(frameCount: 10).frame(at: time)
            return ["connecting \(Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")[frame])"]
        case .closed: return ["r retries now", "offline, reconnecting"]
        case .joined:
            let here = headcount.here
            if let place = slides.place, pane.layout != nil {
                let step = place.steps > 1 ? ["step \(place.step + 1)/\(place.steps)"] : []
                return step + ["slide \(place.slide + 1)/\(place.slides)", here]
            }
            guard let p = position else { return [here] }
            let row = "row \(pane.top + 1)/\(max(contentRows, 1))"
            return columns < 70 ? [here, "\(p.percent)%"] : [row, here, "\(p.percent)%"]
        }
    }
}
