import NeonCore
import NeonServer

/// One node's `LocalSequencer` with its committer thread replaced by the
/// scheduler: what the executor hands over waits in `backlog` until the
/// scheduler lets the committer take a batch, which the real sequencer's
/// own code (`CommitWork.perform`) commits to the store; what it
/// reports waits in `handedBack` until the scheduler lets the service
/// thread run it. A crash loses both (the process is gone); the store keeps
/// what was committed.
///
/// `@unchecked Sendable`: `RoomCommitter` asks for it, but a simulation
/// runs on one thread and never shares it.
final class SimulatedLocalSequencer: RoomCommitter, @unchecked Sendable {
    let store: any RoomStore
    let limits: RoomLimits
    /// Handed over, not yet taken by the committer.
    private(set) var backlog: [CommitWork] = []
    /// What the committer reported, not yet run on the service thread.
    private(set) var handedBack: [SequencerDelivery] = []
    /// What the store refused (a bug the simulation reports).
    private(set) var failure: NeonError?

    init(store: any RoomStore, limits: RoomLimits) {
        self.store = store
        self.limits = limits
    }

    func persist(_ records: [PersistRecord], ticket: Int) {
        backlog.append(.commit(ticket: ticket, records: records))
    }

    func restore(_ rooms: [String]) {
        backlog.append(.restore(rooms))
    }

    /// The committer wakes and takes the first `count` pieces of work as
    /// one batch (group commit: what was queued while it was busy).
    func commit(_ count: Int) {
        let batch = Array(backlog.prefix(count))
        backlog.removeFirst(batch.count)
        do {
            try CommitWork.perform(batch, on: store, limits: limits) { handedBack.append($0) }
        } catch {
            failure = error
        }
    }

    /// The service thread runs the oldest report.
    func takeHandedBack() -> SequencerDelivery {
        handedBack.removeFirst()
    }
}
