import NeonClient
import NeonCore
import Testing

@Suite("Programs as the runtime drives them: tail, replay, a lost connection")
struct ProgramTests {
    func tail(json: Bool = false, servers: [String] = ["ws://a/"]) -> TailProgram {
        TailProgram(room: "talk", name: "ada", json: json, servers: servers, timeOfDay: { "12:00:00" })
    }

    func welcome(seq: Int) throws -> ServerMessage {
        ServerMessage(seq: seq, .welcome(Welcome(you: ClientID("c9"), room: "talk", document: nil, readers: [], presenter: nil,
                                                 draft: DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0)))))
    }

    @Test("a lost connection says why, and on a failover list which server comes next")
    func disconnectionSentence() {
        #expect(Disconnection(cause: .closed("bye"), server: "ws://a/").sentence == "bye")
        #expect(Disconnection(cause: .failed("refused"), server: "ws://a/", retryAt: .seconds(1), next: "ws://b/").sentence
                == "cannot reach ws://a/: refused; trying ws://b/ next")
        #expect(Disconnection(cause: .notOpened("no socket"), server: "ws://a/", next: "ws://b/").sentence
                == "cannot connect to ws://a/: no socket")
    }

    @Test("tail says hello as an observer and leaves the token and resume secret to the runtime")
    func tailHello() {
        var program = tail()
        #expect(program.update(.connected(to: "ws://a/"), at: .zero) == [.send(.hello(room: "talk", name: "ada", role: .observer))])
    }

    @Test("tail without a welcome within 5 s names every server and the last failure, and exits 4")
    func tailFirstContact() {
        var program = tail(servers: ["ws://a/", "ws://b/"])
        #expect(program.nextWake(after: .zero) == TailProgram.firstContact)
        _ = program.update(.disconnected(Disconnection(cause: .failed("connection refused"), server: "ws://a/",
                                                       retryAt: .milliseconds(300), next: "ws://b/")), at: .zero)
        #expect(program.update(.tick, at: .seconds(4)) == [])
        #expect(program.update(.tick, at: .seconds(5)) == [
            .printError("neonsync tail: cannot reach any of ws://a/, ws://b/ within 5 s (connection refused); start neonsyncd or check --server"),
            .exit(ExitStatus.unreachable),
        ])
    }

    @Test("tail refused before its welcome prints the server's sentence and exits 3; --json prints the message first")
    func tailRefused() {
        var program = tail(json: true)
        let error = ServerMessage(seq: 1, .error(ProtocolError(.invalidRoom, "bad room")))
        #expect(program.update(.received(error, text: "{raw}"), at: .zero) == [
            .print("{raw}"),
            .printError("neonsync tail: the server refused to join room \"talk\": bad room (invalid_room)"),
            .exit(ExitStatus.refused),
        ])
    }

    @Test("tail reports a lost connection with the wait, and a welcome from another server as a new numbering")
    func tailReconnect() throws {
        var program = tail(servers: ["ws://a/", "ws://b/"])
        _ = program.update(.connected(to: "ws://a/"), at: .zero)
        #expect(program.update(.received(try welcome(seq: 2), text: ""), at: .zero) ==
                [.print("12:00:00 watching talk: no readers; no document; draft rev 0, 0/280 ok")])
        #expect(program.nextWake(after: .seconds(1)) == nil)
        let lost = Disconnection(cause: .closed("connection closed (1006)"), server: "ws://a/",
                                 retryAt: .milliseconds(1270), next: "ws://b/")
        #expect(program.update(.disconnected(lost), at: .seconds(1)) == [
            .printError("neonsync tail: lost the connection to ws://a/ (connection closed (1006)); reconnecting to ws://b/ in 0.27 s"),
        ])
        _ = program.update(.connected(to: "ws://b/"), at: .milliseconds(1300))
        let back = program.update(.received(try welcome(seq: 9), text: ""), at: .milliseconds(1300))
        #expect(back.first == .printError("neonsync tail: reconnected to room \"talk\" on ws://b/; another server than before, with its own room and numbering (the welcome shows the room there now)"))
    }

    @Test("replay shows each record when its time divided by the speed has passed, and q quits")
    func replayPlays() throws {
        let log = """
        {"ts":"2026-11-29T23:14:21.000Z","level":"info","event":"join","room":"talk","client":"c1","name":"ada","role":"reader","members":1}
        {"ts":"2026-11-29T23:14:25.000Z","level":"info","event":"join","room":"talk","client":"c2","name":"bob","role":"reader","members":2}
        """
        var program = ReplayProgram(file: "x.jsonl", entries: try ServerLogEntry.parse(log, file: "x.jsonl"), room: nil,
                                    speed: 2, columns: 80, rows: 24)
        #expect(program.monitor.feed.lines.map(\.text) == ["replaying x.jsonl, every room, 2 records"])
        _ = program.update(.tick, at: .zero)
        #expect(program.monitor.readers.map(\.name) == ["ada"])
        #expect(program.nextWake(after: .zero) == .seconds(2))
        _ = program.update(.tick, at: .seconds(2))
        #expect(program.monitor.readers.map(\.name) == ["ada", "bob"])
        #expect(program.monitor.source == "end of log · replay ×2")
        #expect(program.update(.input(.key(.character("q"))), at: .seconds(3)) == [.quit])
    }
}
