/// Where the executor reads the time, once for each event: the system's
/// clocks in the server, a clock the test moves by hand in-process.
package struct ServerClock: Sendable {
    /// The monotonic clock: rate limits, the hub's time on one node, fan-out latency.
    package var now: @Sendable () -> ContinuousClock.Instant
    /// Wall-clock nanoseconds since 1970: tokens, room activity, a cluster's hub.
    package var wallNanoseconds: @Sendable () -> Int64

    package init(now: @escaping @Sendable () -> ContinuousClock.Instant, wallNanoseconds: @escaping @Sendable () -> Int64) {
        self.now = now
        self.wallNanoseconds = wallNanoseconds
    }

    static let system = ServerClock(now: { .now }, wallNanoseconds: { WallClock.nanoseconds() })
}
