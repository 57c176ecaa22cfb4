/// An edit of a room's draft in the ot.js form: one walk over the whole text
/// that retains, inserts and deletes runs of Unicode scalars.
///
/// Every length and count is in Unicode scalars, not `Character`s: a ZWJ
/// family emoji is one `Character` but seven scalars, and an operation (and
/// the wire, see `TextOperation+Codable.swift`) counts it as seven.
///
/// A value is always normalized the way ot.js builds operations: no empty
/// components, adjacent components of one kind merged, and an insert placed
/// before a delete where the two meet. So the same edit built in different
/// orders (a delete then an insert at one spot, or the other way round)
/// always compares equal.
public struct TextOperation: Hashable, Sendable {
    /// The normalized components, in text order.
    public private(set) var components: [Component] = []
    /// The length, in Unicode scalars, of the text this operation applies to.
    public private(set) var baseLength = 0
    /// The length, in Unicode scalars, of the text this operation produces.
    public private(set) var targetLength = 0

    /// The empty operation, which applies only to the empty text.
    public init() {}

    /// Builds a normalized operation from components in text order; empty
    /// components are skipped and neighbours of one kind merged.
    ///
    /// Negative counts and lengths past `Int.max` are programming errors and
    /// trap; use `init(validating:)` for components that come from outside.
    public init(_ components: [Component]) {
        for component in components {
            append(component)
        }
    }

    /// Builds a normalized operation from components that come from outside,
    /// rejecting what `init(_:)` would skip or trap on: counts that are not
    /// positive, empty inserts, and lengths too large to represent.
    public init(validating components: [Component]) throws(TextOperationError) {
        for (index, component) in components.enumerated() {
            let growth: (base: Int, target: Int)
            switch component {
            case .retain(let count):
                try Self.validate(count, at: index)
                growth = (count, count)
            case .delete(let count):
                try Self.validate(count, at: index)
                growth = (count, 0)
            case .insert(let text):
                guard !text.isEmpty else { throw .invalidComponent(index: index, problem: .emptyInsert) }
                growth = (0, text.unicodeScalars.count)
            }
            guard !baseLength.addingReportingOverflow(growth.base).overflow,
                  !targetLength.addingReportingOverflow(growth.target).overflow
            else { throw .invalidComponent(index: index, problem: .tooLong) }
            append(component)
        }
    }

    private static func validate(_ count: Int, at index: Int) throws(TextOperationError) {
        guard count != 0 else { throw .invalidComponent(index: index, problem: .zeroCount) }
        guard count > 0 else { throw .invalidComponent(index: index, problem: .negativeCount) }
    }

    /// Keeps the next `count` scalars of the text unchanged.
    public mutating func retain(_ count: Int) {
        precondition(count >= 0, "a retain count must not be negative, got \(count)")
        guard count > 0 else { return }
        baseLength += count
        targetLength += count
        if case .retain(let previous)? = components.last {
            components[components.count - 1] = .retain(previous + count)
        } else {
            components.append(.retain(count))
        }
    }

    /// Inserts `text` at the current position.
    public mutating func insert(_ text: String) {
        insert(text, scalarCount: text.unicodeScalars.count)
    }

    /// Deletes the next `count` scalars of the text.
    public mutating func delete(_ count: Int) {
        precondition(count >= 0, "a delete count must not be negative, got \(count)")
        guard count > 0 else { return }
        baseLength += count
        if case .delete(let previous)? = components.last {
            components[components.count - 1] = .delete(previous + count)
        } else {
            components.append(.delete(count))
        }
    }

    /// Appends one component through the normalizing builders.
    mutating func append(_ component: Component) {
        switch component {
        case .retain(let count): retain(count)
        case .insert(let text): insert(text)
        case .delete(let count): delete(count)
        }
    }

    /// `insert(_:)` for callers that already know the scalar count.
    mutating func insert(_ text: String, scalarCount: Int) {
        guard scalarCount > 0 else { return }
        targetLength += scalarCount
        let last = components.count - 1
        switch components.last {
        case .insert(let previous)?:
            components[last] = .insert(previous + text)
        case .delete(let count)?:
            if last > 0, case .insert(let previous) = components[last - 1] {
                components[last - 1] = .insert(previous + text)
            } else {
                components[last] = .insert(text)
                components.append(.delete(count))
            }
        case .retain?, nil:
            components.append(.insert(text))
        }
    }
}
