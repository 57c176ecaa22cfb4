import Foundation
import Glibc
import NeonCore

/// What the writer thread owns, in its body: made as the thread begins,
/// gone when it ends; nothing else touches it. It does the I/O; what to
/// send and whom to tell is its `WriterState`'s.
struct WriterLoop {
    let writer: ClusterWriter
    var connection: RedisConnection?
    let deliver: @Sendable (ClusterDelivery) -> Void
    var scripts: [String: String] = [:]
    var state: WriterState
    /// After Redis came back, dead nodes are reaped only once every live
    /// node had a whole heartbeat timeout to renew its key: keys that
    /// expired while Redis was away (or restarted from its AOF) are not
    /// taken for dead nodes.
    var reapAfter = ContinuousClock.now

    init(writer: ClusterWriter, deliver: @escaping @Sendable (ClusterDelivery) -> Void) {
        self.writer = writer
        self.deliver = deliver
        state = WriterState(generation: writer.generation, replicas: writer.replicas,
                            waitMilliseconds: Int(writer.configuration.replicaTimeout.milliseconds))
    }

    var configuration: ClusterConfiguration { writer.configuration }
    var endpoint: RedisEndpoint { writer.endpoint }
    var generation: Int { writer.generation }

    /// Appends and beats until a stop was asked for and nothing is queued,
    /// then leaves the cluster and closes the connection; returns how it
    /// left.
    mutating func run() -> SequencerStop {
        defer { connection?.close() }
        let thread = writer.thread
        var nextBeat = ContinuousClock.now
        var nextSweep = configuration.expirySweep.map { ContinuousClock.now + $0 }
        var backoff = Duration.milliseconds(100)
        while true {
            // Read before taking: what was handed over before the stop was
            // asked for is in this batch or an earlier one.
            let stopping = thread.isStopRequested
            let batch = writer.takeJobs()
            if batch.isEmpty && state.inFlight.isEmpty && !state.hasWork && !stopping && ContinuousClock.now < nextBeat
                && !(connection.map { writer.switched(from: $0.address) } ?? false) {
                thread.wait(until: nextBeat)
                continue
            }
            let redis: RedisConnection
            do throws(NeonError) {
                redis = try connected()
            } catch {
                perform(state.handle(.unreachable(reason: error.description, jobs: batch)))
                if stopping { return .storeUnreachable(reason: error.description) }
                thread.wait(until: ContinuousClock.now + backoff)
                backoff = min(backoff * 2, .seconds(2))
                continue
            }
            backoff = .milliseconds(100)
            let sending = !batch.isEmpty || state.hasWork
            perform(state.handle(.jobs(batch, scripts: scripts, at: .now)), on: redis)
            // Two batches may be on their way: Redis reads the next while it
            // runs one. The older one's replies are read once another is
            // behind it, or at once when nothing new came; all of them
            // before a heartbeat or leaving.
            let beatDue = ContinuousClock.now >= nextBeat
            let keep = !sending || beatDue || stopping ? 0 : 1
            while state.inFlight.count > keep, connection != nil { collect(from: redis) }
            if beatDue, connection != nil {
                beat(redis)
                nextBeat = ContinuousClock.now + configuration.heartbeat
                if let due = nextSweep, ContinuousClock.now >= due, connection != nil, let every = configuration.expirySweep {
                    expire(redis)
                    nextSweep = ContinuousClock.now + every
                }
            }
            if stopping, !writer.hasJobs, state.inFlight.isEmpty { return leave() }
        }
    }

    /// The connection, reconnecting (scripts loaded) when it broke; reports
    /// Redis going and coming back.
    mutating func connected() throws(NeonError) -> RedisConnection {
        if let connection, !connection.isBroken, writer.switched(from: connection.address) {
            markDown("the Sentinels of \(endpoint) promoted another master than \(connection.address)")
        }
        if let connection, !connection.isBroken, !scripts.isEmpty { return connection }
        do throws(NeonError) {
            let fresh: RedisConnection
            if let connection, !connection.isBroken {
                fresh = connection
            } else {
                fresh = try RedisConnection(endpoint, password: configuration.password)
            }
            connection = fresh
            writer.health.withLock { $0.master = fresh.address.description }
            fresh.setTimeout(.seconds(5))
            var loaded: [String: String] = [:]
            let append = writer.replicas > 0 ? ClusterScripts.appendHeld : ClusterScripts.append
            for (name, source) in [("append", append), ("load", ClusterScripts.load),
                                   ("snapshot", ClusterScripts.snapshot), ("reap", ClusterScripts.reap),
                                   ("beat", ClusterScripts.beat), ("idle", ClusterScripts.idle),
                                   ("expire", ClusterScripts.expire), ("release", ClusterScripts.release),
                                   ("heldSince", ClusterScripts.heldSince)] {
                guard let sha = try fresh.command(["SCRIPT", "LOAD", source]).text else {
                    throw NeonError("Redis at \(endpoint) did not load the \(name) script")
                }
                loaded[name] = sha
            }
            scripts = loaded
            if state.reportedDown { reapAfter = ContinuousClock.now + configuration.ttl }
            perform(state.handle(.connected(reason: "reconnected to \(endpoint)")))
            return fresh
        } catch {
            connection?.close()
            connection = nil
            perform(state.handle(.unreachable(reason: error.description, jobs: [])))
            throw error
        }
    }

    /// Does what the state asks; a send that fails is a `lost` event.
    mutating func perform(_ actions: [WriterState.Action], on redis: RedisConnection? = nil) {
        for action in actions {
            switch action {
            case let .send(commands):
                do throws(NeonError) {
                    guard let redis else { throw NeonError("the connection to Redis at \(endpoint) is closed") }
                    try redis.send(commands)
                } catch {
                    markDown(error.description)
                }
            case let .deliver(delivery):
                deliver(delivery)
            case let .health(connected):
                writer.health.withLock { $0.connected = connected }
            case let .unconfirmed(count):
                writer.health.withLock { $0.unconfirmed += count }
            case let .answered(sent):
                let elapsed = sent.duration(to: .now)
                writer.health.withLock { $0.commandSeconds.observe(elapsed) }
            }
        }
    }

    /// The connection broke: closed, and every batch in flight failed.
    mutating func markDown(_ reason: String) {
        writer.health.withLock { $0.master = nil }
        connection?.close()
        connection = nil
        perform(state.handle(.lost(reason: reason)))
    }

    /// Reads the replies of the oldest batch in flight.
    mutating func collect(from redis: RedisConnection) {
        guard let oldest = state.inFlight.first else { return }
        do throws(NeonError) {
            let replies = try redis.receive(oldest.replyCount)
            perform(state.handle(.replies(replies)))
            // A master the Sentinels made a replica refuses writes: find
            // the new one.
            if replies.contains(where: { $0.isReadOnlyRefusal || $0.array?.contains(where: \.isReadOnlyRefusal) == true }) {
                markDown("Redis at \(redis.address) answered READONLY: it is no longer the master; asking again where it is")
            }
        } catch {
            markDown(error.description)
        }
    }
}
