import NeonLock
import NeonTransport

/// Thread-safe list of client events for handler-based tests.
final class TestLog: Sendable {
    private let storage = Locked<[ClientEvent]>([])

    func append(_ event: ClientEvent) {
        storage.withLock { $0.append(event) }
    }

    var events: [ClientEvent] { storage.withLock { $0 } }
}
