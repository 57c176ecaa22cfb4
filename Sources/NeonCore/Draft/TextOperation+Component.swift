extension TextOperation {
    /// One step of an operation's walk over the text.
    ///
    /// Inserts compare and hash by their Unicode scalars, not by `String`'s
    /// canonical equivalence: "é" as one scalar and "e" + U+0301 are different
    /// inserts because they have different lengths.
    public enum Component: Sendable {
        /// Keeps this many scalars.
        case retain(Int)
        /// Inserts this text.
        case insert(String)
        /// Removes this many scalars.
        case delete(Int)
    }
}

extension TextOperation.Component: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.retain(left), .retain(right)), let (.delete(left), .delete(right)):
            return left == right
        case let (.insert(left), .insert(right)):
            return left.unicodeScalars.elementsEqual(right.unicodeScalars)
        default:
            return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .retain(let count):
            hasher.combine(0)
            hasher.combine(count)
        case .insert(let text):
            hasher.combine(1)
            for scalar in text.unicodeScalars {
                hasher.combine(scalar.value)
            }
        case .delete(let count):
            hasher.combine(2)
            hasher.combine(count)
        }
    }
}
