/// The server-side sequencer of one room's shared draft: it orders the
/// edits of every client, transforms each against the edits it missed, and
/// keeps the text and a bounded history of what it applied.
///
/// Revision `r` is the text after `r` applied edits. The history holds the
/// last `historyLimit` applied edits, so an edit based on a revision at or
/// after `oldestRevision` can be transformed; older ones are rejected and
/// the client must resync.
public struct DraftDocument: Sendable {
    /// How many applied edits a document keeps unless told otherwise.
    public static let defaultHistoryLimit = 1000

    /// The current text.
    public private(set) var text: String
    /// The length of `text` in Unicode scalars, the unit edits count in.
    public private(set) var length: Int
    /// The number of edits applied since revision 0.
    public private(set) var revision: Int
    /// The most applied edits kept for transforming late edits.
    public let historyLimit: Int
    /// The edits that took revisions `oldestRevision ..< revision` one step
    /// further, as applied.
    private var history: [TextOperation] = []

    /// A document at `revision` with `text` and no history yet (after a
    /// restart, edits based on older revisions are rejected as too old).
    public init(text: String = "", revision: Int = 0, historyLimit: Int = DraftDocument.defaultHistoryLimit) {
        precondition(historyLimit >= 0, "a history limit must not be negative, got \(historyLimit)")
        self.text = text
        length = text.unicodeScalars.count
        self.revision = revision
        self.historyLimit = historyLimit
    }

    /// A draft restored at `revision` with the operations that produced its
    /// latest revisions (oldest first, ending at `revision`), so edits based
    /// on those revisions still transform after a restart. Operations beyond
    /// the history limit or the revision count are dropped from the front.
    public init(text: String, revision: Int, history recent: [TextOperation],
                historyLimit: Int = DraftDocument.defaultHistoryLimit) {
        self.init(text: text, revision: revision, historyLimit: historyLimit)
        history = Array(recent.suffix(min(historyLimit, max(revision, 0))))
    }

    /// The oldest revision an incoming edit may be based on.
    public var oldestRevision: Int {
        revision - history.count
    }

    /// Sequences an edit a client made against revision `base`: transforms
    /// it past every edit applied since (the client's edit wins insert ties,
    /// see `TextOperation.transform`), applies it and moves to the next
    /// revision. Returns the edit as applied, to broadcast to the other
    /// clients (and acknowledge to the sender), with the new revision.
    ///
    /// On error nothing changes.
    public mutating func receive(
        _ operation: TextOperation,
        basedOn base: Int
    ) throws(DraftError) -> (applied: TextOperation, revision: Int) {
        guard base <= revision else {
            throw .revisionNotYetReached(base, current: revision)
        }
        guard base >= oldestRevision else {
            throw .revisionTooOld(base, oldest: oldestRevision)
        }
        var applied = operation
        let newText: String
        do {
            for concurrent in history[(base - oldestRevision)...] {
                applied = try TextOperation.transform(applied, concurrent).0
            }
            newText = try applied.apply(to: text)
        } catch {
            throw .mismatchedEdit(error)
        }
        text = newText
        length = applied.targetLength
        revision += 1
        history.append(applied)
        if history.count > historyLimit {
            history.removeFirst(history.count - historyLimit)
        }
        return (applied, revision)
    }
}

extension DraftDocument: Equatable {
    /// Documents are equal when their texts have the same Unicode scalars
    /// (not merely canonically equivalent ones), revisions and histories.
    public static func == (lhs: DraftDocument, rhs: DraftDocument) -> Bool {
        lhs.revision == rhs.revision
            && lhs.historyLimit == rhs.historyLimit
            && lhs.history == rhs.history
            && lhs.text.unicodeScalars.elementsEqual(rhs.text.unicodeScalars)
    }
}
