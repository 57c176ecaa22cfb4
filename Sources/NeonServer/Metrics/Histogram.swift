import NeonCore

/// A Prometheus histogram of durations with fixed bucket bounds, kept in
/// whole nanoseconds so observing is integer work and the sum is exact.
struct Histogram: Equatable, Sendable {
    /// Upper bounds in microseconds, ascending (the `le` labels in seconds).
    let boundsMicroseconds: [Int]
    /// Observations per bucket, not cumulative; the last slot is above every bound.
    private(set) var buckets: [Int]
    private(set) var count = 0
    private(set) var sumNanoseconds = 0

    init(boundsMicroseconds: [Int]) {
        precondition(zip(boundsMicroseconds, boundsMicroseconds.dropFirst()).allSatisfy { $0 < $1 },
                     "histogram bounds must be strictly ascending")
        self.boundsMicroseconds = boundsMicroseconds
        buckets = Array(repeating: 0, count: boundsMicroseconds.count + 1)
    }

    /// 50 µs to 100 ms: one broadcast's fan-out on one node.
    static let fanOut = Histogram(boundsMicroseconds: [50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000])
    /// 100 µs to 1 s: one store commit, fsync included.
    static let storeCommit = Histogram(boundsMicroseconds: [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000,
                                                            100_000, 250_000, 500_000, 1_000_000])

    /// 25 µs to 1 s: one Redis command round trip, or a log entry's way
    /// from its node through Redis to another.
    static let redisBuckets = Histogram(boundsMicroseconds: [25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000,
                                                             100_000, 1_000_000])

    /// Counts `duration` (negative as 0); the sum saturates at `Int.max`
    /// nanoseconds instead of trapping (a cluster entry's lag is computed
    /// from another node's clock and may be anything).
    mutating func observe(_ duration: Duration) {
        let nanoseconds = max(0, Int(duration.inNanoseconds))
        var slot = 0
        while slot < boundsMicroseconds.count, nanoseconds > boundsMicroseconds[slot] * 1_000 { slot += 1 }
        buckets[slot] += 1
        count += 1
        sumNanoseconds = Self.saturating(sumNanoseconds, nanoseconds)
    }

    private static func saturating(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// This histogram and `other` (same bounds) as one.
    func merged(with other: Histogram) -> Histogram {
        precondition(other.boundsMicroseconds == boundsMicroseconds, "merging histograms of other bounds")
        var sum = self
        sum.buckets = zip(buckets, other.buckets).map(+)
        sum.count += other.count
        sum.sumNanoseconds = Self.saturating(sum.sumNanoseconds, other.sumNanoseconds)
        return sum
    }

    /// Observations at or below each bound, then the total (`le="+Inf"`).
    var cumulative: [Int] {
        var running = 0
        return buckets.map { running += $0; return running }
    }
}
