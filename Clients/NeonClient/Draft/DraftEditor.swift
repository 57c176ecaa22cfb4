import NeonCore

/// One terminal's side of the room's shared draft: the text as this user
/// sees it, their cursor, the OT client that orders their edits with
/// everyone else's, the others' cursors, and the undo history of this
/// user's own edits.
///
/// Every position is an offset in Unicode scalars, the unit of the draft's
/// edits. The cursor always sits on a grapheme cluster boundary: moves and
/// deletes go by whole clusters, so a ZWJ family or a flag is one step.
///
/// Every edit method returns the operation to send to the server, based on
/// `revision`, or nil when there is nothing to send (the edit was buffered
/// behind the one in flight, or changed nothing).
///
/// Undo takes back only this user's edits: each undo step is kept
/// transformed past the edits that arrive from the others, so undoing a
/// word typed before someone else's edit removes that word and leaves
/// their text alone.
public struct DraftEditor: Equatable, Sendable {
    /// The draft as this terminal shows it.
    public internal(set) var text: String
    /// The local cursor, in scalars, on a grapheme cluster boundary.
    public internal(set) var cursor: Int
    /// The protocol state: the revision and the edits awaiting the server.
    public internal(set) var ot: OTClient
    /// The draft as the server has it at `revision`: `text` without this
    /// user's edits still awaiting the server. What those edits are moved
    /// onto the server's text from, when its history is not at hand
    /// (`rebase`).
    public internal(set) var confirmed: String
    /// The other people's cursors, in scalars of `text`.
    public internal(set) var remoteCursors: [ClientID: Int] = [:]
    /// The inverses of this user's edits, newest last; each applies to the
    /// text the ones after it leave.
    var undoStack: [TextOperation] = []
    /// The inverses of undone steps, newest last.
    var redoStack: [TextOperation] = []
    /// The kind of the last edit, while further edits of the kind join its
    /// undo step; nil after a move, an undo or a remote resync.
    var group: EditGroup?
    /// When the last key came (from `input(at:)`), to end an undo step on a
    /// pause.
    var lastInput: Duration?
    /// The column up and down aim for, kept across a run of vertical moves.
    var goalColumn: Int?

    /// A pause this long between two keys ends the undo step, as in most
    /// editors, even inside a word.
    public static let pauseBreak: Duration = .seconds(1)

    /// How many undo steps an editor keeps; older ones are forgotten.
    public static let undoLimit = 500

    /// An editor showing the server's `text` at `revision`, the cursor at
    /// its end.
    public init(text: String = "", revision: Int = 0) {
        self.text = text
        confirmed = text
        cursor = text.unicodeScalars.count
        ot = OTClient(revision: revision)
    }

    /// The server revision edits are sent against.
    public var revision: Int { ot.revision }
    /// Whether there is an own edit to undo.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// Whether there is an undone edit to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// The count, limit and level of the text.
    public func status(counter: DraftCounter) -> DraftStatus {
        counter.status(of: text)
    }

    /// The part of the text past the limit, from the first grapheme cluster
    /// that takes the count over it to the end; nil while within it. With a
    /// limit of 280 that is the 281st character on.
    public func overLimitRange(counter: DraftCounter) -> Range<String.Index>? {
        guard counter.count(text) > counter.limit else { return nil }
        let indices = Array(text.indices)
        var low = 0
        var high = indices.count - 1
        // The first cluster whose prefix, it included, counts past the
        // limit; counts never shrink as a prefix grows.
        while low < high {
            let middle = (low + high) / 2
            if counter.count(String(text[..<text.index(after: indices[middle])])) > counter.limit {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return indices[low]..<text.endIndex
    }

    /// Applies one of this user's edits (typed, deleted, undone or redone),
    /// moves the cursor to `newCursor` and the others' cursors past it, and
    /// hands it to the OT client. Returns its inverse and what to send.
    mutating func applyOwn(
        _ operation: TextOperation,
        cursor newCursor: Int
    ) -> (inverse: TextOperation, send: TextOperation?) {
        let inverse = Self.mustFit { try operation.invert(against: text) }
        text = Self.mustFit { try operation.apply(to: text) }
        let boundaries = GraphemeBoundaries(text)
        cursor = boundaries.snapped(newCursor)
        remoteCursors = remoteCursors.mapValues {
            boundaries.snapped(operation.transform(position: $0, movesWithInserts: false))
        }
        goalColumn = nil
        let send = Self.mustFit { try ot.applyLocal(operation) }
        return (inverse, send)
    }

    /// Runs a step that cannot fail while the editor's text, OT client and
    /// undo steps agree, as every method keeps them; a failure is a bug.
    static func mustFit<T>(_ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            preconditionFailure("the draft editor's own edit did not fit its text: \(error)")
        }
    }
}
