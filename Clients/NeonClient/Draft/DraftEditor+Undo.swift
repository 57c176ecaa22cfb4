import NeonCore

extension DraftEditor {
    /// Takes back this user's last undo step, as transformed past the
    /// others' edits since: it removes only text this user typed and
    /// restores only text this user deleted. The cursor goes to where the
    /// step changed the text.
    public mutating func undo() -> TextOperation? {
        guard let step = undoStack.popLast() else { return nil }
        let (inverse, send) = applyOwn(step, cursor: step.landing ?? cursor)
        redoStack.append(inverse)
        group = nil
        return send
    }

    /// Makes the last undone step again.
    public mutating func redo() -> TextOperation? {
        guard let step = redoStack.popLast() else { return nil }
        let (inverse, send) = applyOwn(step, cursor: step.landing ?? cursor)
        undoStack.append(inverse)
        group = nil
        return send
    }

    /// Notes a key at `time` (the caller's clock, so the editor stays pure):
    /// after a pause of `pauseBreak` or more since the last key, the next
    /// edit starts a new undo step.
    public mutating func input(at time: Duration) {
        if let last = lastInput, time - last >= Self.pauseBreak { group = nil }
        lastInput = time
    }

    /// An undo or redo history moved past `operation`, an edit by someone
    /// else applied to the text the newest step applies to (ot.js
    /// `UndoManager.transform`). Steps left with nothing to change (their
    /// text was deleted by someone else) are dropped.
    static func transformed(
        _ steps: [TextOperation],
        past operation: TextOperation
    ) throws(TextOperationError) -> [TextOperation] {
        var remote = operation
        var result: [TextOperation] = []
        for step in steps.reversed() {
            let (stepPrime, remotePrime) = try TextOperation.transform(step, remote)
            if stepPrime.landing != nil {
                result.append(stepPrime)
            }
            remote = remotePrime
        }
        return result.reversed()
    }
}
