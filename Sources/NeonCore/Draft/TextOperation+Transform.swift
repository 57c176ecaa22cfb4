extension TextOperation {
    /// Transforms two operations made concurrently against the same text
    /// into `(a′, b′)` such that applying `a` then `b′` gives the same text
    /// as applying `b` then `a′` (ot.js `transform`, property TP1).
    ///
    /// The order of the arguments breaks ties: where both insert at the same
    /// position, `a`'s text ends up first. Call it with `a` the operation
    /// the server has NOT sequenced yet (a client's edit) and `b` the one it
    /// already has (from its history, or received by the client), as both
    /// `DraftDocument` and `OTClient` do, so every side orders ties alike.
    ///
    /// Throws `lengthMismatch` when the two do not start from texts of the
    /// same length.
    public static func transform(
        _ a: TextOperation,
        _ b: TextOperation
    ) throws(TextOperationError) -> (TextOperation, TextOperation) {
        guard a.baseLength == b.baseLength else {
            throw .lengthMismatch(expected: a.baseLength, actual: b.baseLength)
        }
        var aPrime = TextOperation()
        var bPrime = TextOperation()
        var left = Cursor(a)
        var right = Cursor(b)
        while true {
            switch (left.piece, right.piece) {
            case (nil, nil):
                return (aPrime, bPrime)
            case (.insert(let scalars, let length)?, _):
                left.take(length)
                aPrime.insert(scalars, scalarCount: length)
                bPrime.retain(length)
            case (_, .insert(let scalars, let length)?):
                right.take(length)
                aPrime.retain(length)
                bPrime.insert(scalars, scalarCount: length)
            case let (.retain(leftCount)?, .retain(rightCount)?):
                let count = min(leftCount, rightCount)
                left.take(count)
                right.take(count)
                aPrime.retain(count)
                bPrime.retain(count)
            case let (.delete(leftCount)?, .delete(rightCount)?):
                let count = min(leftCount, rightCount)
                left.take(count)
                right.take(count)
            case let (.delete(leftCount)?, .retain(rightCount)?):
                let count = min(leftCount, rightCount)
                left.take(count)
                right.take(count)
                aPrime.delete(count)
            case let (.retain(leftCount)?, .delete(rightCount)?):
                let count = min(leftCount, rightCount)
                left.take(count)
                right.take(count)
                bPrime.delete(count)
            case (nil, _?), (_?, nil):
                preconditionFailure("transform ran past one operation although both have the same baseLength")
            }
        }
    }
}
