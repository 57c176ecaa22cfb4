import NeonCore
@testable import NeonServer
import Testing

/// `sentinel://` shards and entries a replica confirms before anyone is
/// told of them (docs/CLUSTER.md, "Replicas and Sentinel"): the URL, what
/// the Sentinels answer, and the writer's `WAIT`s and releases.
@Suite("Cluster replicas: sentinel:// URLs, WAIT before release, unavailable when no replica confirms")
struct ClusterReplicaTests {
    static let scripts = ["append": "A", "release": "R"]

    static func edit(_ client: String, room: String = "r") -> WriterState.Job {
        .append(room: room, entry: ClusterEntry(kind: .message, client: client, origin: 7, time: 1,
                                                message: #"{"type":"edit","rev":0,"ops":["x"],"key":"k"}"#),
                hello: false, kept: true)
    }

    static func scroll(_ client: String, room: String = "r") -> WriterState.Job {
        .append(room: room, entry: ClusterEntry(kind: .message, client: client, origin: 7, time: 1, message: "{}"),
                hello: false, kept: false)
    }

    static func jobs(_ jobs: [WriterState.Job]) -> WriterState.Event {
        .jobs(jobs, scripts: scripts, at: .now)
    }

    static func sent(_ actions: [WriterState.Action]) -> [[String]] {
        actions.flatMap { action -> [[String]] in
            if case let .send(commands) = action { return commands }
            return []
        }
    }

    static func failed(_ actions: [WriterState.Action]) -> [String] {
        actions.compactMap { if case let .deliver(.failed(client, _)) = $0 { client } else { nil } }
    }

    @Test("a sentinel:// URL names its Sentinels in order (default port 26379), the master's name and a database; in a --redis list its commas join Sentinels, not shards")
    func sentinelURL() throws {
        let one = try RedisEndpoint(parsing: "sentinel://10.0.0.1:26380,10.0.0.2,h3:7000/neon1/2")
        #expect(one.sentinels == [RedisAddress(host: "10.0.0.1", port: 26380), RedisAddress(host: "10.0.0.2", port: 26379),
                                  RedisAddress(host: "h3", port: 7000)])
        #expect(one.masterName == "neon1" && one.database == 2 && one.isSentinel)
        #expect(one.description == "sentinel://10.0.0.1:26380,10.0.0.2:26379,h3:7000/neon1/2")
        let list = try RedisEndpoint.list(parsing: "sentinel://a:1,b:2,c:3/m1,redis://d:6379,sentinel://e:1,f:2/m2")
        #expect(list.map(\.description) == ["sentinel://a:1,b:2,c:3/m1", "redis://d:6379", "sentinel://e:1,f:2/m2"])
        #expect(!list[1].isSentinel)
    }

    @Test("a sentinel:// URL without a master's name, with a bad port, a Sentinel listed twice or a password is refused with a sentence saying what to write")
    func badSentinelURLs() {
        for (url, says) in [("sentinel://a:1,b:2", "names no master"), ("sentinel://a:1,b:2/", "names no master"),
                            ("sentinel://a:x/m", "not a number from 1 to 65535"), ("sentinel://a:1,a:1/m", "twice"),
                            ("sentinel://p@a:1/m", "--redis-password-file"), ("sentinel://a:1,,b:2/m", "empty Sentinel"),
                            ("sentinel://a:1/m n", "letters, digits"), ("rediss://a:1", "sentinel://HOST:PORT")] {
            #expect(throws: NeonError.self, "\(url)") { try RedisEndpoint.list(parsing: url) }
            do {
                _ = try RedisEndpoint.list(parsing: url)
            } catch {
                #expect(error.description.contains(says), "\(url): \(error.description)")
            }
        }
    }

    @Test("what Sentinels answer: a master's address; a +switch-master message for this master gives the new one, another master's is passed over")
    func sentinelAnswers() {
        #expect(SentinelQuery.address(.array([.string(Array("127.0.0.1".utf8)), .string(Array("6380".utf8))]))
            == RedisAddress(host: "127.0.0.1", port: 6380))
        #expect(SentinelQuery.address(.null) == nil)
        #expect(SentinelQuery.address(.array([.string(Array("h".utf8)), .string(Array("0".utf8))])) == nil)
        #expect(SentinelQuery.switched("neon1 127.0.0.1 6379 127.0.0.1 6380", name: "neon1") == RedisAddress(host: "127.0.0.1", port: 6380))
        #expect(SentinelQuery.switched("other 127.0.0.1 6379 127.0.0.1 6380", name: "neon1") == nil)
        #expect(SentinelQuery.switched("neon1 127.0.0.1 6379", name: "neon1") == nil)
    }

    @Test("a shard named by Sentinels waits for one replica by default; --redis-replicas overrides it, for redis:// shards too")
    func replicasByShard() throws {
        let endpoints = try RedisEndpoint.list(parsing: "sentinel://a:1/m,redis://b:2")
        let defaults = ClusterConfiguration(endpoints: endpoints, node: "n")
        #expect(defaults.replicas(ofShard: 0) == 1 && defaults.replicas(ofShard: 1) == 0)
        let two = ClusterConfiguration(endpoints: endpoints, node: "n", replicas: 2)
        #expect(two.replicas(ofShard: 0) == 2 && two.replicas(ofShard: 1) == 2)
    }

    @Test("with a replica to confirm, a batch of appends ends with WAIT; held entries (negative answers) are released with the next batch once WAIT counts enough replicas, and nobody is told anything")
    func waitConfirms() {
        var state = WriterState(generation: 7, replicas: 1, waitMilliseconds: 250)
        let first = Self.sent(state.handle(Self.jobs([Self.edit("c1"), Self.scroll("c2", room: "s")])))
        #expect(first.count == 2 && first[0].prefix(2) == ["EVALSHA", "A"] && first[1] == ["WAIT", "1", "250"])
        let answered = state.handle(.replies([.array([.integer(-5), .integer(9)]), .integer(1)]))
        #expect(Self.failed(answered).isEmpty)
        #expect(state.held.isEmpty && state.releases == ["r": 5] && state.hasWork)
        let next = Self.sent(state.handle(Self.jobs([])))
        #expect(next == [["EVALSHA", "R", "0", "r", "5"]], "the release goes out alone, with no WAIT")
        #expect(state.handle(.replies([.integer(1)])).count == 1, "only the round trip is recorded")
        #expect(!state.hasWork)
    }

    @Test("a WAIT that counts too few replicas answers each held kept entry's sender unavailable (an entry not kept tells nobody); the entries stay held and a later WAIT that confirms releases them all")
    func waitFallsShort() {
        var state = WriterState(generation: 7, replicas: 1, waitMilliseconds: 250)
        _ = state.handle(Self.jobs([Self.edit("c1"), Self.scroll("c2"), Self.edit("c3", room: "t")]))
        let short = state.handle(.replies([.array([.integer(-5), .integer(-6), .integer(-2)]), .integer(0)]))
        #expect(Self.failed(short) == ["c1", "c3"])
        let reasons = short.compactMap { if case let .deliver(.failed(_, reason)) = $0 { reason } else { nil } }
        #expect(reasons.allSatisfy { $0.contains("no replica") && $0.contains("250 ms") }, "\(reasons)")
        #expect(short.contains { if case .unconfirmed(2) = $0 { true } else { false } })
        #expect(state.held == ["r": 6, "t": 2] && state.releases.isEmpty && !state.hasWork)
        // The next appends' WAIT covers the entries held before them.
        let next = Self.sent(state.handle(Self.jobs([Self.edit("c4")])))
        #expect(next.last == ["WAIT", "1", "250"])
        _ = state.handle(.replies([.array([.integer(-7)]), .integer(1)]))
        #expect(state.releases == ["r": 7, "t": 2] && state.held.isEmpty)
        #expect(Self.sent(state.handle(Self.jobs([]))) == [["EVALSHA", "R", "0", "r", "7", "t", "2"]])
    }

    @Test("a master refusing writes for want of replicas (NOREPLICAS) answers the senders unavailable and keeps a bye to append again; the connection breaking forgets what was held")
    func refusals() {
        var state = WriterState(generation: 7, replicas: 1)
        let bye = WriterState.Job.append(room: "r", entry: ClusterEntry(kind: .bye, client: "c9", origin: 7, time: 1), hello: false)
        _ = state.handle(Self.jobs([Self.edit("c1"), bye]))
        let refused = state.handle(.replies([.error("NOREPLICAS Not enough good replicas to write."), .integer(0)]))
        #expect(Self.failed(refused) == ["c1"])
        #expect(state.retry.count == 1 && !state.hasWork, "appended again with the next jobs or beat")
        _ = state.handle(Self.jobs([Self.edit("c2")]))
        _ = state.handle(.replies([.array([.integer(-3), .integer(-4)]), .integer(0)]))
        #expect(state.held == ["r": 4])
        _ = state.handle(.lost(reason: "gone"))
        #expect(state.held.isEmpty && state.releases.isEmpty)
    }

    @Test("without replicas to confirm, no WAIT is sent and the append script's answers are taken as before")
    func noReplicas() {
        var state = WriterState(generation: 7)
        let sent = Self.sent(state.handle(Self.jobs([Self.edit("c1")])))
        #expect(sent.count == 1 && !sent.contains { $0.first == "WAIT" })
        #expect(Self.failed(state.handle(.replies([.array([.integer(3)])]))).isEmpty)
        #expect(state.held.isEmpty && !state.hasWork)
    }
}

extension ClusterReplicaTests {
    @Test("a release the master refused (NOREPLICAS: it published nothing) is sent again with the next batch")
    func releaseRefused() {
        var state = WriterState(generation: 7, replicas: 1)
        _ = state.handle(Self.jobs([Self.edit("c1")]))
        _ = state.handle(.replies([.array([.integer(-4)]), .integer(1)]))
        #expect(Self.sent(state.handle(Self.jobs([]))) == [["EVALSHA", "R", "0", "r", "4"]])
        _ = state.handle(.replies([.error("NOREPLICAS Not enough good replicas to write.")]))
        #expect(state.releases == ["r": 4] && !state.hasWork, "not at once: with the next jobs or beat")
        #expect(Self.sent(state.handle(Self.jobs([]))) == [["EVALSHA", "R", "0", "r", "4"]])
        _ = state.handle(.replies([.integer(1)]))
        #expect(!state.hasWork)
    }
}
