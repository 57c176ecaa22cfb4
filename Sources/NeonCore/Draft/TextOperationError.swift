/// Why an operation could not be built, applied or combined.
public enum TextOperationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation expects a text (or another operation's result) of
    /// `expected` scalars but got one of `actual` scalars.
    case lengthMismatch(expected: Int, actual: Int)
    /// Component `index` (counted from 0) cannot be part of an operation.
    case invalidComponent(index: Int, problem: ComponentProblem)

    /// What is wrong with a rejected component.
    public enum ComponentProblem: Hashable, Sendable {
        case zeroCount
        case negativeCount
        case emptyInsert
        case tooLong
    }

    public var description: String {
        switch self {
        case let .lengthMismatch(expected, actual):
            return "the edit expects a draft of \(expected) characters but it has \(actual) — resync and retry"
        case let .invalidComponent(index, problem):
            return "item \(index) of the edit \(problem.description)"
        }
    }
}

extension TextOperationError.ComponentProblem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .zeroCount:
            return "is a count of 0; retains and deletes must cover at least one character"
        case .negativeCount:
            return "is a negative count; write retains and deletes as positive counts"
        case .emptyInsert:
            return "is an empty insert; leave it out"
        case .tooLong:
            return "is larger than any draft can be"
        }
    }
}
