import NeonCore
import NeonTUI

extension ReaderModel {
    /// A new terminal size: re-wrap and keep the place by anchor.
    public mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand] {
        let matchShown = search.currentIsShown(on: pane.visibleRows)
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        let g = geometry
        pane.resize(width: g.wrapWidth, viewport: g.document.height)
        slides.fit(width: g.page.width, viewport: g.document.height, document: pane.document)
        search.refresh(in: pane.layout)
        // The match you were on stays on the screen (n goes on from it).
        if matchShown, let current = search.current, search.matches.indices.contains(current) {
            let rows = search.matches[current].rows
            if rows.lowerBound < pane.top || rows.upperBound > pane.top + viewportRows {
                pane.jump(to: rows.lowerBound - viewportRows / 3)
            }
        }
        return moved(at: time)
    }

    /// Shows `info` as the room's document, from the top (as slides when
    /// presenting a deck: see `startSlidesIfPresenting`).
    mutating func show(_ info: DocumentInfo, at time: Duration) {
        let document: Document
        do {
            document = try Document.parse(title: info.title, format: info.format, text: info.text)
        } catch {
            pane.showUnreadable(info)
            notices.note(error.at("the room's document could not be read").description, error: true, at: time)
            return
        }
        pane.show(document, as: info)
        slides.images = pane.pictures
        pane.linkBase = knownVersions.contains(Self.textKey(info.text)) ? localDirectory : nil
        if info.numbersBlocksDifferently {
            notices.note("the server numbers this document's blocks as \(info.parser), this client as \(Document.parserIdentity): following and others' places may land on other text; use a matching neonsync",
                         error: true, at: time)
        }
        tabs.reset(for: document)
        search.refresh(in: pane.layout)
        slides.stop()
        startSlidesIfPresenting(document)
    }

    /// The reader scrolled by `delta` rows (keys, wheel). Detaches a follower.
    public mutating func scroll(by delta: Int, at time: Duration) -> [ClientCommand] {
        scroll(to: pane.top + delta, at: time)
    }

    /// The reader moved to `row` by hand.
    public mutating func scroll(to row: Int, at time: Duration) -> [ClientCommand] {
        guard pane.layout != nil else { return [] }
        var out = detachIfFollowing(at: time)
        pane.scroll(to: row, at: time)
        out += moved(at: time)
        return out
    }

    /// Chooses a tab: an eased jump to the section (as far as the document
    /// scrolls), the tab held as the server holds it (`ScrollSpy`).
    public mutating func chooseTab(_ section: Int, at time: Duration) -> [ClientCommand] {
        guard let layout = pane.layout, layout.document.sections.indices.contains(section) else { return [] }
        var out = detachIfFollowing(at: time)
        pane.ease(to: layout.firstRow(ofSection: section), at: time)
        tabs.choose(section, at: time, holdingUntil: time + Self.tabHold)
        out.append(.send(.tab(section: section)))
        return out
    }

    /// The back-to-top button: an eased scroll to row 0.
    public mutating func backToTop(at time: Duration) -> [ClientCommand] {
        guard pane.layout != nil else { return [] }
        var out = detachIfFollowing(at: time)
        pane.ease(to: 0, at: time)
        out += placeCommands(at: time)
        return out
    }

    /// How long a chosen tab holds here: the server's hold and a little
    /// more, so that the place sent when this hold runs out finds the
    /// server's run out too (both then see the same place without a hold).
    static let tabHold = ScrollSpy.holdDuration + .milliseconds(250)

    /// Advances a running animation (and the draft ring's pulse) to `time`;
    /// a new document's code is sent to be highlighted, once.
    public mutating func tick(at time: Duration) -> [ClientCommand] {
        _ = draft.tick(at: time)
        let highlight = (pane.highlightRequest().map { [$0] } ?? []) + replaceSnippetsDue(at: time)
        guard pane.advance(at: time) else { return highlight + holdRanOut(at: time) + placeCommands(at: time) }
        return highlight + moved(animated: true, at: time)
    }

    /// The document's code came back highlighted.
    public mutating func highlighted(_ highlights: CodeHighlights, version: Int) {
        pane.highlighted(highlights, version: version)
    }

    /// A chosen tab's hold ran out with no scroll since (a hand scroll
    /// during the hold was ignored): the spy looks at the place again, and
    /// the server with it. Nothing changes while the reader stays at the
    /// bottom, where the chosen tab keeps holding.
    private mutating func holdRanOut(at time: Duration) -> [ClientCommand] {
        guard let held = tabs.spy.hold, time >= held.until else { return [] }
        return moved(at: time)
    }

    /// The place changed (or may have): the scroll-spy sees it as the server
    /// will, from the anchor at the top, and the server is told. When the spy
    /// changes at a place already sent (a chosen tab's hold running out), the
    /// place is sent again so that the server's spy sees it too.
    /// `animated`: an animation's frame moved it (see `PlaceOutbox`).
    mutating func moved(animated: Bool = false, at time: Duration) -> [ClientCommand] {
        if let document = pane.document, let place = currentPlace,
           let position = try? ReadingPosition(top: place.top, viewport: place.viewport, content: place.content) {
            if tabs.observe(SpyPlace(document: document, anchor: place.anchor, position: position), at: time) { outbox.forgetSent() }
        }
        return placeCommands(animated: animated, at: time)
    }

    /// Where this reader is, as a `scroll` says it: the document's rows
    /// and the anchor at the top, or, showing slides, the slide's rows, its
    /// top's anchor and the step.
    var currentPlace: SentPlace? {
        if slides.isOn, let layout = slides.layout, let place = slides.place {
            return SentPlace(top: slides.top, content: layout.rowCount, viewport: slides.viewport,
                             anchor: layout.anchor(forRow: slides.top), step: place.step)
        }
        guard let layout = pane.layout else { return nil }
        return SentPlace(top: pane.top, content: layout.rowCount, viewport: viewportRows,
                         anchor: layout.anchor(forRow: pane.top), step: nil)
    }

    /// The `scroll` message for the current place, when it changed and
    /// its turn came (`PlaceOutbox`: a waiting place goes at the tick
    /// its interval ends).
    mutating func placeCommands(animated: Bool = false, at time: Duration) -> [ClientCommand] {
        guard connection == .joined, let current = currentPlace, mode != .join || pane.document != nil,
              let place = outbox.offer(current, animated: animated, at: time) else { return [] }
        return [.send(.scroll(top: place.top, viewport: place.viewport, content: place.content, anchor: place.anchor,
                              step: place.step))]
    }
}
