import Foundation
import NeonCore
@testable import NeonServer
import NeonTestSupport
import Testing

/// The deck the presenter tests present: three slides, the second in three steps.
enum PresenterPlaceDeck {
    static let text = """
        # One

        Intro.

        <!-- end_slide -->

        # Two

        First.

        <!-- pause -->

        Second.

        <!-- pause -->

        Third.

        <!-- end_slide -->

        # Three

        End.
        """
    /// "Second." on slide 2, at its second step.
    static let anchor = Anchor(block: 6, offset: 0)
    static let place = SlidePlace(slide: 1, slides: 3, step: 1, steps: 3)
}

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

@Suite("SQLite store: the presenter's place", .ownThreads)
struct StorePresenterPlaceTests {
    @Test("a room's presenter place is kept as JSON beside the room, the latest of a batch, and comes back after reopening; nil forgets it")
    func keptAndForgotten() throws {
        let directory = try TemporaryDirectory()
        let early = PresenterPlace(name: "pat", verified: false, position: try ReadingPosition(top: 0, viewport: 20, content: 7),
                                   anchor: .top, step: 0)
        let late = PresenterPlace(name: "pat", verified: true, position: try ReadingPosition(top: 2, viewport: 20, content: 30),
                                  anchor: PresenterPlaceDeck.anchor, step: 1)
        do {
            let store = try SQLiteStore(directory: directory.path)
            try store.commit([.roomCreated(room: "d", profile: "graphemes", limit: 280),
                              .presenterPlaced(room: "d", early), .presenterPlaced(room: "d", late)])
            try store.createRoom("e", profile: "graphemes", limit: 280)
            try store.commit([.presenterPlaced(room: "e", early), .presenterPlaced(room: "e", nil)])
            store.close()
        }
        let reopened = try SQLiteStore(directory: directory.path)
        #expect(try reopened.loadRoom("d")?.presenterPlace == late)
        #expect(try reopened.loadRoom("e")?.presenterPlace == nil)
        reopened.close()
        #expect(try Inspector(directory).rows("SELECT presenter_place IS NULL FROM rooms ORDER BY name") == [["0"], ["1"]])
        #expect(SQLiteStore.latestPlaces([.presenterPlaced(room: "d", early), .roomActive(room: "d", atMilliseconds: 1),
                                          .presenterPlaced(room: "d", late)])
                == [.roomActive(room: "d", atMilliseconds: 1), .presenterPlaced(room: "d", late)])
    }

    @Test("a store of schema version 5 is brought to 7: its rooms are kept, with no place, and a place is kept from then on")
    func migratesFromFive() throws {
        let directory = try TemporaryDirectory()
        do {
            let connection = try SQLiteConnection(path: directory.file(SQLiteStore.fileName))
            defer { connection.close() }
            try connection.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)")
            for (step, script) in SQLiteStore.migrations.prefix(5).enumerated() {
                try connection.execute(script)
                try connection.execute("INSERT INTO schema_version (version, applied_ms) VALUES (\(step + 1), 0)")
            }
            try connection.execute("INSERT INTO rooms (name, profile, draft_limit, created_ms) VALUES ('d', 'graphemes', 280, 0)")
        }
        let store = try SQLiteStore(directory: directory.path)
        #expect(try store.loadRoom("d")?.presenterPlace == nil)
        let place = PresenterPlace(name: "pat", verified: false, position: try ReadingPosition(top: 0, viewport: 20, content: 7),
                                   anchor: PresenterPlaceDeck.anchor, step: 1)
        try store.commit([.presenterPlaced(room: "d", place)])
        #expect(try store.loadRoom("d")?.presenterPlace == place)
        store.close()
        #expect(try Inspector(directory).rows("SELECT max(version) FROM schema_version") == [["7"]])
    }

    @Test("a place that no longer reads back is left out, and the room still loads")
    func unreadablePlace() throws {
        let directory = try TemporaryDirectory()
        try SQLiteStore(directory: directory.path).createRoom("d", profile: "graphemes", limit: 280)
        try Inspector(directory).execute("UPDATE rooms SET presenter_place = '{not json' WHERE name = 'd'")
        let store = try SQLiteStore(directory: directory.path)
        #expect(try store.loadRoom("d").map { ($0.name, $0.presenterPlace == nil) } ?? ("", false) == ("d", true))
    }
}

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
