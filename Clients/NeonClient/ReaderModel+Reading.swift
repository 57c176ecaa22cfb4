import NeonCore
import NeonTUI

extension ReaderModel {
    /// A new terminal size: re-wrap and keep the place by anchor.
    public mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand] {
        let anchor = layout.map { $0.anchor(forRow: top) }
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        relayout()
        if let anchor, let layout {
            top = clampTop(layout.row(for: anchor))
        }
        animation = nil
        refreshSearch()
        return placeCommands()
    }

    /// Shows `info` as the room's document, from the top.
    mutating func show(_ info: DocumentInfo, at time: Duration) {
        shownDocument = info
        do {
            document = try Document.parse(title: info.title, format: info.format, text: info.text)
        } catch {
            document = nil
            layout = nil
            note("the room's document could not be read: \(error.message)", error: true, at: time)
            return
        }
        relayout()
        top = 0
        animation = nil
        spy.reset()
        tabOffset = 0
        tabTitles = document?.sections.map(\.title) ?? []
        tabWidths = TabHeader.titleWidths(tabTitles, maxTitleWidth: Self.maxTabTitleWidth)
        anchors = [:]
        refreshSearch()
    }

    mutating func relayout() {
        guard let document else { layout = nil; return }
        if layout?.width != geometry.wrapWidth || layout?.document != document {
            layout = Layout(document: document, width: geometry.wrapWidth)
        }
        top = clampTop(top)
    }

    func clampTop(_ row: Int) -> Int { min(max(row, 0), maximumTop) }

    /// The reader scrolled by `delta` rows (keys, wheel). Detaches a follower.
    public mutating func scroll(by delta: Int, at time: Duration) -> [ClientCommand] {
        scroll(to: top + delta, at: time)
    }

    /// The reader moved to `row` by hand.
    public mutating func scroll(to row: Int, at time: Duration) -> [ClientCommand] {
        guard layout != nil else { return [] }
        var out = detachIfFollowing(at: time)
        animation = nil
        top = clampTop(row)
        indicator.scrolled(at: time)
        observeSection(at: time)
        out += placeCommands()
        return out
    }

    /// Chooses a tab: an eased jump to the section, the tab held meanwhile.
    public mutating func chooseTab(_ section: Int, at time: Duration) -> [ClientCommand] {
        guard let layout, layout.document.sections.indices.contains(section) else { return [] }
        var out = detachIfFollowing(at: time)
        let jump = ScrollAnimation(from: top, to: clampTop(layout.firstRow(ofSection: section)), start: time)
        animation = jump
        spy.select(section, at: time, until: jump.end)
        indicator.scrolled(at: time)
        out.append(.send(.tab(section: section)))
        return out
    }

    /// The back-to-top button: an eased scroll to row 0.
    public mutating func backToTop(at time: Duration) -> [ClientCommand] {
        guard layout != nil else { return [] }
        var out = detachIfFollowing(at: time)
        animation = ScrollAnimation(from: top, to: 0, start: time)
        indicator.scrolled(at: time)
        out += placeCommands()
        return out
    }

    /// Advances a running animation (and the draft ring's pulse) to `time`.
    public mutating func tick(at time: Duration) -> [ClientCommand] {
        _ = composer.tick(at: time)
        guard let running = animation else { return [] }
        top = clampTop(running.position(at: time))
        indicator.scrolled(at: time)
        if running.isFinished(at: time) { animation = nil }
        observeSection(at: time)
        return placeCommands()
    }

    /// Follow the presenter again (or for the first time) and jump to them.
    public mutating func attach(at time: Duration) -> [ClientCommand] {
        guard mode != .present, !following else { return [] }
        following = true
        note(presenter.map { "Following \(title(of: $0))" } ?? "Following the presenter when one joins", error: false, at: time)
        var out: [ClientCommand] = [.send(.follow(on: true))]
        if let presenter, let anchor = anchors[presenter] {
            out += reposition(to: anchor, at: time)
        }
        return out
    }

    private mutating func detachIfFollowing(at time: Duration) -> [ClientCommand] {
        guard isFollowing else { return [] }
        following = false
        note("detached — f follows again", error: false, at: time)
        return [.send(.follow(on: false))]
    }

    /// Moves to the presenter's anchor (followers, on any terminal size).
    mutating func reposition(to anchor: Anchor, at time: Duration) -> [ClientCommand] {
        guard let layout else { return [] }
        animation = nil
        top = clampTop(layout.row(for: anchor))
        indicator.scrolled(at: time)
        observeSection(at: time)
        return placeCommands()
    }

    mutating func observeSection(at time: Duration) {
        guard let layout else { return }
        spy.observe(sectionAtTop: layout.section(atTop: top), at: time)
    }

    /// The `scroll` message for the current place, when it changed.
    mutating func placeCommands() -> [ClientCommand] {
        guard connection == .joined, let layout, mode != .join || document != nil else { return [] }
        let anchor = layout.anchor(forRow: top)
        let place = (top: top, content: layout.rowCount, viewport: viewportRows, anchor: anchor)
        if let sent = sentPlace, sent.top == place.top, sent.content == place.content,
           sent.viewport == place.viewport, sent.anchor == place.anchor {
            return []
        }
        sentPlace = place
        return [.send(.scroll(top: place.top, viewport: place.viewport, content: place.content, anchor: anchor))]
    }

    mutating func note(_ text: String, error: Bool, at time: Duration) {
        notice = Notice(text: text, isError: error, until: time + .seconds(error ? 8 : 4))
    }
}
