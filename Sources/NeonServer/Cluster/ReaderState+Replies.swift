import NeonCore

extension ReaderState {
    /// Follows the replies to `question`; false when they are not what
    /// the commands answer (the connection is then made again).
    mutating func answered(_ question: Question, _ replies: [RedisReply]) -> Bool {
        switch question {
        case let .loads(names):
            guard replies.count == names.count else { return false }
            for (room, reply) in zip(names, replies) {
                guard loaded(room, reply) else { return false }
            }
        case let .catchUp(room):
            guard let reply = replies.first else { return false }
            caughtUp(room, reply)
        case let .counters(names):
            let values = replies.flatMap { $0.array ?? [] }
            guard values.count == 2 * names.count else { return false }
            let counters = stride(from: 0, to: values.count, by: 2).map { i in
                values[i].integer ?? values[i + 1].integer ?? 0
            }
            work = zip(names, counters).map { Step.check(room: $0, counter: $1) } + work
        }
        return true
    }

    /// A room's load script answer (its image, the entries after it, its
    /// counter), handed over. An image that does not decode is reported
    /// and the room is taken up from the entries after it; an entry that
    /// does not decode is reported and passed over (every node reading the
    /// log passes it over alike).
    private mutating func loaded(_ room: String, _ reply: RedisReply) -> Bool {
        guard let parts = reply.array, parts.count == 2 || parts.count == 3 else { return false }
        var image: RoomImage?
        var last = 0
        if parts[0] != .null {
            switch EntryDecoder.image(parts[0]) {
            case let .success((index, decoded)):
                last = index
                image = decoded
            case let .failure(problem):
                last = problem.index ?? 0
                deliver(.undecodable(room: room, problem, action: "the room was taken up from the entries after the image, without what the image held"))
            }
        }
        let read = decode(parts[1].array ?? [], room: room, after: last)
        // The counter is past the log's last entry after a restart of
        // Redis from its append-only file: the numbers between were taken
        // by entries not kept, and none will come.
        let counter = max(read.last, parts.count == 3 ? parts[2].integer ?? 0 : 0)
        // Held before and the counter went on from there: what was handed
        // over is not sent to anyone again. A counter that went back (Redis
        // lost its data) means a history of its own, applied whole.
        let previous = rooms[room] ?? 0
        rooms[room] = counter
        deliver(.loaded(room: room, image: image, entries: read.entries, applied: counter >= previous ? previous : 0))
        return true
    }

    /// The log after the last entry handed over: handed over when it still
    /// holds the next entry, else the room is taken up again.
    private mutating func caughtUp(_ room: String, _ reply: RedisReply) {
        guard let last = rooms[room], let first = reply.array?.first, let replies = reply.array else { return }
        guard case let .success(head) = ClusterEntry.stored(first), head.index == last + 1 else {
            work.insert(.takeUp([room]), at: 0)
            return
        }
        let read = decode(replies, room: room, after: last)
        rooms[room] = read.last
        if !read.entries.isEmpty { deliver(.entries(room: room, read.entries)) }
    }

    /// The entries of a log read (`XRANGE`, or the load script's) after
    /// entry `after`, decoded; those that do not decode are reported and
    /// passed over. `last` is the number of the last one read (decoded or
    /// not; `after` when none).
    private mutating func decode(_ replies: [RedisReply], room: String, after: Int) -> (entries: [RoomEntry], last: Int) {
        var entries: [RoomEntry] = []
        var last = after
        for reply in replies {
            switch ClusterEntry.stored(reply).flatMap({ decoder.decoded($0, from: .log) }) {
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

    /// One message of the subscriber connection: the next entry of a room
    /// held joins the batch; one handed over already is passed over; one
    /// past the next means some were missed, read from the log. Subscription
    /// confirmations and the messages of rooms released since are passed
    /// over. A published entry that does not decode is reported and the
    /// room taken up again from its log, which is what every node applies.
    mutating func receive(_ reply: RedisReply) {
        guard let parts = reply.array, parts.count == 3, parts[0].text == "message",
              let channel = parts[1].text, let room = ClusterKeys.room(ofChannel: channel),
              let last = rooms[room] else { return }
        let payload: [UInt8] = if case let .string(bytes) = parts[2] { bytes } else { [] }
        if payload.elementsEqual(ClusterKeys.removedNotice.utf8) {
            // Removed (--room-ttl): its log starts again from 1.
            rooms[room] = 0
            deliver(.removed(room: room))
            return
        }
        let read = ClusterEntry.published(payload)
        let index: Int? = switch read {
        case let .success(entry): entry.index
        case let .failure(problem): problem.index
        }
        if let index, index <= last { return }
        if let index, index > last + 1 {
            work.insert(.catchUp(room), at: 0)
            return
        }
        switch read.flatMap({ decoder.decoded($0, from: .publish) }) {
        case let .success(entry):
            rooms[room] = entry.index
            if let i = batch.indices.last, batch[i].room == room {
                batch[i].entries.append(entry)
            } else {
                batch.append((room, [entry]))
            }
        case let .failure(problem):
            deliver(.undecodable(room: room, problem, action: "the room was taken up again from Redis"))
            work.insert(.takeUp([room]), at: 0)
        }
    }
}
