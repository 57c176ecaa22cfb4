import Foundation
import Glibc
import Synchronization

/// A real `redis-server` (Debian's, installed by deploy/setup.sh) on a free
/// loopback port in a temporary directory, with the settings cluster mode
/// documents: AOF on, fsync before every reply, no RDB snapshots. Killed
/// and its directory removed when the value goes.
/// Why `RedisProcess.start` could not bring redis-server up on its port.
enum RedisStartFailure: Error, CustomStringConvertible {
    /// Another program bound the port first.
    case portTaken

    var description: String { "redis-server found each of six free ports taken by another program when it bound it" }
}

public final class RedisProcess: @unchecked Sendable {
    /// Set once, by `init`: a port taken between the check and the bind
    /// is replaced there.
    public private(set) var port: Int
    public let directory: String
    private var process: Process?
    /// More redis-server settings (e.g. `--requirepass`).
    private let extra: [String]

    public init(_ extra: [String] = []) throws {
        self.extra = extra
        directory = NSTemporaryDirectory() + "neonsync-redis-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        // A port free when checked can be bound by another program before
        // redis-server binds it (a script's own Redis, say): then another.
        var attempts = 0
        while true {
            do {
                try start()
                break
            } catch RedisStartFailure.portTaken where attempts < 5 {
                attempts += 1
                port = try Self.freePort()
            }
        }
    }

    public var url: String { "redis://127.0.0.1:\(port)" }
    public var pid: Int32 { process?.processIdentifier ?? 0 }

    /// Starts redis-server on the same port and directory (again, after a
    /// kill: it reloads its append-only file) and waits until it answers.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = ["--port", String(port), "--bind", "127.0.0.1", "--dir", directory,
                             "--appendonly", "yes", "--appendfsync", "always", "--save", "",
                             "--logfile", directory + "/redis.log", "--protected-mode", "no"] + extra
        try process.runUnblocked()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let reply = try? command("PING"), reply == "+PONG" || reply.hasPrefix("-NOAUTH") { return }
            if process.hasExited {
                let log = (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? ""
                if log.contains("Address already in use") { throw RedisStartFailure.portTaken }
                throw ServerProcessError("redis-server on port \(port) exited (\(process.finalStatus)) before answering: "
                                         + log.split(separator: "\n").suffix(5).joined(separator: " | "))
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let log = (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? ""
        throw ServerProcessError("redis-server on port \(port) did not answer PING within 10 s (running: \(!process.hasExited)); "
                                 + "its log ends: " + log.split(separator: "\n").suffix(5).joined(separator: " | "))
    }

    /// Sends a signal and waits (bounded) for the process to end.
    public func stop(signal: Int32 = SIGKILL) {
        guard let process, !process.hasExited else { return }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while !process.hasExited, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// One inline command; the first line of the reply (`+PONG`, `:3`, `$5`…).
    public func command(_ line: String) throws -> String {
        let socket = try RawSocket(port: port)
        try socket.write(Array((line + "\r\n").utf8))
        var line: [UInt8] = []
        while line.suffix(2) != [13, 10] { line += try socket.read(exactly: 1) }
        return String(decoding: line.dropLast(2), as: UTF8.self)
    }

    /// Runs `redis-cli -p PORT ARGUMENTS…` (Debian's, beside redis-server)
    /// and returns what it printed; throws when it fails or takes over 10 s.
    @discardableResult
    public func cli(_ arguments: [String]) throws -> String {
        let program = try RunningProgram(URL(fileURLWithPath: "/usr/bin/redis-cli"),
                                         ["-h", "127.0.0.1", "-p", String(port)] + arguments)
        let deadline = Date().addingTimeInterval(10)
        while program.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard !program.isRunning else { throw ServerProcessError("redis-cli \(arguments.prefix(2)) did not finish within 10 s") }
        _ = program.drained()
        if let problem = program.errorLines.first ?? program.lines.first(where: { $0.hasPrefix("ERR") }) {
            throw ServerProcessError("redis-cli \(arguments.prefix(2)): \(problem)")
        }
        return program.lines.joined(separator: "\n")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A loopback port nothing listens on, for a process told its port
    /// (redis-server, nginx). It is taken below the kernel's ephemeral range
    /// (`ip_local_port_range`, 32768 and up by default), where no server
    /// started with port 0 and no outgoing connection is ever placed: a port
    /// from inside it could be handed to another test's `--port 0` server,
    /// or a client's source port, between this check and the bind. Ports
    /// are handed out once per test process, from a random start.
    public static func freePort() throws -> Int {
        let range = ephemeralLow > 12_000 ? (ephemeralLow - 10_000) ..< ephemeralLow : 0 ..< 0
        for _ in 0 ..< max(range.count, 1) {
            let port = range.isEmpty ? 0 : range.lowerBound + nextPort.add(1, ordering: .relaxed).oldValue % range.count
            if let bound = bindable(port) { return bound }
        }
        throw ServerProcessError("cannot find a free loopback port below \(ephemeralLow)")
    }

    /// The first port of the kernel's ephemeral range.
    private static let ephemeralLow: Int = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) } ?? 32768
    }()

    private static let nextPort = Atomic<Int>(Int.random(in: 0 ..< 10_000))

    /// `port` (0: any) when it can be bound on 127.0.0.1 now, else nil.
    private static func bindable(_ port: Int) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}

extension RedisProcess {
    /// Whether redis-server runs (a paused one does).
    public var isRunning: Bool { process.map { !$0.hasExited } ?? false }

    /// One command as RESP; the whole reply.
    public func call(_ words: String...) throws -> RESPReply { try RESPReply.call(port: port, words) }

    /// Commands in turn on one connection (a write, then `WAIT`); the replies.
    public func calls(_ commands: [String]...) throws -> [RESPReply] { try RESPReply.calls(port: port, commands) }

    /// What `ROLE` names it: `master`, `slave`.
    public func role() throws -> String {
        let reply = try call("ROLE")
        guard let role = reply.texts.first else { throw ServerProcessError("ROLE on port \(port) answered \(reply)") }
        return role
    }

    /// SIGSTOP: the process stays, answers nothing and sends nothing (a
    /// replica that lags) until `resume()`. Returns once every thread stopped.
    public func pause() throws { try ServerProcess.pause(pid: pid) }

    /// SIGCONT after `pause()`.
    public func resume() { kill(pid, SIGCONT) }
}
