import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import Testing

@Suite("Room store behaviour, on SQLite and in memory")
struct StoreTests {
    @Test("a new store is empty; created rooms come back in creation order with profile, limit and an empty draft",
          arguments: StoreKind.allCases)
    func createAndLoad(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        #expect(try store.loadRooms().map(\.withoutEdits) == [])
        try store.createRoom("notes", profile: "graphemes", limit: 280)
        try store.createRoom("café ☕ 'x'; DROP TABLE rooms; --", profile: "twitter", limit: 280)
        try store.createRoom("a", profile: "mastodon", limit: 500)
        #expect(try store.loadRooms().map(\.withoutEdits) == [
            StoredRoom(name: "notes", profile: "graphemes", limit: 280),
            StoredRoom(name: "café ☕ 'x'; DROP TABLE rooms; --", profile: "twitter", limit: 280),
            StoredRoom(name: "a", profile: "mastodon", limit: 500),
        ])
    }

    @Test("creating a room that exists fails naming the room and keeps the first one", arguments: StoreKind.allCases)
    func createTwice(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        try store.createRoom("notes", profile: "graphemes", limit: 280)
        #expect(throws: NeonError("cannot create room 'notes': the store already has a room of that name — restore it instead of creating it again")) {
            try store.createRoom("notes", profile: "bluesky", limit: 300)
        }
        #expect(try store.loadRooms().map(\.withoutEdits) == [StoredRoom(name: "notes", profile: "graphemes", limit: 280)])
    }

    @Test("a room's document comes back, and a replaced one comes back as the new one only", arguments: StoreKind.allCases)
    func documents(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        try store.createRoom("notes", profile: "graphemes", limit: 280)
        try store.createRoom("empty", profile: "graphemes", limit: 280)
        let first = DocumentInfo(title: "Notes", format: .markdown, text: "# Intro\nHello")
        let second = DocumentInfo(title: "", format: .catalog, text: "")
        try store.setDocument(first, room: "notes")
        #expect(try store.loadRooms().map(\.document) == [first, nil])
        try store.setDocument(second, room: "notes")
        #expect(try store.loadRooms().map(\.document) == [second, nil])
    }

    @Test("appended revisions restore the latest text and revision per room", arguments: StoreKind.allCases)
    func revisions(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        try store.createRoom("one", profile: "graphemes", limit: 280)
        try store.createRoom("two", profile: "graphemes", limit: 280)
        try store.appendRevision(room: "one", revision: 1, operationJSON: operationJSON(TextOperation([.insert("hé")])), text: "hé")
        try store.appendRevision(room: "one", revision: 2, operationJSON: operationJSON(TextOperation([.retain(2), .insert("llo 世界 👋🏽")])), text: "héllo 世界 👋🏽")
        try store.appendRevision(room: "two", revision: 1, operationJSON: operationJSON(TextOperation([.insert("x")])), text: "x")
        try store.appendRevision(room: "two", revision: 2, operationJSON: operationJSON(TextOperation([.delete(1)])), text: "")
        #expect(try store.loadRooms().map(\.withoutEdits) == [
            StoredRoom(name: "one", profile: "graphemes", limit: 280, draftText: "héllo 世界 👋🏽", draftRevision: 2),
            StoredRoom(name: "two", profile: "graphemes", limit: 280, draftText: "", draftRevision: 2),
        ])
    }

    @Test("a revision that skips or repeats one fails naming both revisions and changes nothing", arguments: StoreKind.allCases)
    func revisionOrder(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        try store.createRoom("notes", profile: "graphemes", limit: 280)
        try store.appendRevision(room: "notes", revision: 1, operationJSON: #"["a"]"#, text: "a")
        #expect(throws: NeonError("cannot store revision 3 of the draft of room 'notes': the store is at revision 1 and takes only 2 next — an acknowledged edit is missing or repeated")) {
            try store.appendRevision(room: "notes", revision: 3, operationJSON: #"[1,"c"]"#, text: "ac")
        }
        #expect(throws: NeonError("cannot store revision 1 of the draft of room 'notes': the store is at revision 1 and takes only 2 next — an acknowledged edit is missing or repeated")) {
            try store.appendRevision(room: "notes", revision: 1, operationJSON: #"["b"]"#, text: "b")
        }
        #expect(try store.loadRooms().map(\.withoutEdits) == [StoredRoom(name: "notes", profile: "graphemes", limit: 280, draftText: "a", draftRevision: 1)])
    }

    @Test("a batch of revisions across rooms is stored whole", arguments: StoreKind.allCases)
    func batch(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        try store.createRoom("one", profile: "graphemes", limit: 280)
        try store.createRoom("two", profile: "graphemes", limit: 280)
        try store.appendRevisions([])
        try store.appendRevisions([
            DraftRevision(room: "one", revision: 1, operationJSON: #"["a"]"#, text: "a"),
            DraftRevision(room: "two", revision: 1, operationJSON: #"["x"]"#, text: "x"),
            DraftRevision(room: "one", revision: 2, operationJSON: #"[1,"b"]"#, text: "ab"),
        ])
        #expect(try store.loadRooms().map { [$0.draftText, "\($0.draftRevision)"] } == [["ab", "2"], ["x", "1"]])
    }

    @Test("a batch with one bad revision fails naming it and stores none of the batch", arguments: StoreKind.allCases)
    func batchAllOrNothing(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        try store.createRoom("one", profile: "graphemes", limit: 280)
        try store.createRoom("two", profile: "graphemes", limit: 280)
        #expect(throws: NeonError("cannot store revision 2 of the draft of room 'two': the store is at revision 0 and takes only 1 next — an acknowledged edit is missing or repeated")) {
            try store.appendRevisions([
                DraftRevision(room: "one", revision: 1, operationJSON: #"["a"]"#, text: "a"),
                DraftRevision(room: "two", revision: 2, operationJSON: #"["x"]"#, text: "x"),
                DraftRevision(room: "one", revision: 2, operationJSON: #"[1,"b"]"#, text: "ab"),
            ])
        }
        #expect(throws: NeonError("cannot store a draft revision of room 'ghost': the store has no such room — create the room first")) {
            try store.appendRevisions([
                DraftRevision(room: "one", revision: 1, operationJSON: #"["a"]"#, text: "a"),
                DraftRevision(room: "ghost", revision: 1, operationJSON: #"["x"]"#, text: "x"),
            ])
        }
        #expect(try store.loadRooms().map(\.draftRevision) == [0, 0])
        try store.appendRevision(room: "one", revision: 1, operationJSON: #"["a"]"#, text: "a")
        #expect(try store.loadRooms().map(\.draftRevision) == [1, 0])
    }

    @Test("a document or revision for a room never created fails naming the room", arguments: StoreKind.allCases)
    func unknownRoom(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        #expect(throws: NeonError("cannot store the document of room 'ghost': the store has no such room — create the room first")) {
            try store.setDocument(DocumentInfo(title: "T", format: .text, text: "t"), room: "ghost")
        }
        #expect(throws: NeonError("cannot store a draft revision of room 'ghost': the store has no such room — create the room first")) {
            try store.appendRevision(room: "ghost", revision: 1, operationJSON: #"["a"]"#, text: "a")
        }
        #expect(try store.loadRooms().map(\.withoutEdits) == [])
    }

    @Test("every call after close fails saying the store is closed", arguments: StoreKind.allCases)
    func closed(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let store = try kind.open(in: directory)
        try store.createRoom("notes", profile: "graphemes", limit: 280)
        store.close()
        store.close()
        let closed = NeonError("the store is closed — it cannot be used after close()")
        #expect(throws: closed) { try store.loadRooms() }
        #expect(throws: closed) { try store.createRoom("other", profile: "graphemes", limit: 280) }
        #expect(throws: closed) { try store.setDocument(DocumentInfo(title: "T", format: .text, text: "t"), room: "notes") }
        #expect(throws: closed) { try store.appendRevision(room: "notes", revision: 1, operationJSON: #"["a"]"#, text: "a") }
    }
}

