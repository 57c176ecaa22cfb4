import Foundation
import NeonCore
import NeonTestSupport
import Synchronization
import Testing

/// A cluster node: the real neonsyncd joined to `redis`, without the
/// per-connection limits (the tests' load comes from one address).
func clusterNode(_ redis: RedisProcess, _ name: String, _ extra: [String] = []) throws -> ServerProcess {
    try ServerProcess(["--redis", redis.url, "--node", name, "--max-rate", "0", "--max-connections-per-ip", "0"] + extra)
}

/// Every line a node wrote fits docs/LOGS.md and names the node; returns
/// the events seen.
@discardableResult
func expectDocumentedLog(_ node: ServerProcess, name: String) -> Set<String> {
    for line in node.logLines {
        for problem in LogSchema.problems(of: line) { Issue.record(Comment(rawValue: problem)) }
        #expect(ServerProcess.json(line)?["node"] as? String == name, "no node \(name) in \(line)")
    }
    return Set(node.logLines.compactMap { ServerProcess.json($0)?["event"] as? String })
}

/// Every message one connection saw, for checks after the run.
final class Transcript: Sendable {
    private let messages = Mutex<[ServerMessage]>([])
    func add(_ message: ServerMessage) { messages.withLock { $0.append(message) } }
    var all: [ServerMessage] { messages.withLock { $0 } }
    /// Whether `seq` never went down (errors and acks carry the room's
    /// current seq, broadcasts the next one).
    var seqNeverDecreases: Bool {
        let seqs = all.filter { $0.type != "overview" }.map(\.seq)
        return zip(seqs, seqs.dropFirst()).allSatisfy { $0 <= $1 }
    }
}

/// What one editor ended with.
struct EditorResult: Sendable {
    var acked: [String] = []
    var text = ""
    var revision = 0
    var reconnects = 0
    var errors: [String] = []
    var seqNeverDecreases = true
}

/// An editor on the real protocol with a failover list: appends
/// `<name>.<n>|` to the draft `count` times, one edit in flight (NeonCore's
/// OTClient), each with a unique key. When its connection dies it moves to
/// the next URL and resyncs as the terminal client does: hello with
/// `draftRev`, the welcome's `missed` edits applied (its own one, found by
/// key, counts as acked), the unacknowledged edit resent with its key.
/// `afterAck` runs after each ack with the number so far.
func edit(as name: String, room: String, urls: [String], count: Int,
          afterAck: @Sendable (Int) async -> Void = { _ in }) async -> EditorResult {
    var result = EditorResult()
    var text = ""
    var client = OTClient(revision: 0)
    var pending: String?
    var joined = false
    var urlIndex = 0
    var n = 0
    let deadline = ContinuousClock.now + .seconds(90)
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
            while result.acked.count < count {
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
                case .ack:
                    _ = try client.serverAck()
                    result.acked.append(pending!)
                    pending = nil
                    await afterAck(result.acked.count)
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
func draftSeen(at url: String, room: String) async throws -> DraftInfo {
    let peer = try await TestPeer.connect(url: url)
    defer { peer.close() }
    peer.send(.hello(room: room, name: "checker", role: .observer))
    let message = try await peer.next("welcome", timeout: .seconds(10))
    guard case let .welcome(welcome) = message.payload else { throw ServerProcessError("no welcome") }
    return welcome.draft
}
