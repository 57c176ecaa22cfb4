import Dispatch
import Foundation

/// The timer that asks for a sweep of idle rooms now and then (one node,
/// with `--room-ttl`). `@unchecked Sendable`: the timer is only touched
/// under `lock`, from the thread that starts or stops the server.
final class RoomSweeper: @unchecked Sendable {
    private let lock = NSLock()
    private var timer: (any DispatchSourceTimer)?

    /// Runs `sweep` every `seconds` until `stop`.
    func start(every seconds: Double, _ sweep: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "neonsync.sweep"))
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler(handler: sweep)
        timer.resume()
        lock.withLock { self.timer = timer }
    }

    func stop() {
        lock.withLock {
            timer?.cancel()
            timer = nil
        }
    }
}
