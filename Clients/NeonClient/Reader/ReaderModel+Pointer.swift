import NeonCore

extension ReaderModel {
    /// `p`: points at the current search match when it is on screen, else
    /// at the passage at the top of the screen (its paragraph, or its table
    /// row or code line).
    public mutating func pointAtTop(at time: Duration) -> [ClientCommand] {
        guard let passage = passageAtTop() else { return [] }
        return point(passage.anchor, length: passage.length, at: time)
    }

    /// Points at the passage on layout row `row` (a click on it).
    public mutating func point(atRow row: Int, at time: Duration) -> [ClientCommand] {
        guard let layout = pane.layout,
              let passage = PointerPart.passage(at: layout.anchor(forRow: row), in: layout.document) else { return [] }
        return point(passage.anchor, length: passage.length, at: time)
    }

    mutating func point(_ anchor: Anchor, length: Int, at time: Duration) -> [ClientCommand] {
        guard connection == .joined else {
            notices.note("not in the room yet: a pointer is for everyone in it", error: true, at: time)
            return []
        }
        return [.send(.point(anchor: anchor, length: length))]
    }

    /// This terminal's own pointer: the presenter's is the lead pointer.
    var myPointer: PointerInfo? {
        mode == .present ? pointers.lead : pointers.all.first { !$0.lead && $0.id == presence.me }
    }

    /// `P`: clears this terminal's pointer.
    public mutating func clearPointer(at time: Duration) -> [ClientCommand] {
        guard myPointer != nil, connection == .joined else {
            notices.note("you point at nothing; p points at the passage at the top", error: false, at: time)
            return []
        }
        return [.send(.unpoint)]
    }

    /// `'`: goes to the presenter's pointer (or the only pointer there is),
    /// a third of the screen down. A follower is detached by it.
    public mutating func goToPointer(at time: Duration) -> [ClientCommand] {
        if slides.isOn, let pointer = pointers.lead ?? pointers.all.first, let passage = pointer.passage, let deck = slides.deck {
            var out = detachIfFollowing(at: time)
            let index = deck.slide(containing: passage.block)
            if index != slides.slide { slides.go(to: index, step: deck.slides[index].steps - 1, in: pane.document) }
            if let rows = slides.layout?.rows(of: passage) { slides.scroll(to: rows.lowerBound - slides.viewport / 3) }
            out += moved(at: time)
            return out
        }
        guard let layout = pane.layout, let pointer = pointers.lead ?? pointers.all.first,
              let passage = pointer.passage, let rows = layout.rows(of: passage) else {
            notices.note("nobody points at anything", error: false, at: time)
            return []
        }
        if rows.lowerBound >= pane.top && rows.upperBound <= pane.top + viewportRows { return [] }
        return scroll(to: rows.lowerBound - viewportRows / 3, at: time)
    }

    /// A pointer was set, moved or cleared: a follower is brought to the
    /// presenter's; anyone who does not see it on screen is told whose it
    /// is and how to get there. Nobody's screen moves for a reader's pointer.
    mutating func pointerReceived(_ pointer: PointerInfo, at time: Duration) -> [ClientCommand] {
        pointers.received(pointer)
        guard pointer.isSet, pointer.id != presence.me, let layout = pane.layout,
              let passage = pointer.passage, let rows = layout.rows(of: passage) else { return [] }
        if pointer.lead, isFollowing {
            bringLeadPointerIntoView()
            return moved(at: time)
        }
        let onScreen: Bool
        if slides.isOn {
            let slideRows = slides.layout?.rows(of: passage)
            onScreen = slideRows.map { $0.lowerBound >= slides.top && $0.upperBound <= slides.top + slides.viewport } ?? false
        } else {
            onScreen = rows.lowerBound >= pane.top && rows.upperBound <= pane.top + viewportRows
        }
        if !onScreen {
            let jump = pointer.lead ? " — ' goes there" : ""
            notices.note("\(pointer.name) points at “\(Self.excerpt(of: passage, in: layout.document))”\(jump)", error: false, at: time)
        }
        return []
    }

    /// Scrolls as little as it takes to show the presenter's pointer whole
    /// (its start, when it is taller than the screen).
    mutating func bringLeadPointerIntoView() {
        if slides.isOn {
            guard let passage = pointers.lead?.passage, let rows = slides.layout?.rows(of: passage) else { return }
            let viewport = slides.viewport
            if rows.lowerBound >= slides.top && rows.upperBound <= slides.top + viewport { return }
            slides.scroll(to: rows.lowerBound < slides.top || rows.count >= viewport ? rows.lowerBound : rows.upperBound - viewport)
            return
        }
        guard let layout = pane.layout, let passage = pointers.lead?.passage, let rows = layout.rows(of: passage) else { return }
        let viewport = viewportRows
        if rows.lowerBound >= pane.top && rows.upperBound <= pane.top + viewport { return }
        let target = rows.lowerBound < pane.top || rows.count >= viewport ? rows.lowerBound : rows.upperBound - viewport
        pane.jump(to: target)
    }

    /// The first words of a passage, for a notice.
    static func excerpt(of passage: DocumentMatch, in document: Document) -> String {
        guard document.blocks.indices.contains(passage.block) else { return "" }
        let text = document.blocks[passage.block].text
        let characters = Array(text)
        let lower = min(max(passage.characters.lowerBound, 0), characters.count)
        let upper = min(max(passage.characters.upperBound, lower), characters.count)
        let words = String(characters[lower..<upper]).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        return words.count > 6 ? words.prefix(6).joined(separator: " ") + "…" : words.joined(separator: " ")
    }
}
