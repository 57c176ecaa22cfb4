extension Duration {
    /// The duration as floating-point seconds, for easing curves and rates.
    /// Comparisons stay on `Duration` itself, which is exact.
    public var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

extension Duration {
    /// Whole nanoseconds, for exact modular arithmetic on animation cycles.
    public var inNanoseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}
