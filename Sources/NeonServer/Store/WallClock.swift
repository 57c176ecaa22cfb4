import Glibc

/// The wall clock, for the store's `created_ms` and `updated_ms` columns.
enum WallClock {
    /// Milliseconds since the Unix epoch.
    static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
