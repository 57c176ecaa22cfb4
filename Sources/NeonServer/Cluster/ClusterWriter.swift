import Foundation
import Glibc
import NeonCore
import NeonLock

/// The writer thread: appends entries, batched (every job queued while the
/// previous batch was in flight goes in one round trip, its entries in as
/// few calls of the append script as `entriesPerCall` allows), renews the
/// node's liveness key, reaps dead nodes, and at a stop leaves the cluster.
///
/// Other threads reach the writer through `jobs` and `health` (each a `Locked`)
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
    let health = Locked(ClusterHealth())
    /// Handed over by other threads, taken by the writer thread.
    private let jobs = Locked<[Job]>([])
    let thread: WorkerThread
    /// How the thread left the cluster; set by the thread as it ends.
    private let departure = Locked<SequencerStop?>(nil)

    /// How many replicas confirm this shard's entries (`--redis-replicas`).
    let replicas: Int
    /// The master the Sentinels switched this shard to last: the thread
    /// makes its connection again when it is connected elsewhere.
    private let switchedTo = Locked<RedisAddress?>(nil)

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
    func takeJobs() -> [Job] {
        jobs.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
    }

    var hasJobs: Bool {
        jobs.withLock { !$0.isEmpty }
    }
}
