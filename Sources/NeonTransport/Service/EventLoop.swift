import CLibWebSockets

/// What turns a service thread's rounds: lws's own `poll()` over every
/// socket, or a libev loop on epoll that lws joins as a foreign loop, whose
/// round costs only the sockets that are ready. Made and used on the
/// service thread only.
final class EventLoop {
    typealias Kind = ServiceLoop

    private var loop: UnsafeMutablePointer<neon_ev_loop>?
    private let foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    init(_ kind: Kind) {
        loop = kind == .epoll ? neon_ev_loop_new() : nil
        foreignLoops = .allocate(capacity: 1)
        foreignLoops.initialize(to: loop.map { neon_ev_loop_handle($0) })
    }

    deinit {
        if let loop { neon_ev_loop_destroy(loop) }
        foreignLoops.deallocate()
    }

    /// The kind in use.
    var kind: Kind { loop == nil ? .poll : .epoll }

    /// Creates the context on this loop, or on lws's own when lws cannot
    /// use it (its libev plug-in is missing): the server still serves.
    func createContext(
        _ info: inout lws_context_creation_info, create: (inout lws_context_creation_info) -> OpaquePointer?
    ) -> OpaquePointer? {
        if loop != nil {
            info.options |= neon_lws_option_libev()
            info.foreign_loops = foreignLoops
        }
        if let context = create(&info) {
            if let loop { neon_ev_loop_serve(loop, context) }
            return context
        }
        guard let loop else { return nil }
        neon_ev_loop_destroy(loop)
        self.loop = nil
        foreignLoops.pointee = nil
        info.options &= ~neon_lws_option_libev()
        info.foreign_loops = nil
        return create(&info)
    }

    /// One service round: waits for at least one socket, timer or
    /// cancellation and handles everything ready. `false` when lws ended
    /// the loop.
    func serviceOnce(_ context: OpaquePointer) -> Bool {
        if let loop {
            neon_ev_run_once(loop)
            return true
        }
        return lws_service(context, 0) >= 0
    }

    /// The context is about to be destroyed: the tick stops.
    func contextWillBeDestroyed() {
        if let loop { neon_ev_loop_serve(loop, nil) }
    }
}

/// How a server's service threads wait for their sockets.
public enum ServiceLoop: String, Sendable, CaseIterable {
    /// libev on epoll (the default): a round costs the sockets that are
    /// ready. Falls back to `poll` when lws cannot load its libev plug-in
    /// (Debian's `libwebsockets-evlib-ev`).
    case epoll
    /// libwebsockets' built-in loop: one `poll()` over every socket a round.
    case poll
}
