import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("SQLite store files, durability and bad inputs", .ownThreads)
struct StoreSQLiteTests {
    @Test("rooms, documents and drafts come back after closing and reopening")
    func reopen() throws {
        let directory = try TemporaryDirectory()
        let document = DocumentInfo(title: "Plan", format: .text, text: "one\r\ntwo")
        do {
            let store = try SQLiteStore(directory: directory.path)
            try store.createRoom("plan", profile: "bluesky", limit: 300)
            try store.createRoom("idle", profile: "graphemes", limit: 280)
            try store.setDocument(document, room: "plan")
            try store.appendRevision(room: "plan", revision: 1, operationJSON: #"["ship it"]"#, text: "ship it")
            store.close()
        }
        let reopened = try SQLiteStore(directory: directory.path)
        #expect(try reopened.loadRooms().map(\.withoutEdits) == [
            StoredRoom(name: "plan", profile: "bluesky", limit: 300, document: document, draftText: "ship it", draftRevision: 1),
            StoredRoom(name: "idle", profile: "graphemes", limit: 280),
        ])
        try reopened.appendRevision(room: "plan", revision: 2, operationJSON: #"[7,"!"]"#, text: "ship it!")
        #expect(try reopened.loadRooms().first?.draftRevision == 2)
    }

    @Test("a 4 MB document of ASCII, CJK, emoji, combining marks and NUL round-trips byte for byte")
    func largeDocument() throws {
        let directory = try TemporaryDirectory()
        let piece = "line 1\r\n中文字符 😀👩‍👩‍👧 e\u{301} é \u{0} tab\t\n"
        let text = String(repeating: piece, count: 4 * 1024 * 1024 / piece.utf8.count + 1)
        #expect(text.utf8.count >= 4 * 1024 * 1024)
        let store = try SQLiteStore(directory: directory.path)
        try store.createRoom("big", profile: "graphemes", limit: 280)
        try store.setDocument(DocumentInfo(title: "大きい 📄", format: .markdown, text: text), room: "big")
        store.close()
        let restored = try #require(try SQLiteStore(directory: directory.path).loadRooms().first?.document)
        #expect(Array(restored.text.utf8) == Array(text.utf8))
        #expect(Array(restored.title.utf8) == Array("大きい 📄".utf8))
        #expect(restored.format == .markdown)
    }

    @Test("1000 appends in a loop are all restored (prints appends per second)")
    func appendLoop() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.createRoom("loop", profile: "graphemes", limit: 280)
        var text = ""
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for revision in 1 ... 1000 {
                let insert = revision.isMultiple(of: 3) ? "字" : revision.isMultiple(of: 2) ? "🙂" : "a"
                let operation = TextOperation([.retain(text.unicodeScalars.count), .insert(insert)])
                text += insert
                try store.appendRevision(room: "loop", revision: revision, operationJSON: operationJSON(operation), text: text)
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("SQLiteStore: 1000 appends (one transaction each, synchronous=NORMAL) in \(Int(seconds * 1000)) ms, \(Int(1000 / seconds)) appends/s")
        store.close()
        let restored = try SQLiteStore(directory: directory.path).loadRooms().map(\.withoutEdits)
        #expect(restored == [StoredRoom(name: "loop", profile: "graphemes", limit: 280, draftText: text, draftRevision: 1000)])
    }

    @Test("each room keeps its last 1000 to 1099 revision rows, trimmed every 100, each with its operation JSON")
    func trimming() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.createRoom("long", profile: "graphemes", limit: 280)
        try store.createRoom("short", profile: "graphemes", limit: 280)
        for revision in 1 ... 1205 {
            try store.appendRevision(room: "long", revision: revision, operationJSON: "[\(revision)]", text: "\(revision)")
        }
        for revision in 1 ... 3 {
            try store.appendRevision(room: "short", revision: revision, operationJSON: "[\(revision)]", text: "\(revision)")
        }
        store.close()
        let rows = try Inspector(directory).rows("SELECT room, count(*), min(revision), max(revision) FROM revisions GROUP BY room ORDER BY room", columns: 4)
        #expect(rows == [["long", "1005", "201", "1205"], ["short", "3", "1", "3"]])
        #expect(try Inspector(directory).rows("SELECT operation FROM revisions WHERE room = 'long' AND revision = 1205") == [["[1205]"]])
    }

    @Test("the file is in WAL mode and records schema versions 1 to 8")
    func walAndSchema() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        #expect(store.path == directory.file("neonsync.sqlite3"))
        try store.createRoom("notes", profile: "graphemes", limit: 280)
        #expect(FileManager.default.fileExists(atPath: directory.file("neonsync.sqlite3-wal")))
        store.close()
        let inspector = try Inspector(directory)
        #expect(try inspector.rows("PRAGMA journal_mode") == [["wal"]])
        #expect(try inspector.rows("SELECT version FROM schema_version ORDER BY version") == [["1"], ["2"], ["3"], ["4"], ["5"], ["6"], ["7"], ["8"]])
    }

    @Test("opening creates the data directory and its missing parents")
    func createsDirectories() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.file("a/b/data/"))
        #expect(store.path == directory.file("a/b/data/neonsync.sqlite3"))
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    @Test("a data directory that cannot be created fails naming it and the flag to change")
    func uncreatableDirectory() throws {
        let directory = try TemporaryDirectory()
        try Data("a file".utf8).write(to: URL(fileURLWithPath: directory.file("file")))
        let path = directory.file("file/data")
        #expect(throws: NeonError("cannot create the data directory \(path): Not a directory — check that --data points to a directory this user can write")) {
            try SQLiteStore(directory: path)
        }
        #expect(throws: NeonError("cannot use \(directory.file("file")) as the data directory: it is not a directory — point --data at a directory")) {
            try SQLiteStore(directory: directory.file("file"))
        }
    }

    @Test("a directory this user cannot write fails naming the file and the flag to change", .enabled(if: getuid() != 0, "root writes anywhere"))
    func readOnlyDirectory() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path) }
        #expect(throws: NeonError("cannot open the store at \(directory.file("neonsync.sqlite3")): unable to open database file — check that --data points to a directory this user can write")) {
            try SQLiteStore(directory: directory.path)
        }
    }

    @Test("a file of garbage fails naming the file and saying to move it aside")
    func corruptFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("neonsync.sqlite3")
        try Data(String(repeating: "this is not a database\n", count: 400).utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: NeonError("file is not a database — move the file aside (keep it to recover from) and start again; neonsyncd creates a new store when there is none").at("cannot open the store at \(path)")) {
            try SQLiteStore(directory: directory.path)
        }
    }

    @Test("a second store on the same directory fails saying another neonsyncd is using it")
    func lockedByAnother() throws {
        let directory = try TemporaryDirectory()
        try SQLiteStore(directory: directory.path).close()
        let first = try SQLiteStore(directory: directory.path)
        #expect(throws: NeonError("database is locked — another neonsyncd is probably using this data directory: stop it or point --data somewhere else").at("cannot open the store at \(first.path)")) {
            try SQLiteStore(directory: directory.path)
        }
        first.close()
        #expect(try SQLiteStore(directory: directory.path).loadRooms() == [])
    }

    @Test("a store written by a newer schema fails saying to run a newer neonsyncd")
    func newerSchema() throws {
        let directory = try TemporaryDirectory()
        try SQLiteStore(directory: directory.path).close()
        try Inspector(directory).execute("INSERT INTO schema_version (version, applied_ms) VALUES (9, 0)")
        #expect(throws: NeonError("cannot open the store at \(directory.file("neonsync.sqlite3")): its schema version is 9, newer than this neonsyncd knows (8) — run a newer neonsyncd, or point --data at another directory")) {
            try SQLiteStore(directory: directory.path)
        }
    }
}

@Suite("SQLite store: schema version 2", .ownThreads)
struct StoreSchemaTwoTests {
    @Test("a version 1 store is migrated to version 2 and keeps its rooms; edits come back with author and key")
    func migratesAndKeepsEdits() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.createRoom("notes", profile: "twitter", limit: 280)
        try store.appendRevisions([DraftRevision(room: "notes", revision: 1, operationJSON: "[\"a\"]", text: "a", author: "c1", key: "k1"),
                                   DraftRevision(room: "notes", revision: 2, operationJSON: "[1,\"b\"]", text: "ab")])
        store.close()
        let reopened = try SQLiteStore(directory: directory.path)
        let rooms = try reopened.loadRooms()
        #expect(rooms.first?.recentEdits == [StoredEdit(revision: 1, operationJSON: "[\"a\"]", author: "c1", key: "k1"),
                                             StoredEdit(revision: 2, operationJSON: "[1,\"b\"]")])
        #expect(rooms.first?.draftText == "ab" && rooms.first?.profile == "twitter")
    }
}

@Suite("SQLite store: counting starts", .ownThreads)
struct StoreStartTests {
    @Test("each start of the server gets the next number, also after the store is closed and opened again")
    func countsStarts() throws {
        let directory = try TemporaryDirectory()
        let first = try SQLiteStore(directory: directory.path)
        #expect(try first.countStart() == 1)
        #expect(try first.countStart() == 2)
        first.close()
        let again = try SQLiteStore(directory: directory.path)
        #expect(try again.countStart() == 3)
        again.close()
    }
}

@Suite("Client ids across restarts", .serialized, .ownThreads)
struct ClientIDRestartTests {
    @Test("a restarted server on the same data never hands out an id it gave before (a stale cursor cannot name someone else)")
    func idsNotReused() async throws {
        let directory = try TemporaryDirectory()
        var seen: Set<ClientID> = []
        for _ in 1 ... 3 {
            let server = try ServerProcess(["--data", directory.path])
            for name in ["ada", "bob"] {
                let peer = try await TestPeer.connect(server)
                let welcome = try await peer.hello(room: "ids", name: name, role: .reader)
                #expect(!seen.contains(welcome.you), "\(welcome.you) was handed out before")
                seen.insert(welcome.you)
                peer.close()
            }
            #expect(server.stop() == 0)
        }
        #expect(seen.count == 6)
    }
}

@Suite("SQLite store: a document's images", .ownThreads)
struct StoreImagesTests {
    @Test("a document's images are kept with it and come back after reopening; a document without images stores none")
    func images() throws {
        let directory = try TemporaryDirectory()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let document = DocumentInfo(title: "Pics", format: .markdown, text: "![logo](logo.png)",
                                    images: [DocumentImage(name: "logo.png", format: "png", width: 16, height: 8,
                                                           data: png.base64EncodedString())])
        do {
            let store = try SQLiteStore(directory: directory.path)
            try store.createRoom("pics", profile: "graphemes", limit: 280)
            try store.createRoom("plain", profile: "graphemes", limit: 280)
            try store.setDocument(document, room: "pics")
            try store.setDocument(DocumentInfo(title: "P", format: .text, text: "p"), room: "plain")
            store.close()
        }
        let reopened = try SQLiteStore(directory: directory.path)
        let rooms = try reopened.loadRooms()
        #expect(rooms.first { $0.name == "pics" }?.document?.images == document.images)
        #expect(rooms.first { $0.name == "plain" }?.document?.images == [])
        reopened.close()
        #expect(try Inspector(directory).rows("SELECT images IS NULL FROM documents WHERE room = 'plain'") == [["1"]])
    }

    @Test("the pictures a document shows as boxes, with why, come back after reopening, so a late joiner sees the same boxes")
    func unshown() throws {
        let directory = try TemporaryDirectory()
        let document = DocumentInfo(title: "Pics", format: .markdown, text: "![tour](tour.svg)\n\n![gone](gone.png)",
                                    unshown: [UnshownImage(name: "tour.svg", reason: "SVG not shown"),
                                              UnshownImage(name: "gone.png", reason: "missing")])
        do {
            let store = try SQLiteStore(directory: directory.path)
            try store.createRoom("pics", profile: "graphemes", limit: 280)
            try store.createRoom("plain", profile: "graphemes", limit: 280)
            try store.setDocument(document, room: "pics")
            try store.setDocument(DocumentInfo(title: "P", format: .text, text: "p"), room: "plain")
            store.close()
        }
        let reopened = try SQLiteStore(directory: directory.path)
        let rooms = try reopened.loadRooms()
        #expect(rooms.first { $0.name == "pics" }?.document?.unshown == document.unshown)
        #expect(rooms.first { $0.name == "plain" }?.document?.unshown == [])
        reopened.close()
        #expect(try Inspector(directory).rows("SELECT unshown IS NULL FROM documents WHERE room = 'plain'") == [["1"]])
    }
}

@Suite("Document versions across restarts", .serialized, .ownThreads)
struct DocumentVersionRestartTests {
    @Test("a room's document version is kept in the store: after a restart a late joiner is welcomed with it, and the next version counts on from it")
    func versionsCountOn() async throws {
        let directory = try TemporaryDirectory()
        do {
            let server = try ServerProcess(["--data", directory.path])
            let ada = try await TestPeer.connect(server)
            _ = try await ada.hello(room: "talk", name: "ada", role: .presenter)
            ada.send(.document(title: "talk.md", format: .markdown, text: "# One\n\nfirst"))
            guard case let .document(first) = try await ada.next("document").payload else { Issue.record("no document"); return }
            #expect(first.version == 1)
            ada.send(.document(title: "talk.md", format: .markdown, text: "# One\n\nsecond", revises: 1))
            guard case let .document(second) = try await ada.next("document").payload else { Issue.record("no version 2"); return }
            #expect(second.version == 2 && second.revises == 1)
            ada.close()
            #expect(server.stop() == 0)
        }
        #expect(try Inspector(directory).rows("SELECT version FROM documents WHERE room = 'talk'") == [["2"]],
                "the store holds the version beside the text")
        let server = try ServerProcess(["--data", directory.path])
        let bob = try await TestPeer.connect(server)
        let welcome = try await bob.hello(room: "talk", name: "bob", role: .presenter)
        #expect(welcome.document?.version == 2 && welcome.document?.text == "# One\n\nsecond")
        bob.send(.document(title: "talk.md", format: .markdown, text: "# One\n\nthird", revises: 2))
        guard case let .document(third) = try await bob.next("document").payload else { Issue.record("no version 3"); return }
        #expect(third.version == 3 && third.revises == 2, "not 1 again: clients that saw version 2 read it as the next one")
        bob.close()
        #expect(server.stop() == 0)
    }
}
