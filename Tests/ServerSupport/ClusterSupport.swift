import Foundation
import NeonCore
import NeonLock
import NeonServer
import NeonTestSupport
import Testing

/// A cluster node: the real neonsyncd joined to `redis`, without the
/// per-connection limits (the tests' load comes from one address).
package func clusterNode(_ redis: RedisProcess, _ name: String, _ extra: [String] = []) throws -> ServerProcess {
    try clusterNode([redis], name, extra)
}

/// A cluster node on several Redis instances (shards), listed in order.
package func clusterNode(_ redises: [RedisProcess], _ name: String, _ extra: [String] = []) throws -> ServerProcess {
    try ServerProcess(["--redis", redises.map(\.url).joined(separator: ","), "--node", name, "--max-rate", "0",
                       "--max-connections-per-ip", "0"] + extra)
}

/// Every line a node wrote fits docs/LOGS.md and names the node; returns
/// the events seen.
@discardableResult
package func expectDocumentedLog(_ node: ServerProcess, name: String) -> Set<String> {
    for line in node.logLines {
        for problem in LogSchema.problems(of: line) { Issue.record(Comment(rawValue: problem)) }
        #expect(ServerProcess.json(line)?["node"] as? String == name, "no node \(name) in \(line)")
    }
    return Set(node.logLines.compactMap { ServerProcess.json($0)?["event"] as? String })
}

/// Every message one connection saw, for checks after the run.
package final class Transcript: Sendable {
    private let messages = Locked<[ServerMessage]>([])
    package func add(_ message: ServerMessage) { messages.withLock { $0.append(message) } }
    package var all: [ServerMessage] { messages.withLock { $0 } }
    /// Whether `seq` never went down (errors and acks carry the room's
    /// current seq, broadcasts the next one).
    package var seqNeverDecreases: Bool {
        let seqs = all.filter { $0.type != "overview" }.map(\.seq)
        return zip(seqs, seqs.dropFirst()).allSatisfy { $0 <= $1 }
    }
}

/// What one editor ended with.
package struct EditorResult: Sendable {
    package var acked: [String] = []
    package var text = ""
    package var revision = 0
    package var reconnects = 0
    package var errors: [String] = []
    package var seqNeverDecreases = true
    /// Edits answered `unavailable` (and sent again, with their key).
    package var unavailable = 0
    /// When each edit was acked, in order.
    package var ackTimes: [ContinuousClock.Instant] = []
}

/// An editor on the real protocol with a failover list: appends
/// `<name>.<n>|` to the draft `count` times, one edit in flight (NeonCore's
/// OTClient), each with a unique key. When its connection dies it moves to
/// the next URL and resyncs as the terminal client does: hello with
/// `draftRev`, the welcome's `missed` edits applied (its own one, found by
/// key, counts as acked), the unacknowledged edit resent with its key.
/// `afterAck` runs after each ack with the number so far.
///
/// With `resendUnavailable`, an edit answered `unavailable` is sent again
/// with its key after 200 ms (as the terminal client does), and an `ack`
/// not above the editor's revision (the second ack of an edit sent twice)
/// is passed over; `within` bounds the whole run.
package func edit(as name: String, room: String, urls: [String], count: Int, resendUnavailable: Bool = false,
                  within: Duration = .seconds(90),
                  afterAck: @Sendable (Int) async -> Void = { _ in }) async -> EditorResult {
    var result = EditorResult()
    var text = ""
    var client = OTClient(revision: 0)
    var pending: String?
    var joined = false
    var urlIndex = 0
    var n = 0
    let deadline = ContinuousClock.now + within
    var lastSeq = 0
    /// Another editor's edit is transformed in; this editor's own (found by
    /// its key: resent, or replayed in `missed`) is its ack.
    func take(_ info: EditInfo) throws {
        if let key = pending, info.key == key {
            _ = try client.serverAck()
            result.acked.append(key)
            pending = nil
        } else {
            text = try client.applyServer(info.ops).apply(to: text)
        }
    }
    while result.acked.count < count, ContinuousClock.now < deadline {
        let peer: TestPeer
        do {
            peer = try await TestPeer.connect(url: urls[urlIndex % urls.count])
        } catch {
            urlIndex += 1
            try? await Task.sleep(for: .milliseconds(100))
            continue
        }
        do {
            peer.send(.hello(room: room, name: name, role: .reader, draftRev: joined ? client.revision : nil))
            let welcomeMessage = try await peer.next("welcome", timeout: .seconds(10))
            guard case let .welcome(welcome) = welcomeMessage.payload else { return result }
            lastSeq = welcomeMessage.seq
            if !joined {
                text = welcome.draft.text
                client = OTClient(revision: welcome.draft.rev)
                joined = true
            } else {
                guard let missed = welcome.draft.missed else {
                    result.errors.append("welcome after reconnect had no missed edits (draftRev \(client.revision), server at \(welcome.draft.rev))")
                    return result
                }
                for info in missed { try take(info) }
                if let key = pending, case let .awaitingConfirm(outstanding) = client.state {
                    peer.send(.edit(rev: client.revision, ops: outstanding, key: key))
                }
            }
            while result.acked.count < count, ContinuousClock.now < deadline {
                if pending == nil {
                    let key = "\(name).\(n)|"
                    n += 1
                    let length = text.unicodeScalars.count
                    let operation = TextOperation(length == 0 ? [.insert(key)] : [.retain(length), .insert(key)])
                    text = try operation.apply(to: text)
                    let revision = client.revision
                    guard let toSend = try client.applyLocal(operation) else { return result }
                    pending = key
                    peer.send(.edit(rev: revision, ops: toSend, key: key))
                }
                let message = try await peer.next(timeout: .seconds(10))
                if message.seq < lastSeq { result.seqNeverDecreases = false }
                lastSeq = message.seq
                switch message.payload {
                case let .edit(info):
                    try take(info)
                case let .ack(rev):
                    if resendUnavailable, rev <= client.revision { continue }
                    _ = try client.serverAck()
                    result.acked.append(pending!)
                    result.ackTimes.append(.now)
                    pending = nil
                    await afterAck(result.acked.count)
                case let .error(error) where resendUnavailable && error.code == .unavailable:
                    result.unavailable += 1
                    try await Task.sleep(for: .milliseconds(200))
                    if ContinuousClock.now >= deadline { break }
                    if let key = pending, case let .awaitingConfirm(outstanding) = client.state {
                        peer.send(.edit(rev: client.revision, ops: outstanding, key: key))
                    }
                case let .error(error):
                    result.errors.append("\(error.code.rawValue): \(error.message)")
                default:
                    break
                }
            }
            result.text = text
            result.revision = client.revision
            // Stay to take in the others' last edits until the draft is quiet.
            while let message = try? await peer.next(timeout: .seconds(3)) {
                if case let .edit(info) = message.payload {
                    text = try client.applyServer(info.ops).apply(to: text)
                }
            }
            result.text = text
            result.revision = client.revision
            peer.close()
            return result
        } catch {
            peer.close()
            result.reconnects += 1
            urlIndex += 1
        }
    }
    result.text = text
    result.revision = client.revision
    return result
}

/// The draft as a newcomer on `url` finds it.
package func draftSeen(at url: String, room: String) async throws -> DraftInfo {
    let peer = try await TestPeer.connect(url: url)
    defer { peer.close() }
    peer.send(.hello(room: room, name: "checker", role: .observer))
    let message = try await peer.next("welcome", timeout: .seconds(10))
    guard case let .welcome(welcome) = message.payload else { throw ServerProcessError("no welcome") }
    return welcome.draft
}

/// Three editors on three nodes make 200 edits each in `room` while
/// an observer on every node watches; one node is SIGKILLed halfway, then
/// the Redis that holds the room (of `redises`, the cluster's shards) is
/// SIGKILLed and restarted from its AOF. Checks every acked edit is in the
/// draft once on every live node, convergence, seq, limits, the dead
/// node's members leaving, and the draft kept through the Redis restart.
package func threeEditorsSurviveANodeKill(_ redises: [RedisProcess], room: String = "notes") async throws {
    let nodes = try (1...3).map { try clusterNode(redises, "n\($0)", ["--snapshot-every", "100"]) }
    var observers: [Listener] = []
    for (i, node) in nodes.enumerated() {
        let peer = try await TestPeer.connect(url: node.url)
        _ = try await peer.hello(room: room, name: "o\(i + 1)", role: .observer)
        observers.append(Listener(peer))
    }
    let killedAt = Locked<ContinuousClock.Instant?>(nil)
    let victim = nodes[2]
    let urls = nodes.map(\.url)
    async let first = edit(as: "e1", room: room, urls: [urls[0], urls[1]], count: 200)
    async let second = edit(as: "e2", room: room, urls: [urls[1], urls[0]], count: 200)
    async let third = edit(as: "e3", room: room, urls: [urls[2], urls[0]], count: 200) { acked in
        if acked == 100 {
            _ = victim.stop(signal: SIGKILL)
            killedAt.withLock { $0 = .now }
        }
    }
    let editors = await [first, second, third]
    for (i, editor) in editors.enumerated() {
        #expect(editor.errors.isEmpty, "editor \(i + 1): \(editor.errors.prefix(3))")
        #expect(editor.acked.count == 200, "editor \(i + 1) got \(editor.acked.count) acks")
        #expect(editor.seqNeverDecreases, "editor \(i + 1) saw seq go down")
    }
    #expect(editors[2].reconnects >= 1, "the third editor moved to another node")

    let draftOne = try await draftSeen(at: nodes[0].url, room: room)
    let draftTwo = try await draftSeen(at: nodes[1].url, room: room)
    #expect(draftOne == draftTwo)
    for key in editors.flatMap(\.acked) {
        #expect(draftOne.text.components(separatedBy: key).count == 2, "\(key) is in the draft exactly once")
    }
    #expect(draftOne.rev == 600, "600 edits, each applied once")
    for (i, editor) in editors.enumerated() {
        #expect(editor.text == draftOne.text && editor.revision == draftOne.rev, "editor \(i + 1) converged")
    }

    // The dead node's members (its observer and the third editor's first
    // connection) were reported left on the others within 10 s.
    let live = observers[0]
    let names = Dictionary(live.messages.compactMap { m -> (ClientID, String)? in
        if case let .joined(r) = m.payload { return (r.id, r.name) } else { return nil }
    }, uniquingKeysWith: { a, _ in a })
    let killed = try #require(killedAt.withLock { $0 })
    for name in ["o3", "e3"] {
        let id = try #require(names.first { $0.value == name }?.key)
        _ = await live.wait(timeout: .seconds(30)) { if case let .left(r) = $0.payload { r.id == id } else { false } }
        let leftAt = try #require(live.arrival { if case let .left(r) = $0.payload { r.id == id } else { false } },
                                  "\(name)'s first connection was reported left")
        // Reaped once the node's liveness key expires (--node-timeout 6 s)
        // and a survivor's next heartbeat sees it: about 8 s on a quiet
        // machine; the bound leaves room for a loaded one.
        let after = killed.duration(to: leftAt)
        #expect(after < .seconds(25), "\(name) left \(after) after the kill")
    }

    // Observers on live nodes saw the same history: the same limit events
    // with the same seqs, one per crossing.
    let limits = observers[0 ... 1].map { listener in
        listener.messages.compactMap { m -> (Int, LimitLevel)? in
            if case let .limit(info) = m.payload { return (m.seq, info.level) } else { return nil }
        }
    }
    let seqs = limits.map { $0.map { $0.0 } }
    let levels = limits.map { $0.map { $0.1 } }
    #expect(seqs[0] == seqs[1] && levels[0] == levels[1])
    #expect(levels[0].last == LimitLevel.over)
    #expect(zip(levels[0], levels[0].dropFirst()).allSatisfy { $0 < $1 }, "each crossing once: \(levels[0])")
    for observer in observers { #expect(observer.seqNeverDecreases) }
    let seqsOne = observers[0].messages.filter { $0.type == "edit" }.map(\.seq)
    let seqsTwo = observers[1].messages.filter { $0.type == "edit" }.map(\.seq)
    #expect(seqsOne == seqsTwo && seqsOne.count == 600, "the same 600 edits with the same seqs on both live nodes")

    // Redis is SIGKILLed and restarted from its append-only file: a node
    // that starts afterwards reads the room from Redis alone.
    for observer in observers { observer.stop() }
    let redis = redises[ShardPlacement.shard(of: room, count: redises.count)]
    redis.stop(signal: SIGKILL)
    try redis.start()
    let fresh = try clusterNode(redises, "n4")
    let restored = try await draftSeen(at: fresh.url, room: room)
    #expect(restored == draftOne, "after the Redis restart the draft is at revision \(restored.rev) of \(draftOne.rev)")
    for (i, node) in nodes.enumerated() { expectDocumentedLog(node, name: "n\(i + 1)") }
}

/// The first room name `prefix-N` that the cluster's placement puts on
/// `shard` of `count`.
package func room(onShard shard: Int, of count: Int, prefix: String = "room") -> String {
    (0...).lazy.map { "\(prefix)-\($0)" }.first { ShardPlacement.shard(of: $0, count: count) == shard }!
}

/// Collects what a connection receives until it closes or `stop`.
package final class Listener: Sendable {
    package let peer: TestPeer
    private let received = Locked<[(at: ContinuousClock.Instant, message: ServerMessage)]>([])
    private let task = Locked<Task<Void, Never>?>(nil)

    package init(_ peer: TestPeer) {
        self.peer = peer
        // An unstructured task does not inherit `.ownThreads`' executor
        // preference: ask for it, or a loaded global executor starves it.
        let task = Task(executorPreference: TestThreads.shared) { [self] in
            while let message = try? await peer.next(timeout: .seconds(120)) {
                self.received.withLock { $0.append((.now, message)) }
            }
        }
        self.task.withLock { $0 = task }
    }

    package var messages: [ServerMessage] { received.withLock { $0.map(\.message) } }

    /// When the first message matching `match` came.
    package func arrival(_ match: (ServerMessage) -> Bool) -> ContinuousClock.Instant? {
        received.withLock { $0.first { match($0.message) }?.at }
    }

    /// Waits (bounded) until a message matching `match` came.
    package func wait(timeout: Duration = .seconds(10), _ match: (ServerMessage) -> Bool) async -> ServerMessage? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let hit = messages.first(where: match) { return hit }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    package var seqNeverDecreases: Bool {
        let seqs = messages.map(\.seq)
        return zip(seqs, seqs.dropFirst()).allSatisfy { $0 <= $1 }
    }

    package func stop() {
        peer.close()
        task.withLock { $0?.cancel() }
    }
}
