import Foundation
import NeonTestSupport
import Synchronization

/// The real `neonsync` binary running `tail`, with standard output and
/// standard error on pipes (no terminal), read line by line.
final class TailProcess: Sendable {
    static let binary = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync")

    private let process: Process
    private let output = Lines()
    private let errors = Lines()

    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        self.process = process
        Self.read(out.fileHandleForReading, into: output)
        Self.read(err.fileHandleForReading, into: errors)
    }

    /// Every line written to standard output so far.
    var lines: [String] { output.all }
    /// Every line written to standard error so far.
    var errorLines: [String] { errors.all }

    /// Waits until standard output holds at least `count` lines; returns them.
    func waitForLines(_ count: Int, timeout: TimeInterval = 5) throws -> [String] {
        try wait(timeout, "\(count) lines on standard output") { lines.count >= count ? lines : nil }
    }

    /// Waits until a standard error line contains `text`.
    func waitForError(containing text: String, timeout: TimeInterval = 10) throws {
        _ = try wait(timeout, "a line on standard error containing \"\(text)\"") {
            errorLines.contains { $0.contains(text) } ? true : nil
        }
    }

    /// Sends `signal` (if given) and waits for the exit status; nil when the
    /// process is still running after `timeout`.
    func exitStatus(after signal: Int32? = nil, timeout: TimeInterval = 5) -> Int32? {
        if let signal { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func wait<T>(_ timeout: TimeInterval, _ what: String, _ check: () -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let value = check() { return value }
            Thread.sleep(forTimeInterval: 0.01)
        } while Date() < deadline
        throw ServerProcessError("tail did not produce \(what) within \(timeout) s; output: \(lines), errors: \(errorLines)")
    }

    private static func read(_ handle: FileHandle, into storage: Lines) {
        Thread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    storage.append(line)
                }
            }
        }.start()
    }
}

/// Lines read so far, shared between a reader thread and the test.
private final class Lines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var all: [String] { storage.withLock { $0 } }
}
