import NeonCore

extension DraftEditor {
    /// Takes in someone else's edit as the server broadcast it: transforms
    /// it past this user's unacknowledged edits, applies it, and moves the
    /// cursors and the undo history past it. Text inserted before the
    /// cursor shifts it; text inserted right at it goes after it. The
    /// cursor of `author` (who typed it) lands just after the last text
    /// the edit inserts, or where it last deletes: it shows up as soon as
    /// they type, without waiting for a `cursor` message.
    ///
    /// On error nothing changes; the error means this terminal and the
    /// server disagree: fetch the draft afresh and `resync`.
    public mutating func receive(_ operation: TextOperation, from author: ClientID? = nil) throws(OTClientError) {
        var client = ot
        let local = try client.applyServer(operation)
        let newText: String
        let newConfirmed: String
        let newUndo: [TextOperation]
        let newRedo: [TextOperation]
        do {
            newText = try local.apply(to: text)
            newConfirmed = try operation.apply(to: confirmed)
            newUndo = try Self.transformed(undoStack, past: local)
            newRedo = try Self.transformed(redoStack, past: local)
        } catch {
            throw .mismatchedEdit(error)
        }
        ot = client
        text = newText
        confirmed = newConfirmed
        if newUndo.count < undoStack.count {
            // A step the others deleted is gone: the next edit starts anew
            // rather than joining an older step.
            group = nil
        }
        undoStack = newUndo
        redoStack = newRedo
        let boundaries = GraphemeBoundaries(text)
        cursor = boundaries.snapped(local.transform(position: cursor, movesWithInserts: false))
        for (id, position) in remoteCursors {
            remoteCursors[id] = boundaries.snapped(local.transform(position: position, movesWithInserts: id == author))
        }
        if let author, let landing = local.landing {
            remoteCursors[author] = boundaries.snapped(landing)
        }
    }

    /// Takes in the server's acknowledgement of the edit in flight. Returns
    /// the edits typed meanwhile, as one operation to send next, if any.
    public mutating func acknowledged() throws(OTClientError) -> TextOperation? {
        let acknowledged: TextOperation? = switch ot.state {
        case .synchronized: nil
        case let .awaitingConfirm(outstanding), let .awaitingWithBuffer(outstanding, _): outstanding
        }
        let next = try ot.serverAck()
        if let acknowledged { confirmed = Self.mustFit { try acknowledged.apply(to: confirmed) } }
        return next
    }

    /// Starts over from the server's `text` at `revision` when the edits
    /// that led there from this editor's revision are not at hand (the
    /// first welcome, a history the server no longer keeps, an error).
    /// This user's edits still awaiting the server are kept: moved onto the
    /// server's text as if everything the server changed since `confirmed`
    /// were one edit made before them (`TextOperation.changes`; where both
    /// insert at one place, the server's text comes first), they become the
    /// edit in flight, returned to be sent (nil when there are none). The
    /// undo history, which referred to the old text, is dropped; the cursor
    /// keeps its place in the text that stayed. The others' cursors are
    /// forgotten: they may have moved or left meanwhile, and each shows up
    /// again when its owner types or moves.
    public mutating func rebase(onto newText: String, revision: Int) -> TextOperation? {
        let pending: TextOperation? = switch ot.state {
        case .synchronized: nil
        case let .awaitingConfirm(outstanding): outstanding
        case let .awaitingWithBuffer(outstanding, buffer): Self.mustFit { try outstanding.compose(buffer) }
        }
        let theirs = TextOperation.changes(from: confirmed, to: newText)
        let mine = pending.map { pending in Self.mustFit { try TextOperation.transform(theirs, pending).1 } }
        let rebuilt = mine.map { mine in Self.mustFit { try mine.apply(to: newText) } } ?? newText
        let change = TextOperation.changes(from: text, to: rebuilt)
        cursor = GraphemeBoundaries(rebuilt).snapped(change.transform(position: cursor, movesWithInserts: false))
        remoteCursors.removeAll()
        text = rebuilt
        confirmed = newText
        ot.resync(revision: revision)
        undoStack.removeAll()
        redoStack.removeAll()
        group = nil
        goalColumn = nil
        guard let mine, !mine.isNoop else { return nil }
        return Self.mustFit { try ot.applyLocal(mine) }
    }

    /// Shows `id`'s cursor at `position` (scalars of `text`, moved onto a
    /// grapheme cluster boundary).
    public mutating func setRemoteCursor(_ id: ClientID, at position: Int) {
        remoteCursors[id] = GraphemeBoundaries(text).snapped(position)
    }

    /// Stops showing `id`'s cursor (they left, or stopped editing).
    public mutating func removeRemoteCursor(_ id: ClientID) {
        remoteCursors[id] = nil
    }

    /// Stops showing the others' cursors (a welcome after a reconnect: who
    /// is still here, and where, is known again only as they type or move).
    public mutating func removeRemoteCursors() {
        remoteCursors.removeAll()
    }
}
