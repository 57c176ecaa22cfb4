import CLibWebSockets
import NeonLock
import NeonTransportCore

/// Work that other threads post to one service thread: the commands of a
/// server's or a client context's callers (send, close, connect, stop),
/// queued in order.
///
/// Producers: any thread, through ``post(_:)``, which appends under a lock
/// and wakes the service thread with `lws_cancel_service`, the one lws call
/// that is safe from any thread. Consumer: the service thread alone, which
/// takes the queue with ``drain()`` in `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
/// The context pointer lives under the same lock so that no wake-up can race
/// with `lws_context_destroy`.
final class ServiceThreadQueue<Command: Sendable>: Sendable {
    private struct State: ~Copyable {
        var commands: [Command] = []
        var context: ContextPointer?
    }

    private let state = Locked(State())

    /// Makes `post` wake `context`; called by the service thread once the
    /// context exists.
    func open(_ context: OpaquePointer) {
        state.withLock { $0.context = ContextPointer(raw: context) }
    }

    /// Stops waking the context and drops pending commands; called by the
    /// service thread just before `lws_context_destroy`.
    func close() {
        state.withLock { state in
            state.context = nil
            state.commands.removeAll()
        }
    }

    /// Queues `command` and wakes the service thread. Returns `false` (and
    /// drops the command) when the context is not running.
    @discardableResult
    func post(_ command: Command) -> Bool {
        state.withLock { state in
            guard let context = state.context else { return false }
            state.commands.append(command)
            if state.commands.count == 1 {
                lws_cancel_service(context.raw)
            }
            return true
        }
    }

    /// Queues `commands` in order with one lock and at most one wake-up.
    /// Returns `false` (and drops them) when the context is not running.
    @discardableResult
    func post(contentsOf commands: [Command]) -> Bool {
        state.withLock { state in
            guard let context = state.context else { return false }
            let wasEmpty = state.commands.isEmpty
            state.commands.append(contentsOf: commands)
            if wasEmpty {
                lws_cancel_service(context.raw)
            }
            return true
        }
    }

    /// Takes every queued command, oldest first. Service thread only.
    func drain() -> [Command] {
        state.withLock { state in
            var commands: [Command] = []
            swap(&commands, &state.commands)
            return commands
        }
    }
}

/// An `lws_context *` held by a ``ServiceThreadQueue``. The service thread
/// owns the context (creates, serves and destroys it); other threads may
/// only call `lws_cancel_service` on it, and only under the queue's lock,
/// which the service thread also takes to clear it before
/// `lws_context_destroy`. That is why `@unchecked Sendable` is safe here.
struct ContextPointer: @unchecked Sendable {
    let raw: OpaquePointer
}
