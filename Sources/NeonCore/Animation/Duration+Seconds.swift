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
    /// Saturating: a duration past ±292 years (Int64's nanoseconds) is
    /// `Int64.max` or `.min`, never a trap (a time read from elsewhere, a
    /// cluster entry's, may be anything).
    public var inNanoseconds: Int64 {
        let parts = components
        let (whole, overflow) = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return parts.seconds < 0 ? .min : .max }
        let (total, over) = whole.addingReportingOverflow(parts.attoseconds / 1_000_000_000)
        return over ? (whole < 0 ? .min : .max) : total
    }
}
