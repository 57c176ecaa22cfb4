/// Timing curves for animations, as functions of a progress fraction 0…1.
///
/// `easeInOut` is the CSS/Core Animation cubic Bézier (0.42, 0, 0.58, 1), the
/// curve the seeds' `.easeInOut` animations use.
public struct Easing: Sendable, Equatable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    public static let easeInOut = Easing(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    public static let linear = Easing(x1: 0, y1: 0, x2: 1, y2: 1)

    /// The eased value for a linear progress `t`, clamped to 0…1.
    public func value(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        guard t < 1 else { return 1 }
        if self == .linear { return t }
        let s = parameter(forX: t)
        return Self.bezier(s, y1, y2)
    }

    /// Solves x(s) = t for the curve parameter s (Newton, then bisection).
    private func parameter(forX t: Double) -> Double {
        var s = t
        for _ in 0..<8 {
            let x = Self.bezier(s, x1, x2) - t
            if abs(x) < 1e-7 { return s }
            let d = Self.derivative(s, x1, x2)
            if abs(d) < 1e-6 { break }
            s -= x / d
        }
        var lo = 0.0, hi = 1.0
        s = t
        for _ in 0..<40 {
            let x = Self.bezier(s, x1, x2)
            if abs(x - t) < 1e-7 { break }
            if x < t { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }

    private static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private static func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }
}
