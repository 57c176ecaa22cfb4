import NeonLock
import NeonServer

/// The simulation's time: it moves only when the scheduler says, and every
/// node reads it through its `ServerClock` (monotonic and wall alike), so a
/// run's hub times, and everything computed from them, replay exactly.
final class SimulatedClock: Sendable {
    private let start = ContinuousClock.now
    /// A fixed wall-clock origin, 2023-11-14 22:13:20 UTC.
    private static let wallStart: Int64 = 1_700_000_000_000_000_000
    private let elapsed = Locked<Duration>(.zero)

    var now: Duration { elapsed.withLock { $0 } }

    func advance(by duration: Duration) {
        elapsed.withLock { $0 += duration }
    }

    /// Wall-clock nanoseconds since 1970, as the nodes read them.
    var wallNanoseconds: Int64 { Self.wallStart + now.inNanoseconds }

    var serverClock: ServerClock {
        ServerClock(now: { [self] in start + now }, wallNanoseconds: { [self] in wallNanoseconds })
    }
}
