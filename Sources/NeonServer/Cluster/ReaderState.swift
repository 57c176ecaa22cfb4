import NeonCore

/// The cluster reader's decisions, tested without a Redis: which rooms to
/// take up, what a published entry means (the next one, one already
/// handed over, a gap), what the periodic counter check finds, and when
/// to connect again. A value fed events (``handle(_:)``) that returns the
/// actions its shell, the reader thread, performs on its two connections.
///
/// | event | action |
/// |---|---|
/// | requests (want, release) | subscribe the rooms not held, then ask their loads (200 a round trip); unsubscribe a released room |
/// | replies to loads | deliver each room's image and entries |
/// | published messages | deliver the next entries; catch up from the log after a gap; ignore older ones |
/// | replies to a catch-up | deliver the entries, or take the room up again when the log was trimmed past the gap |
/// | tick | ask every room's visible mark and counter (500 rooms a command) |
/// | replies to counters | catch up rooms behind their mark (else counter), take up again rooms whose counter went back |
/// | connected | subscribe every room held, catch each up; after a restart of Redis, take each up again |
/// | lost | connect again: at once when it had settled, after a growing delay when connecting failed |
///
/// One command at a time: an action that asks Redis something is the last
/// of its list, and the rest of the work waits for its replies.
struct ReaderState {
    /// What other threads ask of the reader, in the order made.
    enum Request: Equatable, Sendable {
        /// Take the room up: subscribe, read its image and log.
        case want(String)
        /// Let go of the room: unsubscribe, forget it.
        case release(String)
    }

    enum Event {
        /// Requests handed over, served after those handed over before.
        case requests([Request])
        /// The replies to the commands of the last `.ask`, in order.
        case replies([RedisReply])
        /// What the subscriber connection read.
        case published([RedisReply])
        /// The periodic check is due.
        case tick
        /// Both connections are made and the load and range scripts are
        /// loaded as `loadScript` and `rangeScript`; `run` is the Redis
        /// process's `run_id`, which a restart (or a failover) changes (nil:
        /// not known).
        case connected(loadScript: String, rangeScript: String = "", run: String? = nil)
        /// A connection broke, could not be made, or Redis answered
        /// something the reader cannot follow.
        case lost
    }

    enum Action {
        /// Send these on the subscriber connection (SUBSCRIBE, UNSUBSCRIBE).
        case subscriber([[String]])
        /// Run these on the command connection, pipelined, and hand back
        /// their replies as `.replies`.
        case ask([[String]])
        /// Hand this to the node.
        case deliver(ClusterDelivery)
        /// Close both connections and make them again after `delay`.
        case reconnect(after: Duration)
    }

    /// A room's work still to do, in order, before the next requests.
    enum Step {
        case message(RedisReply)
        case catchUp(String)
        case takeUp([String])
        case check(room: String, counter: Int)
        /// The first `count` requests were served.
        case served(Int)
    }

    /// What the command connection was asked, waiting for its replies.
    enum Question {
        case loads([String])
        case catchUp(String)
        case counters([String])
    }

    /// Rooms taken up per round trip, and rooms whose counters one MGET reads.
    static let loadsPerTrip = 200
    static let countersPerCommand = 500
    static let firstBackoff = Duration.milliseconds(100)
    static let longestBackoff = Duration.seconds(2)

    /// Each room taken up and not released since, and the index of its
    /// last entry handed over.
    var rooms: [String: Int] = [:]
    /// Requests not served yet, in the order made.
    private(set) var requests: [Request] = []
    private(set) var connected = false
    /// Connected and caught up since; a loss then connects again at once.
    private var settled = false
    private var backoff = firstBackoff
    private var loadScript = ""
    private var rangeScript = ""
    /// The `run_id` of the Redis last connected to.
    private var run: String?
    var work: [Step] = []
    private var question: Question?
    private var serving = false
    /// Published entries not handed over yet, by room, in order.
    var batch: [(room: String, entries: [RoomEntry])] = []
    private var out: [Action] = []
    let decoder: EntryDecoder

    init(decoder: EntryDecoder) {
        self.decoder = decoder
    }

    /// What `event` asks of the shell, in order.
    mutating func handle(_ event: Event) -> [Action] {
        out = []
        switch event {
        case let .requests(made):
            requests += made
        case let .replies(replies):
            guard let asked = question else { break }
            question = nil
            guard answered(asked, replies) else { return lost() }
        case let .published(replies):
            guard connected else { break }
            work += replies.map(Step.message)
        case .tick:
            guard connected, question == nil, !rooms.isEmpty else { break }
            let names = rooms.keys.sorted()
            let chunks = stride(from: 0, to: names.count, by: Self.countersPerCommand)
                .map { names[$0 ..< min($0 + Self.countersPerCommand, names.count)] }
            // Each room's visible mark and counter: the mark, when there is
            // one, is as far as subscribers may be told (entries after it
            // wait for a replica).
            ask(.counters(names), chunks.map { ["MGET"] + $0.flatMap { [ClusterKeys.visible($0), ClusterKeys.counter($0)] } })
        case let .connected(script, range, run):
            loadScript = script
            rangeScript = range
            connected = true
            settled = false
            // A Redis restarted (from its append-only file) lost the
            // entries not kept that its rooms' images do not hold: every
            // node takes its rooms up again from the images and the logs,
            // so that all compute the same state again.
            let restarted = run != nil && self.run != nil && run != self.run
            if let run { self.run = run }
            let held = rooms.keys.sorted()
            if !held.isEmpty {
                out.append(.subscriber(held.map { ["SUBSCRIBE", ClusterKeys.channel($0)] }))
                work = restarted ? Self.takeUps(held) : held.map(Step.catchUp)
            }
        case .lost:
            return lost()
        }
        advance()
        return out
    }

    /// Forgets the work under way (the next connection catches every room
    /// up) and connects again; the requests not served wait for it.
    private mutating func lost() -> [Action] {
        connected = false
        work.removeAll()
        batch.removeAll()
        question = nil
        serving = false
        let delay: Duration
        if settled {
            delay = .zero
            backoff = Self.firstBackoff
        } else {
            delay = backoff
            backoff = min(backoff * 2, Self.longestBackoff)
        }
        settled = false
        return [.reconnect(after: delay)]
    }

    /// Does the work in order until it waits for Redis or none is left,
    /// then serves the requests.
    private mutating func advance() {
        while connected, question == nil {
            if !work.isEmpty {
                step(work.removeFirst())
                continue
            }
            if !settled {
                settled = true
                backoff = Self.firstBackoff
            }
            guard !serving, let first = requests.first else { break }
            serve(first)
        }
        if question == nil { flush() }
    }

    /// A release unsubscribes from the room and forgets it (the check no
    /// longer reads its counter); a run of wants subscribes to the rooms
    /// not held yet, then takes each up.
    private mutating func serve(_ first: Request) {
        if case let .release(room) = first {
            requests.removeFirst()
            if rooms.removeValue(forKey: room) != nil {
                out.append(.subscriber([["UNSUBSCRIBE", ClusterKeys.channel(room)]]))
            }
            return
        }
        var fresh: [String] = []
        var seen: Set<String> = []
        var end = 0
        while end < requests.count, case let .want(room) = requests[end] {
            if rooms[room] == nil, seen.insert(room).inserted { fresh.append(room) }
            end += 1
        }
        if !fresh.isEmpty {
            out.append(.subscriber(fresh.map { ["SUBSCRIBE", ClusterKeys.channel($0)] }))
        }
        work = Self.takeUps(fresh) + [.served(end)]
        serving = true
    }

    private mutating func step(_ step: Step) {
        switch step {
        case let .message(reply):
            receive(reply)
        case let .catchUp(room):
            guard let last = rooms[room] else { return }
            ask(.catchUp(room), [["EVALSHA", rangeScript, "0", room, String(last)]])
        case let .takeUp(names):
            ask(.loads(names), names.map { ["EVALSHA", loadScript, "2", ClusterKeys.snapshot($0), ClusterKeys.log($0)] })
        case let .check(room, counter):
            guard let last = rooms[room] else { return }
            if counter > last {
                work.insert(.catchUp(room), at: 0)
            } else if counter < last {
                work.insert(.takeUp([room]), at: 0)
            }
        case let .served(count):
            requests.removeFirst(count)
            serving = false
        }
    }

    private mutating func ask(_ question: Question, _ commands: [[String]]) {
        flush()
        self.question = question
        out.append(.ask(commands))
    }

    /// The steps that take `rooms` up, `loadsPerTrip` a round trip.
    private static func takeUps(_ rooms: [String]) -> [Step] {
        stride(from: 0, to: rooms.count, by: loadsPerTrip).map { Step.takeUp(Array(rooms[$0 ..< min($0 + loadsPerTrip, rooms.count)])) }
    }

    /// The `run_id` of Redis's `INFO server` reply: a restart changes it.
    static func runID(info: String) -> String? {
        info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("run_id:") }
            .map { String($0.dropFirst("run_id:".count)) }
    }

    mutating func deliver(_ delivery: ClusterDelivery) {
        flush()
        out.append(.deliver(delivery))
    }

    mutating func flush() {
        for (room, entries) in batch { out.append(.deliver(.entries(room: room, entries))) }
        batch.removeAll()
    }
}
