import CLibWebSockets
import Glibc
import NeonLock
import NeonTransportCore
import Synchronization

/// A plain POSIX thread that runs one body once: the lws service thread.
///
/// NeonTransport does not import Foundation, so it starts the thread with
/// `pthread_create` rather than Foundation's `Thread`.
final class ServiceThread: Sendable {
    private let handle = Locked<pthread_t?>(nil)
    /// `pthread_self()` of the running thread, or 0 before it starts.
    private let identity = Atomic<UInt>(0)

    /// Starts the thread running `body`. Fails with the `pthread_create` errno.
    func start(name: String, _ body: @escaping @Sendable () -> Void) throws(TransportError) {
        final class Payload {
            let thread: ServiceThread
            let name: String
            let body: @Sendable () -> Void
            init(_ thread: ServiceThread, _ name: String, _ body: @escaping @Sendable () -> Void) {
                self.thread = thread
                self.name = name
                self.body = body
            }
        }
        let payload = Unmanaged.passRetained(Payload(self, name, body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let payload = Unmanaged<Payload>.fromOpaque(raw!).takeRetainedValue()
            payload.thread.identity.store(UInt(pthread_self()), ordering: .releasing)
            neon_set_thread_name(payload.name)
            payload.body()
            return nil
        }, payload)
        guard status == 0 else {
            Unmanaged<Payload>.fromOpaque(payload).release()
            throw .threadStartFailed(errno: status)
        }
        handle.withLock { $0 = thread }
    }

    /// `true` when called on this service thread.
    var isCurrent: Bool {
        let id = identity.load(ordering: .acquiring)
        return id != 0 && pthread_equal(pthread_t(id), pthread_self()) != 0
    }

    /// Waits for the thread to finish. Must not be called on the thread itself.
    func join() {
        precondition(!isCurrent, "a service thread cannot join itself")
        guard let thread = handle.withLock({ value -> pthread_t? in
            defer { value = nil }
            return value
        }) else { return }
        pthread_join(thread, nil)
    }
}
