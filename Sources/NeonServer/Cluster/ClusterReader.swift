import Foundation
import Glibc
import NeonCore
import NeonLock

/// The reader thread: takes up rooms (their image and log at one instant,
/// on a command connection) and receives every room's new entries as
/// they are published (one subscriber connection, subscribed per room). An
/// entry whose index is not the next one means a publish was missed (a
/// dropped connection, a Redis restart): the gap is read from the room's
/// log, or, when the log was trimmed past it, the room is taken up again.
/// Every couple of seconds the rooms' counters are compared with what was
/// received, so a missed last entry of a quiet room is found too. A room
/// released (nobody on the node uses it) is unsubscribed and forgotten:
/// wants and releases are served in the order they were made.
///
/// Other threads reach the reader through `requests` (a `Locked`), the `wake`
/// pipe and its `WorkerThread`; what the thread owns (both connections,
/// the rooms it holds) is a `ReaderLoop` in the thread's body, which closes
/// the connections on its way out. What the reader decides is a
/// `ReaderState`; the loop only feeds it what Redis says and does what it
/// asks.
final class ClusterReader: Sendable {
    let configuration: ClusterConfiguration
    /// This reader's Redis: one shard of `configuration.endpoints`.
    let endpoint: RedisEndpoint
    let generation: Int
    /// The node's own messages on their way through Redis, decoded already.
    let sent: any OwnMessages
    fileprivate struct Requests: Sendable {
        /// Not handed to the thread yet, in the order made.
        var pending: [ReaderState.Request] = []
        /// Rooms wanted and not released since (served or not): wanting one
        /// of them again asks nothing. As many as the node holds.
        var wanted: Set<String> = []
        /// Every room of the cluster was asked for.
        var everyRoom = false
    }

    /// How long a stop waits for the thread to end (its commands time out
    /// after 5 s when Redis does not answer).
    static let stopTimeout = Duration.seconds(4)

    fileprivate let requests = Locked(Requests())
    /// Written to (one byte) to wake the thread from `poll`.
    fileprivate let wake: (read: Int32, write: Int32)
    fileprivate let thread: WorkerThread
    /// The master the Sentinels switched this shard to last: the thread
    /// makes its connections again when they go elsewhere.
    private let switchedTo = Locked<RedisAddress?>(nil)

    init(configuration: ClusterConfiguration, shard: Int = 0, generation: Int, sent: any OwnMessages = SentMessages()) {
        self.configuration = configuration
        self.sent = sent
        endpoint = configuration.endpoints[shard]
        thread = WorkerThread(name: configuration.endpoints.count == 1 ? "neonsync-redis-reader" : "neonsync-redis-reader-\(shard + 1)")
        self.generation = generation
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wake = (fds[0], fds[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    func start(deliver: @escaping @Sendable (ClusterDelivery) -> Void) {
        thread.start { [self] in
            var loop = ReaderLoop(reader: self, deliver: deliver)
            loop.run()
        }
    }

    /// Asks for `room` (once until it is released; later calls for it do
    /// nothing).
    func want(_ room: String) {
        let added = requests.withLock { state in
            guard state.wanted.insert(room).inserted else { return false }
            state.pending.append(.want(room))
            return true
        }
        if added { poke() }
    }

    /// Lets go of `room`, after whatever was asked for it before.
    func release(_ room: String) {
        requests.withLock { state in
            state.wanted.remove(room)
            state.pending.append(.release(room))
        }
        poke()
    }

    /// Asks for every room of the cluster (`neonsync:rooms`), once.
    func wantEveryRoom() {
        requests.withLock { $0.everyRoom = true }
        poke()
    }

    /// The Sentinels promoted another master: connect to it.
    func masterSwitched(to master: RedisAddress) {
        switchedTo.withLock { $0 = master }
        poke()
    }

    /// Whether the Sentinels switched to another master than `address`.
    func switched(from address: RedisAddress) -> Bool {
        switchedTo.withLock { $0.map { $0 != address } ?? false }
    }

    /// Asks the thread to end, waking it from `poll`; returns at once.
    func requestStop() {
        thread.requestStop()
        poke()
    }

    /// Ends the thread, waiting at most `stopTimeout`; after that the
    /// thread still ends (and closes its connections) on its own.
    @discardableResult
    func stop() -> SequencerStop {
        requestStop()
        switch thread.stop(timeout: Self.stopTimeout) {
        case .ended:
            return .finished
        case .timedOut:
            return .storeUnreachable(reason: "the reader still waited on Redis at \(endpoint) after \(Self.stopTimeout.components.seconds) s")
        }
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }
}

/// What the reader thread owns, in its body: made as the thread begins,
/// gone when it ends; nothing else touches it. It does the I/O; what to
/// do is its `ReaderState`'s.
private struct ReaderLoop {
    let reader: ClusterReader
    let deliver: @Sendable (ClusterDelivery) -> Void
    var subscriber: RedisConnection?
    var commands: RedisConnection?
    var state: ReaderState
    /// When to make the connections again (now, at first).
    var reconnectAt: ContinuousClock.Instant? = .now

    init(reader: ClusterReader, deliver: @escaping @Sendable (ClusterDelivery) -> Void) {
        self.reader = reader
        self.deliver = deliver
        state = ReaderState(decoder: EntryDecoder(generation: reader.generation, sent: reader.sent))
    }

    var configuration: ClusterConfiguration { reader.configuration }

    /// Reads until a stop was asked for, then closes both connections.
    mutating func run() {
        defer { close() }
        let thread = reader.thread
        var nextCheck = ContinuousClock.now + configuration.heartbeat
        while !thread.isStopRequested {
            if let at = reconnectAt {
                if ContinuousClock.now < at {
                    thread.wait(until: at)
                    continue
                }
                reconnectAt = nil
                perform(connect())
                continue
            }
            guard let subscriber, let commands else {
                reconnectAt = .now
                continue
            }
            if reader.switched(from: commands.address) {
                perform(state.handle(.lost))
                continue
            }
            do throws(NeonError) {
                if reader.requests.withLock({ $0.everyRoom }) {
                    let names = try commands.command(["SMEMBERS", ClusterKeys.rooms]).array?.compactMap(\.text) ?? []
                    reader.requests.withLock { state in
                        state.everyRoom = false
                        for name in names where state.wanted.insert(name).inserted { state.pending.append(.want(name)) }
                    }
                }
                let made = reader.requests.withLock { state in
                    defer { state.pending.removeAll() }
                    return state.pending
                }
                if !made.isEmpty { perform(state.handle(.requests(made))) }
                guard reconnectAt == nil else { continue }
                if readable(subscriber, within: max(ContinuousClock.now.duration(to: nextCheck), .zero)) {
                    perform(state.handle(.published(try subscriber.readAvailable())))
                }
                if reconnectAt == nil, ContinuousClock.now >= nextCheck {
                    perform(state.handle(.tick))
                    nextCheck = ContinuousClock.now + configuration.heartbeat
                }
            } catch {
                perform(state.handle(.lost))
            }
        }
    }

    /// Waits (at most `wait`) for the subscriber's messages or a poke;
    /// whether the subscriber has something to read.
    func readable(_ subscriber: RedisConnection, within wait: Duration) -> Bool {
        let wake = reader.wake
        var fds = [pollfd(fd: subscriber.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, Int32(wait.milliseconds) + 1)
        if ready > 0, fds[1].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(wake.read, &sink, sink.count) > 0 {}
        }
        return ready > 0 && fds[0].revents != 0
    }

    /// Makes both connections and loads the load script: what the state
    /// asks next, connected or not.
    mutating func connect() -> [ReaderState.Action] {
        close()
        do throws(NeonError) {
            let freshCommands = try RedisConnection(reader.endpoint, password: configuration.password)
            freshCommands.setTimeout(.seconds(5))
            guard let sha = try freshCommands.command(["SCRIPT", "LOAD", ClusterScripts.load]).text else {
                freshCommands.close()
                return state.handle(.lost)
            }
            guard let range = try freshCommands.command(["SCRIPT", "LOAD", ClusterScripts.range]).text else {
                freshCommands.close()
                return state.handle(.lost)
            }
            let run = try freshCommands.command(["INFO", "server"]).text.flatMap(ReaderState.runID(info:))
            subscriber = try RedisConnection(reader.endpoint, password: configuration.password)
            commands = freshCommands
            return state.handle(.connected(loadScript: sha, rangeScript: range, run: run))
        } catch {
            return state.handle(.lost)
        }
    }

    /// Does what the state asks, in order, handing it the replies of each
    /// command it asked for; a broken connection is a `lost` event.
    mutating func perform(_ actions: [ReaderState.Action]) {
        var queue = actions[...]
        while let action = queue.popFirst() {
            do throws(NeonError) {
                switch action {
                case let .subscriber(sent):
                    guard let subscriber else { throw NeonError("the subscriber connection to Redis at \(reader.endpoint) is closed") }
                    try subscriber.send(sent)
                case let .ask(asked):
                    guard let commands else { throw NeonError("the command connection to Redis at \(reader.endpoint) is closed") }
                    queue += state.handle(.replies(try commands.pipeline(asked)))
                case let .deliver(delivery):
                    deliver(delivery)
                case let .reconnect(delay):
                    close()
                    reconnectAt = ContinuousClock.now + delay
                }
            } catch {
                queue = state.handle(.lost)[...]
            }
        }
    }

    mutating func close() {
        subscriber?.close()
        subscriber = nil
        commands?.close()
        commands = nil
    }
}
