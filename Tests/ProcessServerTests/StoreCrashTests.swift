import Foundation
import NeonCore
import NeonLock
@testable import NeonServer
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// The draft text at `revision` in the SIGKILL test: a different text at
/// every revision, with CJK and emoji.
private func crashDraft(_ revision: Int) -> String {
    "revision \(revision) 草稿 ✍️ " + String(repeating: "·", count: revision % 50)
}

private let childVariable = "NEONSYNC_STORE_CRASH_CHILD"

@Suite("SQLite store under SIGKILL", .ownThreads)
struct StoreCrashTests {
    @Test("every acknowledged revision survives SIGKILL of the appending process at a random moment, three times over")
    func killMidStream() throws {
        let directory = try TemporaryDirectory()
        var lastAcknowledged = 0
        for round in 1 ... 3 {
            let killAfter = Int.random(in: 1 ... 4000)
            let delay = Int.random(in: 0 ... 2000)
            let child = try AppendingChild(directory: directory)
            let acknowledged = child.readAcknowledgements(killingAfter: killAfter, plusMicroseconds: delay)
            #expect(child.diedOfSIGKILL, "the child ended on its own: \(child.otherOutput)")
            #expect(acknowledged.count >= killAfter, "the child printed \(acknowledged.count) acks: \(child.otherOutput)")
            #expect(acknowledged == Array(acknowledged.indices.map { lastAcknowledged + 1 + $0 }))
            lastAcknowledged = acknowledged.last ?? lastAcknowledged

            let store = try SQLiteStore(directory: directory.path)
            let room = try #require(try store.loadRooms().first)
            print("SIGKILL round \(round): killed \(delay) µs after ack \(killAfter) of this round; last ack \(lastAcknowledged), restored revision \(room.draftRevision)")
            #expect(room.draftRevision == lastAcknowledged || room.draftRevision == lastAcknowledged + 1)
            #expect(room.draftText == crashDraft(room.draftRevision))
            lastAcknowledged = room.draftRevision
            store.close()
            #expect(try Inspector(directory).rows("PRAGMA integrity_check") == [["ok"]])
        }
    }

    @Test("(the SIGKILL test's child) appends revisions, printing each acknowledged one, until killed",
          .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil, "runs only as the SIGKILL test's child"))
    func appendUntilKilled() throws {
        let store = try SQLiteStore(directory: try #require(ProcessInfo.processInfo.environment[childVariable]))
        var revision = 0
        if let room = try store.loadRooms().first {
            revision = room.draftRevision
        } else {
            try store.createRoom("crash", profile: "graphemes", limit: 280)
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            revision += 1
            try store.appendRevision(room: "crash", revision: revision, operationJSON: "[\"\(revision)\"]", text: crashDraft(revision))
            let line = "ack \(revision)\n"
            _ = line.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
        }
    }
}

/// This test binary run again to do nothing but `appendUntilKilled`, with
/// its standard output on a pipe.
private final class AppendingChild {
    private let process = Process()
    private let output = Pipe()
    /// What the child printed besides acks, for failure messages.
    private(set) var otherOutput = ""

    init(directory: TemporaryDirectory) throws {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", "StoreCrashTests/appendUntilKilled"]
        process.environment = ProcessInfo.processInfo.environment.merging([childVariable: directory.path]) { $1 }
        process.standardOutput = output
        process.standardError = output
        try process.runUnblocked()
    }

    /// Reads acked revisions as they come; after `count` of them waits
    /// `microseconds` and sends SIGKILL, then reads what was printed before
    /// the kill. Returns every acked revision.
    func readAcknowledgements(killingAfter count: Int, plusMicroseconds microseconds: Int) -> [Int] {
        var acknowledged: [Int] = []
        var pending = Data()
        var killed = false
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex ..< newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex ... newline)
                if line.hasPrefix("ack "), let revision = Int(line.dropFirst(4)) {
                    acknowledged.append(revision)
                } else {
                    otherOutput += line + "\n"
                }
            }
            if !killed && acknowledged.count >= count {
                usleep(UInt32(microseconds))
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        process.waitUntilExit()
        return acknowledged
    }

    var diedOfSIGKILL: Bool {
        process.terminationReason == .uncaughtSignal && process.finalStatus == SIGKILL
    }
}

/// What one writer saw acknowledged: the revision its edit became and the
/// whole draft text at that revision (its local text right after the ack).
private struct Acknowledged: Sendable, Equatable {
    var revision: Int
    var text: String
}

/// Counts acks over all writers, so the test can kill the server after a
/// chosen number of them.
private final class AckCounter: Sendable {
    /// The most acks a round asks for (the kill comes after 10 to 100):
    /// five rounds, each with up to three edits in flight past it, stay
    /// under `SQLiteStore.keptRevisions`.
    static let cap = 150
    private let count = Locked(0)
    private let kill = Locked(false)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
    /// Set just before the server is killed.
    var killed: Bool {
        get { kill.withLock { $0 } }
        set { kill.withLock { $0 = newValue } }
    }
}

/// A writer on the real protocol: appends `w<id>.<n>|` to the end of the
/// draft, one edit in flight at a time (NeonCore's OTClient), transforming
/// the others' edits in, until the connection dies. Returns every ack with
/// the text it implies.
private func write(as id: Int, to server: ServerProcess, counter: AckCounter) async -> [Acknowledged] {
    var acknowledged: [Acknowledged] = []
    do {
        let peer = try await TestPeer.connect(server)
        let welcome = try await peer.hello(room: "crash", name: "w\(id)", role: .reader)
        var text = welcome.draft.text
        var client = OTClient(revision: welcome.draft.rev)
        for n in 0 ..< 10_000 {
            // A round stops writing at `AckCounter.cap` acks: five rounds
            // stay under the store's kept history however late the kill
            // comes, so every revision can be read back and checked.
            if counter.value >= AckCounter.cap {
                while !counter.killed { try await Task.sleep(for: .milliseconds(1)) }
                return acknowledged
            }
            let length = text.unicodeScalars.count
            let edit = TextOperation(length == 0 ? [.insert("w\(id).\(n)|")] : [.retain(length), .insert("w\(id).\(n)|")])
            text = try edit.apply(to: text)
            let revision = client.revision
            guard let operation = try client.applyLocal(edit) else { return acknowledged }
            peer.send(.edit(rev: revision, ops: operation, key: "w\(id).\(n)"))
            var waiting = true
            while waiting {
                let message = try await peer.next(timeout: .seconds(20))
                switch message.payload {
                case let .edit(info):
                    text = try client.applyServer(info.ops).apply(to: text)
                case let .ack(rev):
                    _ = try client.serverAck()
                    acknowledged.append(Acknowledged(revision: rev, text: text))
                    counter.add()
                    waiting = false
                case let .error(error):
                    Issue.record("writer \(id): \(error.message)")
                    return acknowledged
                default:
                    break
                }
            }
        }
    } catch {
        // The server was killed: what was acknowledged so far is the result.
        // Before the kill, a failure is the test's to report.
        if !counter.killed { Issue.record("writer \(id) failed before the kill, after \(acknowledged.count) acks: \(error)") }
    }
    return acknowledged
}

@Suite("neonsyncd under SIGKILL during a load run", .serialized, .ownThreads)
struct ServerCrashTests {
    @Test("three writers edit the draft; neonsyncd is SIGKILLed at a random moment and restarted on its data, five times; every acked revision is kept with its exact text")
    func killDuringLoad() async throws {
        let directory = try TemporaryDirectory()
        var everyAck: [Acknowledged] = []
        for round in 1 ... 5 {
            let server = try ServerProcess(["--data", directory.path, "--max-rate", "0"])
            let counter = AckCounter()
            let killAfter = Int.random(in: 10 ... 100)
            let delay = UInt32.random(in: 0 ... 5000)
            async let first = write(as: round * 10 + 1, to: server, counter: counter)
            async let second = write(as: round * 10 + 2, to: server, counter: counter)
            async let third = write(as: round * 10 + 3, to: server, counter: counter)
            let deadline = ContinuousClock.now + .seconds(45)
            while counter.value < killAfter, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            usleep(delay)
            // On a loaded machine (the whole suite at once) fewer acks may
            // have come by the deadline: the kill happens then all the same.
            let reached = counter.value
            counter.killed = true
            #expect(server.stop(signal: SIGKILL) == SIGKILL)
            let acks = await first + second + third
            #expect(reached > 0, "round \(round): no ack within 45 s")
            #expect(acks.count >= min(killAfter, reached), "round \(round): only \(acks.count) acks of the \(reached) counted before the kill")
            everyAck += acks

            let store = try SQLiteStore(directory: directory.path)
            let room = try #require(try store.loadRooms().first)
            store.close()
            #expect(room.recentEdits.first?.revision == 1, "the test keeps under \(SQLiteStore.keptRevisions) revisions, so all are stored")
            var texts = [""]
            for edit in room.recentEdits {
                #expect(edit.revision == texts.count)
                texts.append(try WireCodec().decodeOperation(edit.operationJSON).apply(to: texts.last!))
            }
            #expect(texts.last == room.draftText && texts.count - 1 == room.draftRevision)
            let lost = everyAck.filter { $0.revision >= texts.count || texts[$0.revision] != $0.text }
            #expect(lost.isEmpty, "acked but not stored as acked: \(lost.prefix(3))")
            print("SIGKILL round \(round): killed \(delay) µs after \(killAfter) acks; \(acks.count) acked this round, \(everyAck.count) in all; stored revision \(room.draftRevision); none lost: \(lost.isEmpty)")
        }
        #expect(Set(everyAck.map(\.revision)).count == everyAck.count, "no revision was acked twice")
    }
}
