import Foundation
import Glibc
import NeonCore
import NeonLock
@testable import NeonServer
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// Shards Redis Sentinel watches (docs/CLUSTER.md, "Replicas and
/// Sentinel"), on real redis-server and Sentinel processes: acked means
/// kept through a failover, nothing acked that no replica has, service
/// back without any node restarting.
/// When (and which port) a test killed a master.
final class KillRecord: Sendable {
    let value = Locked<(at: ContinuousClock.Instant, port: Int)?>(nil)
}

@Suite("Cluster on Sentinel: failover loses no acked edit, a missing replica refuses edits as retryable", .serialized, .ownThreads)
struct ClusterSentinelTests {
    static func node(_ urls: [String], _ name: String, _ extra: [String] = []) throws -> ServerProcess {
        try ServerProcess(["--redis", urls.joined(separator: ","), "--node", name, "--max-rate", "0",
                           "--max-connections-per-ip", "0"] + extra)
    }

    /// Two editors on two nodes type until the master dies and for a while
    /// after; `after` runs once the failover is seen. Returns the editors,
    /// when the master was killed, the nodes.
    static func editThroughFailover(_ group: SentinelGroup, room: String,
                                    after: @escaping @Sendable (Int) throws -> Void) async throws
        -> (editors: [EditorResult], killedAt: ContinuousClock.Instant, nodes: [ServerProcess]) {
        let nodes = try ["a", "b"].map { try node([group.url], $0) }
        let killed = KillRecord()
        let urls = nodes.map(\.url)
        async let first = edit(as: "e1", room: room, urls: [urls[0], urls[1]], count: 120, resendUnavailable: true,
                               within: .seconds(120)) { acked in
            guard acked == 40 else { return }
            if let port = try? group.killMaster() { killed.value.withLock { $0 = (.now, port) } }
        }
        async let second = edit(as: "e2", room: room, urls: [urls[1], urls[0]], count: 120, resendUnavailable: true,
                                within: .seconds(120))
        // The failover, seen from here, then what the operator's service
        // manager does: the killed Redis starts again.
        let watcher = Task.detached {
            let until = ContinuousClock.now + .seconds(60)
            while killed.value.withLock({ $0 }) == nil, ContinuousClock.now < until { try await Task.sleep(for: .milliseconds(20)) }
            guard let old = killed.value.withLock({ $0 })?.port else { return }
            let new = try group.waitForFailover(from: old)
            try after(new)
        }
        let editors = await [first, second]
        try await watcher.value
        let at = try #require(killed.value.withLock { $0 }?.at, "the master was killed")
        return (editors, at, nodes)
    }

    /// Every acked edit is in the draft once on both nodes, the draft's
    /// revision counts each edit once, and nobody saw seq go down.
    static func expectKept(_ editors: [EditorResult], nodes: [ServerProcess], room: String) async throws {
        let drafts = [try await draftSeen(at: nodes[0].url, room: room), try await draftSeen(at: nodes[1].url, room: room)]
        #expect(drafts[0] == drafts[1])
        let acked = editors.flatMap(\.acked)
        #expect(acked.count == 240, "acks: \(editors.map(\.acked.count)), errors: \(editors.map { $0.errors.prefix(2) })")
        for key in acked {
            #expect(drafts[0].text.components(separatedBy: key).count == 2, "\(key) is in the draft exactly once")
        }
        #expect(drafts[0].rev == acked.count, "one revision per edit: no edit lost, none applied twice")
        for editor in editors {
            #expect(editor.errors.isEmpty, "\(editor.errors.prefix(3))")
            #expect(editor.seqNeverDecreases)
        }
    }

    @Test("a master with one replica and three Sentinels, SIGKILLed while two editors on two nodes type: every acked edit is in the final draft once, revisions have no gap and no duplicate, both nodes log the failover and serve the new master without restarting, once the killed Redis is back as its replica")
    func failoverWithOneReplica() async throws {
        let group = try SentinelGroup()
        let (editors, killedAt, nodes) = try await Self.editThroughFailover(group, room: "talk") { _ in
            // systemd's Restart=: the old master comes back, and the
            // Sentinels make it the new master's replica.
            let old = group.nodes.first { !$0.isRunning }
            if let old {
                try group.restart(old)
                try group.waitUntilReplica(old)
            }
        }
        try await Self.expectKept(editors, nodes: nodes, room: "talk")
        let firstAckAfter = editors.flatMap(\.ackTimes).filter { $0 > killedAt }.min()
        let resumed = try #require(firstAckAfter, "edits were acked after the failover")
        print("failover, one replica: \(killedAt.duration(to: resumed)) from the master's SIGKILL to the next ack")
        #expect(editors.map(\.unavailable).reduce(0, +) > 0, "edits were refused while the shard had no replica")
        let master = try group.currentMaster()
        for (node, name) in zip(nodes, ["a", "b"]) {
            let failover = await node.log(timeout: 10) { $0["event"] as? String == "redis_failover" }
            #expect(failover?["to"] as? String == "127.0.0.1:\(master)", "\(name): \(failover ?? [:])")
            let metrics = try node.metricsText()
            #expect(metrics.contains("master=\"127.0.0.1:\(master)\"} 1"), "\(name)'s /metrics names the new master")
            #expect(metrics.contains("neonsync_redis_failovers_total{node=\"\(name)\",redis=\"\(group.url)\"} 1"))
            #expect(expectDocumentedLog(node, name: name).contains("redis_failover"))
        }
    }

    @Test("with two replicas the shard serves again as soon as the Sentinels promote one, with nothing restarted; every acked edit is kept")
    func failoverWithTwoReplicas() async throws {
        let group = try SentinelGroup(replicas: 2)
        let (editors, killedAt, nodes) = try await Self.editThroughFailover(group, room: "notes") { _ in }
        try await Self.expectKept(editors, nodes: nodes, room: "notes")
        let resumed = try #require(editors.flatMap(\.ackTimes).filter { $0 > killedAt }.min())
        print("failover, two replicas: \(killedAt.duration(to: resumed)) from the master's SIGKILL to the next ack")
        #expect(killedAt.duration(to: resumed) < .seconds(30), "back in seconds, not minutes")
    }

    @Test("a replica that lags (SIGSTOP) or is gone (SIGKILL): an edit is answered unavailable, never acked; once the replica is back, the edit sent again with its key is acked once")
    func missingReplica() async throws {
        let group = try SentinelGroup()
        let node = try Self.node([group.url], "solo", ["--redis-replica-timeout", "300"])
        let ada = try await TestPeer.connect(url: node.url)
        _ = try await ada.hello(room: "r", name: "ada", role: .reader)
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("a")]), key: "k1"))
        #expect(try await ada.next("ack", timeout: .seconds(10)).payload == .ack(rev: 1))

        let lagging = try group.pauseReplica()
        ada.send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "k2"))
        let refused = try await ada.next(timeout: .seconds(10))
        guard case let .error(error) = refused.payload else { throw ServerProcessError("expected unavailable, got \(refused)") }
        #expect(error.code == .unavailable && error.message.contains("no replica"), "\(error.message)")
        #expect(error.retryAfter == 1, "unavailable says when to send again")
        group.resumeReplica()
        _ = lagging
        ada.send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "k2"))
        // The held first copy is released by the resend's WAIT: one ack for
        // revision 2, and a second, for the same revision, for the copy.
        #expect(try await ada.next("ack", timeout: .seconds(10)).payload == .ack(rev: 2))

        let gone = try group.stopReplica()
        // The master notices at once; with min-replicas-to-write it refuses.
        try await Task.sleep(for: .milliseconds(300))
        ada.send(.edit(rev: 2, ops: TextOperation([.retain(2), .insert("c")]), key: "k3"))
        var answer = try await ada.next(timeout: .seconds(10))
        while case .ack(2) = answer.payload { answer = try await ada.next(timeout: .seconds(10)) }
        guard case let .error(second) = answer.payload else { throw ServerProcessError("expected unavailable, got \(answer)") }
        #expect(second.code == .unavailable, "\(second.message)")
        try group.restart(gone)
        try group.waitUntilReplica(gone)
        let acked = try await Self.sendUntilAcked(ada, .edit(rev: 2, ops: TextOperation([.retain(2), .insert("c")]), key: "k3"),
                                                  within: .seconds(20))
        #expect(acked == 3, "k3 acked once the replica is back")
        let draft = try await draftSeen(at: node.url, room: "r")
        #expect(draft.text == "abc" && draft.rev == 3, "\(draft.text) at \(draft.rev): each edit once")
        let metrics = try node.metricsText()
        #expect(!metrics.contains("neonsync_redis_unconfirmed_total{node=\"solo\",redis=\"\(group.url)\"} 0"),
                "the WAIT that fell short is counted")
        ada.close()
    }

    @Test("one Sentinel of three killed: nothing changes; a node started then finds the master through the others, and a failover still happens and is followed")
    func oneSentinelDown() async throws {
        let group = try SentinelGroup(replicas: 2)
        let a = try Self.node([group.url], "a")
        group.killSentinel(0)
        let b = try Self.node([group.url], "b")
        let ada = try await TestPeer.connect(url: a.url)
        _ = try await ada.hello(room: "r", name: "ada", role: .reader)
        let bob = try await TestPeer.connect(url: b.url)
        _ = try await bob.hello(room: "r", name: "bob", role: .reader)
        bob.send(.edit(rev: 0, ops: TextOperation([.insert("x")]), key: "k1"))
        #expect(try await bob.next("ack", timeout: .seconds(10)).payload == .ack(rev: 1))
        #expect(try await ada.next("edit", timeout: .seconds(10)).type == "edit")
        let old = try group.killMaster()
        let new = try group.waitForFailover(from: old)
        for node in [a, b] {
            let failover = await node.log(timeout: 15) { $0["event"] as? String == "redis_failover" }
            #expect(failover?["to"] as? String == "127.0.0.1:\(new)")
            // Handshakes are answered 503 (as /healthz) until the node's
            // writer is on the new master.
            #expect(await node.log(timeout: 15) { $0["event"] as? String == "redis_up" } != nil)
        }
        let joined = try await TestPeer.connect(url: a.url)
        _ = try await joined.hello(room: "r", name: "carl", role: .reader)
        #expect(try await draftSeen(at: b.url, room: "r").text == "x", "the acked edit is on the new master")
        ada.close(); bob.close(); joined.close()
    }

    @Test("failover of one shard of three (the others plain Redis): only its rooms pause; the other shards' rooms are acked throughout")
    func oneShardOfThree() async throws {
        let group = try SentinelGroup(replicas: 2)
        let others = [try RedisProcess(), try RedisProcess()]
        let urls = [group.url] + others.map(\.url)
        let node = try Self.node(urls, "a", ["--redis-replica-timeout", "300"])
        let rooms = (0..<40).map { "room\($0)" }
        let onSentinel = try #require(rooms.first { ShardPlacement.shard(of: $0, count: 3) == 0 })
        let elsewhere = try #require(rooms.first { ShardPlacement.shard(of: $0, count: 3) != 0 })
        let ada = try await TestPeer.connect(url: node.url)
        _ = try await ada.hello(room: elsewhere, name: "ada", role: .reader)
        let bob = try await TestPeer.connect(url: node.url)
        _ = try await bob.hello(room: onSentinel, name: "bob", role: .reader)
        let old = try group.killMaster()
        // While the Sentinels decide, the other shard's room is acked edit after edit.
        var revision = 0
        let until = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < until {
            ada.send(.edit(rev: revision, ops: TextOperation(revision == 0 ? [.insert("a")] : [.retain(revision), .insert("a")]),
                           key: "a\(revision)"))
            #expect(try await ada.next("ack", timeout: .seconds(5)).payload == .ack(rev: revision + 1))
            revision += 1
        }
        #expect(revision > 5, "\(revision) edits acked meanwhile")
        _ = try group.waitForFailover(from: old)
        let acked = try await Self.sendUntilAcked(bob, .edit(rev: 0, ops: TextOperation([.insert("b")]), key: "b0"),
                                                  within: .seconds(20))
        #expect(acked == 1, "the failed-over shard's room serves again")
        ada.close(); bob.close()
    }

    /// Sends `edit` until the server acks it, as a client does: sent again
    /// (same key) only when the answer is `unavailable`, after the
    /// `retryAfter` seconds it names; any other answer fails the test.
    /// Returns the acked revision, or nil when `within` ran out.
    private static func sendUntilAcked(_ peer: TestPeer, _ edit: ClientMessage, within: Duration) async throws -> Int? {
        let deadline = ContinuousClock.now + within
        while ContinuousClock.now < deadline {
            peer.send(edit)
            let reply = try await peer.next(timeout: .seconds(10))
            switch reply.payload {
            case let .ack(revision):
                return revision
            case let .error(error) where error.code == .unavailable:
                try await Task.sleep(for: .seconds(error.retryAfter ?? 1))
            default:
                throw ServerProcessError("expected ack or unavailable for \(edit), got \(reply)")
            }
        }
        return nil
    }
}
