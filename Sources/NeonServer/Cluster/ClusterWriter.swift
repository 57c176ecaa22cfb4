import Foundation
import Glibc
import Synchronization

/// The writer thread: appends entries, pipelined (every job queued while
/// the previous batch was in flight goes in one round trip), renews the
/// node's liveness key, reaps dead nodes. Owns its Redis connection.
///
/// `@unchecked Sendable`: other threads reach the writer through `jobs`
/// under `condition` and through `health` (a Mutex); the other `var`s
/// belong to the writer thread, except `deliver` and `started`, which
/// `start` and `stop` set from the thread that starts and stops the server,
/// before the writer thread begins and after `stop` has waited
/// (a bounded wait) for it to end.
final class ClusterWriter: @unchecked Sendable {
    enum Job: Sendable {
        case append(room: String, entry: ClusterEntry, hello: Bool)
        case snapshot(room: String, index: Int, image: String, trimBelow: Int)
    }

    let configuration: ClusterConfiguration
    let generation: Int
    let health = Mutex(ClusterHealth())
    /// `jobs` and `stopping` are guarded by `condition`; the rest belongs to
    /// the writer thread.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)
    private var connection: RedisConnection?
    private var scripts: [String: String] = [:]
    private var deliver: (@Sendable (ClusterDelivery) -> Void)?
    private var reportedDown = false
    /// Connections that closed while Redis was away: their `bye` is
    /// appended once it is back, so they leave their rooms (appending one
    /// twice is harmless: the second finds no member).
    private var retry: [Job] = []
    private var started = false

    init(configuration: ClusterConfiguration, generation: Int, connection: RedisConnection) {
        self.configuration = configuration
        self.generation = generation
        self.connection = connection
    }

    func start(deliver: @escaping @Sendable (ClusterDelivery) -> Void) {
        self.deliver = deliver
        started = true
        startBackgroundThread("neonsync-redis-writer") { [self] in run() }
    }

    func submit(_ job: Job) {
        condition.lock()
        jobs.append(job)
        if jobs.count == 1 { condition.signal() }
        condition.unlock()
    }

    /// Appends what is queued, leaves the cluster, and ends the thread
    /// (waiting at most a few seconds when Redis is gone).
    func stop() {
        guard started else { connection?.close(); return }
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        _ = done.wait(timeout: .now() + .seconds(5))
        started = false
    }

    private func run() {
        var nextBeat = ContinuousClock.now
        var backoff = Duration.milliseconds(100)
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping && ContinuousClock.now < nextBeat {
                let wait = ContinuousClock.now.duration(to: nextBeat)
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(wait.milliseconds) / 1000 + 0.001))
            }
            let batch = jobs
            jobs.removeAll()
            let stop = stopping
            condition.unlock()

            guard let redis = connected() else {
                fail(batch, reason: "the cluster's Redis cannot be reached")
                if stop { break }
                sleepInterruptibly(backoff)
                backoff = min(backoff * 2, .seconds(2))
                continue
            }
            backoff = .milliseconds(100)
            let work = retry + batch
            retry.removeAll()
            if !work.isEmpty { run(work, on: redis) }
            if ContinuousClock.now >= nextBeat, connection != nil {
                beat(redis)
                nextBeat = ContinuousClock.now + configuration.heartbeat
            }
            if stop {
                condition.lock()
                let empty = jobs.isEmpty
                condition.unlock()
                if empty { leave(); break }
            }
        }
        connection?.close()
        done.signal()
    }

    /// The connection, reconnecting (scripts loaded) when it broke; reports
    /// Redis going and coming back.
    private func connected() -> RedisConnection? {
        if let connection, !connection.isBroken, !scripts.isEmpty { return connection }
        do throws(RedisFailure) {
            let fresh: RedisConnection
            if let connection, !connection.isBroken {
                fresh = connection
            } else {
                fresh = try RedisConnection(configuration.endpoint, password: configuration.password)
            }
            fresh.setTimeout(.seconds(5))
            var loaded: [String: String] = [:]
            for (name, source) in [("append", ClusterScripts.append), ("load", ClusterScripts.load),
                                   ("snapshot", ClusterScripts.snapshot), ("reap", ClusterScripts.reap),
                                   ("beat", ClusterScripts.beat)] {
                guard let sha = try fresh.command(["SCRIPT", "LOAD", source]).text else {
                    throw RedisFailure("Redis at \(configuration.endpoint) did not load the \(name) script")
                }
                loaded[name] = sha
            }
            scripts = loaded
            connection = fresh
            if reportedDown {
                reportedDown = false
                health.withLock { $0.connected = true }
                deliver?(.redis(up: true, reason: "reconnected to \(configuration.endpoint)"))
            }
            return fresh
        } catch {
            connection = nil
            markDown(error.description)
            return nil
        }
    }

    private func markDown(_ reason: String) {
        connection?.close()
        connection = nil
        guard !reportedDown else { return }
        reportedDown = true
        health.withLock { $0.connected = false }
        deliver?(.redis(up: false, reason: reason))
    }

    private func run(_ batch: [Job], on redis: RedisConnection) {
        var commands: [[String]] = []
        commands.reserveCapacity(batch.count)
        for job in batch {
            switch job {
            case let .append(room, entry, hello):
                commands.append(["EVALSHA", scripts["append"]!, "4", ClusterKeys.counter(room), ClusterKeys.log(room),
                                 ClusterKeys.rooms, ClusterKeys.incarnationRooms(generation), room, hello ? "1" : "0",
                                 ClusterKeys.channel(room)] + entry.fields)
            case let .snapshot(room, index, image, trimBelow):
                commands.append(["EVALSHA", scripts["snapshot"]!, "2", ClusterKeys.snapshot(room), ClusterKeys.log(room),
                                 String(index), image, String(trimBelow)])
            }
        }
        let started = ContinuousClock.now
        let replies: [RedisReply]
        do {
            replies = try redis.pipeline(commands)
        } catch {
            markDown(error.description)
            fail(batch, reason: "the connection to the cluster's Redis broke")
            return
        }
        let elapsed = started.duration(to: .now)
        health.withLock { $0.commandSeconds.observe(elapsed) }
        for (job, reply) in zip(batch, replies) {
            if case let .error(message) = reply, case let .append(_, entry, _) = job {
                deliver?(.failed(client: entry.client, reason: "Redis refused it (\(message))"))
            }
        }
    }

    /// Tells each client whose entry was not appended.
    private func fail(_ batch: [Job], reason: String) {
        for job in batch {
            guard case let .append(_, entry, _) = job, !entry.client.isEmpty else { continue }
            if entry.kind == .bye {
                retry.append(job)
            } else {
                deliver?(.failed(client: entry.client, reason: reason))
            }
        }
    }

    /// Renews this node's liveness key and reaps incarnations whose key is
    /// gone (a survivor's `reap` is atomic, so each happens once).
    private func beat(_ redis: RedisConnection) {
        do throws(RedisFailure) {
            let renewed = try redis.command(["EVALSHA", scripts["beat"]!, "2", ClusterKeys.node(configuration.node),
                                             ClusterKeys.incarnations, String(generation),
                                             String(configuration.ttl.milliseconds), configuration.node])
            if renewed.integer == 2 || renewed.integer == -1 { deliver?(.lostMembership) }
            guard let all = try redis.command(["HGETALL", ClusterKeys.incarnations]).array else { return }
            var others: [(generation: String, name: String)] = []
            var i = 0
            while i + 1 < all.count {
                if let g = all[i].text, let name = all[i + 1].text, g != String(generation) { others.append((g, name)) }
                i += 2
            }
            guard !others.isEmpty else { return }
            let live = try redis.pipeline(others.map { ["GET", ClusterKeys.node($0.name)] })
            let dead = zip(others, live).filter { $0.1.text != $0.0.generation }.map(\.0.generation)
            guard !dead.isEmpty else { return }
            let now = String(WallClock.nanoseconds())
            _ = try redis.pipeline(dead.map { ["EVALSHA", scripts["reap"]!, "0", $0, now] })
        } catch {
            markDown(error.description)
        }
    }

    /// A clean stop: give up the name and reap this incarnation at once.
    private func leave() {
        guard let redis = connected() else { return }
        _ = try? redis.pipeline([
            ["EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
             "1", ClusterKeys.node(configuration.node), String(generation)],
            ["EVALSHA", scripts["reap"]!, "0", String(generation), String(WallClock.nanoseconds())],
        ])
    }

    private func sleepInterruptibly(_ duration: Duration) {
        condition.lock()
        if jobs.isEmpty && !stopping {
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(duration.milliseconds) / 1000))
        }
        condition.unlock()
    }
}
