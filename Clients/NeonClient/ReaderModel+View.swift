import NeonCore
import NeonTUI

extension ReaderModel {
    /// The key of the back-to-top button.
    public static let backToTopKey = "t"
    static let barWidth = 40
    static let maxTabTitleWidth = 24

    /// Where the bottom indicator puts the bar, the back-to-top button or
    /// the wheel.
    public struct IndicatorPlacement: Equatable, Sendable {
        public var bar: Rect?
        /// Boxed beside the bar; a one-row `↑ top [t]` beside the wheel.
        public var button: Rect?
        public var wheel: Rect?
        /// At the bottom the wheel is a back-to-top button too.
        public var wheelGoesToTop = false

        /// Whether a click at (x, y) goes back to the top.
        public func goesToTop(x: Int, y: Int) -> Bool {
            button?.contains(x: x, y: y) == true || (wheelGoesToTop && wheel?.contains(x: x, y: y) == true)
        }
    }

    /// Back-to-top is on offer (button, clickable wheel): at the bottom of a
    /// document taller than the screen.
    public var offersBackToTop: Bool { layout != nil && position?.offersBackToTop == true }

    public func indicatorPlacement(at time: Duration) -> IndicatorPlacement {
        let area = geometry.indicator
        guard layout != nil, !area.isEmpty else { return IndicatorPlacement() }
        let button = BackToTopButton.size(key: Self.backToTopKey)
        if indicator.mode(at: time) == .wheel {
            let size = ProgressStyle.wheel.preferredSize
            let columns = Stack.horizontal([.fill(1), .length(size.width), .length(1)]).split(area)
            let wheel = Stack.vertical([.length(size.height)]).split(columns[1])[0]
            guard offersBackToTop else { return IndicatorPlacement(wheel: wheel) }
            let hintWidth = button.width - 4
            let left = Rect(x: area.x, y: wheel.y, width: wheel.x - area.x, height: wheel.height)
            let beside = Stack.horizontal([.fill(1), .length(hintWidth), .length(1)]).split(left)
            let hint = left.width >= hintWidth + 1 ? beside[1].row(wheel.height / 2) : nil
            return IndicatorPlacement(button: hint, wheel: wheel, wheelGoesToTop: true)
        }
        guard offersBackToTop else {
            let bar = Stack.horizontal([.fill(1), .length(Self.barWidth), .fill(1)]).split(area)[1]
            return IndicatorPlacement(bar: bar)
        }
        let row = Stack.horizontal([.fill(1), .length(button.width), .length(1), .length(Self.barWidth), .fill(1)]).split(area)
        return IndicatorPlacement(bar: row[3], button: row[1])
    }

    /// Draws the whole screen for `time`.
    public func view(at time: Duration, theme: Theme) -> Buffer {
        var buffer = Buffer(width: columns, height: rows, style: theme.background)
        let g = geometry
        drawTitle(into: &buffer, at: time, theme: theme)
        if let layout {
            TabHeader(titles: tabTitles, current: currentSection, offset: tabOffset, maxTitleWidth: Self.maxTabTitleWidth,
                      currentTitleOffset: currentTabSwing(at: time), widths: tabFields, theme: theme)
                .render(in: g.tabs, into: &buffer)
            if g.isBordered { BorderBox(theme: theme).render(in: g.box, into: &buffer) }
            DocumentView(layout: layout, top: top, highlights: searchHighlights(), query: nil,
                         gutter: DocumentView.Gutter(side: .right, width: 1, markers: markers(theme: theme)),
                         codeShift: codeShift, theme: theme)
                .render(in: g.page, into: &buffer)
            drawIndicator(into: &buffer, at: time, theme: theme)
        } else {
            if g.isBordered { BorderBox(theme: theme).render(in: g.box, into: &buffer) }
            let inner = g.isBordered ? BorderBox.inner(of: g.box) : g.box
            let waiting = ProgressModel(indeterminateLabel: waitingLabel)
            ProgressBar(waiting, style: .spinner, frame: SpinnerClock(frameCount: Spinner.frameCount(for: theme)).frame(at: time), theme: theme)
                .render(in: inner.centered(width: min(inner.width, DisplayWidth.of(waitingLabel) + 4), height: 1), into: &buffer)
        }
        if g.showsPresence {
            BorderBox(title: headcount.title, theme: theme).render(in: g.presence, into: &buffer)
            let entries = readers.readersFirst().map { PresenceList.Entry($0, isSelf: $0.id == me) }
            PresenceList(entries: entries, time: time, theme: theme).render(in: BorderBox.inner(of: g.presence), into: &buffer)
        }
        if showDraft {
            draft.renderEditor(into: &buffer, at: time, theme: theme, focused: draftFocused)
        }
        statusLine(at: time, theme: theme).render(in: g.status, into: &buffer)
        if showHelp {
            helpOverlay(theme: theme).render(in: Rect(width: columns, height: rows), into: &buffer)
        }
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
        let fields = titleFields
        let title = layout?.document.title ?? "NeonSync"
        let offset = SwingTextView.motion(text: title, fieldWidth: fields.title.width).offset(at: time)
        SwingTextView(text: title, offset: offset, style: theme.strong).render(in: fields.title, into: &buffer)
        buffer.write(titleRight, x: fields.right.x, y: fields.right.y, style: theme.muted, maxWidth: fields.right.width,
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

    private func drawIndicator(into buffer: inout Buffer, at time: Duration, theme: Theme) {
        let place = indicatorPlacement(at: time)
        let progress = position?.progress ?? 0
        guard let model = try? ProgressModel(value: progress) else { return }
        if let wheel = place.wheel {
            ProgressBar(model, style: .wheel, theme: theme).render(in: wheel, into: &buffer)
        }
        if let bar = place.bar {
            ProgressBar(model, style: .reading, theme: theme).render(in: bar, into: &buffer)
        }
        if let button = place.button {
            BackToTopButton(key: Self.backToTopKey, theme: theme).render(in: button, into: &buffer)
        }
    }

    /// Other readers' places as gutter markers: the presenter ▶, others by
    /// their initial; on a row several readers share, the presenter's mark
    /// wins (drawn last).
    private func markers(theme: Theme) -> [Int: DocumentView.GutterMarker] {
        guard let layout else { return [:] }
        var out: [Int: DocumentView.GutterMarker] = [:]
        let presenterLast = readers.filter { $0.role != .presenter } + readers.filter { $0.role == .presenter }
        for reader in presenterLast where reader.id != me && reader.role != .observer {
            let row: Int
            if let anchor = anchors[reader.id] {
                row = layout.row(for: anchor)
            } else {
                row = reader.percent * maximumTop / 100
            }
            let initial = reader.name.first.flatMap { DisplayWidth.of($0) == 1 ? $0 : nil } ?? "•"
            let symbol: Character = reader.role == .presenter ? "▶" : Character(initial.uppercased())
            out[row] = DocumentView.GutterMarker(symbol, style: reader.role == .presenter ? theme.strong : theme.accent)
        }
        return out
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
        let folded = geometry.foldsIndicator && layout != nil && connection == .joined ? position?.progress : nil
        if search.editing {
            return StatusLine(message: "/" + search.query + "▏", right: right, progress: folded, theme: theme)
        }
        if !draftFocused, let notice, notice.until > time {
            return StatusLine(message: notice.text, right: right, progress: folded, theme: theme)
        }
        return StatusLine(items: statusItems(at: time), right: right, progress: folded, theme: theme)
    }

    /// The status line's hints, most important first: the status line drops
    /// the last ones when they do not fit.
    func statusItems(at time: Duration) -> [String] {
        if draftFocused { return ["draft", "Esc back to the document", "F1 keys", "Ctrl-Z undo"] }
        var items: [String]
        if mode == .present {
            items = ["presenting", "your scroll and tabs lead", "? keys"]
        } else if isFollowing {
            items = presenter.map { ["following \(title(of: $0))", "scroll to detach", "? keys"] }
                ?? ["following", "waiting for a presenter", "? keys"]
        } else if mode == .follow {
            items = ["detached", "f follows again", "? keys"]
        } else {
            items = ["? keys", "j/k scroll", "Tab sections", "/ search", "q quit"]
        }
        if geometry.foldsIndicator, top > 0, position?.atBottom == true {
            items.insert("\(Self.backToTopKey) back to top", at: 0)
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
        case .closed: return ["r: now", "offline, reconnecting"]
        case .joined:
            let here = headcount.here
            guard let p = position else { return [here] }
            let row = "row \(top + 1)/\(max(contentRows, 1))"
            return columns < 70 ? [here, "\(p.percent)%"] : [row, here, "\(p.percent)%"]
        }
    }

    public static let helpLines: [HelpOverlay.Line] = [
        .init(key: "j k ↓ ↑", action: "scroll a row"),
        .init(key: "space b PgDn PgUp", action: "scroll a page"),
        .init(key: "d u", action: "half a page"),
        .init(key: "g G Home End", action: "top / bottom"),
        .init(key: "t", action: "back to top (eased)"),
        .init(key: "Tab S-Tab 1–9", action: "choose a section"),
        .init(key: "← → h l", action: "scroll wide code sideways"),
        .init(key: "/ n N", action: "search, next, previous"),
        .init(key: "f", action: "follow the presenter"),
        .init(key: "e E", action: "edit the room's draft / close it"),
        .init(key: "r", action: "reconnect"),
        .init(key: "mouse", action: "wheel scrolls, click tabs and ↑ top"),
        .init(key: "? Esc", action: "this help / close"),
        .init(key: "q", action: "quit"),
    ]
}
