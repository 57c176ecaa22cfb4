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
    private var queue: [(ticket: Int, records: [PersistRecord])] = []
    private var stopping = false
    private var committing = false
    /// The committer thread is not running (before start, after stop).
    private var finished = true
    private var deliver: (@Sendable (SequencerDelivery) -> Void)?

    init(store: any RoomStore, logger: LogWriter) {
        self.store = store
        self.logger = logger
    }

    func start(deliver: @escaping @Sendable (SequencerDelivery) -> Void) {
        self.deliver = deliver
        finished = false
        startBackgroundThread("neonsync-store") { [self] in run() }
    }

    func order(_ entry: RoomEntry, room: String, hello: Bool) -> RoomEntry? { entry }

    func persist(_ records: [PersistRecord], ticket: Int) {
        condition.lock()
        queue.append((ticket, records))
        condition.signal()
        condition.unlock()
    }

    func snapshot(_ room: String, index: Int, image: RoomImage) {}

    func takeUp(_ room: String?) {}

    func release(_ room: String) {}

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
            let started = ContinuousClock.now
            do {
                try store.commit(batch.flatMap(\.records))
                deliver?(.durable(through: batch.last!.ticket, took: started.duration(to: .now)))
            } catch {
                // The acks behind this batch cannot be sent: say why and exit
                // (74); clients resync from the last durable revision.
                logger.log(LogRecord(.error, .storeFailed, [LogField("error", .string(error.description))]))
                exit(74)
            }
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
