import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("Shard placement: jump consistent hash of FNV-1a")
struct ShardPlacementTests {
    @Test("known answers: FNV-1a 64 of \"\" and \"a\" and jump hash values as the reference implementation gives them (every node, every version places a room alike)")
    func knownAnswers() {
        #expect(ShardPlacement.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(ShardPlacement.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(ShardPlacement.fnv1a("notes") == 0x4090_6c71_b95b_dbaa)
        #expect([1, 2, 3, 10, 1000].map { ShardPlacement.jump(1, buckets: $0) } == [0, 0, 0, 6, 549])
        #expect([1, 2, 3, 10, 1000].map { ShardPlacement.jump(0xdead_beef, buckets: $0) } == [0, 1, 2, 5, 285])
        #expect([1, 2, 3, 10, 1000].map { ShardPlacement.jump(.max, buckets: $0) } == [0, 1, 2, 9, 313])
        #expect(ShardPlacement.shard(of: "south", count: 3) == 1 && ShardPlacement.shard(of: "blue", count: 3) == 2)
        #expect(ShardPlacement.shard(of: "anything", count: 1) == 0)
    }

    @Test("30,000 rooms spread evenly over three shards, and a fourth shard takes about a quarter of them, from every old shard, moving none between the old ones")
    func spreadAndGrowth() {
        let rooms = (0..<30_000).map { "room-\($0)" }
        var counts = [0, 0, 0]
        for room in rooms { counts[ShardPlacement.shard(of: room, count: 3)] += 1 }
        #expect(counts.allSatisfy { (9_500...10_500).contains($0) }, "\(counts)")
        var moved = 0
        for room in rooms {
            let before = ShardPlacement.shard(of: room, count: 3)
            let after = ShardPlacement.shard(of: room, count: 4)
            if after != before {
                #expect(after == 3, "\(room) moved from \(before) to \(after)")
                moved += 1
            }
        }
        #expect((6_900...8_100).contains(moved), "\(moved) of 30,000 moved")
    }
}

@Suite("Cluster on three Redis shards", .serialized, .ownThreads)
struct ClusterShardTests {
    @Test("rooms spread over three shards: each room's counter, log and image are on the shard its name hashes to and on no other, every shard knows its place and the node; a node given the shards in another order exits 1 naming the shard; an empty or repeated --redis entry exits 2")
    func roomsLandOnTheirShards() async throws {
        let shards = try (0..<3).map { _ in try RedisProcess() }
        let node = try clusterNode(shards, "a", ["--snapshot-every", "10"])
        let rooms = (0..<3).map { room(onShard: $0, of: 3) }
        for room in rooms {
            let peer = try await TestPeer.connect(url: node.url)
            let welcome = try await peer.hello(room: room, name: "ada", role: .reader)
            var rev = welcome.draft.rev
            for n in 0..<10 {
                peer.send(.edit(rev: rev, ops: TextOperation(rev == 0 ? [.insert("x")] : [.retain(rev), .insert("x")]), key: "\(room)-\(n)"))
                guard case let .ack(acked) = try await peer.next("ack", timeout: .seconds(10)).payload else { return }
                rev = acked
            }
            peer.close()
        }
        for (index, room) in rooms.enumerated() {
            for (shard, redis) in shards.enumerated() {
                let here = shard == index ? "1" : "0"
                for key in ["n", "log", "snap"] {
                    #expect(try redis.cli(["EXISTS", "neonsync:{\(room)}:\(key)"]) == here, "\(room):\(key) on shard \(shard + 1)")
                }
                #expect(try redis.cli(["SISMEMBER", "neonsync:rooms", room]) == here)
            }
        }
        for (shard, redis) in shards.enumerated() {
            #expect(try redis.cli(["GET", "neonsync:shard"]) == "\(shard + 1)/3")
            #expect(try redis.cli(["HVALS", "neonsync:incarnations"]) == "a")
        }
        #expect(try shards[0].cli(["GET", "neonsync:generation"]) == "1")
        #expect(try shards[1].cli(["EXISTS", "neonsync:generation"]) == "0", "only the first shard hands out incarnations")

        let reordered = try runDaemon(["--port", "0", "--node", "b", "--redis", [shards[1], shards[0], shards[2]].map(\.url).joined(separator: ",")])
        #expect(reordered.status == 1)
        #expect(reordered.err.contains("Redis at \(shards[1].url) is shard 2 of 3 of this cluster, but --redis"), "\(reordered.err)")
        let empty = try runDaemon(["--port", "0", "--redis", "\(shards[0].url),,\(shards[1].url)"])
        #expect(empty.status == 2 && empty.err.contains("entry 2 of 3 is empty"), "\(empty.err)")
        let twice = try runDaemon(["--port", "0", "--redis", "\(shards[0].url),\(shards[0].url)"])
        #expect(twice.status == 2 && twice.err.contains("twice"), "\(twice.err)")
        expectDocumentedLog(node, name: "a")
    }

    @Test("the three-node, 200-edits test on three shards: one node SIGKILLed halfway, every acked edit kept once, and the shard holding the room SIGKILLed and restarted from its AOF keeps every acked revision")
    func threeEditorsOnShards() async throws {
        let shards = try (0..<3).map { _ in try RedisProcess() }
        try await threeEditorsSurviveANodeKill(shards, room: room(onShard: 2, of: 3, prefix: "notes"))
    }

    @Test("one of three shards SIGKILLed: only its room answers unavailable; the other rooms carry on across two nodes, newcomers join them, /healthz stays 200 and redis_down names that shard; back from its AOF, the resent edit is acked and every acked edit of every room is kept")
    func oneShardDown() async throws {
        let shards = try (0..<3).map { _ in try RedisProcess() }
        // A long node timeout: the shard is down for a few seconds whatever
        // the machine's load, and nobody is reaped meanwhile.
        let a = try clusterNode(shards, "a", ["--node-timeout", "120"])
        let b = try clusterNode(shards, "b", ["--node-timeout", "120"])
        let rooms = (0..<3).map { room(onShard: $0, of: 3) }
        var editors: [TestPeer] = []
        var watchers: [Listener] = []
        for room in rooms {
            let editor = try await TestPeer.connect(url: a.url)
            _ = try await editor.hello(room: room, name: "ada", role: .reader)
            let watcher = try await TestPeer.connect(url: b.url)
            _ = try await watcher.hello(room: room, name: "bob", role: .reader)
            editors.append(editor)
            watchers.append(Listener(watcher))
            editor.send(.edit(rev: 0, ops: TextOperation([.insert("a")]), key: "\(room)-1"))
            #expect(try await editor.next("ack", timeout: .seconds(10)).payload == .ack(rev: 1))
        }

        let down = 1
        shards[down].stop(signal: SIGKILL)
        let lost = await a.log { $0["event"] as? String == "redis_down" }
        #expect(lost?["redis"] as? String == shards[down].url, "\(String(describing: lost))")
        #expect(try httpRequest(port: a.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
        editors[down].send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "\(rooms[down])-2"))
        #expect(try await editors[down].error(timeout: .seconds(10)).code == .unavailable)
        for room in [0, 2] {
            editors[room].send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "\(rooms[room])-2"))
            #expect(try await editors[room].next("ack", timeout: .seconds(10)).payload == .ack(rev: 2))
            let seen = await watchers[room].wait { if case let .edit(info) = $0.payload { info.key == "\(rooms[room])-2" } else { false } }
            #expect(seen != nil, "the edit in \(rooms[room]) reached the other node")
            let newcomer = try await TestPeer.connect(url: b.url)
            #expect(try await newcomer.hello(room: rooms[room], name: "cy", role: .observer).draft.text == "ab")
            newcomer.close()
        }

        try shards[down].start()
        let back = await a.log(timeout: 20) { $0["event"] as? String == "redis_up" }
        #expect(back?["redis"] as? String == shards[down].url)
        var acked = false
        let deadline = ContinuousClock.now + .seconds(20)
        while !acked, ContinuousClock.now < deadline {
            editors[down].send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "\(rooms[down])-2"))
            let answer = try await editors[down].next(timeout: .seconds(10))
            if answer.payload == .ack(rev: 2) { acked = true } else { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(acked, "the resent edit was acked once its shard was back")
        let fresh = try clusterNode(shards, "c")
        for room in rooms {
            let draft = try await draftSeen(at: fresh.url, room: room)
            #expect(draft.text == "ab" && draft.rev == 2, "\(room): \(draft)")
        }
        for watcher in watchers { watcher.stop() }
        expectDocumentedLog(a, name: "a")
        expectDocumentedLog(b, name: "b")
    }
}

@Suite("neonsync-bench redis smoke run", .ownThreads)
struct RedisBenchSmokeTests {
    @Test("neonsync-bench redis over two shards: events appended and read back through the nodes' writer and reader, spread over both shards, none refused; Redis CPU per event reported; a bad flag exits 2")
    func smoke() throws {
        let shards = try (0..<2).map { _ in try RedisProcess() }
        let binary = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync-bench")
        let run = try RunningProgram(binary, ["redis", "--redis", shards.map(\.url).joined(separator: ","), "--rooms", "20",
                                              "--duration", "1", "--window", "2"])
        let deadline = Date().addingTimeInterval(60)
        while run.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        _ = run.drained()
        #expect(run.terminationStatus == 0, "\(run.errorLines)")
        let figures = run.lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any] ?? [:]
        let events = figures["events"] as? Int ?? 0
        #expect(events > 40, "\(figures)")
        #expect(figures["failures"] as? Int == 0 && figures["shards"] as? Int == 2)
        let perShard = (1...2).map { (figures["redis_\($0)_events_per_s"] as? NSNumber)?.doubleValue ?? 0 }
        #expect(perShard.allSatisfy { $0 > 0 }, "both shards carried events: \(figures)")
        #expect(figures["redis_cpu_us_per_event"] != nil)

        let bad = try RunningProgram(binary, ["redis", "--rooms", "none"])
        let until = Date().addingTimeInterval(10)
        while bad.isRunning, Date() < until { Thread.sleep(forTimeInterval: 0.05) }
        _ = bad.drained()
        #expect(bad.terminationStatus == 2)
        #expect(bad.errorLines.contains { $0.contains("--rooms needs a whole number") }, "\(bad.errorLines)")
    }
}

@Suite("neonsyncd reshard: a third shard for a stopped two-shard cluster", .serialized, .ownThreads)
struct ReshardTests {
    @Test("rooms on two shards, nodes stopped: reshard --dry-run counts the rooms that move; reshard moves exactly those (about a third, all to the new shard, their keys and set memberships gone from the old one), a node on the three shards finds every draft and image as it was, and a node still given the two-shard list is refused; with a node alive, reshard refuses (exit 1); bad flags exit 2")
    func addAShard() async throws {
        let shards = try (0..<3).map { _ in try RedisProcess() }
        let two = shards.prefix(2).map(\.url).joined(separator: ",")
        let three = shards.map(\.url).joined(separator: ",")
        let rooms = (0..<30).map { "room-\($0)" }
        let node = try clusterNode(Array(shards.prefix(2)), "a", ["--snapshot-every", "10", "--room-release", "0"])
        for room in rooms {
            let peer = try await TestPeer.connect(url: node.url)
            _ = try await peer.hello(room: room, name: "ada", role: .reader)
            let edits = room.hasSuffix("7") ? 12 : 1
            for n in 0..<edits {
                peer.send(.edit(rev: n, ops: TextOperation(n == 0 ? [.insert(room)] : [.retain(room.count + n - 1), .insert("!")]),
                                key: "\(room)-\(n)"))
                _ = try await peer.next("ack", timeout: .seconds(10))
            }
            peer.close()
        }
        let alive = try runDaemon(["reshard", "--from", two, "--to", three])
        #expect(alive.status == 1 && alive.err.contains("node \"a\" is still alive"), "\(alive.err)")
        #expect(node.stop() == 0)

        let moving = rooms.filter { ShardPlacement.shard(of: $0, count: 3) == 2 }
        #expect(rooms.allSatisfy { ShardPlacement.shard(of: $0, count: 3) == 2 || ShardPlacement.shard(of: $0, count: 3) == ShardPlacement.shard(of: $0, count: 2) })
        let dry = try runDaemon(["reshard", "--from", two, "--to", three, "--dry-run"])
        #expect(dry.status == 0 && dry.out.contains("would move \(moving.count) of 30 rooms"), "\(dry.out)\(dry.err)")
        #expect(try shards[2].cli(["DBSIZE"]) == "0", "a dry run moves nothing")
        let moved = try runDaemon(["reshard", "--from", two, "--to", three])
        #expect(moved.status == 0 && moved.out.contains("moved \(moving.count) of 30 rooms"), "\(moved.out)\(moved.err)")
        for room in rooms {
            let home = ShardPlacement.shard(of: room, count: 3)
            for (index, shard) in shards.enumerated() {
                #expect(try shard.cli(["EXISTS", "neonsync:{\(room)}:n"]) == (index == home ? "1" : "0"), "\(room) on shard \(index + 1)")
                #expect(try shard.cli(["SISMEMBER", "neonsync:rooms", room]) == (index == home ? "1" : "0"))
            }
        }
        for (index, shard) in shards.enumerated() { #expect(try shard.cli(["GET", "neonsync:shard"]) == "\(index + 1)/3") }

        let stale = try runDaemon(["--port", "0", "--redis", two, "--node", "old"])
        #expect(stale.status == 1 && stale.err.contains("is shard 1 of 3 of this cluster"), "\(stale.err)")
        let after = try clusterNode(shards, "b")
        for room in rooms {
            let draft = try await draftSeen(at: after.url, room: room)
            let edits = room.hasSuffix("7") ? 12 : 1
            #expect(draft.text == room + String(repeating: "!", count: edits - 1) && draft.rev == edits, "\(room): \(draft)")
        }

        let missing = try runDaemon(["reshard", "--to", three])
        #expect(missing.status == 2 && missing.err.contains("--from is required"), "\(missing.err)")
        let same = try runDaemon(["reshard", "--from", three, "--to", three])
        #expect(same.status == 1 && same.err.contains("nothing would move"), "\(same.err)")
        let badURL = try runDaemon(["reshard", "--from", "http://x", "--to", three])
        #expect(badURL.status == 2 && badURL.err.contains("--from http://x is not a redis:// or sentinel:// URL"), "\(badURL.err)")
    }
}
