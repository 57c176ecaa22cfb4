import Dispatch
import NeonLock

/// The timer that asks for a sweep now and then: idle rooms (one node,
/// with `--room-ttl`) and the room quota's forgotten addresses. Started
/// and stopped by whichever thread starts or stops the server; the timer
/// sits behind a lock.
final class RoomSweeper: Sendable {
    private let timer = Locked<(any DispatchSourceTimer)?>(nil)

    /// Runs `sweep` every `seconds` until `stop`.
    func start(every seconds: Double, _ sweep: @escaping @Sendable () -> Void) {
        timer.withLock { timer in
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "neonsync.sweep"))
            source.schedule(deadline: .now() + seconds, repeating: seconds)
            source.setEventHandler(handler: sweep)
            source.resume()
            timer = source
        }
    }

    func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }
}
