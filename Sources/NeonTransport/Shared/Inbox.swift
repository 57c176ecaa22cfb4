import CLibWebSockets
import Synchronization

/// Commands for the service thread from any other thread.
///
/// `post` appends under a lock and wakes the service thread with
/// `lws_cancel_service`, the one lws call that is safe from any thread; the
/// service thread drains the inbox in `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
/// The context pointer lives under the same lock so that no wake-up can race
/// with `lws_context_destroy`.
final class Inbox<Command: Sendable>: Sendable {
    private struct State: ~Copyable {
        var commands: [Command] = []
        var context: ContextPointer?
    }

    private let state = Mutex(State())

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

    /// Takes every queued command, oldest first. Service thread only.
    func drain() -> [Command] {
        state.withLock { state in
            var commands: [Command] = []
            swap(&commands, &state.commands)
            return commands
        }
    }
}

/// An `lws_context *` that may cross threads because the only thing other
/// threads do with it is `lws_cancel_service`, under the inbox lock.
struct ContextPointer: @unchecked Sendable {
    let raw: OpaquePointer
}
