import Glibc
import NeonClient
import NeonCore
import NeonLock
import NeonServer
import Synchronization

/// `bench redis`: what a cluster's Redis carries. Scrolls are appended to
/// many rooms' logs and read back from their channels through a node's own
/// link to Redis (`ClusterLink`: a writer and a reader thread per shard),
/// with no server, no WebSockets and no rooms' state, so that Redis, not
/// the nodes, is the limit (a node spends several times Redis's CPU on an
/// event, so on a small machine nodes saturate first). Each scroll goes
/// the way a node's own member's does: ordered with its JSON as its client
/// sent it (the same bytes for Redis as a node's), and taken back by the
/// reader already decoded; what it is taken back from is this load's own
/// record (`OneScroll`), not a node's list per client, so that the load
/// spends as little as it can beside Redis on the cores they share.
///
/// With --rate 0 each room keeps --window events in flight (its next one is
/// appended when one comes back); with --rate R they are appended R a
/// second in all, dealt over the rooms in turn. Latency: appended → read
/// back (the wall clock a node stamps every event with).
final class RedisStoreBench: LoadScenario {
    private let options: BenchOptions
    private let display: BenchDisplay
    private let configuration: ClusterConfiguration
    private let link: ClusterLink
    private let names: [String]
    private let index: [String: Int]
    /// The one client whose scrolls every event is.
    private let client: ClientID
    private let own = OneScroll()
    /// Rooms taken up.
    private let loaded = Atomic<Int>(0)
    private let sent = Atomic<Int>(0)
    /// This run's events read back.
    private let received = Atomic<Int>(0)
    /// Events Redis refused or could not take.
    private let failures = Atomic<Int>(0)
    /// --rate 0: an event read back sends the room's next.
    private let sending = Atomic<Bool>(false)
    private let measuring = Atomic<Bool>(false)
    /// Appended → read back, one per event read back while measuring.
    private let latencies = Locked<[Int64]>([])

    init(_ options: BenchOptions, display: BenchDisplay) throws(NeonError) {
        self.options = options
        self.display = display
        configuration = ClusterConfiguration(endpoints: options.redis, password: options.redisPassword,
                                             node: "bench-redis-\(getpid())")
        let link: ClusterLink
        do {
            link = try ClusterLink(configuration, own: own)
        } catch {
            throw error.advising(Self.question(configuration))
        }
        self.link = link
        client = ClientID("c\(link.generation)-1")
        let prefix = options.room ?? "bench-redis-\(getpid())"
        names = (0..<options.rooms).map { "\(prefix)-\($0)" }
        index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }

    func run() throws(NeonError) -> LoadResult {
        defer { link.stop() }
        do {
            return LoadResult(target: configuration.redisList, report: try measure())
        } catch {
            throw error.advising(Self.question(configuration))
        }
    }

    private static func question(_ configuration: ClusterConfiguration) -> String {
        "is the Redis at \(configuration.redisList) running?"
    }

    /// Appends the next scroll of room `room`.
    private func send(_ room: Int) {
        sent.add(1, ordering: .relaxed)
        let entry = RoomEntry(message: own.message, text: own.text, client: client, origin: link.generation,
                              time: .nanoseconds(wallClockNanoseconds()))
        link.order(entry, room: names[room], hello: false)
    }

    /// What the link's threads hand over, on their threads.
    private func deliver(_ delivery: ClusterDelivery) {
        switch delivery {
        case let .loaded(room, _, _, _):
            if index[room] != nil { loaded.add(1, ordering: .relaxed) }
        case let .entries(room, entries):
            guard let number = index[room] else { return }
            let now = wallClockNanoseconds()
            let measured = measuring.load(ordering: .relaxed)
            var mine = 0
            for entry in entries where entry.origin == link.generation {
                mine += 1
                if measured { latencies.withLock { $0.append(now - entry.time.inNanoseconds) } }
            }
            received.add(mine, ordering: .relaxed)
            if options.rate == 0, sending.load(ordering: .relaxed) {
                for _ in 0..<mine { send(number) }
            }
        case .failed:
            failures.add(1, ordering: .relaxed)
        default:
            break
        }
    }

    private func measure() throws(NeonError) -> BenchReport {
        link.start(shards: { [self] _, delivery in deliver(delivery) })
        for name in names { link.takeUp(name) }
        let setup = ContinuousClock.now + .seconds(120)
        while loaded.load(ordering: .relaxed) < options.rooms {
            guard ContinuousClock.now < setup else {
                throw NeonError("only \(loaded.load(ordering: .relaxed)) of \(options.rooms) rooms were taken up within 120 s")
            }
            if display.interrupted { throw NeonError("interrupted while taking the rooms up") }
            display.update(phase: "taking up \(options.rooms) rooms", fraction: Double(loaded.load(ordering: .relaxed)) / Double(options.rooms),
                           detail: "\(loaded.load(ordering: .relaxed))/\(options.rooms) rooms")
            usleep(10_000)
        }
        let probes = try configuration.endpoints.map { endpoint throws(NeonError) in
            try RedisConnection(endpoint, password: configuration.password)
        }
        defer { for probe in probes { probe.close() } }
        let before = try probes.map { probe throws(NeonError) in try Self.cpuSeconds(probe) }
        let countersBefore = try counters(probes)
        let ownBefore = ServerSampler.ownCPUSeconds()
        let started = ContinuousClock.now
        sending.store(true, ordering: .relaxed)
        measuring.store(true, ordering: .relaxed)
        let receivedBefore = received.load(ordering: .relaxed)
        if options.rate == 0 {
            for room in 0..<options.rooms {
                for _ in 0..<options.window { send(room) }
            }
        }
        let duration = Duration.seconds(options.duration)
        var k = 0
        var shown = Duration.zero - .seconds(1)
        while started.duration(to: .now) < duration, !display.interrupted {
            let elapsed = started.duration(to: .now)
            if options.rate > 0 {
                let due = Int(elapsed.inSeconds * options.rate) + 1
                while k < due {
                    send(k % options.rooms)
                    k += 1
                }
            }
            if elapsed - shown >= .milliseconds(100) {
                shown = elapsed
                display.update(phase: "measuring", fraction: elapsed.inSeconds / options.duration,
                               detail: "\(BenchReport.groupedDigits(received.load(ordering: .relaxed) - receivedBefore)) events")
            }
            usleep(options.rate > 0 ? 1_000 : 10_000)
        }
        sending.store(false, ordering: .relaxed)
        measuring.store(false, ordering: .relaxed)
        let seconds = started.duration(to: .now).inSeconds
        let events = received.load(ordering: .relaxed) - receivedBefore
        let after = try probes.map { probe throws(NeonError) in try Self.cpuSeconds(probe) }
        let ownCPU = ServerSampler.ownCPUSeconds() - ownBefore
        // What was still in flight comes back before the counters are read.
        let drain = ContinuousClock.now + .seconds(10)
        while received.load(ordering: .relaxed) < sent.load(ordering: .relaxed), ContinuousClock.now < drain {
            usleep(5_000)
        }
        let countersAfter = try counters(probes)
        return report(events: events, seconds: seconds, redisCPU: zip(before, after).map { $1 - $0 },
                      redisEvents: zip(countersBefore, countersAfter).map { $1 - $0 }, ownCPU: ownCPU)
    }

    /// The figures: events a second, and Redis's CPU per event, in all and per shard.
    private func report(events: Int, seconds: Double, redisCPU: [Double], redisEvents: [Int], ownCPU: Double) -> BenchReport {
        let shards = configuration.endpoints.count
        var report = BenchReport()
        report.add("redis", .text(configuration.redisList))
        report.add("shards", .int(shards))
        report.add("rooms", .int(options.rooms))
        report.add("rate", .number(options.rate, decimals: 0), unit: options.rate > 0 ? "events/s" : "(0: saturate)")
        if options.rate == 0 { report.add("window", .int(options.window)) }
        report.add("duration_s", .number(seconds, decimals: 2), unit: "s")
        report.add("events", .int(events))
        report.add("events_per_s", .number(Double(events) / max(seconds, 1e-9), decimals: 0), unit: "events/s")
        report.add("failures", .int(failures.load(ordering: .relaxed)))
        let cpu = redisCPU.reduce(0, +)
        report.add("redis_cpu_s", .number(cpu, decimals: 3), unit: "s")
        report.add("redis_cpu_pct", .number(cpu / max(seconds, 1e-9) * 100 / Double(shards), decimals: 1),
                   unit: "% of a core, per Redis")
        report.add("redis_cpu_us_per_event", .number(cpu / Double(max(events, 1)) * 1e6, decimals: 1), unit: "µs")
        if shards > 1 {
            for (shard, (cpu, events)) in zip(redisCPU, redisEvents).enumerated() {
                report.add("redis_\(shard + 1)_events_per_s", .number(Double(events) / max(seconds, 1e-9), decimals: 0), unit: "events/s")
                report.add("redis_\(shard + 1)_cpu_pct", .number(cpu / max(seconds, 1e-9) * 100, decimals: 1), unit: "% of a core")
                report.add("redis_\(shard + 1)_cpu_us_per_event", .number(cpu / Double(max(events, 1)) * 1e6, decimals: 1), unit: "µs")
            }
        }
        report.add("client_cpu_s", .number(ownCPU, decimals: 2), unit: "s")
        if let load = ServerSampler.loadAverage() {
            report.add("load_average", .number(load, decimals: 2), unit: "(1 min, whole machine)")
        }
        report.addLatency(LatencySummary(nanoseconds: latencies.withLock { $0 }))
        return report
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

    /// The sum of the rooms' counters (each room's last entry number) on each Redis.
    private func counters(_ probes: [RedisConnection]) throws(NeonError) -> [Int] {
        var sums = Array(repeating: 0, count: probes.count)
        for (shard, probe) in probes.enumerated() {
            let mine = names.filter { link.shard(of: $0) == shard }
            for chunk in stride(from: 0, to: mine.count, by: 1000) {
                let keys = mine[chunk ..< min(chunk + 1000, mine.count)].map(ClusterKeys.counter)
                for reply in try probe.command(["MGET"] + keys).array ?? [] { sums[shard] += reply.integer ?? 0 }
            }
        }
        return sums
    }
}

/// What the load's link takes its events back as. Every event the load
/// appends is this one scroll, so the reader takes each back already
/// decoded, as a node takes back its own member's, with no list per client
/// to keep: a node's `SentMessages` would cost the load about twice its
/// reader's other work per event, which on shared cores is taken from Redis.
private final class OneScroll: OwnMessages {
    let message = ClientMessage.scroll(top: 7, viewport: 20, content: 1020, anchor: Anchor(block: 3, offset: 4))
    let text = #"{"type":"scroll","top":7,"viewport":20,"content":1020,"anchor":{"block":3,"offset":4}}"#

    func add(_ message: ClientMessage, as text: String, of client: String) {}

    func take(_ text: String, of client: String) -> ClientMessage? {
        text == self.text ? message : nil
    }

    func forget(_ client: String) {}
}
