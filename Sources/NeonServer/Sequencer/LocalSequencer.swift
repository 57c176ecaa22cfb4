import Foundation
import Glibc
import NeonCore
import NeonLock

/// One node: a room's order is the order its events arrive in on the
/// service thread, and the hub applies them at once. What must be kept
/// (rooms, documents, acknowledged revisions) is committed to the store
/// by a committer thread, in batches: everything queued while the previous
/// commit ran goes in one transaction (group commit), and each ack waits
/// only for its own batch.
///
/// The service thread hands work over through `backlog`; the committer
/// thread (`committer`) takes it, and `deliver` lives in its body.
package final class LocalSequencer: RoomCommitter, Sendable {
    package let store: any RoomStore
    package let logger: LogWriter
    /// Work handed over and not taken by the committer yet, in order.
    private let backlog = Locked<[CommitWork]>([])
    private let committer = WorkerThread(name: "neonsync-store")
    /// The limits restored rooms are built with (the hub's).
    package let limits: RoomLimits

    package init(store: any RoomStore, logger: LogWriter, limits: RoomLimits = RoomLimits()) {
        self.store = store
        self.logger = logger
        self.limits = limits
    }

    package func start(deliver: @escaping @Sendable (SequencerDelivery) -> Void) {
        committer.start { [self] in run(deliver: deliver) }
    }

    package func persist(_ records: [PersistRecord], ticket: Int) {
        hand(.commit(ticket: ticket, records: records))
    }

    /// Reads `rooms` back from the store on the committer thread, after
    /// what is queued to commit, builds them there (documents parsed, edits
    /// decoded) and delivers them as `restored`.
    package func restore(_ rooms: [String]) {
        hand(.restore(rooms))
    }

    /// Waits until everything handed over is committed and reported (at
    /// once when the committer is not running).
    package func flush() {
        committer.waitUntilCaughtUp()
    }

    /// Commits what is queued and ends the committer, however long the
    /// store takes (what was acknowledged must be kept); safe to call again
    /// and from several threads (each returns once it has ended).
    package func stop() {
        committer.stop()
    }

    private func hand(_ work: CommitWork) {
        backlog.withLock { $0.append(work) }
        committer.signal()
    }

    private func fail(_ error: NeonError) -> Never {
        logger.log(LogRecord(.error, .storeFailed, [LogField("error", .string(error.description))]))
        exit(74)
    }

    /// The committer's body: takes what was handed over, in batches, until
    /// a stop was asked for and nothing is left.
    private func run(deliver: @Sendable (SequencerDelivery) -> Void) {
        while true {
            // Read before taking: work handed over before the stop was
            // asked for is in this batch or an earlier one.
            let stopping = committer.isStopRequested
            let batch = backlog.withLock { backlog in
                defer { backlog.removeAll() }
                return backlog
            }
            if batch.isEmpty {
                if stopping { return }
                committer.wait()
                continue
            }
            do {
                try CommitWork.perform(batch, on: store, limits: limits, deliver: deliver)
            } catch {
                // The acks behind this batch cannot be sent, or a room cannot
                // be read back: say why and exit (74); clients resync from
                // the last durable revision, and the room is safe where it is.
                fail(error)
            }
        }
    }
}
