import Foundation
import Glibc
import NeonCore
import Synchronization

/// The writer thread: appends entries, batched (every job queued while the
/// previous batch was in flight goes in one round trip, its entries in as
/// few calls of the append script as `entriesPerCall` allows), renews the
/// node's liveness key, reaps dead nodes, and at a stop leaves the cluster.
///
/// Other threads reach the writer through `jobs` and `health` (Mutexes)
/// and its `WorkerThread`; what the thread owns (its connection, the
/// scripts' digests, the byes to append again) is a `WriterLoop` in the
/// thread's body, which closes the connection on its way out. What the
/// writer decides is a `WriterState`; the loop only feeds it what Redis
/// says and does what it asks.
final class ClusterWriter: Sendable {
    enum Job: Sendable {
        /// `kept`: whether Redis keeps the entry across a crash (its
        /// append waits for the fsync); see `ClientMessage.isKeptByCluster`.
        case append(room: String, entry: ClusterEntry, hello: Bool, kept: Bool = true)
        case snapshot(room: String, index: Int, image: String, trimBelow: Int)
        /// Entry `index` left the room empty at `atMilliseconds` (`--room-ttl`).
        case emptied(room: String, index: Int, atMilliseconds: Int64)
        /// The node let go of the room (no member of its there): its
        /// incarnation need not leave it when it goes.
        case released(room: String)
    }

    /// The most entries one call of the append script carries: Redis runs
    /// a script to its end before anything else, so a call stays short
    /// (well under a millisecond here).
    static let entriesPerCall = 200

    /// How long a stop waits for the thread to append what is queued and
    /// leave (its commands time out after 5 s when Redis does not answer).
    static let stopTimeout = Duration.seconds(5)

    let configuration: ClusterConfiguration
    /// This writer's Redis: one shard of `configuration.endpoints`.
    let endpoint: RedisEndpoint
    let generation: Int
    let health = Mutex(ClusterHealth())
    /// Handed over by other threads, taken by the writer thread.
    private let jobs = Mutex<[Job]>([])
    fileprivate let thread: WorkerThread
    /// How the thread left the cluster; set by the thread as it ends.
    private let departure = Mutex<SequencerStop?>(nil)

    /// How many replicas confirm this shard's entries (`--redis-replicas`).
    let replicas: Int
    /// The master the Sentinels switched this shard to last: the thread
    /// makes its connection again when it is connected elsewhere.
    private let switchedTo = Mutex<RedisAddress?>(nil)

    init(configuration: ClusterConfiguration, shard: Int, generation: Int) {
        self.configuration = configuration
        endpoint = configuration.endpoints[shard]
        replicas = configuration.replicas(ofShard: shard)
        thread = WorkerThread(name: configuration.endpoints.count == 1 ? "neonsync-redis-writer" : "neonsync-redis-writer-\(shard + 1)")
        self.generation = generation
    }

    func start(deliver: @escaping @Sendable (ClusterDelivery) -> Void) {
        thread.start { [self] in
            var loop = WriterLoop(writer: self, deliver: deliver)
            let left = loop.run()
            departure.withLock { $0 = left }
        }
    }

    func submit(_ job: Job) {
        let first = jobs.withLock { jobs in
            jobs.append(job)
            return jobs.count == 1
        }
        if first { thread.signal() }
    }

    /// The Sentinels promoted another master: connect to it.
    func masterSwitched(to master: RedisAddress) {
        switchedTo.withLock { $0 = master }
        thread.signal()
    }

    /// Whether the Sentinels switched to another master than `address`.
    func switched(from address: RedisAddress) -> Bool {
        switchedTo.withLock { $0.map { $0 != address } ?? false }
    }

    /// Asks the thread to append what is queued and leave; returns at once.
    func requestStop() {
        thread.requestStop()
    }

    /// Appends what is queued, leaves the cluster, and ends the thread,
    /// waiting at most `stopTimeout`; after that the thread still ends (and
    /// closes its connection) on its own. Says why it could not leave.
    @discardableResult
    func stop() -> SequencerStop {
        switch thread.stop(timeout: Self.stopTimeout) {
        case .timedOut:
            return .storeUnreachable(reason: "the writer still waited on Redis at \(endpoint) after \(Self.stopTimeout.components.seconds) s")
        case .ended:
            return departure.withLock { $0 } ?? .finished
        }
    }

    /// What was handed over since the last take, in order.
    fileprivate func takeJobs() -> [Job] {
        jobs.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
    }

    fileprivate var hasJobs: Bool {
        jobs.withLock { !$0.isEmpty }
    }
}

/// What the writer thread owns, in its body: made as the thread begins,
/// gone when it ends; nothing else touches it. It does the I/O; what to
/// send and whom to tell is its `WriterState`'s.
struct WriterLoop {
    let writer: ClusterWriter
    var connection: RedisConnection?
    let deliver: @Sendable (ClusterDelivery) -> Void
    var scripts: [String: String] = [:]
    var state: WriterState
    /// After Redis came back, dead nodes are reaped only once every live
    /// node had a whole heartbeat timeout to renew its key: keys that
    /// expired while Redis was away (or restarted from its AOF) are not
    /// taken for dead nodes.
    var reapAfter = ContinuousClock.now

    init(writer: ClusterWriter, deliver: @escaping @Sendable (ClusterDelivery) -> Void) {
        self.writer = writer
        self.deliver = deliver
        state = WriterState(generation: writer.generation, replicas: writer.replicas,
                            waitMilliseconds: Int(writer.configuration.replicaTimeout.milliseconds))
    }

    var configuration: ClusterConfiguration { writer.configuration }
    var endpoint: RedisEndpoint { writer.endpoint }
    var generation: Int { writer.generation }

    /// Appends and beats until a stop was asked for and nothing is queued,
    /// then leaves the cluster and closes the connection; returns how it
    /// left.
    mutating func run() -> SequencerStop {
        defer { connection?.close() }
        let thread = writer.thread
        var nextBeat = ContinuousClock.now
        var nextSweep = configuration.expirySweep.map { ContinuousClock.now + $0 }
        var backoff = Duration.milliseconds(100)
        while true {
            // Read before taking: what was handed over before the stop was
            // asked for is in this batch or an earlier one.
            let stopping = thread.isStopRequested
            let batch = writer.takeJobs()
            if batch.isEmpty && state.inFlight.isEmpty && !state.hasWork && !stopping && ContinuousClock.now < nextBeat
                && !(connection.map { writer.switched(from: $0.address) } ?? false) {
                thread.wait(until: nextBeat)
                continue
            }
            let redis: RedisConnection
            do throws(NeonError) {
                redis = try connected()
            } catch {
                perform(state.handle(.unreachable(reason: error.description, jobs: batch)))
                if stopping { return .storeUnreachable(reason: error.description) }
                thread.wait(until: ContinuousClock.now + backoff)
                backoff = min(backoff * 2, .seconds(2))
                continue
            }
            backoff = .milliseconds(100)
            let sending = !batch.isEmpty || state.hasWork
            perform(state.handle(.jobs(batch, scripts: scripts, at: .now)), on: redis)
            // Two batches may be on their way: Redis reads the next while it
            // runs one. The older one's replies are read once another is
            // behind it, or at once when nothing new came; all of them
            // before a heartbeat or leaving.
            let beatDue = ContinuousClock.now >= nextBeat
            let keep = !sending || beatDue || stopping ? 0 : 1
            while state.inFlight.count > keep, connection != nil { collect(from: redis) }
            if beatDue, connection != nil {
                beat(redis)
                nextBeat = ContinuousClock.now + configuration.heartbeat
                if let due = nextSweep, ContinuousClock.now >= due, connection != nil, let every = configuration.expirySweep {
                    expire(redis)
                    nextSweep = ContinuousClock.now + every
                }
            }
            if stopping, !writer.hasJobs, state.inFlight.isEmpty { return leave() }
        }
    }

    /// The connection, reconnecting (scripts loaded) when it broke; reports
    /// Redis going and coming back.
    mutating func connected() throws(NeonError) -> RedisConnection {
        if let connection, !connection.isBroken, writer.switched(from: connection.address) {
            markDown("the Sentinels of \(endpoint) promoted another master than \(connection.address)")
        }
        if let connection, !connection.isBroken, !scripts.isEmpty { return connection }
        do throws(NeonError) {
            let fresh: RedisConnection
            if let connection, !connection.isBroken {
                fresh = connection
            } else {
                fresh = try RedisConnection(endpoint, password: configuration.password)
            }
            connection = fresh
            writer.health.withLock { $0.master = fresh.address.description }
            fresh.setTimeout(.seconds(5))
            var loaded: [String: String] = [:]
            let append = writer.replicas > 0 ? ClusterScripts.appendHeld : ClusterScripts.append
            for (name, source) in [("append", append), ("load", ClusterScripts.load),
                                   ("snapshot", ClusterScripts.snapshot), ("reap", ClusterScripts.reap),
                                   ("beat", ClusterScripts.beat), ("idle", ClusterScripts.idle),
                                   ("expire", ClusterScripts.expire), ("release", ClusterScripts.release),
                                   ("heldSince", ClusterScripts.heldSince)] {
                guard let sha = try fresh.command(["SCRIPT", "LOAD", source]).text else {
                    throw NeonError("Redis at \(endpoint) did not load the \(name) script")
                }
                loaded[name] = sha
            }
            scripts = loaded
            if state.reportedDown { reapAfter = ContinuousClock.now + configuration.ttl }
            perform(state.handle(.connected(reason: "reconnected to \(endpoint)")))
            return fresh
        } catch {
            connection?.close()
            connection = nil
            perform(state.handle(.unreachable(reason: error.description, jobs: [])))
            throw error
        }
    }

    /// Does what the state asks; a send that fails is a `lost` event.
    mutating func perform(_ actions: [WriterState.Action], on redis: RedisConnection? = nil) {
        for action in actions {
            switch action {
            case let .send(commands):
                do throws(NeonError) {
                    guard let redis else { throw NeonError("the connection to Redis at \(endpoint) is closed") }
                    try redis.send(commands)
                } catch {
                    markDown(error.description)
                }
            case let .deliver(delivery):
                deliver(delivery)
            case let .health(connected):
                writer.health.withLock { $0.connected = connected }
            case let .unconfirmed(count):
                writer.health.withLock { $0.unconfirmed += count }
            case let .answered(sent):
                let elapsed = sent.duration(to: .now)
                writer.health.withLock { $0.commandSeconds.observe(elapsed) }
            }
        }
    }

    /// The connection broke: closed, and every batch in flight failed.
    mutating func markDown(_ reason: String) {
        writer.health.withLock { $0.master = nil }
        connection?.close()
        connection = nil
        perform(state.handle(.lost(reason: reason)))
    }

    /// Reads the replies of the oldest batch in flight.
    mutating func collect(from redis: RedisConnection) {
        guard let oldest = state.inFlight.first else { return }
        do throws(NeonError) {
            let replies = try redis.receive(oldest.replyCount)
            perform(state.handle(.replies(replies)))
            // A master the Sentinels made a replica refuses writes: find
            // the new one.
            if replies.contains(where: { $0.isReadOnlyRefusal || $0.array?.contains(where: \.isReadOnlyRefusal) == true }) {
                markDown("Redis at \(redis.address) answered READONLY: it is no longer the master; asking again where it is")
            }
        } catch {
            markDown(error.description)
        }
    }
}
