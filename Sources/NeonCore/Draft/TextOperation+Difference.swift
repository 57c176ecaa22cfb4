extension TextOperation {
    /// The operation that turns `old` into `new` by replacing the single
    /// stretch between their longest common prefix and suffix (in Unicode
    /// scalars). A client uses it to turn an edited buffer into an edit.
    public static func difference(from old: String, to new: String) -> TextOperation {
        let before = Array(old.unicodeScalars)
        let after = Array(new.unicodeScalars)
        let shorter = min(before.count, after.count)
        var prefix = 0
        while prefix < shorter, before[prefix] == after[prefix] {
            prefix += 1
        }
        var suffix = 0
        while suffix < shorter - prefix, before[before.count - 1 - suffix] == after[after.count - 1 - suffix] {
            suffix += 1
        }
        let inserted = after[prefix..<(after.count - suffix)]
        var operation = TextOperation()
        operation.retain(prefix)
        operation.insert(String(String.UnicodeScalarView(inserted)), scalarCount: inserted.count)
        operation.delete(before.count - prefix - suffix)
        operation.retain(suffix)
        return operation
    }
}
