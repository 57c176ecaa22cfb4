import Glibc

/// The wall clock: the store's `created_ms` and `updated_ms` columns, the
/// time events carry in a cluster's logs, the gateway's token and
/// room-expiry checks. Read by the shell only, never by the core.
package enum WallClock {
    /// Milliseconds since the Unix epoch.
    package static func milliseconds() -> Int {
        Int(nanoseconds() / 1_000_000)
    }

    /// Nanoseconds since the Unix epoch.
    package static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

extension Duration {
    /// Whole milliseconds.
    package var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
