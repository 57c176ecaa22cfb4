import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

let presenterID = ClientID("c1"), followerID = ClientID("c2")

extension RoomSimulation {
    /// A presenter publishing the coda talk and a follower, at these sizes.
    static func talk(_ sizes: (Int, Int, Int, Int)) -> RoomSimulation {
        var sim = RoomSimulation()
        sim.join(presenterID, .present, name: "pat", columns: sizes.0, rows: sizes.1, document: codaTalk)
        sim.join(followerID, .follow, name: "fay", columns: sizes.2, rows: sizes.3)
        return sim
    }

    var presenter: ReaderModel { clients[presenterID]! }
    var follower: ReaderModel { clients[followerID]! }

    /// The presenter's header, the server's section for the presenter, the
    /// follower's header and the presenter's section in the follower's list.
    var sections: [Int?] {
        [presenter.currentSection, room.members[presenterID]?.spy.current, follower.currentSection,
         follower.presence.readers.first { $0.id == presenterID }?.section]
    }
}

@Suite("Chosen tabs stay chosen, on every screen and on the server")
struct ChosenTabTests {
    @Test("a chosen short section stays chosen after its jump: 4, 3, Tab, a click, k and G, everyone agreeing",
          arguments: followSizes)
    func chosenStays(sizes: (Int, Int, Int, Int)) throws {
        var sim = RoomSimulation.talk(sizes)
        sim.press(presenterID, .character("5"))
        sim.advance(by: .seconds(3))
        #expect(sim.sections == [4, 4, 4, 4])
        #expect(sim.presenter.pane.top == sim.presenter.maximumTop, "as far as it can")
        #expect(sim.follower.pane.top == sim.follower.maximumTop)
        sim.press(presenterID, .character("4"))
        sim.advance(by: .seconds(3))
        #expect(sim.sections == [3, 3, 3, 3])
        sim.press(presenterID, .character("j"))
        #expect(sim.sections == [3, 3, 3, 3], "a key that cannot move at the bottom changes nothing")
        sim.press(presenterID, .tab)
        sim.advance(by: .seconds(3))
        #expect(sim.sections == [4, 4, 4, 4])
        let header = sim.presenter.view(at: sim.now, theme: .neon).lines()[1]
        let column = try #require(header.range(of: "Q&A")).lowerBound.utf16Offset(in: header)
        sim.input(presenterID, .mouse(MouseEvent(.press(.left), x: column + 1, y: 1)))
        sim.input(presenterID, .mouse(MouseEvent(.release(.left), x: column + 1, y: 1)))
        sim.advance(by: .seconds(3))
        #expect(sim.sections == [3, 3, 3, 3])
        sim.press(presenterID, .character("k"))
        #expect(sim.sections == [2, 2, 2, 2], "off the bottom the section at the top is current again")
        sim.press(presenterID, .character("G"))
        #expect(sim.sections == [4, 4, 4, 4], "at the very bottom the last section wins")
    }

    @Test("a hand scroll during a chosen tab's hold counts once the hold runs out, on every screen and the server alike")
    func handScrollDuringHold() {
        var sim = RoomSimulation.talk((80, 24, 120, 40))
        sim.press(presenterID, .character("G"))
        sim.press(presenterID, .character("4"))
        sim.advance(by: .milliseconds(300))
        sim.press(presenterID, .character("k"))
        #expect(sim.sections == [3, 3, 3, 3], "held on both sides alike")
        #expect(sim.presenter.nextWake(after: sim.now) != nil)
        sim.advance(by: .milliseconds(2500))
        #expect(sim.sections == [2, 2, 2, 2])
        #expect(sim.room.members[presenterID]?.spy.hold == nil && sim.presenter.tabs.spy.hold == nil)
    }

    @Test("the presenter's header shows the chosen section underlined, not the one above it")
    func headerUnderline() throws {
        var sim = RoomSimulation.talk((120, 40, 80, 24))
        sim.press(presenterID, .character("5"))
        sim.advance(by: .seconds(4))
        for model in [sim.presenter, sim.follower] {
            let lines = model.view(at: sim.now, theme: .neon).lines()
            let column = try #require(lines[1].range(of: "Coda")).lowerBound.utf16Offset(in: lines[1])
            let underline = Array(lines[2])
            #expect(underline.count > column && underline[column] == "━", "\(lines[1])\n\(lines[2])")
        }
    }

    @Test("a tab chosen at the bottom survives a reconnect: the new connection chooses it again")
    func reconnectKeepsChoice() {
        var sim = RoomSimulation()
        sim.join(presenterID, .read, name: "ada", columns: 80, rows: 24, document: codaTalk)
        sim.press(presenterID, .character("4"))
        sim.advance(by: .seconds(3))
        let newID = ClientID("c7")
        sim.reconnect(presenterID, as: newID)
        #expect(sim.clients[newID]?.currentSection == 3)
        #expect(sim.room.members[newID]?.spy.current == 3)
        sim.advance(by: .seconds(3))
        #expect(sim.room.members[newID]?.spy.current == 3)
    }
}

@Suite("Followers see what the presenter sees")
struct FollowerPlaceTests {
    @Test("at the presenter's bottom the follower is at its own bottom, at the top at its top, between on the same anchor",
          arguments: followSizes)
    func places(sizes: (Int, Int, Int, Int)) {
        var sim = RoomSimulation.talk(sizes)
        sim.press(presenterID, .character("G"))
        #expect(sim.follower.pane.top == sim.follower.maximumTop)
        #expect(sim.follower.position?.percent == 100 && sim.presenter.position?.percent == 100)
        sim.press(presenterID, .character("g"))
        #expect(sim.follower.pane.top == 0)
        sim.press(presenterID, .character("2"))
        sim.advance(by: .seconds(2))
        let middle = sim.presenter.pane.layout!.anchor(forRow: sim.presenter.pane.top)
        #expect(sim.follower.pane.layout!.anchor(forRow: sim.follower.pane.top).block == middle.block)
        for _ in 0..<5 { sim.press(presenterID, .character("j")) }
        let anchor = sim.presenter.pane.layout!.anchor(forRow: sim.presenter.pane.top)
        #expect(sim.follower.pane.layout!.anchor(forRow: sim.follower.pane.top).block == anchor.block)
        #expect(sim.sections == [1, 1, 1, 1])
    }

    @Test("a follower clamped at its own bottom still shows the presenter's section, not its own last one")
    func clampedFollowerHeader() {
        var sim = RoomSimulation.talk((80, 24, 120, 40))
        sim.press(presenterID, .character("G"))
        sim.press(presenterID, .pageUp)
        #expect(sim.presenter.position?.atBottom == false)
        #expect(sim.follower.pane.top == sim.follower.maximumTop)
        #expect(sim.presenter.currentSection == 2)
        #expect(sim.sections == [2, 2, 2, 2])
        #expect(sim.follower.tabs.spy.current == 4, "its own spy sees its bottom")
    }

    @Test("a follower does not jump ahead of a presenter who stays at the bottom when choosing a short section")
    func noOwnJump() {
        var sim = RoomSimulation.talk((120, 40, 80, 24))
        sim.press(presenterID, .character("G"))
        sim.press(presenterID, .character("4"))
        sim.advance(by: .seconds(3))
        #expect(sim.follower.pane.top == sim.follower.maximumTop)
        #expect(sim.sections == [3, 3, 3, 3])
    }
}

@Suite("Back to top in the bar and in the wheel")
struct BackToTopTests {
    func atBottom(columns: Int, rows: Int, document: DocumentInfo = codaTalk) -> RoomSimulation {
        var sim = RoomSimulation()
        sim.join(presenterID, .read, name: "ada", columns: columns, rows: rows, document: document)
        sim.press(presenterID, .character("G"))
        return sim
    }

    @Test("at the bottom the wheel is a button: it says ↑ top [t] and a click on it eases to the top",
          arguments: [(100, 30), (60, 20)])
    func wheelClick(columns: Int, rows: Int) throws {
        var sim = atBottom(columns: columns, rows: rows)
        sim.advance(by: .milliseconds(3500))
        let placement = sim.presenter.indicatorPlacement(at: sim.now)
        let wheel = try #require(placement.wheel)
        #expect(placement.bar == nil && placement.wheelGoesToTop)
        let screen = sim.presenter.view(at: sim.now, theme: .neon).lines()
        #expect(screen.suffix(4).contains { $0.contains("↑ top [t]") && $0.contains("100%") }, "\(screen.joined(separator: "\n"))")
        sim.input(presenterID, .mouse(MouseEvent(.press(.left), x: wheel.x + 3, y: wheel.y)))
        #expect(sim.presenter.pane.animation?.to == 0)
        sim.advance(by: .seconds(2))
        #expect(sim.presenter.pane.top == 0)
    }

    @Test("t goes back to the top from the wheel too")
    func wheelKey() {
        var sim = atBottom(columns: 80, rows: 24)
        sim.advance(by: .milliseconds(3500))
        #expect(sim.presenter.pane.indicator.mode(at: sim.now) == .wheel)
        sim.press(presenterID, .character("t"))
        sim.advance(by: .seconds(2))
        #expect(sim.presenter.pane.top == 0)
    }

    @Test("a document that fits the screen offers no back-to-top, in the bar or the wheel")
    func fits() {
        var sim = atBottom(columns: 100, rows: 40, document: DocumentInfo(title: "Note", format: .markdown, text: "# Note\n\nShort."))
        #expect(sim.presenter.position?.atBottom == true)
        #expect(sim.presenter.indicatorPlacement(at: sim.now).button == nil)
        #expect(!sim.presenter.view(at: sim.now, theme: .neon).lines().joined().contains("↑ top"))
        sim.advance(by: .milliseconds(3500))
        let placement = sim.presenter.indicatorPlacement(at: sim.now)
        #expect(placement.button == nil && !placement.wheelGoesToTop && placement.wheel != nil)
        #expect(!sim.presenter.view(at: sim.now, theme: .neon).lines().joined().contains("↑ top"))
    }
}
