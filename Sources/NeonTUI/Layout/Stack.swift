/// A constraint layout, as ratatui's `Layout`: an area cut into a row of
/// areas side by side (horizontal) or a column of them (vertical), each as
/// long as its `Constraint` says.
///
/// ```swift
/// let parts = Stack.vertical([.length(1), .fill(1), .length(3)]).split(screen)
/// // parts[0]: the title row, parts[1]: the body, parts[2]: three rows at the bottom
/// ```
///
/// The rules, the same for every size, so a split is exact and never
/// negative: fixed areas (`length`, `percentage`, `min`'s minimum) are served
/// first, in order, each with what it asks or what is left, so that on an
/// area too small the later ones shrink, down to 0. What they leave goes to
/// the fills in proportion to their weights (to the mins, evenly, when no
/// area fills; to nobody, left unused at the end, when neither is there).
/// Shares are cut where the running weight falls, rounded down, so a
/// remainder goes to the later fills: `[.fill(1), .length(n), .fill(1)]`
/// centres, leaning left or up as `Rect.centered` does.
///
/// (Not named `Layout`: that is NeonCore's layout of a document, which the
/// client's views use beside this one.)
public struct Stack: Equatable, Sendable {
    /// Which way the areas follow one another.
    public enum Direction: Equatable, Sendable {
        /// Top to bottom: each area is as wide as the whole.
        case vertical
        /// Left to right: each area is as tall as the whole.
        case horizontal
    }

    public var direction: Direction
    public var constraints: [Constraint]

    public init(_ direction: Direction, _ constraints: [Constraint]) {
        self.direction = direction
        self.constraints = constraints
    }

    /// Areas one under another, as tall as `constraints` say.
    public static func vertical(_ constraints: [Constraint]) -> Stack {
        Stack(.vertical, constraints)
    }

    /// Areas side by side, as wide as `constraints` say.
    public static func horizontal(_ constraints: [Constraint]) -> Stack {
        Stack(.horizontal, constraints)
    }

    /// The areas of `area`, one per constraint, in order and without gaps
    /// between them; each spans the whole of `area` the other way.
    public func split(_ area: Rect) -> [Rect] {
        let total = direction == .vertical ? area.height : area.width
        var start = direction == .vertical ? area.y : area.x
        return cells(of: total).map { length in
            defer { start += length }
            switch direction {
            case .vertical: return Rect(x: area.x, y: start, width: area.width, height: length)
            case .horizontal: return Rect(x: start, y: area.y, width: length, height: area.height)
            }
        }
    }

    /// The length of each area out of `length` cells.
    func cells(of length: Int) -> [Int] {
        let total = max(length, 0)
        var left = total
        var cells = constraints.map { constraint in
            let given = min(constraint.fixedCells(of: total), left)
            left -= given
            return given
        }
        let fills = constraints.contains(where: \.isWeightedFill)
        let weights = constraints.map { $0.sharingWeight(whenFills: fills) }
        let weight = weights.reduce(0, +)
        guard weight > 0 else { return cells }
        var running = 0
        for index in weights.indices where weights[index] > 0 {
            let before = left * running / weight
            running += weights[index]
            cells[index] += left * running / weight - before
        }
        return cells
    }
}
