import Foundation
import Glibc

/// One shard as Redis Sentinel runs it, all real processes on loopback
/// ports in temporary directories: a master (`RedisProcess`, AOF and fsync
/// as cluster mode documents), its replicas (`--replicaof`, the same
/// settings) and the Sentinels that watch them and promote a replica when
/// the master dies. `url` is the `sentinel://` address a node is given.
/// Every wait is bounded; every process is killed and every directory
/// removed when the value goes.
public final class SentinelGroup: @unchecked Sendable {
    public struct Settings: Sendable {
        /// Every data node gets `min-replicas-to-write 1` and
        /// `min-replicas-max-lag`: a master refuses writes (NOREPLICAS)
        /// while no replica has acknowledged within that many seconds.
        public var minReplicasToWrite: Bool
        public var minReplicasMaxLag: Int
        public var downAfterMilliseconds: Int
        public var failoverTimeoutMilliseconds: Int

        public init(minReplicasToWrite: Bool = true, minReplicasMaxLag: Int = 10, downAfterMilliseconds: Int = 1000,
                    failoverTimeoutMilliseconds: Int = 5000) {
            self.minReplicasToWrite = minReplicasToWrite
            self.minReplicasMaxLag = minReplicasMaxLag
            self.downAfterMilliseconds = downAfterMilliseconds
            self.failoverTimeoutMilliseconds = failoverTimeoutMilliseconds
        }
    }

    public let masterName: String
    /// The data nodes: the first master, then its replicas. Which one is
    /// master now: `master()`.
    public let nodes: [RedisProcess]
    public let sentinels: [SentinelProcess]
    public let settings: Settings
    /// Replicas stopped by `pauseReplica()`, until `resumeReplica()`.
    private var paused: [RedisProcess] = []

    /// Starts the master, `replicas` replicas and `sentinels` Sentinels
    /// (quorum: a majority) and waits until every Sentinel knows them all.
    public init(masterName: String = "neon1", sentinels: Int = 3, replicas: Int = 1, settings: Settings = Settings(),
                readyWithin timeout: Duration = .seconds(30)) throws {
        self.masterName = masterName
        self.settings = settings
        let writes = settings.minReplicasToWrite
            ? ["--min-replicas-to-write", "1", "--min-replicas-max-lag", String(settings.minReplicasMaxLag)] : []
        let master = try RedisProcess(writes)
        nodes = try [master] + (0..<replicas).map { _ in
            try RedisProcess(writes + ["--replicaof", "127.0.0.1", String(master.port)])
        }
        self.sentinels = try (0..<sentinels).map { _ in
            try SentinelProcess(monitoring: masterName, masterPort: master.port, quorum: sentinels / 2 + 1,
                                downAfterMilliseconds: settings.downAfterMilliseconds,
                                failoverTimeoutMilliseconds: settings.failoverTimeoutMilliseconds)
        }
        try waitUntilReady(timeout: timeout)
    }

    /// `sentinel://127.0.0.1:S1,127.0.0.1:S2,…/NAME`
    public var url: String {
        "sentinel://" + sentinels.map { "127.0.0.1:\($0.port)" }.joined(separator: ",") + "/" + masterName
    }

    /// The master's port as the first live Sentinel that answers names it.
    public func currentMaster() throws -> Int {
        for sentinel in sentinels where sentinel.isRunning {
            let reply = try? sentinel.call("SENTINEL", "get-master-addr-by-name", masterName)
            if let port = reply?.texts.last.flatMap({ Int($0) }) { return port }
        }
        throw ServerProcessError("no Sentinel of \(masterName) answered get-master-addr-by-name")
    }

    /// The data node the Sentinels name master.
    public func master() throws -> RedisProcess {
        let port = try currentMaster()
        guard let node = nodes.first(where: { $0.port == port }) else {
            throw ServerProcessError("the Sentinels name port \(port) master of \(masterName), none of its nodes")
        }
        return node
    }

    /// The running data nodes other than the master.
    public func replicas() throws -> [RedisProcess] {
        let port = try currentMaster()
        return nodes.filter { $0.port != port && $0.isRunning }
    }

    /// SIGKILL of the current master; its port.
    @discardableResult
    public func killMaster() throws -> Int {
        let master = try master()
        master.stop(signal: SIGKILL)
        return master.port
    }

    /// Waits until every running Sentinel names one master other than
    /// `oldPort` and that node answers `ROLE` as master; its port. (The
    /// promoted replica answers as master, and the leading Sentinel names
    /// it, a second or so before the others have the new configuration: an
    /// old master started again in between can be taken for the master by
    /// those, and the new one made its replica.)
    public func waitForFailover(from oldPort: Int, timeout: Duration = .seconds(30)) throws -> Int {
        let deadline = ContinuousClock.now + timeout
        var named: [String] = []
        repeat {
            var ports: Set<Int> = []
            named = []
            for sentinel in sentinels where sentinel.isRunning {
                let reply = try? sentinel.call("SENTINEL", "get-master-addr-by-name", masterName)
                let port = reply?.texts.last.flatMap { Int($0) } ?? 0
                ports.insert(port)
                named.append("Sentinel \(sentinel.port) names \(port == 0 ? "none" : String(port))")
            }
            if ports.count == 1, let port = ports.first, port != oldPort, port != 0,
               let node = nodes.first(where: { $0.port == port }), (try? node.role()) == "master" {
                return port
            }
            Thread.sleep(forTimeInterval: 0.02)
        } while ContinuousClock.now < deadline
        throw ServerProcessError("no replica of \(masterName) became master for every Sentinel within \(timeout) of the master on port \(oldPort) going: "
                                 + named.joined(separator: ", ") + "; a Sentinel's log ends: "
                                 + (sentinels.first { $0.isRunning }?.logTail() ?? "(no Sentinel runs)"))
    }

    /// SIGKILL of a replica; which one.
    @discardableResult
    public func stopReplica() throws -> RedisProcess {
        guard let replica = try replicas().first else { throw ServerProcessError("\(masterName) has no running replica to stop") }
        replica.stop(signal: SIGKILL)
        return replica
    }

    /// SIGSTOP of a replica (one that lags: connected, acknowledging
    /// nothing); which one.
    @discardableResult
    public func pauseReplica() throws -> RedisProcess {
        guard let replica = try replicas().first(where: { node in !paused.contains { $0 === node } }) else {
            throw ServerProcessError("\(masterName) has no running replica to pause")
        }
        try replica.pause()
        paused.append(replica)
        return replica
    }

    /// SIGCONT of every replica `pauseReplica()` stopped.
    public func resumeReplica() {
        for replica in paused { replica.resume() }
        paused = []
    }

    /// SIGKILL of Sentinel `index`.
    public func killSentinel(_ index: Int) { sentinels[index].stop(signal: SIGKILL) }

    /// Starts a killed data node again on its port and directory. A master
    /// killed before a failover comes back as a master; the Sentinels make
    /// it a replica of the new master (`waitUntilReplica`).
    public func restart(_ node: RedisProcess) throws { try node.start() }

    /// Starts a killed Sentinel again, with what it wrote in its configuration.
    public func restart(_ sentinel: SentinelProcess) throws { try sentinel.start() }

    /// Waits until `node` answers `ROLE` as a replica of the current master,
    /// its link up.
    public func waitUntilReplica(_ node: RedisProcess, timeout: Duration = .seconds(30)) throws {
        let deadline = ContinuousClock.now + timeout
        var role = RESPReply.array(nil)
        repeat {
            if let master = try? currentMaster(), let reply = try? node.call("ROLE") {
                role = reply
                let texts = reply.texts
                if texts.count >= 4, texts[0] == "slave", texts[2] == String(master), texts[3] == "connected" { return }
            }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        throw ServerProcessError("the node on port \(node.port) did not become a connected replica of \(masterName)'s master "
                                 + "within \(timeout); ROLE answers \(role)")
    }

    /// Waits until every running Sentinel knows the master, every replica
    /// and the other Sentinels, and the master has each running replica
    /// online; the error names what was missing.
    public func waitUntilReady(timeout: Duration = .seconds(30)) throws {
        let deadline = ContinuousClock.now + timeout
        var missing: [String] = []
        repeat {
            missing = readinessProblems()
            if missing.isEmpty { return }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        throw ServerProcessError("the Sentinel group \(masterName) was not ready within \(timeout): " + missing.joined(separator: "; "))
    }

    private func readinessProblems() -> [String] {
        var problems: [String] = []
        for sentinel in sentinels where sentinel.isRunning {
            let fields = (try? sentinel.call("SENTINEL", "master", masterName))?.fields ?? [:]
            let flags = fields["flags"] ?? "(no answer)"
            let replicas = Int(fields["num-slaves"] ?? "") ?? 0
            let others = Int(fields["num-other-sentinels"] ?? "") ?? 0
            if flags != "master" { problems.append("Sentinel \(sentinel.port) flags the master \(flags)") }
            if replicas != nodes.count - 1 { problems.append("Sentinel \(sentinel.port) knows \(replicas) of \(nodes.count - 1) replicas") }
            if others != sentinels.count - 1 {
                problems.append("Sentinel \(sentinel.port) knows \(others) of \(sentinels.count - 1) other Sentinels")
            }
        }
        guard let master = try? master(), let running = try? replicas() else {
            return problems + ["no Sentinel names a master among the nodes"]
        }
        let info = (try? master.call("INFO", "replication"))?.text ?? ""
        let online = info.split(separator: "\r\n").filter { $0.hasPrefix("slave") && $0.contains("state=online") }.count
        if online != running.count { problems.append("the master on port \(master.port) has \(online) of \(running.count) replicas online") }
        if settings.minReplicasToWrite, !running.isEmpty, !info.contains("min_slaves_good_slaves:\(running.count)") {
            problems.append("the master on port \(master.port) does not count every replica good for writes yet")
        }
        return problems
    }

    deinit {
        for sentinel in sentinels { sentinel.stop() }
        for node in nodes { node.stop() }
    }
}
