import Foundation
import Glibc
import NeonCore

/// One node: a room's order is the order its events arrive in on the
/// service thread, and the hub applies them at once. What must be kept
/// (rooms, documents, acknowledged revisions) is committed to the store
/// by a committer thread, in batches: everything queued while the previous
/// commit ran goes in one transaction (group commit), and each ack waits
/// only for its own batch.
///
/// `@unchecked Sendable`: the service thread hands records over and the
/// committer thread takes them, both under `condition`; see the `var`s
/// below for what guards each.
final class LocalSequencer: RoomSequencer, @unchecked Sendable {
    let store: any RoomStore
    let logger: LogWriter
    let durableOnceOrdered = false
    /// `queue`, `stopping`, `committing` and `finished` are guarded by
    /// `condition`; `deliver` is set by `start` before the committer thread
    /// starts, and only that thread reads it.
    private let condition = NSCondition()
    private var queue: [Work] = []
    private var stopping = false
    private var committing = false
    /// The committer thread is not running (before start, after stop).
    private var finished = true
    private var deliver: (@Sendable (SequencerDelivery) -> Void)?
    /// The limits restored rooms are built with (the hub's).
    let limits: RoomLimits

    /// What the committer thread does, in the order it was handed over.
    private enum Work {
        case commit(ticket: Int, records: [PersistRecord])
        /// Read resting rooms back (after every commit before).
        case restore([String])
    }

    init(store: any RoomStore, logger: LogWriter, limits: RoomLimits = RoomLimits()) {
        self.store = store
        self.logger = logger
        self.limits = limits
    }

    func start(deliver: @escaping @Sendable (SequencerDelivery) -> Void) {
        self.deliver = deliver
        finished = false
        startBackgroundThread("neonsync-store") { [self] in run() }
    }

    /// Never called: one node's gateway applies its events as they arrive.
    func order(_ entry: RoomEntry, room: String, hello: Bool) {}

    func persist(_ records: [PersistRecord], ticket: Int) {
        condition.lock()
        queue.append(.commit(ticket: ticket, records: records))
        condition.signal()
        condition.unlock()
    }

    /// Reads `rooms` back from the store on the committer thread, after
    /// what is queued to commit, builds them there (documents parsed, edits
    /// decoded) and delivers them as `restored`.
    func restore(_ rooms: [String]) {
        condition.lock()
        queue.append(.restore(rooms))
        condition.signal()
        condition.unlock()
    }

    func snapshot(_ room: String, index: Int, image: RoomImage) {}

    func takeUp(_ room: String?) {}

    func release(_ room: String) {}

    /// One node's commits are the gateway's metrics.
    let storeHealth: StoreHealth? = nil

    /// Waits until everything handed over is committed and reported.
    func flush() {
        condition.lock()
        while (!queue.isEmpty || committing) && !finished { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05)) }
        condition.unlock()
    }

    /// Commits what is queued and ends the committer; safe to call again
    /// and from several threads (each returns once it has ended).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Commits `records` (the batch up to ticket `ticket`) and reports it.
    private func commit(_ records: [PersistRecord], through ticket: Int) {
        let started = ContinuousClock.now
        do {
            try store.commit(records)
            deliver?(.durable(through: ticket, took: started.duration(to: .now)))
        } catch {
            // The acks behind this batch cannot be sent: say why and exit
            // (74); clients resync from the last durable revision.
            fail(error)
        }
    }

    private func readBack(_ names: [String]) {
        var rooms: [RoomState] = []
        var missing: [String] = []
        for name in names {
            do {
                if let stored = try store.loadRoom(name) {
                    rooms.append(RoomState(restoring: RoomSnapshot(stored), limits: limits))
                } else {
                    missing.append(name)
                }
            } catch {
                // The store cannot be read back: say why and exit (74), as
                // a failed commit does; the room is safe where it is.
                fail(error)
            }
        }
        deliver?(.event(.restored(rooms, missing: missing)))
    }

    private func fail(_ error: StoreError) -> Never {
        logger.log(LogRecord(.error, .storeFailed, [LogField("error", .string(error.description))]))
        exit(74)
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            let batch = queue
            queue.removeAll()
            committing = !batch.isEmpty
            let stop = stopping && batch.isEmpty
            condition.unlock()
            if stop { break }
            // Consecutive commits go in one transaction; a restore reads
            // what every commit before it stored.
            var records: [PersistRecord] = []
            var through: Int?
            for work in batch {
                switch work {
                case let .commit(ticket, more):
                    records += more
                    through = ticket
                case let .restore(rooms):
                    if let ticket = through { commit(records, through: ticket) }
                    records.removeAll()
                    through = nil
                    readBack(rooms)
                }
            }
            if let ticket = through { commit(records, through: ticket) }
            condition.lock()
            committing = false
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
