import Foundation
import Glibc

/// One Redis Sentinel on a free loopback port in a temporary directory,
/// watching one master: Debian's redis-server in Sentinel mode
/// (`redis-server sentinel.conf --sentinel`; Debian 12 installs no
/// redis-sentinel program with redis-server). Sentinel rewrites its
/// configuration file with what it learns (its id, the replicas, the other
/// Sentinels, a new master), so one started again after a kill remembers
/// them. Killed and its directory removed when the value goes.
public final class SentinelProcess: @unchecked Sendable {
    /// Set once, by `init`: a port taken between the check and the bind
    /// is replaced there.
    public private(set) var port: Int
    public let directory: String
    private var process: Process?
    /// The configuration's lines after `port`.
    private let settings: [String]

    /// A Sentinel for the master `name` on 127.0.0.1:`masterPort`, which
    /// `quorum` Sentinels must find down before a failover.
    public init(monitoring name: String, masterPort: Int, quorum: Int, downAfterMilliseconds: Int,
                failoverTimeoutMilliseconds: Int) throws {
        directory = NSTemporaryDirectory() + "neonsync-sentinel-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        settings = ["bind 127.0.0.1", "protected-mode no", "dir \(directory)", "logfile \(directory)/sentinel.log",
                    "sentinel resolve-hostnames no",
                    "sentinel monitor \(name) 127.0.0.1 \(masterPort) \(quorum)",
                    "sentinel down-after-milliseconds \(name) \(downAfterMilliseconds)",
                    "sentinel failover-timeout \(name) \(failoverTimeoutMilliseconds)",
                    "sentinel parallel-syncs \(name) 1"]
        port = try RedisProcess.freePort()
        var attempts = 0
        while true {
            try (["port \(port)"] + settings).joined(separator: "\n").appending("\n")
                .write(toFile: configuration, atomically: true, encoding: .utf8)
            do {
                try start()
                break
            } catch RedisStartFailure.portTaken where attempts < 5 {
                attempts += 1
                port = try RedisProcess.freePort()
            }
        }
    }

    /// The configuration file Sentinel reads and rewrites.
    public var configuration: String { directory + "/sentinel.conf" }
    public var pid: Int32 { process?.processIdentifier ?? 0 }
    public var isRunning: Bool { process.map { !$0.hasExited } ?? false }

    /// Starts the Sentinel from its configuration file (again, after a kill:
    /// with what it wrote there) and waits until it answers.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = [configuration, "--sentinel"]
        try process.runUnblocked()
        self.process = process
        let log = directory + "/sentinel.log"
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? call("PING")) == .status("PONG") { return }
            if process.hasExited {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if text.contains("Address already in use") { throw RedisStartFailure.portTaken }
                throw ServerProcessError("Sentinel on port \(port) exited (\(process.finalStatus)) before answering: "
                                         + text.split(separator: "\n").suffix(5).joined(separator: " | "))
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        throw ServerProcessError("Sentinel on port \(port) did not answer PING within 10 s (running: \(!process.hasExited)); "
                                 + "its log ends: " + text.split(separator: "\n").suffix(5).joined(separator: " | "))
    }

    /// Sends a signal and waits (bounded) for the process to end.
    public func stop(signal: Int32 = SIGKILL) {
        guard let process, !process.hasExited else { return }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while !process.hasExited, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// One command as RESP; the whole reply.
    public func call(_ words: String...) throws -> RESPReply { try RESPReply.call(port: port, words) }

    /// The last lines of its log, for a failure's message.
    public func logTail(_ count: Int = 8) -> String {
        let text = (try? String(contentsOfFile: directory + "/sentinel.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(count).joined(separator: " | ")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
