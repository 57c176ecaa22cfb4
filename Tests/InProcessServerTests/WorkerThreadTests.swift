import Foundation
import NeonLock
@testable import NeonServer
import Synchronization
import Testing

@Suite("WorkerThread: one way to start, wake and stop a thread of the server's own")
struct WorkerThreadTests {
    @Test("a stop before the start ends at once, and the body never runs")
    func stopBeforeStart() {
        let worker = WorkerThread(name: "test-worker")
        let ran = Atomic<Bool>(false)
        #expect(worker.stop() == .ended)
        #expect(worker.currentState == .stopped)
        #expect(worker.start { ran.store(true, ordering: .relaxed) } == false)
        worker.waitUntilCaughtUp()
        #expect(worker.stop() == .ended)
        #expect(ran.load(ordering: .relaxed) == false)
    }

    @Test("a stop while the body waits wakes it; a second stop returns at once, ended too")
    func stopTwice() {
        let worker = WorkerThread(name: "test-worker")
        let wakes = Locked<[WorkerThread.Wake]>([])
        #expect(worker.start { wakes.withLock { $0.append(worker.wait()) } })
        worker.waitUntilCaughtUp()
        #expect(worker.currentState == .running)
        #expect(worker.stop() == .ended)
        #expect(wakes.withLock { $0 } == [.stopRequested])
        #expect(worker.currentState == .stopped)
        #expect(worker.stop(timeout: .zero) == .ended)
        #expect(worker.start {} == false, "a thread is started once")
    }

    @Test("8 threads stopping at once all return once the body has finished, and the body runs its end once")
    func stopFromEightThreads() {
        let worker = WorkerThread(name: "test-worker")
        let endings = Atomic<Int>(0)
        worker.start {
            while worker.wait() != .stopRequested {}
            endings.add(1, ordering: .relaxed)
        }
        worker.waitUntilCaughtUp()
        let seen = Locked<[(WorkerThread.Ending, Int)]>([])
        let go = DispatchGroup()
        go.enter()
        let ready = DispatchGroup()
        let done = DispatchGroup()
        for _ in 0 ..< 8 {
            ready.enter()
            done.enter()
            Thread {
                ready.leave()
                go.wait()
                let ending = worker.stop()
                seen.withLock { $0.append((ending, endings.load(ordering: .relaxed))) }
                done.leave()
            }.start()
        }
        ready.wait()
        go.leave()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let results = seen.withLock { $0 }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0.0 == .ended && $0.1 == 1 }, "\(results)")
        #expect(worker.currentState == .stopped)
    }

    @Test("work signalled wakes a wait long before its deadline; a signal while the body is busy returns its next wait at once")
    func signalWakes() {
        let worker = WorkerThread(name: "test-worker")
        let wakes = Locked<[WorkerThread.Wake]>([])
        let busy = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        worker.start {
            // Woken by the signal, long before the minute is up.
            wakes.withLock { $0.append(worker.wait(until: ContinuousClock.now + .seconds(60))) }
            busy.signal()
            resume.wait()
            // Signalled while busy: returns at once.
            wakes.withLock { $0.append(worker.wait(until: ContinuousClock.now + .seconds(60))) }
            while worker.wait() != .stopRequested {}
        }
        worker.waitUntilCaughtUp()
        let signalled = ContinuousClock.now
        worker.signal()
        #expect(busy.wait(timeout: .now() + 10) == .success)
        #expect(signalled.duration(to: .now) < .seconds(10))
        worker.signal()
        resume.signal()
        worker.waitUntilCaughtUp()
        #expect(wakes.withLock { $0 } == [.signalled, .signalled])
        #expect(worker.stop() == .ended)
    }

    @Test("a wait whose deadline passes says so")
    func deadlinePasses() {
        let worker = WorkerThread(name: "test-worker")
        let wake = Locked<WorkerThread.Wake?>(nil)
        let waited = DispatchSemaphore(value: 0)
        worker.start {
            wake.withLock { $0 = worker.wait(until: ContinuousClock.now + .milliseconds(20)) }
            waited.signal()
            while worker.wait() != .stopRequested {}
        }
        #expect(waited.wait(timeout: .now() + 10) == .success)
        #expect(wake.withLock { $0 } == .deadline)
        #expect(worker.stop() == .ended)
    }

    @Test("a stop that times out says so and leaves the thread running; it ends on its own, and a later stop sees that")
    func stopTimesOut() {
        let worker = WorkerThread(name: "test-worker")
        let gate = DispatchSemaphore(value: 0)
        worker.start {
            while worker.wait() != .stopRequested {}
            // Still busy (as a writer blocked on Redis is) after the stop.
            gate.wait()
        }
        worker.waitUntilCaughtUp()
        #expect(worker.stop(timeout: .milliseconds(50)) == .timedOut)
        #expect(worker.currentState == .stopping)
        #expect(worker.isStopRequested)
        gate.signal()
        #expect(worker.stop() == .ended)
        #expect(worker.currentState == .stopped)
    }
}
