import Foundation
import Synchronization

/// A program running beside the test (a script, a client), its standard
/// output and error read line by line on threads of their own. Killed when
/// the value goes, if still running.
public final class RunningProgram: Sendable {
    private let process: Process
    private let output = LineBuffer()
    private let errors = LineBuffer()

    /// Starts `program` with `arguments`; `environment` entries are added to
    /// this process's environment.
    public init(_ program: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let out = try ChildPipe()
        let err = try ChildPipe()
        process.standardOutput = out.writing
        process.standardError = err.writing
        defer {
            out.closeWritingEnd()
            err.closeWritingEnd()
        }
        try process.runUnblocked()
        self.process = process
        Self.read(out.reading, into: output)
        Self.read(err.reading, into: errors)
    }

    public var pid: Int32 { process.processIdentifier }
    /// Every line of standard output so far.
    public var lines: [String] { output.all }
    /// Every line of standard error so far.
    public var errorLines: [String] { errors.all }
    public var isRunning: Bool { !process.hasExited }

    /// After the program exited: waits (bounded) until every line it wrote
    /// has been read from its pipes, which the reader threads may still be
    /// doing. A process the program left behind may hold a pipe open, so
    /// the wait is bounded rather than until the end of the pipes.
    public func drained(timeout: TimeInterval = 2) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !(output.ended && errors.ended), Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return output.ended && errors.ended
    }
    /// The exit status; nil while the program runs.
    public var terminationStatus: Int32? { process.exitStatus }

    /// Waits (without holding a thread of the concurrency pool) until a
    /// line of standard output satisfies `match`; returns it.
    public func line(timeout: Duration = .seconds(10), _ match: (String) -> Bool) async -> String? {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if let hit = lines.first(where: match) { return hit }
            try? await Task.sleep(for: .milliseconds(20))
        } while ContinuousClock.now < deadline
        return nil
    }

    /// Sends `signal` and waits (bounded, without holding a pool thread)
    /// for the exit status; nil when still running after `timeout`.
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(20)) async -> Int32? {
        if !process.hasExited { kill(process.processIdentifier, signal) }
        let deadline = ContinuousClock.now + timeout
        while !process.hasExited, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if !process.hasExited { return nil }
        let drainDeadline = ContinuousClock.now + .seconds(2)
        while !(output.ended && errors.ended), ContinuousClock.now < drainDeadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.finalStatus
    }

    deinit {
        if !process.hasExited {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExit()
        }
    }

    private static func read(_ handle: FileHandle, into lines: LineBuffer) {
        Thread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            if !buffer.isEmpty { lines.append(String(decoding: buffer, as: UTF8.self)) }
            lines.end()
        }.start()
    }
}
