import Foundation
import NeonLock

/// The real `neonsyncd` binary, started on an ephemeral loopback port with
/// its JSON log on a pipe. Every test gets its own.
public final class ServerProcess: Sendable {
    public let port: Int
    private let process: Process
    private let lines = LineBuffer()

    /// The service threads of every server started here unless its
    /// arguments say otherwise: `$NEONSYNC_TEST_THREADS`, else 3.
    public static let threads = ProcessInfo.processInfo.environment["NEONSYNC_TEST_THREADS"].flatMap { Int($0) } ?? 3

    /// The neonsyncd built beside this test bundle.
    public static var binary: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("neonsyncd")
    }

    /// The store directory this server uses: a fresh temporary one unless
    /// the arguments name `--data` (to restart on the same data).
    public let dataDirectory: String
    private let ownsData: Bool

    /// `launcher`: a command that runs the rest of its arguments, with a
    /// neonsyncd other than the built one first (an installed package's,
    /// under `unshare`); nil starts the built one.
    public init(_ extra: [String] = [], launcher: [String]? = nil) throws {
        let process = Process()
        process.executableURL = launcher.map { URL(fileURLWithPath: $0[0]) } ?? Self.binary
        // A loaded CI machine can take seconds between a test's connect and
        // its hello; tests of the timeout pass their own (the last flag wins).
        // Several service threads, so that every test of a server's
        // behaviour also crosses threads (the last --threads wins).
        var arguments = ["--port", "0", "--log", "-", "--log-level", "debug", "--hello-timeout", "60",
                         "--threads", "\(Self.threads)"] + extra
        if let flag = extra.firstIndex(of: "--data"), flag + 1 < extra.count {
            dataDirectory = extra[flag + 1]
            ownsData = false
        } else {
            ownsData = true
            dataDirectory = NSTemporaryDirectory() + "neonsync-test-data-\(UUID().uuidString)"
            arguments += ["--data", dataDirectory]
        }
        process.arguments = (launcher.map { Array($0.dropFirst()) } ?? []) + arguments
        let pipe = try ChildPipe()
        process.standardOutput = pipe.writing
        process.standardError = FileHandle.standardError
        defer { pipe.closeWritingEnd() }
        try process.runUnblocked()
        self.process = process
        let lines = self.lines
        let handle = pipe.reading
        let reader = Thread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                // Every whole line of the chunk, then what is left moved to
                // the front once (a busy server writes hundreds of lines a
                // chunk: removing each from the front would copy the rest
                // each time).
                var start = buffer.startIndex
                while let newline = buffer[start...].firstIndex(of: 0x0A) {
                    lines.append(String(decoding: buffer[start..<newline], as: UTF8.self))
                    start = buffer.index(after: newline)
                }
                if start != buffer.startIndex { buffer.removeSubrange(buffer.startIndex..<start) }
            }
            lines.end()
        }
        reader.start()
        // Each service thread's TLS context takes tens of milliseconds of
        // CPU to make; a loaded machine stretches that.
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while found == nil, Date() < deadline {
            found = lines.all.lazy.compactMap { Self.json($0) }.first { $0["event"] as? String == "start" }?["port"] as? Int
            if found == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        guard let port = found else {
            process.terminate()
            throw ServerProcessError("neonsyncd did not log its start line within 30 s")
        }
        self.port = port
    }

    public var url: String { "ws://127.0.0.1:\(port)/" }

    /// Every log line so far.
    public var logLines: [String] { lines.all }

    /// Parsed log records with `event` == name.
    public func events(_ name: String) -> [[String: Any]] {
        logLines.compactMap(Self.json).filter { $0["event"] as? String == name }
    }

    /// Waits until a log record satisfying `match` appears.
    public func waitForLog(timeout: TimeInterval = 15, _ match: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let hit = logLines.compactMap(Self.json).first(where: match) { return hit }
            Thread.sleep(forTimeInterval: 0.01)
        } while Date() < deadline
        // A last look: a thread woken late, past the deadline, still sees
        // what came while it slept.
        return logLines.compactMap(Self.json).first(where: match)
    }

    /// Waits until a log record satisfying `match` appears, without holding
    /// a thread of the test's concurrency pool (for async tests: a blocked
    /// pool thread starves every other test's connections).
    public func log(timeout: TimeInterval = 15, _ match: ([String: Any]) -> Bool) async -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let hit = logLines.compactMap(Self.json).first(where: match) { return hit }
            try? await Task.sleep(for: .milliseconds(10))
        } while Date() < deadline
        // A last look: under a full test pool the sleep can end long past
        // the deadline, and what came meanwhile is what the test waited for.
        return logLines.compactMap(Self.json).first(where: match)
    }

    /// Waits, without holding a pool thread, until at least `count` log
    /// records have `event` == `name`; returns them (fewer on timeout).
    public func events(_ name: String, count: Int, timeout: TimeInterval = 15) async -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(timeout)
        var found = events(name)
        while found.count < count, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(10))
            found = events(name)
        }
        return found
    }

    /// Sends a signal and returns at once.
    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends SIGSTOP and returns once every thread of the server has
    /// stopped (see `pause(pid:)`).
    public func pause(timeout: Duration = .seconds(10)) throws {
        try Self.pause(pid: process.processIdentifier, timeout: timeout)
    }

    /// Sends SIGSTOP to `pid` and returns once every thread of it has
    /// stopped. `kill` returns when the signal is queued; the thread that
    /// takes it must run before it stops the others, and on a loaded
    /// machine another thread can read and act on a frame meanwhile.
    public static func pause(pid: Int32, timeout: Duration = .seconds(10)) throws {
        kill(pid, SIGSTOP)
        let deadline = ContinuousClock.now + timeout
        while !allStopped(pid) {
            guard ContinuousClock.now < deadline else {
                throw ServerProcessError("process \(pid) did not stop within \(timeout) of SIGSTOP")
            }
            usleep(1000)
        }
    }

    /// Whether every thread of `pid` is stopped (state T in /proc).
    static func allStopped(_ pid: Int32) -> Bool {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"), !tasks.isEmpty else {
            return false
        }
        return tasks.allSatisfy { task in
            // "TID (comm) S ...": the state follows the last ')'.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
            return state == "T" || state == "t"
        }
    }

    /// The server's process id (to sample its CPU time and memory).
    public var pid: Int32 { process.processIdentifier }

    /// Sends a signal and waits (bounded) for the exit status.
    public func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 15) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while !process.hasExited, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if !process.hasExited {
            process.terminate()
            return nil
        }
        return process.finalStatus
    }

    /// Sends a signal and waits (bounded) for the exit status without
    /// holding a thread of the concurrency pool; nil when still running
    /// after `timeout` (it is then terminated).
    public func stopped(signal: Int32 = SIGTERM, timeout: Duration = .seconds(15)) async -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + timeout
        while !process.hasExited, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if !process.hasExited {
            process.terminate()
            return nil
        }
        return process.finalStatus
    }

    deinit {
        if !process.hasExited {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExit()
        }
        if ownsData { try? FileManager.default.removeItem(atPath: dataDirectory) }
    }

    public static func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}

public struct ServerProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Log lines read so far, shared between the reader thread and the test.
final class LineBuffer: Sendable {
    private let storage = Locked<(lines: [String], ended: Bool)>(([], false))
    func append(_ line: String) { storage.withLock { $0.lines.append(line) } }
    var all: [String] { storage.withLock { $0.lines } }
    /// The pipe it reads reached its end: every line is in.
    func end() { storage.withLock { $0.ended = true } }
    var ended: Bool { storage.withLock { $0.ended } }
}
