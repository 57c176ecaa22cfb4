import Foundation
import Testing

/// Threads of the suite's own for the tests that talk to real processes,
/// so that their awaits resume on time however many tests block, and so
/// that the threads libdispatch lends Foundation stay free.
///
/// Swift's global executor has as many threads as the machine has cores
/// (two here), and Swift Testing runs every test at once on it, the
/// synchronous ones included: a test blocked in `waitpid`, a socket read or
/// a polling sleep holds one of those threads. Two such tests at the same
/// moment (the first seconds of a full run start hundreds) leave no thread
/// for any awaiting test, and a welcome that arrived in a millisecond is
/// seen twenty seconds later, or never before a deadline. Foundation waits
/// on the same threads: it learns that a child exited in a dispatch source
/// on them, so while blocked tests hold them, `Process.isRunning` stays
/// true for every child of the suite and each wait for an exit status
/// times out at once. A test in scope of `.ownThreads` runs on these
/// threads instead (a task executor preference, which its child tasks and
/// `async let`s inherit, and under which a synchronous test's body runs
/// too), so it waits only on what it waits for.
///
/// A job never waits for a thread: when every thread is busy (a blocked
/// synchronous test holds its thread to the end), another is started.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    /// Shared by every test in scope; threads are cheap and mostly asleep.
    public static let shared = TestThreads()

    // `jobs`, `idle` and `count` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    /// Threads waiting for a job.
    private var idle = 0
    /// Threads started.
    private var count = 0

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let start = jobs.count > idle
        if start { count += 1 }
        let n = count
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [unowned self] in run() }
            thread.name = "neonsync-test-\(n)"
            thread.start()
        }
    }

    private func run() {
        while true {
            condition.lock()
            idle += 1
            while jobs.isEmpty { condition.wait() }
            idle -= 1
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs a test, or every test of a suite, on `TestThreads` (see there).
public struct OwnThreadsTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// The test's awaits resume on the suite's own threads, never starved
    /// by tests that block the global executor's.
    public static var ownThreads: Self { Self() }
}
