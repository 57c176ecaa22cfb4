import NeonCore

/// What the writer thread does besides appending: the heartbeat (and the
/// reaping of dead nodes it leads to), the sweep of idle rooms, leaving.
extension WriterLoop {
    /// Renews this node's liveness key and reaps incarnations whose key is
    /// gone (a survivor's `reap` is atomic, so each happens once).
    mutating func beat(_ redis: RedisConnection) {
        do throws(NeonError) {
            let renewed = try redis.command(["EVALSHA", scripts["beat"]!, "2", ClusterKeys.node(configuration.node),
                                             ClusterKeys.incarnations, String(generation),
                                             String(configuration.ttl.milliseconds), configuration.node])
            if WriterState.lostMembership(beat: renewed) { deliver(.lostMembership) }
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
