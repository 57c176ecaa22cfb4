import Foundation
import NeonCore
@testable import NeonServer
import NeonTestSupport
import Testing
import NeonServerTestSupport

@Suite("A presenter who comes back, across restarts and nodes", .serialized, .ownThreads)
struct PresenterPlaceRestartTests {
    /// pat presents the deck and goes to slide 2, step 2; an edit acked
    /// after it is kept says the place is kept too (commits go in order).
    func present(_ url: String) async throws -> TestPeer {
        let pat = try await TestPeer.connect(url: url)
        _ = try await pat.hello(room: "d", name: "pat", role: .presenter)
        pat.send(.document(title: "deck.md", format: .markdown, text: PresenterPlaceDeck.text))
        _ = try await pat.next("document")
        pat.send(.scroll(top: 0, viewport: 20, content: 7, anchor: PresenterPlaceDeck.anchor, step: 1))
        _ = try await pat.next("progress")
        pat.send(.edit(rev: 0, ops: TextOperation([.insert("x")]), key: "k"))
        _ = try await pat.next("ack")
        return pat
    }

    @Test("neonsyncd killed with SIGKILL and restarted on its data: the presenter who joins again is on its slide and step")
    func afterKill() async throws {
        let directory = try TemporaryDirectory()
        do {
            let server = try ServerProcess(["--data", directory.path])
            _ = try await present(server.url)
            #expect(server.stop(signal: SIGKILL) == SIGKILL)
        }
        let server = try ServerProcess(["--data", directory.path])
        let fay = try await TestPeer.connect(server)
        _ = try await fay.hello(room: "d", name: "fay", role: .reader)
        let pat = try await TestPeer.connect(server)
        let welcome = try await pat.hello(room: "d", name: "pat", role: .presenter)
        let mine = try #require(welcome.readers.first { $0.id == welcome.you })
        #expect(mine.anchor == PresenterPlaceDeck.anchor && mine.slidePlace == PresenterPlaceDeck.place)
        guard case let .joined(info) = try await fay.next("joined").payload else { Issue.record("no joined"); return }
        #expect(info.slidePlace == PresenterPlaceDeck.place)
        // The log is read from the server's pipe on a thread of its own, so
        // the join line may come a moment after the welcome: wait for it.
        #expect(await server.log { $0["event"] as? String == "join" && $0["resumed"] as? Bool == true && $0["percent"] as? Int == 66 } != nil,
                "\(server.events("join"))")
        #expect(server.stop() == 0)
    }

    @Test("cluster: the presenter's node dies; on another node, and after every node restarted, the presenter who joins again is on its slide and step")
    func cluster() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let patOnA = try await present(a.url)
        let fay = try await TestPeer.connect(url: b.url)
        _ = try await fay.hello(room: "d", name: "fay", role: .reader)
        _ = try await patOnA.next("joined")
        #expect(a.stop(signal: SIGKILL) == SIGKILL)
        _ = try await fay.next("left", timeout: .seconds(20))
        let pat = try await TestPeer.connect(url: b.url)
        let welcome = try await pat.hello(room: "d", name: "pat", role: .presenter, timeout: .seconds(30))
        let mine = try #require(welcome.readers.first { $0.id == welcome.you })
        #expect(mine.anchor == PresenterPlaceDeck.anchor && mine.slidePlace == PresenterPlaceDeck.place)
        guard case let .joined(info) = try await fay.next("joined").payload else { Issue.record("no joined"); return }
        #expect(info.slidePlace == PresenterPlaceDeck.place, "the follower is told it is there")
        pat.close()
        fay.close()
        #expect(b.stop() == 0)

        let c = try clusterNode(redis, "c")
        let again = try await TestPeer.connect(url: c.url)
        let later = try await again.hello(room: "d", name: "pat", role: .presenter, timeout: .seconds(30))
        let place = try #require(later.readers.first { $0.id == later.you })
        #expect(place.anchor == PresenterPlaceDeck.anchor && place.slidePlace == PresenterPlaceDeck.place)
        #expect(c.stop() == 0)
    }
}
