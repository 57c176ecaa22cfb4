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
        let newUndo: [TextOperation]
        let newRedo: [TextOperation]
        do {
            newText = try local.apply(to: text)
            newUndo = try Self.transformed(undoStack, past: local)
            newRedo = try Self.transformed(redoStack, past: local)
        } catch {
            throw .mismatchedEdit(error)
        }
        ot = client
        text = newText
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
        try ot.serverAck()
    }

    /// Starts over from the server's `text` at `revision` (after a
    /// reconnect or an error). Unacknowledged edits are dropped with the old
    /// text, and so is the undo history, which referred to it; the cursor
    /// keeps its place in the text that stayed. The others' cursors are
    /// forgotten: they may have moved or left meanwhile, and each shows up
    /// again when its owner types or moves.
    public mutating func resync(text newText: String, revision: Int) {
        let change = TextOperation.difference(from: text, to: newText)
        let boundaries = GraphemeBoundaries(newText)
        cursor = boundaries.snapped(change.transform(position: cursor, movesWithInserts: false))
        remoteCursors.removeAll()
        text = newText
        ot.resync(revision: revision)
        undoStack.removeAll()
        redoStack.removeAll()
        group = nil
        goalColumn = nil
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
