import Testing
@testable import NeonCore

/// A place at the very bottom of a document of sections 0…3 whose top row
/// is in `section`.
private func bottom(_ section: Int) -> SpyPlace {
    SpyPlace(sectionAtTop: section, lastSection: 3, atBottom: true, scrolls: true)
}

private func middle(_ section: Int) -> SpyPlace {
    SpyPlace(sectionAtTop: section, lastSection: 3, atBottom: false, scrolls: true)
}

@Suite("Scroll-spy at the bottom and chosen tabs that cannot reach the top")
struct ScrollSpyBottomTests {
    @Test("at the very bottom the last section wins over the one at the top")
    func lastSectionWins() {
        var spy = ScrollSpy()
        do { let changed = spy.observe(middle(2), at: .seconds(1)); #expect(changed) }
        do { let changed = spy.observe(bottom(2), at: .seconds(2)); #expect(changed) }
        #expect(spy.current == 3 && spy.source == .scrolled)
        do { let changed = spy.observe(middle(2), at: .seconds(3)); #expect(changed) }
        #expect(spy.current == 2)
    }

    @Test("a document that fits is at its top and bottom at once: the section at the top wins")
    func fitsKeepsTop() {
        var spy = ScrollSpy()
        do { let changed = spy.observe(SpyPlace(sectionAtTop: 0, lastSection: 3, atBottom: true, scrolls: false), at: .seconds(1)); #expect(!changed) }
        #expect(spy.current == 0)
    }

    @Test("a chosen short last section stays chosen after its hold while the reader stays at the bottom")
    func lastSectionStaysChosen() {
        var spy = ScrollSpy()
        spy.select(3, at: .seconds(10), until: .seconds(12))
        do { let changed = spy.observe(middle(1), at: .milliseconds(10_500)); #expect(!changed) }
        do { let changed = spy.observe(bottom(2), at: .milliseconds(11_500)); #expect(!changed) }
        do { let changed = spy.observe(bottom(2), at: .seconds(30)); #expect(!changed) }
        #expect(spy.current == 3 && spy.source == .selected)
        do { let changed = spy.observe(middle(2), at: .seconds(31)); #expect(changed) }
        #expect(spy.current == 2 && spy.source == .scrolled && spy.hold == nil)
    }

    @Test("a chosen short section above the last stays chosen at the bottom, then the spy takes over off it")
    func earlierShortSectionStaysChosen() {
        var spy = ScrollSpy()
        spy.select(2, at: .seconds(10), until: .seconds(12))
        do { let changed = spy.observe(bottom(1), at: .seconds(11)); #expect(!changed) }
        do { let changed = spy.observe(bottom(1), at: .seconds(20)); #expect(!changed) }
        #expect(spy.current == 2 && spy.source == .selected)
        do { let changed = spy.observe(middle(1), at: .seconds(21)); #expect(changed) }
        #expect(spy.current == 1)
        do { let changed = spy.observe(bottom(1), at: .seconds(22)); #expect(changed) }
        #expect(spy.current == 3, "back at the bottom by hand, the last section wins")
    }

    @Test("a chosen section that reaches the top exactly at the bottom does not give way to the last one")
    func reachedAtBottom() {
        var spy = ScrollSpy()
        spy.select(2, at: .seconds(10), until: .seconds(12))
        do { let changed = spy.observe(bottom(2), at: .seconds(11)); #expect(!changed) }
        do { let changed = spy.observe(bottom(2), at: .seconds(40)); #expect(!changed) }
        #expect(spy.current == 2)
    }

    @Test("a chosen section reached in the middle releases the hold; later scrolls follow the top")
    func reachedInMiddle() {
        var spy = ScrollSpy()
        spy.select(1, at: .seconds(10), until: .seconds(12))
        do { let changed = spy.observe(middle(1), at: .seconds(11)); #expect(!changed) }
        #expect(spy.hold == nil)
        do { let changed = spy.observe(middle(2), at: .milliseconds(11_100)); #expect(changed) }
    }

    @Test("a hand scroll to the bottom past a chosen earlier section does not pin it there")
    func earlierSectionNotPinned() {
        var spy = ScrollSpy()
        spy.select(0, at: .seconds(10), until: .seconds(12))
        do { let changed = spy.observe(bottom(2), at: .milliseconds(10_500)); #expect(!changed) }
        do { let changed = spy.observe(bottom(2), at: .seconds(13)); #expect(changed) }
        #expect(spy.current == 3)
    }

    @Test("the place comes from the anchor's block, the document's last block and the position")
    func placeFromDocument() throws {
        let document = try Document.parse(title: "T", format: .markdown, text: "# A\na\n\n# B\nb\n\n# C\nc")
        let position = try ReadingPosition(top: 10, viewport: 5, content: 15)
        let place = SpyPlace(document: document, anchor: Anchor(block: 3, offset: 0), position: position)
        #expect(place == SpyPlace(sectionAtTop: 1, lastSection: 2, atBottom: true, scrolls: true))
        #expect(place.section == 2)
        let outside = SpyPlace(document: document, anchor: Anchor(block: 99, offset: 0),
                               position: try ReadingPosition(top: 0, viewport: 20, content: 15))
        #expect(outside == SpyPlace(sectionAtTop: 0, lastSection: 2, atBottom: true, scrolls: false))
        #expect(outside.section == 0)
    }
}

@Suite("Following another terminal's place")
struct FollowedTopTests {
    static let markdown = (1...6).map { "# S\($0)\n" + String(repeating: "words in a paragraph ", count: 12) }.joined(separator: "\n\n")

    @Test("the leader at the top puts the follower at its top, at the bottom at its bottom, between by anchor",
          arguments: [(20, 10), (60, 30), (90, 4)])
    func followedTop(width: Int, viewport: Int) throws {
        let layout = try Layout(document: Document.parse(title: "T", format: .markdown, text: Self.markdown), width: width)
        let maximumTop = max(layout.rowCount - viewport, 0)
        #expect(layout.followedTop(anchor: .top, atBottom: false, viewport: viewport) == 0)
        #expect(layout.followedTop(anchor: .top, atBottom: true, viewport: viewport) == 0, "a leader whose document fits is at its top")
        #expect(layout.followedTop(anchor: Anchor(block: 9, offset: 3), atBottom: true, viewport: viewport) == maximumTop)
        let middle = Anchor(block: 4, offset: 0)
        #expect(layout.followedTop(anchor: middle, atBottom: false, viewport: viewport) == min(layout.row(for: middle), maximumTop))
        #expect(layout.followedTop(anchor: Anchor(block: 11, offset: 0), atBottom: false, viewport: viewport)
                == min(layout.row(for: Anchor(block: 11, offset: 0)), maximumTop))
    }
}

@Suite("Room reducer: the section at the bottom")
struct RoomSpyBottomTests {
    /// The server's current section for `id` after a scroll at `time`, and
    /// the tab broadcasts it made.
    private func scroll(_ r: inout RoomState, _ id: ClientID, top: Int, anchorBlock: Int,
                        at time: Duration) -> (section: Int?, tabs: [TabInfo]) {
        let out = r.apply(.scrolled(id, top: top, viewport: 4, content: 14, anchor: Anchor(block: anchorBlock, offset: 0)), at: time)
        let tabs = out.broadcasts.compactMap { if case let .tab(t) = $0.payload { t } else { nil } }
        guard case let .progress(p) = out.broadcasts.first?.payload else { return (nil, tabs) }
        return (p.section, tabs)
    }

    @Test("a scroll to the very bottom reports the last section, with a scrolled tab change")
    func bottomReportsLast() {
        var r = room()
        let sectionOneBlock = r.parsed!.sections[1].firstBlock
        let result = scroll(&r, ada, top: 10, anchorBlock: sectionOneBlock, at: .seconds(1))
        #expect(result.section == 2)
        #expect(result.tabs == [TabInfo(id: ada, section: 2, source: .scrolled)])
    }

    @Test("the presenter's chosen short last section stays in every progress after the hold, until they leave the bottom")
    func codaStaysChosen() {
        var r = room(with: [(ada, "ada", .presenter), (bob, "bob", .reader)])
        let one = r.parsed!.sections[1].firstBlock
        _ = r.apply(.tabSelected(ada, section: 2), at: .seconds(10))
        #expect(scroll(&r, ada, top: 6, anchorBlock: one, at: .milliseconds(10_500)).section == 2)
        #expect(scroll(&r, ada, top: 10, anchorBlock: one, at: .milliseconds(11_500)).section == 2)
        let late = r.apply(.scrolled(ada, top: 10, viewport: 4, content: 14, anchor: Anchor(block: one, offset: 0)), at: .seconds(20))
        guard case let .progress(p) = late.broadcasts.first?.payload else { Issue.record("no progress"); return }
        #expect(p.section == 2 && late.broadcasts.count == 1)
        #expect(r.members[ada]?.info.section == 2)
        let off = scroll(&r, ada, top: 9, anchorBlock: one, at: .seconds(21))
        #expect(off.section == 1 && off.tabs == [TabInfo(id: ada, section: 1, source: .scrolled)])
    }

    @Test("a chosen short section above the last stays chosen at the bottom after the hold")
    func shortSectionStaysChosen() {
        var r = room()
        let zero = r.parsed!.sections[0].firstBlock
        _ = r.apply(.tabSelected(bob, section: 1), at: .seconds(10))
        #expect(scroll(&r, bob, top: 10, anchorBlock: zero, at: .seconds(11)).section == 1)
        let later = scroll(&r, bob, top: 10, anchorBlock: zero, at: .seconds(30))
        #expect(later.section == 1 && later.tabs.isEmpty)
    }
}
