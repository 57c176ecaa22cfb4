/// Percentiles of a set of latency samples, by the nearest-rank method: the
/// p-th percentile is the smallest sample with at least p% of the samples at
/// or below it, so every figure reported is a latency that was measured.
package struct LatencySummary: Equatable, Sendable {
    /// How many samples.
    package let count: Int
    /// Nanoseconds; zero when there are no samples.
    package let p50: Int64
    package let p90: Int64
    package let p99: Int64
    package let max: Int64
    package let mean: Int64

    /// Summarises `samples` (nanoseconds, any order).
    package init(nanoseconds samples: [Int64]) {
        let sorted = samples.sorted()
        count = sorted.count
        p50 = Self.percentile(50, ofSorted: sorted)
        p90 = Self.percentile(90, ofSorted: sorted)
        p99 = Self.percentile(99, ofSorted: sorted)
        max = sorted.last ?? 0
        mean = sorted.isEmpty ? 0 : Int64((sorted.reduce(0.0) { $0 + Double($1) } / Double(sorted.count)).rounded())
    }

    /// The nearest-rank `p`-th percentile (0 < p ≤ 100) of ascending
    /// `sorted`: the value at rank ⌈p/100 × n⌉; 0 for no samples.
    package static func percentile(_ p: Double, ofSorted sorted: [Int64]) -> Int64 {
        precondition(p > 0 && p <= 100, "a percentile lies in (0, 100]")
        guard !sorted.isEmpty else { return 0 }
        // In thousandths of a percent and whole numbers, so that 99% of 100
        // samples is rank 99 exactly (no floating-point rounding up to 100).
        let thousandths = Int((p * 1000).rounded())
        let rank = Swift.max(1, (thousandths * sorted.count + 99_999) / 100_000)
        return sorted[Swift.min(rank, sorted.count) - 1]
    }

    /// Milliseconds, for reports.
    package static func milliseconds(_ nanoseconds: Int64) -> Double {
        Double(nanoseconds) / 1_000_000
    }
}
