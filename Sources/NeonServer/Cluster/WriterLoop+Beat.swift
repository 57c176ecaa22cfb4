import NeonCore

/// What the writer thread does besides appending: the heartbeat (and the
/// reaping of dead nodes it leads to), the sweep of idle rooms, leaving.
extension WriterLoop {
    /// Renews this node's liveness key and reaps incarnations whose key is
    /// gone (a survivor's `reap` is atomic, so each happens once).
    mutating func beat(_ redis: RedisConnection) {
        do throws(NeonError) {
            // Rooms held too long are read before the beat writes: the
            // `WAIT` after it covers every entry they hold.
            let stale = writer.replicas > 0 ? try heldTooLong(redis) : [:]
            let renewed = try redis.command(["EVALSHA", scripts["beat"]!, "2", ClusterKeys.node(configuration.node),
                                             ClusterKeys.incarnations, String(generation),
                                             String(configuration.ttl.milliseconds), configuration.node])
            if case .error = renewed {
                // A master refusing writes (NOREPLICAS: its replicas are
                // away) lets no node renew its key: once writes pass again,
                // every live node gets a whole timeout to renew before any
                // is taken for dead.
                reapAfter = ContinuousClock.now + configuration.ttl
                return
            }
            if WriterState.lostMembership(beat: renewed) { deliver(.lostMembership) }
            if !stale.isEmpty || !state.held.isEmpty {
                let answered = try redis.command(state.waitCommand).integer ?? 0
                perform(state.confirmed(replicasAnswered: answered, clients: [], more: stale))
            }
            guard ContinuousClock.now >= reapAfter else { return }
            let others = WriterState.others(in: try redis.command(["HGETALL", ClusterKeys.incarnations]), than: generation)
            guard !others.isEmpty else { return }
            let live = try redis.pipeline(others.map { ["GET", ClusterKeys.node($0.name)] })
            let dead = WriterState.dead(others, live: live)
            guard !dead.isEmpty else { return }
            let now = String(WallClock.nanoseconds())
            _ = try redis.pipeline(dead.map { ["EVALSHA", scripts["reap"]!, "0", $0, now] })
        } catch {
            markDown(error.description)
        }
    }

    /// The rooms whose entries have waited for a replica longer than a
    /// writer that is alive takes to release them (its writer died or lost
    /// Redis first), each with its counter, at most 100 a beat.
    mutating func heldTooLong(_ redis: RedisConnection) throws(NeonError) -> [String: Int] {
        let patience = configuration.heartbeat + configuration.replicaTimeout * 2
        let before = WallClock.nanoseconds() / 1_000_000_000 - max(Int64(patience.components.seconds), 2)
        let flat = try redis.command(["EVALSHA", scripts["heldSince"]!, "0", String(before), "100"]).array ?? []
        var rooms: [String: Int] = [:]
        var i = 0
        while i + 1 < flat.count {
            if let room = flat[i].text, let counter = flat[i + 1].integer { rooms[room] = counter }
            i += 2
        }
        return rooms
    }

    /// Removes the rooms of this shard idle past `--room-ttl` (any node may:
    /// the script removes each once), at most 1,000 a sweep in calls of
    /// 100, and tells the service thread which.
    mutating func expire(_ redis: RedisConnection) {
        guard let ttl = configuration.roomTTL else { return }
        do throws(NeonError) {
            for _ in 0..<10 {
                let now = WallClock.nanoseconds() / 1_000_000
                let reply = try redis.command(["EVALSHA", scripts["expire"]!, "0", String(now), String(ttl.milliseconds), "100"])
                let (removed, more) = WriterState.expired(reply, now: now, limit: 100)
                removed.forEach(deliver)
                if !more { break }
            }
        } catch {
            markDown(error.description)
        }
    }

    /// A clean stop: give up the name and reap this incarnation at once;
    /// says what failed when Redis cannot be reached.
    mutating func leave() -> SequencerStop {
        do throws(NeonError) {
            let redis = try connected()
            _ = try redis.pipeline([
                ["EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
                 "1", ClusterKeys.node(configuration.node), String(generation)],
                ["EVALSHA", scripts["reap"]!, "0", String(generation), String(WallClock.nanoseconds())],
            ])
            return .finished
        } catch {
            return .storeUnreachable(reason: error.description)
        }
    }
}
