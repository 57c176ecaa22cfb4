extension RoomState {
    /// The pointers carried onto a new version: each follows its text, and
    /// one whose text is gone is cleared. Everyone is told of each pointer
    /// that moved or went (after the `document`, so it reads on the new
    /// version); a pointer on unchanged text at the same place says nothing.
    mutating func carryPointers(_ map: VersionMap) -> [RoomOutput] {
        var out: [RoomOutput] = []
        var kept: [PointerInfo] = []
        for pointer in pointers {
            guard let anchor = pointer.anchor else { continue }
            guard let passage = map.passage(anchor, length: pointer.length ?? 0) else {
                out.append(broadcast(.pointer(PointerInfo(id: pointer.id, name: pointer.name, lead: pointer.lead)), except: nil))
                continue
            }
            let moved = PointerInfo(id: pointer.id, name: pointer.name, lead: pointer.lead, anchor: passage.anchor,
                                    length: passage.length)
            kept.append(moved)
            if moved != pointer { out.append(broadcast(.pointer(moved), except: nil)) }
        }
        pointers = kept
        return out
    }
}

extension Member {
    /// The member's place carried onto a new version of the document: the
    /// nearest surviving text, its section current (no hold).
    mutating func carryPlace(_ map: VersionMap, deck: SlideDeck?) {
        guard position != nil else { return }
        anchor = map.place(anchor)
        let section = map.new.blocks.indices.contains(anchor.block) ? map.new.blocks[anchor.block].section : 0
        spy = ScrollSpy(current: section, source: .scrolled, hold: nil)
        if let place = slide, let deck {
            let index = deck.slide(containing: anchor.block)
            let steps = deck.slides[index].steps
            slide = SlidePlace(slide: index, slides: deck.slides.count, step: min(place.step, steps - 1), steps: steps)
        }
    }
}
