import NeonCore

extension ClientMessage {
    /// Whether a cluster's Redis keeps this message's entry across its own
    /// crash, so that its append waits for the fsync of `appendfsync always`
    /// (docs/CLUSTER.md, "Events not kept").
    ///
    /// Kept: what a room must still hold after a crash, and what is
    /// acknowledged (`hello` and its membership, a `document`, an `edit`
    /// and its `ack`, the room's `pointing` rule, a question asked or marked
    /// answered, whose broadcast tells its asker it is kept, a `summon` that
    /// moves followers). Not kept: where someone
    /// is and what passes through (`scroll`, `tab`, `follow`, `cursor`,
    /// `point`, `unpoint`, a snippet's `output`: latest-wins updates, which the next one
    /// replaces; a `relay`, which nobody keeps): Redis numbers them in the
    /// room's one order and holds them in memory like the rest; a restart
    /// of Redis loses those its room's last image does not hold yet.
    /// Connections closing and nodes going (`bye`, `gone`) are always kept.
    var isKeptByCluster: Bool {
        switch self {
        case .hello, .document, .edit, .pointing, .ask, .answered, .summon: true
        case .scroll, .tab, .follow, .cursor, .relay, .point, .unpoint, .output: false
        }
    }
}
