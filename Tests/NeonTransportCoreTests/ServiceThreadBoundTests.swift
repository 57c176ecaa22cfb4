import Foundation
import NeonTransportCore
import Testing

/// The binding of state to one service thread: the owner is claimed once,
/// by `pin()` or the first access, and any other thread that reaches the
/// value stops the process.
@Suite("Service-thread state: pinned once, checked on every access")
struct ServiceThreadBoundTests {
    @Test("the owning thread reads and changes the value, by withValue and, for a class, through value")
    func ownerAccess() {
        final class Counter { var count = 0 }
        let bound = ServiceThreadBound(Counter())
        bound.pin()
        bound.withValue { $0.count += 1 }
        bound.value.count += 2
        #expect(bound.value.count == 3)
    }

    @Test("service-thread state touched from another thread than the one that first touched it stops the process")
    func offThreadAccessTraps() async {
        await #expect(processExitsWith: .failure) {
            let bound = ServiceThreadBound(0)
            bound.withValue { $0 += 1 }
            let done = DispatchSemaphore(value: 0)
            Thread {
                bound.withValue { $0 += 1 }
                done.signal()
            }.start()
            done.wait()
        }
    }

    @Test("a value pinned by one thread before any access cannot be claimed by the next thread to touch it")
    func pinnedBeforeFirstAccess() async {
        await #expect(processExitsWith: .failure) {
            final class Box { var count = 0 }
            let bound = ServiceThreadBound(Box())
            let pinned = DispatchSemaphore(value: 0)
            Thread {
                bound.pin()
                pinned.signal()
            }.start()
            pinned.wait()
            bound.value.count += 1
        }
    }
}
