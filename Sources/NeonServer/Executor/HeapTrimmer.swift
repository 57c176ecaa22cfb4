import Glibc
import NeonLock

/// Gives the memory glibc keeps on its free lists back to the system,
/// at most once every `interval`. After a reconnect storm the live heap
/// falls back to a few megabytes, but glibc keeps the pages it grew into
/// (each thread's arena only shrinks from its top), so without this a
/// server's RSS stays at the largest burst it has seen. `malloc_trim`
/// returns every whole free page of every arena; it runs on the sweep
/// timer's thread, taking each arena's lock for the walk (about a
/// millisecond for a heap of tens of megabytes).
final class HeapTrimmer: Sendable {
    private let last = Locked<ContinuousClock.Instant?>(nil)
    let interval: Duration

    init(every interval: Duration = .seconds(30)) {
        self.interval = interval
    }

    /// Trims when the last trim is `interval` ago; returns whether it did.
    @discardableResult
    func trimIfDue(now: ContinuousClock.Instant = .now) -> Bool {
        let due = last.withLock { last in
            guard last.map({ $0.duration(to: now) >= interval }) ?? true else { return false }
            last = now
            return true
        }
        if due, let trim = Self.mallocTrim { _ = trim(0) }
        return due
    }

    /// glibc's `malloc_trim(size_t pad)`, which the Glibc module does not
    /// import (it is declared in <malloc.h>); nil on another C library.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
}
