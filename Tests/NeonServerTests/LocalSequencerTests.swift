import Foundation
import NeonCore
import NeonLock
@testable import NeonServer
import NeonServerTestSupport
import Testing

/// A store whose first commit waits until the test lets it go, and which
/// records the size of every batch it was given.
private final class GatedStore: RoomStore, @unchecked Sendable {
    let inner = InMemoryStore()
    let batches = Locked<[Int]>([])
    let gate = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)

    func loadRooms() throws(NeonError) -> [StoredRoom] { try inner.loadRooms() }
    func loadRoom(_ name: String) throws(NeonError) -> StoredRoom? { try inner.loadRoom(name) }
    func createRoom(_ name: String, profile: String, limit: Int) throws(NeonError) {
        try inner.createRoom(name, profile: profile, limit: limit)
    }
    func setDocument(_ document: DocumentInfo, room: String) throws(NeonError) { try inner.setDocument(document, room: room) }
    func appendRevisions(_ revisions: [DraftRevision]) throws(NeonError) { try inner.appendRevisions(revisions) }
    func commit(_ records: [PersistRecord]) throws(NeonError) {
        let first = batches.withLock { batches in
            batches.append(records.count)
            return batches.count == 1
        }
        if first {
            entered.signal()
            gate.wait()
        }
        try inner.commit(records)
    }
    func countStart() throws(NeonError) -> Int { try inner.countStart() }
    func close() { inner.close() }
}

@Suite("LocalSequencer: group commit off the service thread")
struct LocalSequencerTests {
    @Test("records handed over while a commit runs go into the next commit together, and each ticket is reported durable only after its batch")
    func groupCommit() throws {
        let store = GatedStore()
        let logger = try LogWriter(destination: .standardOutput, minimumLevel: .error)
        let sequencer = LocalSequencer(store: store, logger: logger)
        let durable = Locked<[Int]>([])
        sequencer.start { delivery in
            if case let .durable(ticket, _) = delivery { durable.withLock { $0.append(ticket) } }
        }
        defer { sequencer.stop() }
        sequencer.persist([.roomCreated(room: "r", profile: "graphemes", limit: 280)], ticket: 0)
        #expect(store.entered.wait(timeout: .now() + 5) == .success)
        var text = ""
        for revision in 1 ... 3 {
            text += "x"
            sequencer.persist([.revisionAcked(room: "r", revision: revision, operation: TextOperation([.retain(revision - 1), .insert("x")]),
                                              text: text, by: ClientID("c1"), key: "k\(revision)")], ticket: revision)
        }
        #expect(durable.withLock { $0 }.isEmpty, "nothing is durable while the first commit runs")
        store.gate.signal()
        sequencer.flush()
        #expect(store.batches.withLock { $0 } == [1, 3])
        #expect(durable.withLock { $0 } == [0, 3])
        let room = try #require(try store.loadRooms().first)
        #expect(room.draftRevision == 3 && room.draftText == "xxx")
    }
}
