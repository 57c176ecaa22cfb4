import NeonCore

/// When to try the server again after the connection dropped: 0.25 s,
/// doubling to 4 s, plus up to a fifth of jitter so the clients of a
/// restarted server do not all come back at once.
struct ReconnectBackoff {
    static let first: Duration = .milliseconds(250)
    static let longest: Duration = .seconds(4)

    private var wait = ReconnectBackoff.first

    /// The moment of the next try after a drop at `now`; the wait after it
    /// doubles.
    mutating func nextTry(after now: Duration) -> Duration {
        let jitter = Duration.nanoseconds(Int64.random(in: 0...max(wait.inNanoseconds / 5, 1)))
        defer { wait = min(wait * 2, Self.longest) }
        return now + wait + jitter
    }

    /// A connection succeeded: the next drop starts from the first wait.
    mutating func reset() { wait = Self.first }
}
