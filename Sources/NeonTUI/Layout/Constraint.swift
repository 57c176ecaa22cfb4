/// How much of a `Stack`'s length one of its areas asks for, as ratatui's
/// `Constraint`. Lengths and percentages are fixed and served first, in
/// order; fills (or, when there is no fill, mins) share what they leave.
public enum Constraint: Equatable, Hashable, Sendable {
    /// Exactly `n` cells, fewer when the length runs out first.
    case length(Int)
    /// `p` percent of the whole length (0 to 100), rounded down.
    case percentage(Int)
    /// At least `n` cells; grows to share what is left when no area fills.
    case min(Int)
    /// A share of what the fixed areas leave, in proportion to `weight`;
    /// `fill(0)` takes nothing.
    case fill(Int)
}

extension Constraint {
    /// The cells asked for before any sharing, out of `total`.
    func fixedCells(of total: Int) -> Int {
        switch self {
        case let .length(n), let .min(n): Swift.max(n, 0)
        case let .percentage(p): total * Swift.min(Swift.max(p, 0), 100) / 100
        case .fill: 0
        }
    }

    /// Whether it is a fill with a weight above 0.
    var isWeightedFill: Bool {
        if case let .fill(weight) = self { return weight > 0 }
        return false
    }

    /// The weight it shares the rest with: fills by their weight; mins by
    /// 1, and only when `fills` is false (no weighted fill is present).
    func sharingWeight(whenFills fills: Bool) -> Int {
        switch self {
        case let .fill(weight): Swift.max(weight, 0)
        case .min: fills ? 0 : 1
        case .length, .percentage: 0
        }
    }
}
