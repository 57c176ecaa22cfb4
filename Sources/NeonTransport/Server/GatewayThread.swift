import Dispatch
import NeonLock
import NeonTransportCore
import Synchronization

/// The one thread that calls a server's delegate: every connection event of
/// every service thread, every HTTP request, every piece of work posted
/// with ``WebSocketServer/execute(_:)`` reaches the delegate here, one at a
/// time, in the order posted. So the delegate decides each room's order in
/// one place while the service threads only read and write sockets, and a
/// slow call (a document parsed, say) delays no socket.
///
/// Its loop: take everything in the mailbox, hand each item to the
/// delegate with a ``ServiceContext`` over the ``FanOut``, then flush the
/// fan-out: one post per service thread per round.
///
/// `Sendable`: the mailbox and the delegate slot are locks; the rest is
/// ``Round``, bound to the thread once it runs.
final class GatewayThread: Sendable {
    enum Item: Sendable {
        /// A connection's event from its shard; `forwarding` with `connected`.
        case event(ServerEvent, forwarding: ForwardingHeaders?)
        /// A handshake refused for its origin.
        case refused(RefusedHandshake)
        /// A plain HTTP request waiting on `shard` under `token`.
        case http(HTTPRequest, shard: Int, token: UInt64)
        /// One shard's share of the backlog asked for `token`'s request.
        case backlog(Backlog, token: UInt64)
        /// Work for the delegate (``WebSocketServer/execute(_:)``).
        case execute(@Sendable (ServiceContext) -> Void)
        /// Run once the round that took it has been flushed.
        case barrier(@Sendable () -> Void)
        /// Handle what is queued, let go of the delegate and end.
        case stop
    }

    private struct Mailbox: ~Copyable {
        var items: [Item] = []
        var accepting = false
    }

    /// An HTTP request waiting for every shard's backlog.
    private struct PendingRequest {
        let request: HTTPRequest
        let shard: Int
        var waitingFor: Int
        var backlog = Backlog.empty
    }

    /// What only the gateway thread touches.
    private final class Round {
        var delegate: (any WebSocketServerDelegate)?
        let fanOut: FanOut
        var pending: [UInt64: PendingRequest] = [:]

        init(delegate: any WebSocketServerDelegate, fanOut: FanOut) {
            self.delegate = delegate
            self.fanOut = fanOut
        }
    }

    private let mailbox = Locked(Mailbox())
    private let wake = DispatchSemaphore(value: 0)
    private let thread = ServiceThread()
    private let round: ServiceThreadBound<Round>
    /// The delegate for the service threads' own questions (is the server
    /// available?), until the gateway stops.
    private let delegateSlot: Locked<(any WebSocketServerDelegate)?>
    private let tokens = Atomic<UInt64>(0)
    private let shardCount: Int

    init(delegate: any WebSocketServerDelegate, configuration: WebSocketServer.Configuration, ring: ShardRing) {
        round = ServiceThreadBound(Round(delegate: delegate, fanOut: FanOut(configuration: configuration, ring: ring)))
        delegateSlot = Locked(delegate)
        shardCount = ring.count
    }

    /// `true` on the gateway thread (inside a delegate call).
    var isCurrent: Bool {
        thread.isCurrent
    }

    /// Starts the thread; items posted from now on are handled.
    func start() throws(TransportError) {
        mailbox.withLock { $0.accepting = true }
        do {
            try thread.start(name: "neon-gateway") { [self] in run() }
        } catch {
            mailbox.withLock { $0.accepting = false }
            throw error
        }
    }

    /// Queues `item`; wakes the thread when the mailbox was empty. Returns
    /// `false` (dropping it) once the gateway has stopped.
    @discardableResult
    func post(_ item: Item) -> Bool {
        let (accepted, wasEmpty) = mailbox.withLock { mailbox -> (Bool, Bool) in
            guard mailbox.accepting else { return (false, false) }
            mailbox.items.append(item)
            return (true, mailbox.items.count == 1)
        }
        if wasEmpty { wake.signal() }
        return accepted
    }

    /// Queues `items` in order with one lock and at most one wake-up: a
    /// service thread's events of one round. Returns `false` (dropping
    /// them) once the gateway has stopped.
    @discardableResult
    func post(contentsOf items: [Item]) -> Bool {
        let (accepted, wasEmpty) = mailbox.withLock { mailbox -> (Bool, Bool) in
            guard mailbox.accepting else { return (false, false) }
            let wasEmpty = mailbox.items.isEmpty
            mailbox.items.append(contentsOf: items)
            return (true, wasEmpty)
        }
        if wasEmpty { wake.signal() }
        return accepted
    }

    /// A token naming one HTTP request, unique in this server.
    func nextToken() -> UInt64 {
        tokens.add(1, ordering: .relaxed).newValue
    }

    /// Why new connections cannot be served now, asked of the delegate on
    /// a service thread during a handshake (see
    /// ``WebSocketServerDelegate/unavailableReason()``).
    func unavailableReason() -> String? {
        delegateSlot.withLock { $0 }?.unavailableReason()
    }

    /// Returns once everything posted before has been handled and what it
    /// queued handed to the service threads. At once when not running.
    func sync() {
        let done = DispatchSemaphore(value: 0)
        if post(.barrier { done.signal() }) {
            done.wait()
        }
    }

    /// Handles what is queued, lets go of the delegate and joins the
    /// thread. Not from the gateway thread.
    func stop() {
        precondition(!isCurrent, "the gateway thread cannot stop itself")
        post(.stop)
        thread.join()
    }

    private func run() {
        round.pin()
        var stopping = false
        while !stopping {
            let items = mailbox.withLock { mailbox -> [Item] in
                var items: [Item] = []
                swap(&items, &mailbox.items)
                return items
            }
            if items.isEmpty {
                wake.wait()
                continue
            }
            var barriers: [@Sendable () -> Void] = []
            round.withValue { round in
                for item in items {
                    switch item {
                    case .barrier(let done): barriers.append(done)
                    case .stop: stopping = true
                    default: handle(item, round)
                    }
                }
                round.fanOut.flush()
            }
            for done in barriers { done() }
        }
        mailbox.withLock { mailbox in
            mailbox.accepting = false
            mailbox.items.removeAll()
        }
        delegateSlot.withLock { $0 = nil }
        round.withValue { $0.delegate = nil }
    }

    private func handle(_ item: Item, _ round: Round) {
        guard let delegate = round.delegate else { return }
        let fanOut = round.fanOut
        let context = ServiceContext(fanOut)
        switch item {
        case .event(let event, let forwarding):
            if case .connected(let id, _, _) = event { fanOut.connecting = (id, forwarding) }
            delegate.handle(event, in: context)
            fanOut.connecting = nil
            if case .rejected(let rejection, let id) = event {
                // After what the delegate answered it: the close that fails
                // the connection (its shard stopped reading it).
                fanOut.post(.fail(id, code: rejection.closeCode, reason: rejection.closeReason), to: id)
            }
        case .refused(let handshake):
            delegate.refused(handshake)
        case .http(let request, let shard, let token):
            round.pending[token] = PendingRequest(request: request, shard: shard, waitingFor: shardCount)
            fanOut.postToEveryShard(.collectBacklog(token: token))
        case .backlog(let backlog, let token):
            guard var pending = round.pending[token] else { return }
            pending.backlog = pending.backlog + backlog
            pending.waitingFor -= 1
            guard pending.waitingFor == 0 else {
                round.pending[token] = pending
                return
            }
            round.pending[token] = nil
            fanOut.backlog = pending.backlog
            let response = delegate.respond(to: pending.request, in: context)
            fanOut.backlog = .empty
            fanOut.post(.httpAnswer(token: token, response), toShard: pending.shard)
        case .execute(let work):
            work(context)
        case .barrier, .stop:
            break
        }
    }
}
