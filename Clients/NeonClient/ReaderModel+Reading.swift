import NeonCore
import NeonTUI

extension ReaderModel {
    /// A new terminal size: re-wrap and keep the place by anchor.
    public mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand] {
        let anchor = layout.map { $0.anchor(forRow: top) }
        let matchShown = search.current.map { search.matches[$0].rows.overlaps(top..<top + viewportRows) } ?? false
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        relayout()
        if let anchor, let layout {
            top = clampTop(layout.row(for: anchor))
        }
        animation = nil
        refreshSearch()
        // The match you were on stays on the screen (n goes on from it).
        if matchShown, let current = search.current, search.matches.indices.contains(current) {
            let rows = search.matches[current].rows
            if rows.lowerBound < top || rows.upperBound > top + viewportRows {
                top = clampTop(rows.lowerBound - viewportRows / 3)
            }
        }
        return moved(at: time)
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
        if info.numbersBlocksDifferently {
            note("the server numbers this document's blocks as \(info.parser), this client as \(Document.parserIdentity): following and others' places may land on other text; use a matching neonsync",
                 error: true, at: time)
        }
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
        codeShift = min(codeShift, layout?.codeOverflow ?? 0)
    }

    /// Code lines scroll sideways by `columns` (negative: back to the left).
    mutating func shiftCode(by columns: Int) {
        codeShift = min(max(codeShift + columns, 0), layout?.codeOverflow ?? 0)
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
        out += moved(at: time)
        return out
    }

    /// Chooses a tab: an eased jump to the section (as far as the document
    /// scrolls), the tab held as the server holds it (`ScrollSpy`).
    public mutating func chooseTab(_ section: Int, at time: Duration) -> [ClientCommand] {
        guard let layout, layout.document.sections.indices.contains(section) else { return [] }
        var out = detachIfFollowing(at: time)
        animation = ScrollAnimation(from: top, to: clampTop(layout.firstRow(ofSection: section)), start: time)
        spy.select(section, at: time, until: time + Self.tabHold)
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

    /// How long a chosen tab holds here: the server's hold and a little
    /// more, so that the place sent when this hold runs out finds the
    /// server's run out too (both then see the same place without a hold).
    static let tabHold = ScrollSpy.holdDuration + .milliseconds(250)

    /// Advances a running animation (and the draft ring's pulse) to `time`.
    public mutating func tick(at time: Duration) -> [ClientCommand] {
        _ = draft.tick(at: time)
        guard let running = animation else { return holdRanOut(at: time) }
        top = clampTop(running.position(at: time))
        indicator.scrolled(at: time)
        if running.isFinished(at: time) { animation = nil }
        return moved(at: time)
    }

    /// A chosen tab's hold ran out with no scroll since (a hand scroll
    /// during the hold was ignored): the spy looks at the place again, and
    /// the server with it. Nothing changes while the reader stays at the
    /// bottom, where the chosen tab keeps holding.
    private mutating func holdRanOut(at time: Duration) -> [ClientCommand] {
        guard let held = spy.hold, time >= held.until else { return [] }
        return moved(at: time)
    }

    /// The place changed (or may have): the scroll-spy sees it as the server
    /// will, from the anchor at the top, and the server is told. When the spy
    /// changes at a place already sent (a chosen tab's hold running out), the
    /// place is sent again so that the server's spy sees it too.
    mutating func moved(at time: Duration) -> [ClientCommand] {
        if let layout, let position {
            let before = spy
            spy.observe(SpyPlace(document: layout.document, anchor: layout.anchor(forRow: top), position: position), at: time)
            if spy != before { sentPlace = nil }
        }
        return placeCommands()
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
