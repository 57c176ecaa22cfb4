import Glibc
import NeonClient
import NeonCore
import NeonLock
import NeonTransport
import Synchronization

/// The connections of one benchmark run in one client context, with the
/// counters every scenario shares. A scenario may open its senders in a
/// second context (`senders`), as a presenter has a process of its own: its
/// scrolls then leave on time instead of waiting behind the followers'
/// reading on the shared thread. With several servers (`--server
/// URL1,URL2,…`) the connections are dealt round-robin over them
/// (``ServerList/position(forConnection:presenterFirst:)``).
///
/// Threads: the scenario's handler runs on a context's service thread
/// (the senders' on the other's), the pacing and the phase waits on the
/// main thread. What both touch is behind a `Locked` (the latencies, the
/// connections as they open) or in atomics (the counters).
final class BenchFleet: Sendable {
    typealias Handler = @Sendable (Int, ClientConnection, ClientEvent) -> Void

    let context: WebSocketClientContext
    /// The context for connections opened with `onSenders`.
    let senders: WebSocketClientContext
    let servers: ServerList<WebSocketURL>
    /// bench follow: connection 0, the presenter, on the first server.
    let presenterFirst: Bool
    let peer: BenchOptions.Peer
    let display: BenchDisplay

    /// Connections whose handshake (and for neonsync, welcome) completed.
    let ready = Atomic<Int>(0)
    /// Connections that never opened.
    let failed = Atomic<Int>(0)
    /// Connections that closed while the run still needed them.
    let dropped = Atomic<Int>(0)
    /// Measured deliveries so far.
    let delivered = Atomic<Int>(0)
    /// `error` messages from the server.
    let serverErrors = Atomic<Int>(0)
    /// Every message received, measured or not (for ``settle(_:)``).
    let received = Atomic<Int>(0)
    private let firstProblem = Locked<String?>(nil)
    private let stopping = Atomic<Bool>(false)
    /// One sample per measured delivery (or per connection, for connect and churn).
    private let samples = Locked<[Int64]>([])
    private let opened: Locked<Opened>

    /// The connections opened so far, and how many to each server.
    private struct Opened {
        var connections: [ClientConnection] = []
        /// Connections opened to each of `servers.all`, in its order.
        var perServer: [Int]
    }

    init(servers: ServerList<WebSocketURL>, presenterFirst: Bool, peer: BenchOptions.Peer, servicePause: Duration,
         display: BenchDisplay) throws(TransportError) {
        var configuration = WebSocketClientContext.Configuration(connectTimeoutSeconds: 20)
        configuration.servicePause = servicePause
        context = try WebSocketClientContext(configuration: configuration)
        senders = try WebSocketClientContext(configuration: .init(connectTimeoutSeconds: 20))
        self.servers = servers
        self.presenterFirst = presenterFirst
        opened = Locked(Opened(perServer: Array(repeating: 0, count: servers.count)))
        self.peer = peer
        self.display = display
    }

    var subprotocol: String? {
        switch peer {
        case .neonsync: "neonsync.v1"
        case .lwsMirror: "lws-mirror-protocol"
        case .raw: nil
        }
    }

    /// Every connection opened so far, in the order they were opened.
    var connections: [ClientConnection] { opened.withLock { $0.connections } }

    /// Connections opened to each of `servers.all`, in its order.
    var perServer: [Int] { opened.withLock { $0.perServer } }

    /// The latency samples so far.
    var latencies: [Int64] { samples.withLock { $0 } }

    /// The first thing that went wrong, for the failure sentence.
    var problem: String? { firstProblem.withLock { $0 } }

    func note(_ problem: String) {
        firstProblem.withLock { if $0 == nil { $0 = problem } }
    }

    /// Counts an `error` message from the server and notes it if it is the first problem.
    func serverError(_ scan: JSONScan) {
        serverErrors.add(1, ordering: .relaxed)
        note("the server sent an error: \(String(decoding: scan.bytes, as: UTF8.self))")
    }

    /// Records the latency of a delivery sent at `sentAt`.
    func record(sentAt: Int64, now: Int64 = monotonicNanoseconds()) {
        sample(now - sentAt)
        delivered.add(1, ordering: .relaxed)
    }

    /// Records a latency that is not a delivery's (a connection's welcome).
    func sample(_ nanoseconds: Int64) {
        samples.withLock { $0.append(nanoseconds) }
    }

    /// Opens `count` more connections with at most `inFlight` handshakes in
    /// progress, at most `perSecond` a second when above 0. `handler` gets
    /// each connection's index among all of the fleet's connections and
    /// sees every event; the fleet counts failures and drops itself. Call
    /// ``markReady()`` from the handler when a connection is ready.
    /// `room` names the room a connection joins in its URL (`?room=`, the
    /// hint a routing proxy hashes on); nil sends none. `server` picks a
    /// connection's server in `servers.all` (default: round-robin).
    /// Returns when all are ready, or throws when one failed or `timeout`
    /// passed.
    func open(_ count: Int, inFlight: Int, perSecond: Double = 0, phase: String,
              timeout: Double = 60, onSenders: Bool = false, willOpen: (Int) -> Void = { _ in },
              server: ((Int) -> Int)? = nil, room: (Int) -> String? = { _ in nil },
              handler: @escaping Handler) throws(NeonError) {
        let context = onSenders ? senders : context
        let first = opened.withLock { $0.connections.count }
        var next = first
        let target = first + count
        let started = monotonicNanoseconds()
        let wrapped: Handler = { [self] index, connection, event in
            switch event {
            case .received:
                received.add(1, ordering: .relaxed)
            case let .failed(reason):
                failed.add(1, ordering: .relaxed)
                note("connection \(index) could not open: \(reason)")
            case let .closed(close):
                if !stopping.load(ordering: .relaxed) {
                    dropped.add(1, ordering: .relaxed)
                    note("connection \(index) was closed by the server (code \(close.code.map(String.init) ?? "none")\(close.reason.isEmpty ? "" : ": \(close.reason)"))")
                }
            default:
                break
            }
            handler(index, connection, event)
        }
        while next < target || ready.load(ordering: .relaxed) < target {
            if failed.load(ordering: .relaxed) > 0 || dropped.load(ordering: .relaxed) > 0 {
                throw NeonError(problem ?? "a connection failed")
            }
            let elapsed = Double(monotonicNanoseconds() - started) / 1e9
            if elapsed > timeout {
                throw NeonError("only \(ready.load(ordering: .relaxed) - first) of \(count) connections were ready after \(Int(timeout)) s")
            }
            if display.interrupted { throw NeonError("interrupted while connecting") }
            var any = false
            let allowed = perSecond > 0 ? min(target, first + Int(elapsed * perSecond) + 1) : target
            while next < allowed, next - ready.load(ordering: .relaxed) < inFlight {
                let index = next
                willOpen(index)
                let slot = server?(index) ?? servers.position(forConnection: index, presenterFirst: presenterFirst)
                do {
                    let connection = try context.connect(to: Self.url(servers.all[slot], naming: room(index)),
                                                         subprotocol: subprotocol) { connection, event in
                        wrapped(index, connection, event)
                    }
                    opened.withLock { opened in
                        opened.connections.append(connection)
                        opened.perServer[slot] += 1
                    }
                    next += 1
                    any = true
                } catch {
                    throw NeonError(error).at("cannot open connection \(index)")
                }
            }
            display.update(phase: phase, fraction: Double(ready.load(ordering: .relaxed)) / Double(max(target, 1)),
                           detail: "\(ready.load(ordering: .relaxed))/\(target) connected")
            if !any { usleep(1000) }
        }
    }

    /// `url` with `room=ROOM` in its query, the hint a proxy in front of a
    /// cluster routes on (as every neonsync command's connection has it);
    /// unchanged for nil and for a Unix socket.
    static func url(_ url: WebSocketURL, naming room: String?) -> WebSocketURL {
        guard let room, url.unixSocket == nil else { return url }
        return url.settingQueryParameter("room", to: room)
    }

    func markReady() {
        ready.add(1, ordering: .relaxed)
    }

    /// Waits until `condition` holds; throws after `timeout` seconds, when
    /// a connection dropped or the run was interrupted.
    func wait(_ what: String, timeout: Double = 30, until condition: () -> Bool) throws(NeonError) {
        let started = monotonicNanoseconds()
        while !condition() {
            if dropped.load(ordering: .relaxed) > 0 { throw NeonError(problem ?? "a connection dropped") }
            if display.interrupted { throw NeonError("interrupted while waiting for \(what)") }
            if Double(monotonicNanoseconds() - started) / 1e9 > timeout {
                throw NeonError("timed out after \(Int(timeout)) s waiting for \(what)")
            }
            display.update(phase: "setup", fraction: nil, detail: what)
            usleep(2000)
        }
    }

    /// Waits until no message arrived for `quiet` seconds: the broadcasts
    /// of the setup (joins, follows) have all been read, so measuring starts
    /// with empty queues on both sides.
    func settle(quiet: Double = 0.3, timeout: Double = 120) throws(NeonError) {
        var last = received.load(ordering: .relaxed)
        var lastChange = monotonicNanoseconds()
        try wait("the setup's broadcasts to be read", timeout: timeout) {
            let now = received.load(ordering: .relaxed)
            if now != last {
                last = now
                lastChange = monotonicNanoseconds()
                return false
            }
            return Double(monotonicNanoseconds() - lastChange) / 1e9 >= quiet
        }
    }

    /// Calls `send(k)` for k = 0, 1, … at `rate` a second for `duration`
    /// seconds (several per wake-up when the rate is high), showing
    /// progress; returns how many were sent. Stops early on interruption
    /// or a dropped connection.
    func pace(rate: Double, duration: Double, detail: () -> String, send: (Int) -> Void) -> Int {
        let started = monotonicNanoseconds()
        let end = started + Int64(duration * 1e9)
        var sent = 0
        var lastDisplay: Int64 = 0
        while true {
            let now = monotonicNanoseconds()
            if now >= end || display.interrupted || dropped.load(ordering: .relaxed) > 0 { break }
            if rate > 0 {
                let due = Int(Double(now - started) / 1e9 * rate) + 1
                while sent < due {
                    send(sent)
                    sent += 1
                }
            }
            if now - lastDisplay > 100_000_000 {
                lastDisplay = now
                display.update(phase: "measuring", fraction: Double(now - started) / Double(end - started), detail: detail())
            }
            let next = rate > 0 ? started + Int64(Double(sent) / rate * 1e9) : now + 10_000_000
            let wake = min(next, end, now + 50_000_000)
            if wake > now {
                var pause = timespec(tv_sec: Int((wake - now) / 1_000_000_000), tv_nsec: Int((wake - now) % 1_000_000_000))
                nanosleep(&pause, nil)
            }
        }
        return sent
    }

    /// Stops the contexts (closing every connection) and joins their
    /// threads: nothing more arrives after this.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        senders.stop()
        context.stop()
    }
}
