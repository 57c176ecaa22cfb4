extension TextOperation {
    /// The text this operation produces from `text`.
    ///
    /// Throws `lengthMismatch` when `text` is not `baseLength` scalars long.
    public func apply(to text: String) throws(TextOperationError) -> String {
        let scalars = text.unicodeScalars
        let count = scalars.count
        guard count == baseLength else {
            throw .lengthMismatch(expected: baseLength, actual: count)
        }
        var result = String.UnicodeScalarView()
        var index = scalars.startIndex
        for component in components {
            switch component {
            case .retain(let count):
                let end = scalars.index(index, offsetBy: count)
                result.append(contentsOf: scalars[index..<end])
                index = end
            case .insert(let inserted):
                result.append(contentsOf: inserted.unicodeScalars)
            case .delete(let count):
                index = scalars.index(index, offsetBy: count)
            }
        }
        return String(result)
    }

    /// The operation that undoes this one: applied to `apply(to: text)` it
    /// gives back `text`. `text` is the text this operation applies to; it
    /// supplies what the deletes removed.
    ///
    /// Throws `lengthMismatch` when `text` is not `baseLength` scalars long.
    public func invert(against text: String) throws(TextOperationError) -> TextOperation {
        let scalars = text.unicodeScalars
        let count = scalars.count
        guard count == baseLength else {
            throw .lengthMismatch(expected: baseLength, actual: count)
        }
        var inverse = TextOperation()
        var index = scalars.startIndex
        for component in components {
            switch component {
            case .retain(let count):
                inverse.retain(count)
                index = scalars.index(index, offsetBy: count)
            case .insert(let inserted):
                inverse.delete(inserted.unicodeScalars.count)
            case .delete(let count):
                let end = scalars.index(index, offsetBy: count)
                inverse.insert(String(String.UnicodeScalarView(scalars[index..<end])), scalarCount: count)
                index = end
            }
        }
        return inverse
    }
}
