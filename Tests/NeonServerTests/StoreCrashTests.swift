import Foundation
@testable import NeonServer
import Testing

/// The draft text at `revision` in the SIGKILL test: a different text at
/// every revision, with CJK and emoji.
private func crashDraft(_ revision: Int) -> String {
    "revision \(revision) 草稿 ✍️ " + String(repeating: "·", count: revision % 50)
}

private let childVariable = "NEONSYNC_STORE_CRASH_CHILD"

@Suite("SQLite store under SIGKILL")
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
        try process.run()
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
        process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }
}
