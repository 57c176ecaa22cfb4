import Foundation
import Glibc

/// SIGINT, SIGTERM and SIGHUP, taken by one thread with `sigwait`.
///
/// `blockStopSignals()` blocks them on the main thread before the daemon
/// starts any other thread, so every thread it ever has inherits the block:
/// a signal sent at any moment (the instant the start line is out included)
/// stays pending until this thread takes it. It is never delivered to a
/// thread that ignores it, and never takes its default action. (A dispatch
/// signal source, used before, installs its handler asynchronously on
/// libdispatch's manager thread; a SIGTERM that came between the process's
/// `SIG_IGN` and that handler was ignored, and the node never stopped.)
enum SignalThread {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the three signals on the calling thread, and so on every
    /// thread started from it afterwards. Call first, before any thread.
    static func blockStopSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // An ignored signal is discarded when sent, blocked or not, and a
        // shell starts background jobs with SIGINT ignored, nohup with
        // SIGHUP ignored: back to the default, which blocked means pending
        // until the signal thread takes it.
        for number in signals { signal(number, SIG_DFL) }
    }

    /// Starts the thread that waits for the signals and hands each to
    /// `handler` (on that thread) by its number, for the process's life.
    static func start(_ handler: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread {
            // Foundation starts a thread with its own mask: block them here
            // too, or one arriving outside sigwait would take its default
            // action on this thread.
            var set = signalSet()
            pthread_sigmask(SIG_BLOCK, &set, nil)
            while true {
                var number: Int32 = 0
                guard sigwait(&set, &number) == 0 else { continue }
                handler(number)
            }
        }
        thread.name = "neonsyncd-signals"
        thread.start()
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}
