import Glibc

/// Monotonic nanoseconds (CLOCK_MONOTONIC: one clock for every process on
/// the machine, so relay payload times can be read by any receiver).
func monotonicNanoseconds() -> Int64 {
    nanoseconds(CLOCK_MONOTONIC)
}

/// Wall-clock nanoseconds since 1970, the time a cluster node stamps each
/// event of a room's log with (bench redis measures with it, as nodes do).
func wallClockNanoseconds() -> Int64 {
    nanoseconds(CLOCK_REALTIME)
}

private func nanoseconds(_ clock: clockid_t) -> Int64 {
    var now = timespec()
    clock_gettime(clock, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
