import NeonCore

/// The cluster writer's decisions, tested without a Redis: how a batch of
/// jobs becomes commands, what each reply of the append script means for
/// its clients, who is told when Redis goes, which byes are appended again
/// once it is back. A value fed events (``handle(_:)``) that returns the
/// actions its shell, the writer thread, performs on its connection.
///
/// | event | action |
/// |---|---|
/// | jobs (Redis reachable) | send them: each run of appends as calls of the append script, each other job as its own command |
/// | replies to the oldest batch sent | tell each client whose entry Redis refused |
/// | connected (after Redis was away) | mark the node connected, tell it Redis is back |
/// | lost (connection broke) | mark the node disconnected once; fail every batch not answered |
/// | unreachable (no connection) | mark the node disconnected once; fail the jobs |
///
/// A failed `bye` is not told to anyone: it is appended again once Redis
/// is back, so its client leaves its rooms (appending it twice is
/// harmless: the second finds no member).
struct WriterState {
    typealias Job = ClusterWriter.Job

    enum Event {
        /// Jobs to append now (with the byes waiting to be appended again),
        /// with the scripts' digests on the connection they go on.
        case jobs([Job], scripts: [String: String], at: ContinuousClock.Instant)
        /// The replies to the oldest batch sent, one per command.
        case replies([RedisReply])
        /// The connection is made and the scripts loaded.
        case connected(reason: String)
        /// The connection broke (or an exchange on it failed).
        case lost(reason: String)
        /// Redis could not be reached; `jobs` were not sent.
        case unreachable(reason: String, jobs: [Job])
    }

    enum Action {
        /// Send these on the connection without waiting; their replies are
        /// read later, in order, and handed back as `.replies`.
        case send([[String]])
        /// Hand this to the node.
        case deliver(ClusterDelivery)
        /// Whether the node's Redis is reachable, for its health.
        case health(connected: Bool)
        /// A batch sent at this instant was answered (the command time).
        case answered(sentAt: ContinuousClock.Instant)
        /// This many senders were told no replica confirmed their entry.
        case unconfirmed(Int)
    }

    /// A batch sent whose replies are not read yet: each command's jobs,
    /// after `releasing` commands of the release script and before a
    /// `WAIT` when `waits`.
    struct Batch {
        var commands: [ArraySlice<Job>]
        var sent: ContinuousClock.Instant
        var releasing = 0
        var waits = false
        /// What the release command released: sent again when it failed.
        var released: [String: Int] = [:]

        /// How many replies the batch gets.
        var replyCount: Int { releasing + commands.count + (waits ? 1 : 0) }
    }

    /// The most entries one call of the append script carries: Redis runs
    /// a script to its end before anything else, so a call stays short.
    let entriesPerCall: Int
    let generation: Int
    /// Batches sent whose replies are not read yet, oldest first.
    private(set) var inFlight: [Batch] = []
    /// Byes whose append failed, appended again once Redis is back.
    private(set) var retry: [Job] = []
    /// Whether the node was told Redis went, and not told since it came back.
    private(set) var reportedDown = false
    /// How many replicas must have an entry before it is released (0: the
    /// append script publishes every entry itself), and how long a `WAIT`
    /// for them waits, in milliseconds.
    let replicas: Int
    let waitMilliseconds: Int
    /// Entries this writer appended held (waiting for a replica) and not
    /// released yet: each room's highest index.
    private(set) var held: [String: Int] = [:]
    /// Rooms a `WAIT` confirmed, released with the next batch: each room's
    /// highest index.
    private(set) var releases: [String: Int] = [:]

    init(generation: Int, entriesPerCall: Int = ClusterWriter.entriesPerCall, replicas: Int = 0,
         waitMilliseconds: Int = 1000) {
        self.generation = generation
        self.entriesPerCall = entriesPerCall
        self.replicas = replicas
        self.waitMilliseconds = waitMilliseconds
    }

    /// Whether Redis refused something to send again (NOREPLICAS): it is
    /// sent with the next jobs or the next beat, not at once.
    private(set) var refused = false

    /// Whether there is something to send though no job was handed over.
    var hasWork: Bool { !refused && (!retry.isEmpty || !releases.isEmpty) }

    /// What `event` asks of the shell, in order.
    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case let .jobs(jobs, scripts, at):
            refused = false
            let work = retry + jobs
            retry.removeAll()
            let released = releases
            let release = releaseCommand(scripts: scripts)
            let appends = work.contains { if case .append = $0 { true } else { false } }
            let waits = replicas > 0 && appends
            guard !work.isEmpty || release != nil else { return [] }
            let (commands, carried) = Self.commands(for: work, scripts: scripts, generation: generation,
                                                    entriesPerCall: entriesPerCall)
            inFlight.append(Batch(commands: carried, sent: at, releasing: release == nil ? 0 : 1, waits: waits,
                                  released: released))
            return [.send((release.map { [$0] } ?? []) + commands + (waits ? [waitCommand] : []))]
        case let .replies(replies):
            guard !inFlight.isEmpty else { return [] }
            let batch = inFlight.removeFirst()
            var out: [Action] = [.answered(sentAt: batch.sent)]
            if batch.releasing > 0, case .error = replies.first {
                // Refused (a master without its replicas): sent again with
                // the next batch; nothing of it was published.
                releases.merge(batch.released, uniquingKeysWith: max)
                refused = true
            }
            var answered = replies.dropFirst(batch.releasing)
            let waited = batch.waits ? answered.popLast() : nil
            var heldClients: [String] = []
            for (jobs, reply) in zip(batch.commands, answered) {
                let answers = reply.array ?? Array(repeating: reply, count: jobs.count)
                for (job, answer) in zip(jobs, answers) {
                    guard case let .append(room, entry, _, kept) = job else { continue }
                    if case let .error(message) = answer {
                        if entry.kind == .bye, Self.retryable(message) {
                            retry.append(job)
                            refused = true
                        } else {
                            out.append(.deliver(.failed(client: entry.client, reason: "Redis refused it (\(message))")))
                        }
                    } else if let index = answer.integer, index < 0 {
                        held[room] = max(held[room] ?? 0, -index)
                        if kept, !entry.client.isEmpty { heldClients.append(entry.client) }
                    }
                }
            }
            if let waited { out += confirmed(replicasAnswered: waited.integer ?? 0, clients: heldClients) }
            return out
        case let .connected(reason):
            guard reportedDown else { return [] }
            reportedDown = false
            return [.health(connected: true), .deliver(.redis(up: true, reason: reason))]
        case let .lost(reason):
            let lost = inFlight.flatMap { $0.commands.flatMap { $0 } }
            inFlight.removeAll()
            // What this writer held and released waits on the master for
            // any node's sweep (`heldSince`); a new master has none of it held.
            held.removeAll()
            releases.removeAll()
            return down(reason) + fail(lost, reason: "the connection to the cluster's Redis broke")
        case let .unreachable(reason, jobs):
            return down(reason) + fail(jobs, reason: "the cluster's Redis cannot be reached")
        }
    }

    /// Tells the node once that Redis went.
    private mutating func down(_ reason: String) -> [Action] {
        guard !reportedDown else { return [] }
        reportedDown = true
        return [.health(connected: false), .deliver(.redis(up: false, reason: reason))]
    }

    /// Tells each client whose entry was not appended; keeps the byes to
    /// append again.
    private mutating func fail(_ jobs: [Job], reason: String) -> [Action] {
        var out: [Action] = []
        for job in jobs {
            guard case let .append(_, entry, _, _) = job, !entry.client.isEmpty else { continue }
            if entry.kind == .bye {
                retry.append(job)
            } else {
                out.append(.deliver(.failed(client: entry.client, reason: reason)))
            }
        }
        return out
    }

    /// The commands of `jobs`, and each command's jobs: each run of
    /// appends (up to `entriesPerCall`) as one call of the append script,
    /// each other job as its own command.
    static func commands(for jobs: [Job], scripts: [String: String], generation: Int,
                         entriesPerCall: Int) -> (commands: [[String]], carried: [ArraySlice<Job>]) {
        var commands: [[String]] = []
        var carried: [ArraySlice<Job>] = []
        var start = 0
        while start < jobs.count {
            let single: [String]? = switch jobs[start] {
            case .append: nil
            case let .snapshot(room, index, image, trimBelow):
                ["EVALSHA", scripts["snapshot", default: ""], "2", ClusterKeys.snapshot(room), ClusterKeys.log(room),
                 String(index), image, String(trimBelow)]
            case let .emptied(room, index, at):
                ["EVALSHA", scripts["idle", default: ""], "0", room, String(index), String(at)]
            case let .released(room):
                ["SREM", ClusterKeys.incarnationRooms(generation), room]
            }
            if let single {
                commands.append(single)
                carried.append(jobs[start ..< start + 1])
                start += 1
                continue
            }
            var arguments = ["EVALSHA", scripts["append", default: ""], "0", ClusterKeys.rooms, ClusterKeys.incarnationRooms(generation)]
            var end = start
            while end < jobs.count, end - start < entriesPerCall, case let .append(room, entry, hello, kept) = jobs[end] {
                arguments += [room, hello ? "1" : kept ? "0" : "e", entry.kind.rawValue, entry.client, String(entry.origin),
                              String(entry.time), entry.message]
                end += 1
            }
            commands.append(arguments)
            carried.append(jobs[start ..< end])
            start = end
        }
        return (commands, carried)
    }
}

/// Replicas: held entries, `WAIT`, releases.
extension WriterState {
    /// `WAIT` for `replicas` replicas, at most `waitMilliseconds`.
    var waitCommand: [String] { ["WAIT", String(replicas), String(waitMilliseconds)] }

    /// The release script's call for the rooms confirmed (nil: none), which
    /// are then no longer due.
    mutating func releaseCommand(scripts: [String: String]) -> [String]? {
        guard !releases.isEmpty else { return nil }
        defer { releases.removeAll() }
        return ["EVALSHA", scripts["release", default: ""], "0"]
            + releases.sorted { $0.key < $1.key }.flatMap { [$0.key, String($0.value)] }
    }

    /// A `WAIT` answered that `replicasAnswered` replicas have everything
    /// sent so far: enough, and every held entry is released with the next
    /// batch (with `more`, rooms others held too long); too few, and the
    /// senders of the kept entries just held (`clients`) are told to send
    /// them again later, while the entries stay held until a later `WAIT`
    /// confirms them.
    mutating func confirmed(replicasAnswered: Int, clients: [String], more: [String: Int] = [:]) -> [Action] {
        guard replicasAnswered >= replicas else {
            let reason = "no replica of the cluster's Redis confirmed it within \(waitMilliseconds) ms (--redis-replicas \(replicas) answered \(replicasAnswered))"
            return clients.isEmpty ? [] : [.unconfirmed(clients.count)] + clients.map { .deliver(.failed(client: $0, reason: reason)) }
        }
        releases.merge(held, uniquingKeysWith: max)
        releases.merge(more, uniquingKeysWith: max)
        held.removeAll()
        return []
    }

    /// Whether a refusal may pass once Redis recovers (a master without
    /// enough replicas, or one that became a replica): a bye refused so is
    /// appended again.
    static func retryable(_ message: String) -> Bool {
        message.hasPrefix("NOREPLICAS") || message.hasPrefix("READONLY") || message.hasPrefix("LOADING")
    }
}
