import Glibc
import NeonCore
import NeonLock

/// Follows a Sentinel shard's master: a thread subscribed to
/// `+switch-master` on one of its Sentinels (the next one when that one
/// goes) that, when the Sentinels promote another server, records it and
/// tells the shard's writer and reader (`switched`), which make their
/// connections again to the new master. Between messages it asks a
/// Sentinel for the master every `recheck`, so a switch announced while it
/// was not subscribed is found too.
final class SentinelWatch: Sendable {
    let endpoint: RedisEndpoint
    /// The master last named (nil before the first answer).
    private let master = Locked<RedisAddress?>(nil)
    private let thread: WorkerThread
    static let recheck = Duration.seconds(5)

    init(endpoint: RedisEndpoint, shard: Int) {
        self.endpoint = endpoint
        thread = WorkerThread(name: "neonsync-sentinel-\(shard + 1)")
    }

    /// The master the Sentinels named last (nil before the first answer).
    var current: RedisAddress? { master.withLock { $0 } }

    /// Starts following; `switched(old, new)` is called on the thread
    /// whenever the master changes after the first one was learnt.
    func start(switched: @escaping @Sendable (RedisAddress, RedisAddress) -> Void) {
        _ = thread.start { [self] in follow(switched) }
    }

    func stop() {
        thread.requestStop()
        _ = thread.stop(timeout: .seconds(3))
    }

    /// Records `address` as the master; calls `switched` when it is a change.
    private func learnt(_ address: RedisAddress, _ switched: @Sendable (RedisAddress, RedisAddress) -> Void) {
        let previous: RedisAddress? = master.withLock { known in
            defer { known = address }
            return known == address ? nil : known
        }
        if let previous { switched(previous, address) }
    }

    private func follow(_ switched: @escaping @Sendable (RedisAddress, RedisAddress) -> Void) {
        var next = 0
        while !thread.isStopRequested {
            let sentinel = endpoint.sentinels[next % endpoint.sentinels.count]
            next += 1
            do throws(NeonError) {
                if let asked = try? SentinelQuery.master(of: endpoint, timeout: .seconds(1)) { learnt(asked.address, switched) }
                let connection = try RedisConnection(sentinel: sentinel, of: endpoint, timeout: .seconds(1))
                defer { connection.close() }
                try connection.send([["SUBSCRIBE", "+switch-master"]])
                var recheckAt = ContinuousClock.now + Self.recheck
                while !thread.isStopRequested {
                    var fds = [pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)]
                    if poll(&fds, 1, 200) > 0 {
                        for reply in try connection.readAvailable() {
                            guard let parts = reply.array, parts.count == 3, parts[0].text == "message",
                                  let text = parts[2].text,
                                  let address = SentinelQuery.switched(text, name: endpoint.masterName) else { continue }
                            learnt(address, switched)
                        }
                    }
                    if ContinuousClock.now >= recheckAt {
                        // A Sentinel restarted or cut off says nothing: ask.
                        if let asked = try? SentinelQuery.master(of: endpoint, timeout: .seconds(1)) { learnt(asked.address, switched) }
                        recheckAt = ContinuousClock.now + Self.recheck
                    }
                }
            } catch {
                _ = thread.wait(until: ContinuousClock.now + .milliseconds(500))
            }
        }
    }
}
