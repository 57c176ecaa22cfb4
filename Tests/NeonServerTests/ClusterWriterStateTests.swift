@testable import NeonServer
import Testing

/// The writer's decisions fed replies recorded from redis-server
/// (`RecordedReplies`), without a Redis: what a batch is sent as, and who
/// is told what when Redis answers, refuses or goes.
@Suite("Cluster writer state: batches, acks and failures from recorded replies")
struct ClusterWriterStateTests {
    static let scripts = ["append": "A", "snapshot": "S", "idle": "I"]
    static let start = ContinuousClock.now

    static func hello(_ client: String, _ name: String) -> WriterState.Job {
        .append(room: "r", entry: ClusterEntry(kind: .message, client: client, origin: 7, time: 1_000_000_000,
                                               message: #"{"type":"hello","room":"r","name":"\#(name)","role":"reader"}"#),
                hello: true)
    }

    static func bye(_ client: String, room: String = "r") -> WriterState.Job {
        .append(room: room, entry: ClusterEntry(kind: .bye, client: client, origin: 7, time: 1_000_000_000), hello: false)
    }

    /// The jobs record.py appended to room "r", in one call.
    static let recorded = [hello("c1", "ada"), hello("c2", "bob"), bye("c1"), bye("c2")]

    static func lines(_ actions: [WriterState.Action]) -> [String] {
        actions.map { action in
            switch action {
            case let .send(commands): "send " + commands.map { $0.prefix(2).joined(separator: " ") + " (\($0.count))" }.joined(separator: " | ")
            case let .deliver(.failed(client, reason)): "failed \(client): \(reason)"
            case let .deliver(.redis(up, _)): "redis \(up ? "up" : "down")"
            case let .deliver(delivery): "\(delivery)"
            case let .health(connected): "health \(connected ? "connected" : "disconnected")"
            case let .answered(sent): "answered \(start.duration(to: sent))"
            case let .unconfirmed(count): "unconfirmed \(count)"
            }
        }
    }

    static func jobs(_ jobs: [WriterState.Job], at seconds: Int64 = 0) -> WriterState.Event {
        .jobs(jobs, scripts: scripts, at: start + .seconds(seconds))
    }

    @Test("a batch of appends goes as one call of the append script, with the rooms sets and seven values an entry; its acks tell nobody anything")
    func batchAcked() throws {
        var state = WriterState(generation: 7)
        let sent = state.handle(Self.jobs(Self.recorded))
        guard case let .send(commands) = sent.first else { Issue.record("sent nothing: \(sent)"); return }
        #expect(commands == [["EVALSHA", "A", "0", "neonsync:rooms", "neonsync:gen:7:rooms",
                              "r", "1", "m", "c1", "7", "1000000000", #"{"type":"hello","room":"r","name":"ada","role":"reader"}"#,
                              "r", "1", "m", "c2", "7", "1000000000", #"{"type":"hello","room":"r","name":"bob","role":"reader"}"#,
                              "r", "0", "b", "c1", "7", "1000000000", "",
                              "r", "0", "b", "c2", "7", "1000000000", ""]])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("append-4")]))) == ["answered 0.0 seconds"])
        #expect(state.inFlight.isEmpty)
    }

    @Test("runs of appends are cut at the most entries a call carries, and every other job is a command of its own, in order")
    func commandsInOrder() throws {
        var state = WriterState(generation: 7, entriesPerCall: 2)
        let jobs: [WriterState.Job] = [Self.bye("a"), Self.bye("b"), Self.bye("c"),
                                       .snapshot(room: "r", index: 3, image: "{}", trimBelow: 3), Self.bye("d"),
                                       .emptied(room: "r", index: 4, atMilliseconds: 5), .released(room: "r")]
        #expect(Self.lines(state.handle(Self.jobs(jobs)))
            == ["send EVALSHA A (19) | EVALSHA A (12) | EVALSHA S (8) | EVALSHA A (12) | EVALSHA I (6) | SREM neonsync:gen:7:rooms (3)"])
        let acked = try [RecordedReplies.one("append-4"), RecordedReplies.one("append-4"), RecordedReplies.one("snapshot"),
                         RecordedReplies.one("append-4"), RecordedReplies.one("snapshot"), RecordedReplies.one("snapshot")]
        #expect(Self.lines(state.handle(.replies(acked))) == ["answered 0.0 seconds"])
    }

    @Test("an entry Redis refused is failed to its own client only, with Redis's words; a whole call refused (NOSCRIPT) fails each of its entries")
    func refusedToTheRightClient() throws {
        var state = WriterState(generation: 7)
        _ = state.handle(Self.jobs([Self.bye("c3"), Self.bye("c4", room: "s")]))
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("append-refused")])))
            == ["answered 0.0 seconds", "failed c3: Redis refused it (ERR The ID specified in XADD is equal or smaller than the target stream top item)"])
        _ = state.handle(Self.jobs([Self.hello("c1", "ada"), Self.hello("c2", "bob")]))
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("noscript")]))) == [
            "answered 0.0 seconds",
            "failed c1: Redis refused it (NOSCRIPT No matching script. Please use EVAL.)",
            "failed c2: Redis refused it (NOSCRIPT No matching script. Please use EVAL.)",
        ])
    }

    @Test("acks are read oldest batch first, each failure going to the client of its own batch")
    func acksInOrder() throws {
        var state = WriterState(generation: 7)
        _ = state.handle(Self.jobs([Self.bye("c3"), Self.bye("c4", room: "s")], at: 1))
        _ = state.handle(Self.jobs([Self.bye("c5"), Self.bye("c6", room: "s")], at: 2))
        #expect(state.inFlight.count == 2)
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("append-refused")])))
            == ["answered 1.0 seconds", "failed c3: Redis refused it (ERR The ID specified in XADD is equal or smaller than the target stream top item)"])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("append-4")]))) == ["answered 2.0 seconds"])
        #expect(state.handle(.replies([try RecordedReplies.one("append-4")])).isEmpty, "nothing is in flight")
    }

    @Test("a lost connection fails every entry not answered, oldest first, with a sentence to retry on; Redis is reported down once and back once; the byes are appended again when it is")
    func lostConnection() throws {
        var state = WriterState(generation: 7)
        _ = state.handle(Self.jobs([Self.hello("c1", "ada"), Self.bye("c2")]))
        _ = state.handle(Self.jobs([Self.hello("c3", "cy")]))
        #expect(Self.lines(state.handle(.lost(reason: "lost the connection to Redis at redis://127.0.0.1:6379: connection closed"))) == [
            "health disconnected", "redis down",
            "failed c1: the connection to the cluster's Redis broke",
            "failed c3: the connection to the cluster's Redis broke",
        ])
        #expect(state.inFlight.isEmpty && state.retry.count == 1)
        #expect(Self.lines(state.handle(.unreachable(reason: "cannot reach Redis at redis://127.0.0.1:6379: Connection refused",
                                                     jobs: [Self.hello("c4", "di"), Self.bye("c5")])))
            == ["failed c4: the cluster's Redis cannot be reached"], "reported down already; the bye waits too")
        #expect(Self.lines(state.handle(.connected(reason: "reconnected to redis://127.0.0.1:6379"))) == ["health connected", "redis up"])
        #expect(state.handle(.connected(reason: "reconnected")).isEmpty, "reported up already")
        guard case let .send(commands) = state.handle(Self.jobs([])).first else { Issue.record("the byes were not sent again"); return }
        #expect(commands.count == 1 && commands[0].filter { $0 == "b" }.count == 2 && commands[0].contains("c2") && commands[0].contains("c5"))
        #expect(state.retry.isEmpty)
    }

    @Test("the beat's answers: renewed, or set again after it expired, keep the node in; reaped while away, or its name taken by another incarnation, put it out")
    func beatAnswers() throws {
        #expect(!WriterState.lostMembership(beat: try RecordedReplies.one("beat-renewed")))
        #expect(!WriterState.lostMembership(beat: try RecordedReplies.one("beat-expired")))
        #expect(WriterState.lostMembership(beat: try RecordedReplies.one("beat-reaped")))
        #expect(WriterState.lostMembership(beat: try RecordedReplies.one("beat-taken")))
    }

    @Test("the incarnations other than this one whose node key no longer names them are the dead to reap")
    func deadIncarnations() throws {
        let others = WriterState.others(in: try RecordedReplies.one("hgetall-incarnations"), than: 7)
        #expect(others.map(\.generation) == ["8", "9"] && others.map(\.name) == ["b", "c"])
        #expect(WriterState.dead(others, live: try RecordedReplies.all("get-nodes")) == ["9"])
    }

    @Test("a room the expire script removed is told with how long it was idle; fewer records than the limit means the sweep is done")
    func expiredRooms() throws {
        let (removed, more) = WriterState.expired(try RecordedReplies.one("expire-one"), now: 61_000, limit: 100)
        guard case let .expired(room, idle)? = removed.first, removed.count == 1 else { Issue.record("\(removed)"); return }
        #expect(room == "t" && idle == 60)
        #expect(!more)
        #expect(WriterState.expired(try RecordedReplies.one("expire-one"), now: 61_000, limit: 1).more)
    }
}
