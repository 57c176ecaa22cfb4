import Dispatch
import NeonLock
import NeonTransportCore

/// Events the service thread delivers to a ``WebSocketClient``'s async
/// receiver, for one connection.
///
/// Producer: the client context's service thread, through the connection's
/// handler, which calls ``deliver(_:)``. Consumer: one awaiting task at a
/// time (the caller of `receive`, `waitForClose` or `connect`), through
/// ``next(timeout:what:)``, which takes the oldest event or suspends until
/// one arrives or the timeout fires (a Dispatch timer on a global queue, so
/// no Task is left behind). The final event (`.closed`, `.failed`,
/// `.untrusted`) is sticky: every later `next` returns it again.
final class ReceiverMailbox: Sendable {
    private typealias Waiter = CheckedContinuation<Result<ClientEvent, TransportError>, Never>

    private struct State: ~Copyable {
        var events: [ClientEvent] = []
        var head = 0
        var finalEvent: ClientEvent?
        var waiter: (ticket: UInt64, continuation: Waiter)?
        var lastTicket: UInt64 = 0

        mutating func pop() -> ClientEvent? {
            guard head < events.count else { return finalEvent }
            let event = events[head]
            head += 1
            if head == events.count {
                events.removeAll(keepingCapacity: true)
                head = 0
            }
            if event.isFinal {
                finalEvent = event
            }
            return event
        }
    }

    private let state = Locked(State())

    /// Called by the connection handler on the service thread.
    func deliver(_ event: ClientEvent) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter else {
                state.events.append(event)
                return nil
            }
            state.waiter = nil
            if event.isFinal {
                state.finalEvent = event
            }
            return waiter.continuation
        }
        waiter?.resume(returning: .success(event))
    }

    /// The next event, or ``TransportError/timedOut(_:)`` after `timeout`.
    /// One consumer at a time.
    func next(timeout: Duration, what: String) async -> Result<ClientEvent, TransportError> {
        await withCheckedContinuation { (continuation: Waiter) in
            let ticket = state.withLock { state -> UInt64? in
                if let event = state.pop() {
                    continuation.resume(returning: .success(event))
                    return nil
                }
                precondition(state.waiter == nil, "WebSocketClient supports one receiver at a time")
                state.lastTicket += 1
                state.waiter = (state.lastTicket, continuation)
                return state.lastTicket
            }
            guard let ticket else { return }
            DispatchQueue.global().asyncAfter(deadline: timeout.dispatchDeadline) { [self] in
                let expired = state.withLock { state -> Waiter? in
                    guard let waiter = state.waiter, waiter.ticket == ticket else { return nil }
                    state.waiter = nil
                    return waiter.continuation
                }
                expired?.resume(returning: .failure(.timedOut(what)))
            }
        }
    }
}
