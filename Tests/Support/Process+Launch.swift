import Foundation
import Glibc
import NeonLock

extension Process {
    /// Starts the program as a shell would: with no signal blocked.
    ///
    /// `run()` spawns from the calling thread, and the child inherits that
    /// thread's signal mask. The threads tests run on (libdispatch's, and
    /// threads made from them) block nearly every signal, so a child
    /// started there would begin with SIGTERM, SIGINT and SIGHUP blocked:
    /// a Python client or a shell script's Redis then ignores the SIGTERM
    /// that stops it, and each stop waits out its whole timeout. The spawn
    /// happens on a thread of its own whose mask is empty.
    public func runUnblocked() throws {
        let box = LaunchBox(self)
        let thread = Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            // One spawn at a time: Foundation makes each child's descriptors
            // (its pipes, its exit-watching socket pair) inheritable and
            // closes the others in the child only up to the highest open
            // when it prepares; two spawns at once would hand each other's
            // new descriptors to the wrong child (see ChildPipe).
            spawning.withLock { _ in
                do { try box.process.run() } catch { box.failure = error }
            }
            box.done.signal()
        }
        thread.name = "neonsync-test-launch"
        thread.start()
        box.done.wait()
        if let failure = box.failure { throw failure }
    }
}

/// Held while a child is spawned.
private let spawning = Locked(())

/// The process and what its launch thread reports, handed between the
/// caller and that thread: written by the thread before `done` is
/// signalled, read by the caller after it waits.
private final class LaunchBox: @unchecked Sendable {
    let process: Process
    var failure: Error?
    let done = DispatchSemaphore(value: 0)
    init(_ process: Process) { self.process = process }
}
