import Foundation
import NeonCore
@testable import NeonServer
import NeonTestSupport
import Testing
import NeonServerTestSupport

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

    @Test("a store of schema version 5 is brought to the newest: its rooms are kept, with no place, and a place is kept from then on")
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
        #expect(try Inspector(directory).rows("SELECT max(version) FROM schema_version") == [["\(SQLiteStore.migrations.count)"]])
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
