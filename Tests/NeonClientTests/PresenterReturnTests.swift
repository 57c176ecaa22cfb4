import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import Testing

@Suite("A presenter who comes back, and following again, in the models")
struct PresenterReturnTests {
    let pat = ClientID("c1"), fay = ClientID("c2"), patAgain = ClientID("c3")
    let deck = DocumentInfo(title: "deck.md", format: .markdown, text: stepDeck)

    /// pat presents the deck at 100x30 to fay, who follows at 60x20, and
    /// goes to slide 4, step 2.
    func presenting() -> RoomSimulation {
        var sim = RoomSimulation()
        sim.join(pat, .present, name: "pat", columns: 100, rows: 30, document: deck)
        sim.join(fay, .follow, name: "fay", columns: 60, rows: 20)
        sim.press(pat, .character("4"))
        sim.press(pat, .enter)
        sim.press(pat, .right)
        sim.advance(by: .milliseconds(200))
        return sim
    }

    @Test("a presenter started again under its name opens on slide 4, step 2, and sends that place first; the follower stays there throughout")
    func comesBack() throws {
        var sim = presenting()
        let place = SlidePlace(slide: 3, slides: 6, step: 1, steps: 3)
        #expect(sim.clients[fay]?.slides.place == place)
        sim.leave(pat)
        #expect(sim.clients[fay]?.slides.place == place)
        sim.join(patAgain, .present, name: "pat", columns: 120, rows: 40, document: deck)
        let again = try #require(sim.clients[patAgain])
        #expect(again.slides.place == place)
        #expect(again.notices.current?.text == "back where you left: slide 4 of 6, step 2 of 3")
        #expect(sim.room.members[patAgain]?.slide == place, "its first scroll is that place")
        #expect(sim.clients[fay]?.slides.place == place && sim.clients[fay]?.isFollowing == true)
        sim.press(patAgain, .right)
        sim.advance(by: .milliseconds(200))
        #expect(sim.clients[fay]?.slides.place == SlidePlace(slide: 3, slides: 6, step: 2, steps: 3), "and goes on from there")
    }

    @Test("a presenter whose file changed while it was away opens on the same words in the new version")
    func comesBackToAnotherVersion() throws {
        var sim = presenting()
        sim.leave(pat)
        let edited = DocumentInfo(title: "deck.md", format: .markdown,
                                  text: stepDeck.replacingOccurrences(of: "Hello.", with: "Hello.\n\nA new line on the first slide."))
        sim.join(patAgain, .present, name: "pat", columns: 100, rows: 30, document: edited)
        let place = SlidePlace(slide: 3, slides: 6, step: 1, steps: 3)
        #expect(sim.clients[patAgain]?.slides.place == place)
        #expect(sim.room.document?.version == 2 && sim.room.members[patAgain]?.slide == place)
        #expect(sim.clients[fay]?.slides.place == place)
    }

    @Test("a presenter of a document (not slides) comes back with its anchor on its top row; the follower does not move")
    func comesBackToADocument() throws {
        var sim = RoomSimulation.talk((80, 24, 120, 40))
        sim.press(presenterID, .character("2"))
        sim.advance(by: .seconds(2))
        for _ in 0..<3 { sim.press(presenterID, .character("j")) }
        sim.advance(by: .milliseconds(200))
        let anchor = try #require(sim.presenter.pane.layout?.anchor(forRow: sim.presenter.pane.top))
        let followerTop = sim.follower.pane.top
        sim.leave(presenterID)
        sim.join(patAgain, .present, name: "pat", columns: 100, rows: 30, document: codaTalk)
        let again = try #require(sim.clients[patAgain])
        #expect(again.pane.layout?.anchor(forRow: again.pane.top).block == anchor.block)
        #expect(again.notices.current?.text.hasPrefix("back where you left: ") == true)
        #expect(sim.follower.pane.top == followerTop && sim.room.members[patAgain]?.anchor.block == anchor.block)
    }

    @Test("someone presenting under another name starts at the first slide")
    func someoneElse() {
        var sim = presenting()
        sim.leave(pat)
        sim.join(patAgain, .present, name: "bob", columns: 100, rows: 30, document: deck)
        #expect(sim.clients[patAgain]?.slides.place?.slide == 0)
    }

    @Test("f in slides follows again at once: the presenter's slide and step, not the one the follower stepped to")
    func followAgainInSlides() throws {
        var sim = presenting()
        sim.press(pat, .character("3"))
        sim.press(pat, .enter)
        sim.advance(by: .milliseconds(200))
        sim.press(fay, .character("5"))
        sim.press(fay, .enter)
        #expect(sim.clients[fay]?.isFollowing == false && sim.clients[fay]?.slides.slide == 4)
        sim.press(fay, .character("f"))
        let follower = try #require(sim.clients[fay])
        #expect(follower.isFollowing && follower.notices.current?.text == "Following pat")
        #expect(follower.slides.place == SlidePlace(slide: 2, slides: 6, step: 0, steps: 1))

        sim.press(pat, .character("4"))
        sim.press(pat, .enter)
        sim.press(pat, .right)
        sim.advance(by: .milliseconds(200))
        sim.press(fay, .left)
        #expect(sim.clients[fay]?.slides.place == SlidePlace(slide: 3, slides: 6, step: 0, steps: 3), "a step back, its own")
        sim.press(fay, .character("f"))
        #expect(sim.clients[fay]?.slides.place == SlidePlace(slide: 3, slides: 6, step: 1, steps: 3), "the presenter's step")
    }
}
