/// A token bucket: `rate` messages a second on average, bursts of up to
/// `burst`. Pure: the caller passes the time of each message.
public struct TokenBucket: Equatable, Sendable {
    public let rate: Double
    public let burst: Double
    private var tokens: Double
    private var last: Duration?

    /// A full bucket. `rate` and `burst` must be above 0.
    public init(rate: Double, burst: Double) {
        precondition(rate > 0 && burst >= 1, "a token bucket needs a rate above 0 and a burst of at least 1")
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Takes one token for a message at `time`; false when the bucket is
    /// empty (the message is over the rate).
    public mutating func take(at time: Duration) -> Bool {
        if let last, time > last {
            let elapsed = Double((time - last).components.seconds) + Double((time - last).components.attoseconds) / 1e18
            tokens = min(burst, tokens + elapsed * rate)
        }
        last = max(last ?? time, time)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
