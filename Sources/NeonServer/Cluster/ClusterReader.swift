import Foundation
import Glibc
import NeonCore
import Synchronization

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
/// Other threads reach the reader through `requests` (a Mutex), the `wake`
/// pipe and its `WorkerThread`; what the thread owns (both connections,
/// the rooms it holds) is a `ReaderLoop` in the thread's body, which closes
/// the connections on its way out.
final class ClusterReader: Sendable {
    let configuration: ClusterConfiguration
    /// This reader's Redis: one shard of `configuration.endpoints`.
    let endpoint: RedisEndpoint
    let generation: Int
    /// The node's own messages on their way through Redis, decoded already.
    let sent: any OwnMessages
    /// What other threads ask of the reader.
    fileprivate enum Request: Equatable, Sendable {
        /// Take the room up: subscribe, read its image and log.
        case want(String)
        /// Let go of the room: unsubscribe, forget it.
        case release(String)
    }

    fileprivate struct Requests: Sendable {
        /// Not served yet, in the order made; each leaves once served.
        var pending: [Request] = []
        /// Rooms wanted and not released since (served or not): wanting one
        /// of them again asks nothing. As many as the node holds.
        var wanted: Set<String> = []
        /// Every room of the cluster was asked for.
        var everyRoom = false
    }

    /// How long a stop waits for the thread to end (its commands time out
    /// after 5 s when Redis does not answer).
    static let stopTimeout = Duration.seconds(4)

    fileprivate let requests = Mutex(Requests())
    /// Written to (one byte) to wake the thread from `poll`.
    fileprivate let wake: (read: Int32, write: Int32)
    fileprivate let thread: WorkerThread

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

    /// Requests not served yet, and rooms wanted and not released (tests).
    var backlog: (pending: Int, wanted: Int) {
        requests.withLock { ($0.pending.count, $0.wanted.count) }
    }

    /// Asks for every room of the cluster (`neonsync:rooms`), once.
    func wantEveryRoom() {
        requests.withLock { $0.everyRoom = true }
        poke()
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
/// gone when it ends; nothing else touches it.
private struct ReaderLoop {
    let reader: ClusterReader
    let deliver: @Sendable (ClusterDelivery) -> Void
    var subscriber: RedisConnection?
    var commands: RedisConnection?
    var loadScript = ""
    let codec = WireCodec()
    /// Each room taken up and not released since, and the index of its
    /// last entry handed over.
    var rooms: [String: Int] = [:]

    init(reader: ClusterReader, deliver: @escaping @Sendable (ClusterDelivery) -> Void) {
        self.reader = reader
        self.deliver = deliver
    }

    var configuration: ClusterConfiguration { reader.configuration }

    /// Reads until a stop was asked for, then closes both connections.
    mutating func run() {
        defer {
            subscriber?.close()
            commands?.close()
        }
        let thread = reader.thread
        let wake = reader.wake
        var backoff = Duration.milliseconds(100)
        var nextProbe = ContinuousClock.now + configuration.heartbeat
        while !thread.isStopRequested {
            guard let (subscriber, commands) = connected() else {
                thread.wait(until: ContinuousClock.now + backoff)
                backoff = min(backoff * 2, .seconds(2))
                continue
            }
            backoff = .milliseconds(100)
            do throws(NeonError) {
                if reader.requests.withLock({ $0.everyRoom }) {
                    let names = try commands.command(["SMEMBERS", ClusterKeys.rooms]).array?.compactMap(\.text) ?? []
                    reader.requests.withLock { state in
                        state.everyRoom = false
                        for name in names where state.wanted.insert(name).inserted { state.pending.append(.want(name)) }
                    }
                }
                try serve(subscriber: subscriber, commands: commands)
                let wait = max(ContinuousClock.now.duration(to: nextProbe), .zero)
                var fds = [pollfd(fd: subscriber.fileDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 2, Int32(wait.milliseconds) + 1)
                if ready > 0, fds[1].revents != 0 {
                    var sink = [UInt8](repeating: 0, count: 64)
                    while read(wake.read, &sink, sink.count) > 0 {}
                }
                if ready > 0, fds[0].revents != 0 {
                    try receive(try subscriber.readAvailable(), on: commands)
                }
                if ContinuousClock.now >= nextProbe {
                    try probe(on: commands)
                    nextProbe = ContinuousClock.now + configuration.heartbeat
                }
            } catch {
                self.subscriber?.close()
                self.subscriber = nil
                self.commands?.close()
                self.commands = nil
            }
        }
    }

    /// Both connections, made again (resubscribed, caught up) after a break.
    mutating func connected() -> (RedisConnection, RedisConnection)? {
        if let subscriber, let commands, !subscriber.isBroken, !commands.isBroken { return (subscriber, commands) }
        subscriber?.close()
        commands?.close()
        do throws(NeonError) {
            let freshCommands = try RedisConnection(reader.endpoint, password: configuration.password)
            freshCommands.setTimeout(.seconds(5))
            guard let sha = try freshCommands.command(["SCRIPT", "LOAD", ClusterScripts.load]).text else { return nil }
            let freshSubscriber = try RedisConnection(reader.endpoint, password: configuration.password)
            loadScript = sha
            if !rooms.isEmpty {
                try freshSubscriber.send(rooms.keys.map { ["SUBSCRIBE", ClusterKeys.channel($0)] })
                for room in Array(rooms.keys) { try catchUp(room, on: freshCommands) }
            }
            subscriber = freshSubscriber
            commands = freshCommands
            return (freshSubscriber, freshCommands)
        } catch {
            return nil
        }
    }

    /// Serves the requests in the order they were made: a release
    /// unsubscribes from the room and forgets it (the probe no longer reads
    /// its counter); a run of wants subscribes to the rooms not held yet,
    /// then takes each up. A request leaves the list once served; when the
    /// connection breaks, the rest wait for the next pass.
    mutating func serve(subscriber: RedisConnection, commands: RedisConnection) throws(NeonError) {
        let pending = reader.requests.withLock { $0.pending }
        var served = 0
        defer { if served > 0 { reader.requests.withLock { $0.pending.removeFirst(served) } } }
        while served < pending.count {
            if case let .release(room) = pending[served] {
                if rooms.removeValue(forKey: room) != nil {
                    try subscriber.send([["UNSUBSCRIBE", ClusterKeys.channel(room)]])
                }
                served += 1
                continue
            }
            var end = served
            var fresh: [String] = []
            var seen: Set<String> = []
            while end < pending.count, case let .want(room) = pending[end] {
                if rooms[room] == nil, seen.insert(room).inserted { fresh.append(room) }
                end += 1
            }
            if !fresh.isEmpty {
                try subscriber.send(fresh.map { ["SUBSCRIBE", ClusterKeys.channel($0)] })
                // The loads in one round trip per 200 rooms.
                for start in stride(from: 0, to: fresh.count, by: 200) {
                    try takeUp(Array(fresh[start ..< min(start + 200, fresh.count)]), on: commands)
                }
            }
            served = end
        }
    }

    /// Reads `room`'s image and every entry after it, and hands both over.
    /// An image that does not decode is reported and the room is taken up
    /// from the entries after it; an entry that does not decode is reported
    /// and passed over (every node reading the log passes it over alike).
    mutating func takeUp(_ room: String, on redis: RedisConnection) throws(NeonError) {
        try takeUp([room], on: redis)
    }

    /// Takes up `rooms`, their loads pipelined.
    mutating func takeUp(_ rooms: [String], on redis: RedisConnection) throws(NeonError) {
        let replies = try redis.pipeline(rooms.map { ["EVALSHA", loadScript, "2", ClusterKeys.snapshot($0), ClusterKeys.log($0)] })
        for (room, reply) in zip(rooms, replies) { try loaded(room, reply) }
    }

    /// A room's load script answer, handed over.
    mutating func loaded(_ room: String, _ reply: RedisReply) throws(NeonError) {
        guard let parts = reply.array, parts.count == 2 else {
            throw NeonError("Redis answered the load of room \(room) with \(reply)")
        }
        var image: RoomImage?
        var last = 0
        if parts[0] != .null {
            switch Self.image(parts[0]) {
            case let .success((index, decoded)):
                last = index
                image = decoded
            case let .failure(problem):
                last = problem.index ?? 0
                deliver(.undecodable(room: room, problem, action: "the room was taken up from the entries after the image, without what the image held"))
            }
        }
        let read = decode(parts[1].array ?? [], room: room, after: last)
        // Held before and the log went on from there: what was handed over
        // is not sent to anyone again. A log that went back (Redis lost
        // it) is a history of its own, applied whole.
        let previous = rooms[room] ?? 0
        rooms[room] = read.last
        deliver(.loaded(room: room, image: image, entries: read.entries, applied: read.last >= previous ? previous : 0))
    }

    /// A room's image as the snapshot key holds it (`n\n{JSON}`), or what
    /// is wrong with it.
    static func image(_ reply: RedisReply) -> Result<(Int, RoomImage), UndecodableEntryError> {
        guard case let .string(bytes) = reply, let newline = bytes.firstIndex(of: 0x0A),
              let index = Int(String(decoding: bytes[..<newline], as: UTF8.self)), index >= 0 else {
            return .failure(UndecodableEntryError(.image, index: nil, "it does not start with the number of its entry and a newline"))
        }
        do {
            return .success((index, try JSONDecoder().decode(RoomImage.self, from: Data(bytes[(newline + 1)...]))))
        } catch {
            return .failure(UndecodableEntryError(.image, index: index, "its JSON does not decode as a room (\(error))"))
        }
    }

    /// The entries of a log read (`XRANGE`, or the load script's) after
    /// entry `after`, decoded; those that do not decode are reported and
    /// passed over. `last` is the number of the last one read (decoded or
    /// not; `after` when none).
    func decode(_ replies: [RedisReply], room: String, after: Int) -> (entries: [RoomEntry], last: Int) {
        var entries: [RoomEntry] = []
        var last = after
        for reply in replies {
            switch ClusterEntry.stored(reply).flatMap({ decoded($0, from: .log) }) {
            case let .success(entry):
                guard entry.index > last else { continue }
                last = entry.index
                entries.append(entry)
            case let .failure(problem):
                deliver(.undecodable(room: room, problem, action: "passed over: every node that reads the room's log passes it over"))
                if let index = problem.index, index > last { last = index }
            }
        }
        return (entries, last)
    }

    /// The event of an entry: this node's own messages as it decoded them
    /// when they arrived, other messages decoded.
    func decoded(_ entry: ClusterEntry, from source: UndecodableEntryError.Source) -> Result<RoomEntry, UndecodableEntryError> {
        if entry.origin == reader.generation {
            switch entry.kind {
            case .message, .verifiedHello:
                if let message = reader.sent.take(entry.message, of: entry.client) {
                    return .success(RoomEntry(event: .message(message), client: ClientID(entry.client), origin: entry.origin,
                                              time: .nanoseconds(entry.time), index: entry.index,
                                              verified: entry.kind == .verifiedHello))
                }
            case .bye: reader.sent.forget(entry.client)
            case .gone: break
            }
        }
        return entry.decoded(codec, from: source)
    }

    /// Hands over the entries of `room` after the last one handed over,
    /// from its log; takes the room up again when the log no longer has them.
    mutating func catchUp(_ room: String, on redis: RedisConnection) throws(NeonError) {
        guard let last = rooms[room] else { return }
        let reply = try redis.command(["XRANGE", ClusterKeys.log(room), "(\(last)-0", "+"])
        let replies = reply.array ?? []
        guard let firstReply = replies.first else { return }
        // Only a log that still holds the next entry can fill the gap.
        guard case let .success(head) = ClusterEntry.stored(firstReply), head.index == last + 1 else {
            return try takeUp(room, on: redis)
        }
        let read = decode(replies, room: room, after: last)
        rooms[room] = read.last
        if !read.entries.isEmpty { deliver(.entries(room: room, read.entries)) }
    }

    /// Published entries, in order; subscription confirmations and the
    /// messages of rooms released since are passed over. A published entry
    /// that does not decode is reported and the room taken up again from
    /// its log, which is what every node applies.
    mutating func receive(_ replies: [RedisReply], on redis: RedisConnection) throws(NeonError) {
        var batch: [(room: String, entries: [RoomEntry])] = []
        func flush() {
            for (room, entries) in batch { deliver(.entries(room: room, entries)) }
            batch.removeAll()
        }
        for reply in replies {
            guard let parts = reply.array, parts.count == 3, parts[0].text == "message",
                  let channel = parts[1].text, let room = ClusterKeys.room(ofChannel: channel),
                  let last = rooms[room] else { continue }
            let payload: [UInt8] = if case let .string(bytes) = parts[2] { bytes } else { [] }
            if payload.elementsEqual(ClusterKeys.removedNotice.utf8) {
                // Removed (--room-ttl): its log starts again from 1.
                flush()
                rooms[room] = 0
                deliver(.removed(room: room))
                continue
            }
            let read = ClusterEntry.published(payload)
            let index: Int? = switch read {
            case let .success(entry): entry.index
            case let .failure(problem): problem.index
            }
            if let index, index <= last { continue }
            if let index, index > last + 1 {
                flush()
                try catchUp(room, on: redis)
                continue
            }
            switch read.flatMap({ decoded($0, from: .publish) }) {
            case let .success(entry):
                rooms[room] = entry.index
                if let i = batch.indices.last, batch[i].room == room {
                    batch[i].entries.append(entry)
                } else {
                    batch.append((room, [entry]))
                }
            case let .failure(problem):
                flush()
                deliver(.undecodable(room: room, problem, action: "the room was taken up again from Redis"))
                try takeUp(room, on: redis)
            }
        }
        flush()
    }

    /// Compares every room's counter with the last entry handed over: a
    /// higher one means entries were missed; a lower one (or none) means
    /// Redis lost the room's history (it restarted without its data), and
    /// the room is taken up again as Redis has it now.
    mutating func probe(on redis: RedisConnection) throws(NeonError) {
        let names = Array(rooms.keys)
        guard !names.isEmpty else { return }
        // One MGET per 500 rooms: a node holding many rooms asks Redis for
        // their counters in a few commands, not one each.
        let chunks = stride(from: 0, to: names.count, by: 500).map { names[$0 ..< min($0 + 500, names.count)] }
        let replies = try redis.pipeline(chunks.map { ["MGET"] + $0.map(ClusterKeys.counter) })
        let counters = replies.flatMap { $0.array ?? [] }
        guard counters.count == names.count else {
            throw NeonError("Redis answered the counters of \(names.count) rooms with \(counters.count) values")
        }
        for (room, counter) in zip(names, counters) {
            guard let last = rooms[room] else { continue }
            let n = counter.integer ?? 0
            if n > last {
                try catchUp(room, on: redis)
            } else if n < last {
                try takeUp(room, on: redis)
            }
        }
    }
}
