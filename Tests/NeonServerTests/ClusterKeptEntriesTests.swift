import NeonCore
@testable import NeonServer
import Testing

/// Entries Redis does not keep across its crash (docs/CLUSTER.md, "Events
/// not kept"): how the writer marks them, and how the reader comes back
/// from a Redis that restarted without them.
@Suite("Cluster entries not kept: marked for the append script, and a Redis restarted without them")
struct ClusterKeptEntriesTests {
    static let anchor = Anchor(block: 1, offset: 0)

    @Test("what a room must hold after a crash, or what is acknowledged, is kept; where someone is and what passes through is not")
    func classification() {
        let kept: [ClientMessage] = [
            .hello(room: "r", name: "ada", role: .reader),
            .document(title: "T", format: .markdown, text: "# T"),
            .edit(rev: 0, ops: TextOperation([.insert("a")]), key: "k"),
            .pointing(who: .presenter),
        ]
        let notKept: [ClientMessage] = [
            .scroll(top: 1, viewport: 2, content: 3, anchor: Self.anchor), .tab(section: 1), .follow(on: true),
            .cursor(position: 0, rev: 0), .relay(data: "x"), .point(anchor: Self.anchor, length: 1), .unpoint,
        ]
        #expect(kept.allSatisfy { $0.isKeptByCluster })
        #expect(notKept.allSatisfy { !$0.isKeptByCluster })
    }

    @Test("the append script is told each entry's kind: 1 a hello, 0 another entry kept, e one not kept, in one call in the room's order")
    func marks() {
        let entry = { (kind: ClusterEntry.Kind, message: String) in
            ClusterEntry(kind: kind, client: "c1", origin: 7, time: 1, message: message)
        }
        let jobs: [ClusterWriter.Job] = [
            .append(room: "r", entry: entry(.message, "hello"), hello: true),
            .append(room: "r", entry: entry(.message, "scroll"), hello: false, kept: false),
            .append(room: "r", entry: entry(.message, "edit"), hello: false),
            .append(room: "r", entry: entry(.bye, ""), hello: false),
        ]
        let (commands, carried) = WriterState.commands(for: jobs, scripts: ["append": "A"], generation: 7, entriesPerCall: 200)
        #expect(commands == [["EVALSHA", "A", "0", "neonsync:rooms", "neonsync:gen:7:rooms",
                              "r", "1", "m", "c1", "7", "1", "hello",
                              "r", "e", "m", "c1", "7", "1", "scroll",
                              "r", "0", "m", "c1", "7", "1", "edit",
                              "r", "0", "b", "c1", "7", "1", ""]])
        #expect(carried.map(\.count) == [4])
    }

    /// A connected reader of Redis run `run` holding room "r", taken up
    /// from a log of 4 entries.
    static func holding(run: String) throws -> ReaderState {
        var state = ReaderState(decoder: EntryDecoder(generation: 1, sent: SentMessages()))
        _ = state.handle(.connected(loadScript: "sha", rangeScript: "range", run: run))
        _ = state.handle(.requests([.want("r")]))
        _ = state.handle(.replies([try RecordedReplies.one("load-4")]))
        #expect(state.rooms == ["r": 4])
        return state
    }

    /// Entry `index` of room "r" as published: a bye of c1.
    static func publishedBye(_ index: Int) -> RedisReply {
        .array([.string(Array("message".utf8)), .string(Array(ClusterReaderStateTests.channel.utf8)),
                .string(Array("\(index)\u{1F}b\u{1F}c1\u{1F}7\u{1F}1000000000\u{1F}".utf8))])
    }

    @Test("connected again to the same Redis run, the reader catches its rooms up; to a restarted one, it takes them up again from image and log")
    func restartTakesUpAgain() throws {
        var same = try Self.holding(run: "one")
        _ = same.handle(.lost)
        #expect(ClusterReaderStateTests.lines(same.handle(.connected(loadScript: "sha", rangeScript: "range", run: "one")))
            == ["subscriber SUBSCRIBE \(ClusterReaderStateTests.channel)", "ask EVALSHA range 0 r 4"])

        var restarted = try Self.holding(run: "one")
        _ = restarted.handle(.lost)
        #expect(ClusterReaderStateTests.lines(restarted.handle(.connected(loadScript: "sha", rangeScript: "range", run: "two")))
            == ["subscriber SUBSCRIBE \(ClusterReaderStateTests.channel)", ClusterReaderStateTests.loadR])
    }

    @Test("after a restart from the append-only file the counter is the room's reservation, past the log: what the node applied is not sent again, and the next entry is past the reservation without a gap")
    func reservationAfterRestart() throws {
        var state = try Self.holding(run: "one")
        // Entries 5 and 6 were not kept: applied here, gone from Redis.
        #expect(ClusterReaderStateTests.lines(state.handle(.published([Self.publishedBye(5), Self.publishedBye(6)])))
            == ["entries r 5,6"])
        _ = state.handle(.lost)
        _ = state.handle(.connected(loadScript: "sha", rangeScript: "range", run: "two"))
        let log = try RecordedReplies.one("load-4").array ?? []
        #expect(ClusterReaderStateTests.lines(state.handle(.replies([.array([log[0], log[1], .integer(1000)])])))
            == ["loaded r image none entries 1,2,3,4 applied 6"], "rebuilt from what Redis kept, nothing sent twice")
        #expect(state.rooms == ["r": 1000])
        #expect(ClusterReaderStateTests.lines(state.handle(.published([Self.publishedBye(1001)]))) == ["entries r 1001"])
    }

    @Test("a counter below what the node applied (Redis lost its data) is still a history of its own, applied whole")
    func counterWentBack() throws {
        var state = try Self.holding(run: "one")
        _ = state.handle(.lost)
        _ = state.handle(.connected(loadScript: "sha", rangeScript: "range", run: "two"))
        #expect(ClusterReaderStateTests.lines(state.handle(.replies([.array([.null, .array([]), .integer(0)])])))
            == ["loaded r image none entries - applied 0"])
        #expect(state.rooms == ["r": 0])
    }

    @Test("the run_id comes from INFO server")
    func runID() {
        #expect(ReaderState.runID(info: "# Server\r\nredis_version:7.0.15\r\nrun_id:f1445\r\ntcp_port:6379\r\n") == "f1445")
        #expect(ReaderState.runID(info: "# Server\r\n") == nil)
    }
}
