import Foundation
import NeonTestSupport
import Testing
@testable import NeonCore

/// A presenter who closes its terminal, or crashes, and presents again
/// under the same name starts where it left; its followers do not move.
@Suite("Room reducer: a presenter who comes back")
struct PresenterPlaceTests {
    let pat = ClientID("c1"), fay = ClientID("c2"), pat2 = ClientID("c3"), bob = ClientID("c4")

    /// pat presents the deck to fay, who follows, and goes to slide 2, step 3.
    func presented() -> RoomState {
        var r = RoomState(name: "deck")
        _ = r.apply(.joined(pat, name: "pat", role: .presenter), at: .zero)
        _ = r.apply(.joined(fay, name: "fay", role: .reader), at: .zero)
        _ = r.apply(.followChanged(fay, on: true), at: .zero)
        _ = r.apply(.documentPublished(pat, DocumentInfo(title: "deck.md", format: .markdown, text: PresenterPlaceDeck.text)), at: .zero)
        _ = r.apply(.scrolled(pat, top: 0, viewport: 20, content: 9, anchor: Anchor(block: 3, offset: 0), step: 2), at: .zero)
        return r
    }

    func persisted(_ out: [RoomOutput]) -> [PresenterPlace?] {
        out.compactMap { if case let .persist(.presenterPlaced(_, place)) = $0 { place } else { nil } }
    }

    @Test("the presenter's every move is kept, without holding its progress back; a reader's is not")
    func kept() throws {
        var r = presented()
        let place = try #require(r.presenterPlace)
        #expect(place == PresenterPlace(name: "pat", verified: false, position: try ReadingPosition(top: 0, viewport: 20, content: 9),
                                        anchor: Anchor(block: 3, offset: 0), step: 2))
        let out = r.apply(.scrolled(pat, top: 0, viewport: 20, content: 9, anchor: Anchor(block: 10, offset: 0), step: 0), at: .zero)
        #expect(persisted(out) == [r.presenterPlace])
        #expect(r.presenterPlace?.anchor == Anchor(block: 10, offset: 0) && r.presenterPlace?.step == 0)
        #expect(out.contains { if case let .persist(record) = $0 { !record.holdsDeliveries } else { false } })
        let same = r.apply(.scrolled(pat, top: 0, viewport: 20, content: 9, anchor: Anchor(block: 10, offset: 0), step: 0), at: .zero)
        #expect(persisted(same).isEmpty, "the same place again is not written again")
        _ = r.apply(.followChanged(fay, on: false), at: .zero)
        let reader = r.apply(.scrolled(fay, top: 0, viewport: 20, content: 9, anchor: .top, step: 0), at: .zero)
        #expect(persisted(reader).isEmpty && r.presenterPlace?.anchor == Anchor(block: 10, offset: 0))
    }

    @Test("a presenter who joins again under the same name is on its slide and step in its welcome and in its joined; nothing moves the follower")
    func comesBack() throws {
        var r = presented()
        _ = r.apply(.left(pat), at: .zero)
        #expect(r.presenter == nil && r.presenterPlace?.anchor == Anchor(block: 3, offset: 0), "kept while nobody presents")
        let out = r.apply(.joined(pat2, name: "pat", role: .presenter), at: .zero)
        let expected = SlidePlace(slide: 1, slides: 3, step: 2, steps: 3)
        guard case let .joined(joined)? = out.broadcasts.first?.payload else { Issue.record("no joined"); return }
        #expect(joined.anchor == Anchor(block: 3, offset: 0) && joined.slidePlace == expected && joined.percent == 66)
        guard case let .welcome(welcome)? = out.sent(to: pat2).first?.payload else { Issue.record("no welcome"); return }
        let mine = try #require(welcome.readers.first { $0.id == pat2 })
        #expect(mine.anchor == Anchor(block: 3, offset: 0) && mine.slidePlace == expected && welcome.presenter == pat2)
        #expect(out.broadcasts.count == 1, "only the joined: no progress moves the follower")
        let log = try #require(out.logs.first(where: { $0.event == "join" }))
        #expect(log["resumed"] == .bool(true) && log["percent"] == .int(66))
    }

    @Test("a presenter of another name starts at the beginning, and so does an unvouched one of a vouched name")
    func someoneElse() throws {
        var r = presented()
        _ = r.apply(.left(pat), at: .zero)
        let out = r.apply(.joined(bob, name: "bob", role: .presenter), at: .zero)
        guard case let .joined(joined)? = out.broadcasts.first?.payload else { Issue.record("no joined"); return }
        #expect(joined.anchor == nil && joined.slidePlace == nil)
        #expect(out.logs.first(where: { $0.event == "join" })?["resumed"] == nil)
        #expect(r.presenterPlace?.name == "pat", "kept for pat until bob moves")
        _ = r.apply(.scrolled(bob, top: 0, viewport: 20, content: 9, anchor: .top, step: 0), at: .zero)
        #expect(r.presenterPlace?.name == "bob")

        var vouched = RoomState(name: "deck")
        _ = vouched.apply(.joined(pat, name: "pat", role: .presenter, verified: true), at: .zero)
        _ = vouched.apply(.documentPublished(pat, DocumentInfo(title: "deck.md", format: .markdown, text: PresenterPlaceDeck.text)), at: .zero)
        _ = vouched.apply(.scrolled(pat, top: 0, viewport: 20, content: 9, anchor: Anchor(block: 10, offset: 0), step: 0), at: .zero)
        _ = vouched.apply(.left(pat), at: .zero)
        #expect(vouched.presenterPlace?.verified == true)
        _ = vouched.apply(.joined(pat2, name: "pat", role: .presenter), at: .zero)
        #expect(vouched.members[pat2]?.info.anchor == nil, "a name anyone may give does not take a vouched place")
        _ = vouched.apply(.left(pat2), at: .zero)
        _ = vouched.apply(.joined(bob, name: "pat", role: .presenter, verified: true), at: .zero)
        #expect(vouched.members[bob]?.info.anchor == Anchor(block: 10, offset: 0))
    }

    @Test("a new version carries the kept place to the same words; a document that replaces it forgets it")
    func versions() throws {
        var r = presented()
        _ = r.apply(.left(pat), at: .zero)
        _ = r.apply(.joined(pat2, name: "pat", role: .presenter, resume: "pat-session-2"), at: .zero)
        let edited = PresenterPlaceDeck.text.replacingOccurrences(of: "# Two\n", with: "# Two\n\nA new opening line.\n")
        let out = r.apply(.documentPublished(pat2, DocumentInfo(title: "deck.md", format: .markdown, text: edited), revises: 1), at: .zero)
        #expect(r.presenterPlace?.anchor == Anchor(block: 3, offset: 0), "the heading is still block 3")
        #expect(persisted(out).isEmpty, "the place did not change")
        _ = r.apply(.scrolled(pat2, top: 0, viewport: 20, content: 9, anchor: Anchor(block: 9, offset: 0), step: 2), at: .zero)
        _ = r.apply(.left(pat2), at: .zero)
        // A version published while nobody presents (by the publisher's session) carries it too.
        _ = r.apply(.joined(bob, name: "bob", role: .reader, resume: "pat-session-2"), at: .zero)
        let inserted = edited.replacingOccurrences(of: "# One\n", with: "# One\n\nAnother line.\n")
        let carried = r.apply(.documentPublished(bob, DocumentInfo(title: "deck.md", format: .markdown, text: inserted), revises: 2), at: .zero)
        #expect(carried.errorCodes.isEmpty)
        #expect(r.presenterPlace?.anchor == Anchor(block: 10, offset: 0) && r.presenterPlace?.step == 2, "Third. moved one block down")
        #expect(persisted(carried) == [r.presenterPlace])

        var replaced = presented()
        let gone = replaced.apply(.documentPublished(pat, DocumentInfo(title: "other.md", format: .markdown, text: "# Other")), at: .zero)
        #expect(replaced.presenterPlace == nil && persisted(gone) == [nil])
    }

    @Test("the kept place travels in the room's image and comes back from the store; one that no longer fits is not taken")
    func imageAndStore() throws {
        var r = presented()
        _ = r.apply(.left(pat), at: .zero)
        let image = try JSONDecoder().decode(RoomImage.self, from: JSONEncoder().encode(r.image))
        #expect(image.presenterPlace == r.presenterPlace && RoomState(image: image) == r)
        var restored = RoomState(restoring: RoomSnapshot(name: "deck", document: r.document, draftText: "", draftRevision: 0,
                                                         presenterPlace: r.presenterPlace))
        _ = restored.apply(.joined(pat2, name: "pat", role: .presenter), at: .zero)
        #expect(restored.members[pat2]?.info.slidePlace == SlidePlace(slide: 1, slides: 3, step: 2, steps: 3))
        var stale = r.presenterPlace!
        stale.anchor = Anchor(block: 99, offset: 0)
        var unfit = RoomState(restoring: RoomSnapshot(name: "deck", document: r.document, draftText: "", draftRevision: 0,
                                                      presenterPlace: stale))
        _ = unfit.apply(.joined(pat2, name: "pat", role: .presenter), at: .zero)
        #expect(unfit.members[pat2]?.info.anchor == nil)
    }
}
