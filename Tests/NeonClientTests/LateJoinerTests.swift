import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

/// Followers who join after the presenter last moved, or come back after
/// losing their connection, land on the presenter's text from their first
/// frame, and every reader already placed is in their gutter (issue 22).
@Suite("Late joiners land where the presenter is")
struct LateJoinerTests {
    /// Presenter and late follower sizes: both ways round and a small one.
    static let sizes: [(Int, Int, Int, Int)] = [(120, 40, 80, 24), (80, 24, 160, 45), (160, 45, 50, 16)]

    /// The presenter publishes the talk and scrolls to about half-way.
    static func presenterHalfway(_ sizes: (Int, Int, Int, Int)) -> RoomSimulation {
        var sim = RoomSimulation()
        sim.join(presenterID, .present, name: "pat", columns: sizes.0, rows: sizes.1, document: codaTalk)
        while sim.presenter.pane.top < sim.presenter.maximumTop / 2 { sim.press(presenterID, .character("j")) }
        sim.advance(by: .seconds(1))
        return sim
    }

    /// The block at the top row of `model`'s screen.
    func topBlock(_ model: ReaderModel) -> Int? {
        model.pane.layout.map { $0.anchor(forRow: model.pane.top).block }
    }

    @Test("a follower who joins after the presenter moved shows the presenter's text at once, with their tab and their mark",
          arguments: sizes)
    func lateFollower(sizes: (Int, Int, Int, Int)) throws {
        var sim = Self.presenterHalfway(sizes)
        let anchor = try #require(sim.room.members[presenterID]?.anchor)
        #expect(anchor.block > 0, "the presenter is past the start")
        sim.join(followerID, .follow, name: "fay", columns: sizes.2, rows: sizes.3)
        #expect(sim.follower.pane.top > 0)
        #expect(topBlock(sim.follower) == anchor.block, "the follower's top row holds the presenter's anchor")
        #expect(sim.follower.currentSection == sim.presenter.currentSection)
        #expect(sim.follower.presence.anchor(of: presenterID) == anchor)
        let screen = sim.follower.view(at: sim.now, theme: .neon).lines()
        #expect(screen.contains { $0.contains("▶") }, "the presenter's gutter mark is drawn:\n\(screen.joined(separator: "\n"))")
    }

    @Test("a follower who loses its connection while the presenter moves lands on the presenter's new text when it comes back",
          arguments: sizes)
    func returningFollower(sizes: (Int, Int, Int, Int)) throws {
        var sim = RoomSimulation()
        sim.join(presenterID, .present, name: "pat", columns: sizes.0, rows: sizes.1, document: codaTalk)
        sim.join(followerID, .follow, name: "fay", columns: sizes.2, rows: sizes.3)
        sim.leave(followerID)
        while sim.presenter.pane.top < sim.presenter.maximumTop / 2 { sim.press(presenterID, .character("j")) }
        let anchor = try #require(sim.room.members[presenterID]?.anchor)
        let back = ClientID("c9")
        sim.rejoin(followerID, as: back)
        let follower = try #require(sim.clients[back])
        #expect(follower.pane.top > 0)
        #expect(topBlock(follower) == anchor.block)
    }

    @Test("a reader who joins late has every placed reader's anchor, and welcome's reader objects carry it on the wire")
    func readersPlacedFromTheFirstFrame() throws {
        var sim = Self.presenterHalfway((120, 40, 80, 24))
        sim.join(followerID, .read, name: "rex", columns: 80, rows: 24)
        let anchor = try #require(sim.room.members[presenterID]?.anchor)
        #expect(sim.follower.presence.anchor(of: presenterID) == anchor)
        #expect(sim.follower.pane.top == 0, "a reader who does not follow stays at its own place")
        let welcome = sim.room.welcome(for: followerID)
        let bytes = WireCodec().encode(ServerMessage(seq: sim.room.seq, .welcome(welcome)))
        let text = String(decoding: bytes, as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let readers = try #require(object["readers"] as? [[String: Any]])
        let placed = try #require(readers.first { $0["id"] as? String == presenterID.rawValue }?["anchor"] as? [String: Int])
        #expect(placed == ["block": anchor.block, "offset": anchor.offset], "\(text)")
        let decoded = try WireCodec().decodeServer(bytes)
        guard case let .welcome(info) = decoded.payload else { Issue.record("not a welcome: \(text)"); return }
        #expect(info.readers.first { $0.id == presenterID }?.anchor == anchor)
        var fresh = RoomState(name: "fresh")
        _ = fresh.apply(.joined(followerID, name: "rex", role: .reader), at: .seconds(1))
        #expect(fresh.members[followerID]?.info.anchor == nil, "no anchor before a first scroll")
    }

    @Test("where the presenter and another follower share a row, a late joiner's gutter shows the presenter's mark")
    func presenterMarkWins() throws {
        var sim = Self.presenterHalfway((120, 40, 80, 24))
        sim.join(followerID, .follow, name: "bob", columns: 80, rows: 24)
        let late = ClientID("c3")
        sim.join(late, .follow, name: "cy", columns: 50, rows: 16)
        let model = try #require(sim.clients[late])
        let lines = model.view(at: sim.now, theme: .neon).lines()
        let box = try #require(lines.firstIndex { $0.hasPrefix("╭") })
        #expect(lines[box + 1].contains("▶") && !lines[box + 1].contains("B│"), "\(lines.joined(separator: "\n"))")
    }

    @Test("the presenter is listed first in every presence list, however late it rejoined")
    func presenterFirst() {
        let members = [ReaderInfo(id: ClientID("c2"), name: "bob", role: .reader),
                       ReaderInfo(id: ClientID("c3"), name: "olga", role: .observer),
                       ReaderInfo(id: ClientID("c4"), name: "cy", role: .reader),
                       ReaderInfo(id: ClientID("c9"), name: "ada", role: .presenter)]
        #expect(members.readersFirst().map(\.name) == ["ada", "bob", "cy", "olga"])
    }
}
