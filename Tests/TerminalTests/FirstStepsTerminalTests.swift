import Foundation
import NeonClient
import NeonCore
import NeonTestSupport
import Testing

/// What a new user meets first, in real terminals: a document the server
/// refuses, no server at all, a mistyped room, a room that already has
/// another document.
@Suite("neonsync first steps in tmux: refused documents, no server, typos", .serialized, .ownThreads)
struct FirstStepsTerminalTests {
    static let client = TerminalEndToEndTests.client

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, url: String) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(url)")
    }

    func exited(_ tmux: Tmux, _ name: String, with status: Int, timeout: TimeInterval = 20) throws {
        try tmux.waitUntil(name, timeout: timeout, "exit status \(status)") { _ in (try? tmux.exitStatus(name)) == status }
    }

    /// The screen as one string without spaces: a sentence wrapped by the
    /// terminal still matches.
    func squeezed(_ screen: [String]) -> String {
        screen.joined().filter { $0 != " " }
    }

    /// `neonsync rooms` against `server`: its table.
    func rooms(_ server: ServerProcess) throws -> String {
        try runProgram(URL(fileURLWithPath: Self.client), ["rooms", "--server", server.url]).out
    }

    @Test("a document over --max-document ends `read` with status 3 and the server's whole sentence, and leaves no room on the server",
          arguments: [(100, 30), (44, 12)])
    func documentTooLarge(columns: Int, rows: Int) throws {
        let server = try ServerProcess(["--max-document", "1K"])
        let tmux = try Tmux()
        let path = NSTemporaryDirectory() + "neonsync-big-\(getpid()).md"
        try ("# Big\n\n" + String(repeating: "a paragraph of some length to go over one kilobyte\n\n", count: 40))
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(path) --room big --name ada", url: server.url)
        try exited(tmux, "ada", with: 3)
        let screen = try tmux.capture("ada")
        let title = URL(fileURLWithPath: path).lastPathComponent
        let expected = "neonsync read: cannot publish “\(title)” in room big: the document is \(size) bytes, over this server's limit of 1024 bytes; split it or ask the operator to raise --max-document (document_too_large)"
        #expect(squeezed(screen).contains(expected.filter { $0 != " " }), "\(screen.joined(separator: "\n"))")
        #expect(!screen.joined().contains("waiting for a document") && !screen.contains { $0.contains("╭") })
        #expect(try rooms(server) == "no rooms\n")
        #expect(server.events("room_dropped").map { $0["room"] as? String } == ["big"])
        #expect(server.stop() == 0)
    }

    @Test("`read FILE` with no server shows the file at once, says the room is offline and what to do, and joins (publishing the file) when the server starts",
          arguments: [(80, 24), (50, 16)])
    func noServer(columns: Int, rows: Int) async throws {
        let port = try RedisProcess.freePort()
        let tmux = try Tmux()
        let talk = try TerminalEndToEndTests.talk()
        defer { unlink(talk) }
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(talk) --room talk --name ada", url: "ws://127.0.0.1:\(port)/")
        let offline = try tmux.waitUntil("ada", timeout: 20, "the file, and the room offline") {
            $0.joined().contains("Opening paragraph 1") && squeezed($0).contains("roomtalkisoffline")
        }
        let status = try #require(offline.last)
        #expect(columns < 80 || status.contains("room talk is offline: start neonsyncd or check --server"), "\(status)")
        try tmux.sendKeys("ada", "G")
        try tmux.waitFor("ada", "Closing paragraph 6", timeout: 10)

        let server = try ServerProcess(["--port", "\(port)"])
        let joined = try tmux.waitUntil("ada", timeout: 30, "the room joined") { !squeezed($0).contains("offline") && $0.joined().contains("1 here") }
        #expect(joined.joined().contains("Closing paragraph 6"), "joining keeps the place read alone")
        // The join's log line may follow what the client shows.
        #expect(server.waitForLog { $0["event"] as? String == "join" } != nil && server.events("join").count == 1)
        let listed = try rooms(server).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(listed.contains { $0.hasPrefix("talk 1 0 - neonsync-talk-") }, "\(listed)")
        try tmux.sendKeys("ada", "q")
        try exited(tmux, "ada", with: 0)
        #expect(server.stop() == 0)
    }

    @Test("wss:// against a plain port says the server did not answer TLS and suggests ws://; ws:// against a TLS port suggests wss://; in the reader's status line and in tail's sentence")
    func wrongScheme() async throws {
        let plain = try ServerProcess()
        let certificates = try TestCertificates.shared()
        let secure = try ServerProcess(["--tls-cert", certificates.certificate, "--tls-key", certificates.key])
        let tmux = try Tmux()
        let talk = try TerminalEndToEndTests.talk()
        defer { unlink(talk) }
        try launch(tmux, "tls", columns: 160, rows: 24, "read \(talk) --room talk --name ada", url: "wss://127.0.0.1:\(plain.port)/")
        let screen = try tmux.waitFor("tls", "room talk is offline: 127.0.0.1:\(plain.port) did not answer TLS; if it serves plain WebSocket, try ws://127.0.0.1:\(plain.port)/", timeout: 20)
        #expect(!screen.joined().contains("SSL err") && screen.joined().contains("Opening paragraph 1"))
        try tmux.sendKeys("tls", "q")
        try exited(tmux, "tls", with: 0)

        let tail = try runProgram(URL(fileURLWithPath: Self.client), ["tail", "talk", "--server", "ws://127.0.0.1:\(secure.port)/"])
        #expect(tail.status == 4, "\(tail.err)")
        #expect(tail.err.contains("(127.0.0.1:\(secure.port) closed the connection without an HTTP answer; if it serves TLS, try wss://127.0.0.1:\(secure.port)/)"), "\(tail.err)")
        let wss = try runProgram(URL(fileURLWithPath: Self.client), ["tail", "talk", "--server", "wss://127.0.0.1:\(plain.port)/"])
        #expect(wss.err.contains("(127.0.0.1:\(plain.port) did not answer TLS; if it serves plain WebSocket, try ws://127.0.0.1:\(plain.port)/)") && !wss.err.contains("SSL err"), "\(wss.err)")
        #expect(plain.stop() == 0 && secure.stop() == 0)
    }

    @Test("a mistyped room says so at once: join tlak beside talk asks `did you mean talk?`, follow nosuchroom names the rooms there are; the typo's room goes when left",
          arguments: [(80, 24), (50, 16)])
    func typos(columns: Int, rows: Int) async throws {
        let server = try ServerProcess()
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "talk", name: "ada", role: .presenter)
        ada.send(.document(title: "Talk", format: .text, text: "one\ntwo\n"))
        _ = try await ada.next("document")
        let tmux = try Tmux()
        try launch(tmux, "typo", columns: columns, rows: rows, "join tlak --name bob", url: server.url)
        let asked = try tmux.waitFor("typo", "no document in tlak; did you mean talk?", timeout: 20)
        #expect(asked.last?.contains("did you mean talk?") == true, "in the status line: \(asked.joined(separator: "\n"))")
        try tmux.sendKeys("typo", "q")
        try exited(tmux, "typo", with: 0)
        let dropped = await server.log(timeout: 10) { $0["event"] as? String == "room_dropped" && $0["room"] as? String == "tlak" }
        #expect(dropped != nil)

        try launch(tmux, "none", columns: columns, rows: rows, "follow nosuchroom --name cy", url: server.url)
        let named = try tmux.waitUntil("none", timeout: 20, "the other rooms named") {
            $0.last?.contains("no document in nosuchroom; rooms: talk") == true
        }
        #expect(!named.joined().contains("did you mean"))
        try tmux.sendKeys("none", "q")
        try exited(tmux, "none", with: 0)
        #expect(server.stop() == 0)
    }

    @Test("closest room names: one swap or edit for short names, more for long ones, none for an unrelated name")
    func closestNames() {
        #expect(RoomSuggestions.distance("tlak", "talk") == 1)
        #expect(RoomSuggestions.distance("", "talk") == 4)
        #expect(RoomSuggestions.closest(to: "tlak", among: ["talk", "walk", "guide"]) == ["talk"])
        #expect(RoomSuggestions.closest(to: "tak", among: ["talk", "tack", "guide"]) == ["tack", "talk"])
        #expect(RoomSuggestions.closest(to: "standupp", among: ["standup", "stand"]) == ["standup"])
        #expect(RoomSuggestions.closest(to: "nosuchroom", among: ["talk"]).isEmpty)
        #expect(RoomSuggestions.sentence(for: "alone", among: ["alone"]) == nil)
        #expect(RoomSuggestions.sentence(for: "xyz", among: ["xyz", "gamma", "alpha", "beta", "delta"]) == "no document in xyz; rooms: alpha, beta, delta, …")
        #expect(RoomSuggestions.sentence(for: "tlak", among: ["tlak", "talk"]) == "no document in tlak; did you mean talk?")
    }

    @Test("read OTHER.md in a room that has another document ends with status 3 and says how to read that one, publish this one there, or read it apart; the same file again reads",
          arguments: [(80, 24), (44, 12)])
    func otherDocument(columns: Int, rows: Int) async throws {
        let server = try ServerProcess()
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "talk", name: "ada", role: .presenter)
        ada.send(.document(title: "Talk", format: .text, text: "one\ntwo\n"))
        _ = try await ada.next("document")
        let tmux = try Tmux()
        let other = try TerminalEndToEndTests.talk()
        defer { unlink(other) }
        let title = URL(fileURLWithPath: other).lastPathComponent
        try launch(tmux, "bob", columns: columns, rows: rows, "read \(other) --room talk --name bob", url: server.url)
        try exited(tmux, "bob", with: 3)
        let screen = try tmux.capture("bob")
        let expected = "neonsync read: room talk already has another document, “Talk”; to read it: neonsync join talk; to publish \(title) there instead: neonsync present \(title) --room talk; to read \(title) in a room of its own: neonsync read \(title) --room NEWROOM"
        #expect(squeezed(screen).contains(expected.filter { $0 != " " }), "\(screen.joined(separator: "\n"))")
        #expect(!screen.joined().contains("Opening paragraph"))

        try launch(tmux, "own", columns: columns, rows: rows, "read \(other) --room own --name bob", url: server.url)
        try tmux.waitFor("own", "Opening paragraph 1", timeout: 20)
        try tmux.sendKeys("own", "q")
        try exited(tmux, "own", with: 0)
        try launch(tmux, "again", columns: columns, rows: rows, "read \(other) --room own --name bob", url: server.url)
        try tmux.waitUntil("again", timeout: 20, "the room joined") { $0.joined().contains("Opening paragraph 1") && $0.joined().contains("1 here") }
        try tmux.sendKeys("again", "q")
        try exited(tmux, "again", with: 0)
        #expect(server.stop() == 0)
    }
}
