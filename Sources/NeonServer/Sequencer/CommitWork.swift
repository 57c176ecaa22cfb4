import NeonCore

/// What a node's committer thread does (`LocalSequencer`), in the order it
/// was handed over.
package enum CommitWork: Sendable {
    case commit(ticket: Int, records: [PersistRecord])
    /// Read resting rooms back (after every commit before).
    case restore([String])

    /// Does one batch of work the committer took, in order: consecutive
    /// commits go in one transaction, reported `durable` once stored; a
    /// restore reads what every commit before it stored. Throws what the
    /// store failed with (nothing after it is done or reported).
    package static func perform(_ batch: [CommitWork], on store: any RoomStore, limits: RoomLimits,
                                deliver: (SequencerDelivery) -> Void) throws(NeonError) {
        var records: [PersistRecord] = []
        var through: Int?
        for work in batch {
            switch work {
            case let .commit(ticket, more):
                records += more
                through = ticket
            case let .restore(rooms):
                if let ticket = through { try commit(records, through: ticket, on: store, deliver: deliver) }
                records.removeAll()
                through = nil
                try readBack(rooms, from: store, limits: limits, deliver: deliver)
            }
        }
        if let ticket = through { try commit(records, through: ticket, on: store, deliver: deliver) }
    }

    /// Commits `records` (the batch up to ticket `ticket`) and reports it.
    private static func commit(_ records: [PersistRecord], through ticket: Int, on store: any RoomStore,
                               deliver: (SequencerDelivery) -> Void) throws(NeonError) {
        let started = ContinuousClock.now
        try store.commit(records)
        deliver(.durable(through: ticket, took: started.duration(to: .now)))
    }

    private static func readBack(_ names: [String], from store: any RoomStore, limits: RoomLimits,
                                 deliver: (SequencerDelivery) -> Void) throws(NeonError) {
        var rooms: [RoomState] = []
        var missing: [String] = []
        for name in names {
            if let stored = try store.loadRoom(name) {
                rooms.append(RoomState(restoring: RoomSnapshot(stored), limits: limits))
            } else {
                missing.append(name)
            }
        }
        deliver(.event(.restored(rooms, missing: missing)))
    }
}
