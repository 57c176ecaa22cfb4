import Foundation
import NeonCore
@testable import NeonServer
import NeonTestSupport
import Testing
import NeonServerTestSupport

@Suite("A presenter who comes back, in process", .ownThreads)
struct PresenterPlaceInProcessTests {
    @Test("a presenter who leaves and joins again under its name is welcomed on its slide and step; its follower is told only that it joined, there")
    func comesBack() throws {
        let server = try InProcessServer()
        let (pat, _) = try server.join("d", as: "pat", role: .presenter)
        server.send(.document(title: "deck.md", format: .markdown, text: PresenterPlaceDeck.text), from: pat)
        let (fay, _) = try server.join("d", as: "fay")
        server.send(.follow(on: true), from: fay)
        server.send(.scroll(top: 0, viewport: 20, content: 7, anchor: PresenterPlaceDeck.anchor, step: 1), from: pat)
        server.close(pat)
        _ = server.take(fay)

        let (again, welcome) = try server.join("d", as: "pat", role: .presenter)
        let mine = try #require(welcome.readers.first { $0.id == welcome.you })
        #expect(mine.anchor == PresenterPlaceDeck.anchor && mine.slidePlace == PresenterPlaceDeck.place)
        let seen = server.take(fay)
        #expect(seen.map(\.type) == ["joined"], "no progress: nothing moves the follower")
        guard case let .joined(info)? = seen.first?.payload else { throw InProcessFailure("no joined: \(seen)") }
        #expect(info.anchor == PresenterPlaceDeck.anchor && info.slidePlace == PresenterPlaceDeck.place)
        #expect(server.events("join").last?["resumed"] as? Bool == true)
        #expect(try server.store.loadRoom("d")?.presenterPlace?.anchor == PresenterPlaceDeck.anchor)
        _ = again
    }

    @Test("the place survives the room resting in the store (--room-release) and being read back")
    func restingRoom() throws {
        let server = try InProcessServer(.init(gateway: .init(roomRelease: .seconds(1))))
        let (pat, _) = try server.join("d", as: "pat", role: .presenter)
        server.send(.document(title: "deck.md", format: .markdown, text: PresenterPlaceDeck.text), from: pat)
        server.send(.scroll(top: 0, viewport: 20, content: 7, anchor: PresenterPlaceDeck.anchor, step: 1), from: pat)
        server.close(pat)
        server.advance(by: .seconds(1))
        server.sweep()
        #expect(server.events("room_released").map { $0["room"] as? String } == ["d"])
        let (_, welcome) = try server.join("d", as: "pat", role: .presenter)
        let mine = try #require(welcome.readers.first { $0.id == welcome.you })
        #expect(mine.anchor == PresenterPlaceDeck.anchor && mine.slidePlace == PresenterPlaceDeck.place)
    }
}
