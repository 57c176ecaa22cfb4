extension TextOperation {
    /// The single operation with the effect of applying this one and then
    /// `next`: `apply(compose(a, b), s) == apply(b, apply(a, s))`.
    ///
    /// Throws `lengthMismatch` when `next` does not start from the text this
    /// operation produces.
    public func compose(_ next: TextOperation) throws(TextOperationError) -> TextOperation {
        guard targetLength == next.baseLength else {
            throw .lengthMismatch(expected: next.baseLength, actual: targetLength)
        }
        var result = TextOperation()
        var first = Cursor(self)
        var second = Cursor(next)
        while true {
            switch (first.piece, second.piece) {
            case (nil, nil):
                return result
            case (.delete(let count)?, _):
                first.take(count)
                result.delete(count)
            case (_, .insert(let scalars, let length)?):
                second.take(length)
                result.insert(scalars, scalarCount: length)
            case let (.retain(left)?, .retain(right)?):
                let count = min(left, right)
                first.take(count)
                second.take(count)
                result.retain(count)
            case let (.insert(_, left)?, .retain(right)?):
                let count = min(left, right)
                result.insert(first.take(count), scalarCount: count)
                second.take(count)
            case let (.insert(_, left)?, .delete(right)?):
                let count = min(left, right)
                first.take(count)
                second.take(count)
            case let (.retain(left)?, .delete(right)?):
                let count = min(left, right)
                first.take(count)
                second.take(count)
                result.delete(count)
            case (nil, _?), (_?, nil):
                preconditionFailure("compose ran past one operation although targetLength == next.baseLength")
            }
        }
    }
}
