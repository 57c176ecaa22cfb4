import Foundation
import Glibc
import NeonCore
import Synchronization

/// Drives the cluster's Redis as nodes do, with the nodes' own writer and
/// reader (`ClusterLink`) but no WebSockets and no rooms' state: every
/// event is a scroll appended to one of many rooms' logs and read back
/// from its channel (its envelope: the message itself is not decoded,
/// which is a node's cost, not Redis's). It finds what Redis carries when Redis, not the
/// nodes, is the limit (a node spends several times Redis's CPU on each
/// event, so on a small machine nodes saturate first). `neonsync-bench-redis`
/// runs it.
public enum ClusterStoreLoad {
    public struct Options: Sendable {
        public var configuration: ClusterConfiguration
        public var rooms: Int
        /// Events in flight per room (the next one is appended when an
        /// earlier one comes back), when `rate` is 0.
        public var window: Int
        /// Events a second over all rooms; 0: as fast as the window allows.
        public var rate: Double
        public var duration: Duration
        public var prefix: String

        public init(configuration: ClusterConfiguration, rooms: Int, window: Int, rate: Double, duration: Duration,
                    prefix: String) {
            self.configuration = configuration; self.rooms = rooms; self.window = window; self.rate = rate
            self.duration = duration; self.prefix = prefix
        }
    }

    public struct Result: Sendable {
        /// Events appended and read back within the measured window.
        public var events: Int
        public var seconds: Double
        /// Each Redis's CPU seconds in the window (its `INFO cpu`), in the
        /// order of the configuration's endpoints.
        public var redisCPU: [Double]
        /// Events per Redis in the window (rooms are placed as nodes place them).
        public var redisEvents: [Int]
        /// This process's CPU seconds in the window.
        public var ownCPU: Double
        /// Appended → read back, nanoseconds, one per event.
        public var latencies: [Int64]
        /// Redis refused or could not take an event.
        public var failures: Int
    }

    /// Runs the load; throws when Redis cannot be reached.
    public static func run(_ options: Options, progress: @escaping @Sendable (String) -> Void = { _ in })
        throws(NeonError) -> Result {
        let link = try ClusterLink(options.configuration, decodesMessages: false)
        let state = LoadState()
        let names = (0..<options.rooms).map { "\(options.prefix)-\($0)" }
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        let client = "c\(link.generation)-1"
        let origin = link.generation
        let message = #"{"type":"scroll","top":7,"viewport":20,"content":1020,"anchor":{"block":3,"offset":4}}"#
        let send: @Sendable (Int) -> Void = { room in
            state.sent.add(1, ordering: .relaxed)
            link.append(ClusterEntry(kind: .message, client: client, origin: origin, time: WallClock.nanoseconds(),
                                     message: message), room: names[room])
        }
        link.start { delivery in
            guard case let .event(event) = delivery else { return }
            switch event {
            case let .loaded(room, _, _, _):
                if index[room] != nil { state.loaded.add(1, ordering: .relaxed) }
            case let .ordered(room, entries):
                guard let number = index[room] else { return }
                let now = WallClock.nanoseconds()
                let measuring = state.measuring.load(ordering: .relaxed)
                var mine = 0
                for entry in entries where entry.origin == origin {
                    mine += 1
                    if measuring { state.record(now - entry.time.inNanoseconds) }
                }
                state.received.add(mine, ordering: .relaxed)
                if options.rate == 0, state.sending.load(ordering: .relaxed) {
                    for _ in 0..<mine { send(number) }
                }
            case .unavailable:
                state.failures.add(1, ordering: .relaxed)
            default:
                break
            }
        }
        defer { link.stop() }
        progress("taking up \(options.rooms) rooms")
        for name in names { link.takeUp(name) }
        let setup = ContinuousClock.now + .seconds(120)
        while state.loaded.load(ordering: .relaxed) < options.rooms {
            guard ContinuousClock.now < setup else {
                throw NeonError("only \(state.loaded.load(ordering: .relaxed)) of \(options.rooms) rooms were taken up within 120 s")
            }
            usleep(10_000)
        }
        let probes = try options.configuration.endpoints.map { endpoint throws(NeonError) in
            try RedisConnection(endpoint, password: options.configuration.password)
        }
        let before = try probes.map { probe throws(NeonError) in try cpuSeconds(probe) }
        let countersBefore = try counters(names, link: link, probes: probes)
        let ownBefore = ownCPUSeconds()
        let started = ContinuousClock.now
        state.sending.store(true, ordering: .relaxed)
        state.measuring.store(true, ordering: .relaxed)
        let receivedBefore = state.received.load(ordering: .relaxed)
        progress("measuring")
        if options.rate > 0 {
            var k = 0
            while started.duration(to: .now) < options.duration {
                let due = Int(Double(started.duration(to: .now).milliseconds) / 1000 * options.rate) + 1
                while k < due {
                    send(k % options.rooms)
                    k += 1
                }
                usleep(1_000)
            }
        } else {
            for room in 0..<options.rooms {
                for _ in 0..<options.window { send(room) }
            }
            while started.duration(to: .now) < options.duration { usleep(10_000) }
        }
        state.sending.store(false, ordering: .relaxed)
        state.measuring.store(false, ordering: .relaxed)
        let elapsed = started.duration(to: .now)
        let events = state.received.load(ordering: .relaxed) - receivedBefore
        let after = try probes.map { probe throws(NeonError) in try cpuSeconds(probe) }
        let ownAfter = ownCPUSeconds()
        // What was still in flight comes back before the counters are read.
        let drain = ContinuousClock.now + .seconds(10)
        while state.received.load(ordering: .relaxed) < state.sent.load(ordering: .relaxed), ContinuousClock.now < drain {
            usleep(5_000)
        }
        let countersAfter = try counters(names, link: link, probes: probes)
        for probe in probes { probe.close() }
        return Result(events: events, seconds: Double(elapsed.milliseconds) / 1000,
                      redisCPU: zip(before, after).map { $1 - $0 }, redisEvents: zip(countersBefore, countersAfter).map { $1 - $0 },
                      ownCPU: ownAfter - ownBefore, latencies: state.latencies.withLock { $0 },
                      failures: state.failures.load(ordering: .relaxed))
    }

    /// Redis's CPU seconds so far (`INFO cpu`: its main process, every thread).
    private static func cpuSeconds(_ redis: RedisConnection) throws(NeonError) -> Double {
        let info = try redis.command(["INFO", "cpu"]).text ?? ""
        var total = 0.0
        for line in info.split(whereSeparator: \.isNewline) {
            for key in ["used_cpu_sys:", "used_cpu_user:"] where line.hasPrefix(key) {
                total += Double(line.dropFirst(key.count)) ?? 0
            }
        }
        return total
    }

    /// The sum of the rooms' counters on each Redis.
    private static func counters(_ rooms: [String], link: ClusterLink, probes: [RedisConnection]) throws(NeonError) -> [Int] {
        var sums = Array(repeating: 0, count: probes.count)
        for (shard, probe) in probes.enumerated() {
            let mine = rooms.filter { link.shard(of: $0) == shard }
            for chunk in stride(from: 0, to: mine.count, by: 1000) {
                let keys = mine[chunk ..< min(chunk + 1000, mine.count)].map(ClusterKeys.counter)
                for reply in try probe.command(["MGET"] + keys).array ?? [] { sums[shard] += reply.integer ?? 0 }
            }
        }
        return sums
    }

    private static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

/// The counters the load's threads share.
private final class LoadState: Sendable {
    let loaded = Atomic<Int>(0)
    let sent = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    let sending = Atomic<Bool>(false)
    let measuring = Atomic<Bool>(false)
    let latencies = Mutex<[Int64]>([])

    func record(_ nanoseconds: Int64) {
        latencies.withLock { $0.append(nanoseconds) }
    }
}
