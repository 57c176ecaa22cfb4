import Foundation
import NeonTestSupport

/// The real `neonsync` binary running `tail`, with standard output and
/// standard error on pipes (no terminal), read line by line.
package final class TailProcess: Sendable {
    package static let binary = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync")

    private let program: RunningProgram

    package init(_ arguments: [String]) throws {
        program = try RunningProgram(Self.binary, arguments)
    }

    /// Every line written to standard output so far.
    package var lines: [String] { program.lines }
    /// Every line written to standard error so far.
    package var errorLines: [String] { program.errorLines }

    /// Waits until standard output holds at least `count` lines; returns them.
    package func waitForLines(_ count: Int, timeout: TimeInterval = 15) throws -> [String] {
        try wait(timeout, "\(count) lines on standard output") { lines.count >= count ? lines : nil }
    }

    /// Waits until the lines on standard output satisfy `predicate`; returns them.
    package func waitUntil(timeout: TimeInterval = 10, _ what: String, _ predicate: ([String]) -> Bool) throws -> [String] {
        try wait(timeout, what) { predicate(lines) ? lines : nil }
    }

    /// Waits until a standard error line contains `text`.
    package func waitForError(containing text: String, timeout: TimeInterval = 10) throws {
        _ = try wait(timeout, "a line on standard error containing \"\(text)\"") {
            errorLines.contains { $0.contains(text) } ? true : nil
        }
    }

    /// Sends `signal` (if given) and waits for the exit status; nil when the
    /// process is still running after `timeout`.
    package func exitStatus(after signal: Int32? = nil, timeout: TimeInterval = 15) -> Int32? {
        if let signal, program.isRunning { kill(program.pid, signal) }
        let deadline = Date().addingTimeInterval(timeout)
        while program.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if !program.isRunning { _ = program.drained() }
        return program.terminationStatus
    }

    private func wait<T>(_ timeout: TimeInterval, _ what: String, _ check: () -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let value = check() { return value }
            Thread.sleep(forTimeInterval: 0.01)
        } while Date() < deadline
        throw ServerProcessError("tail did not produce \(what) within \(timeout) s; output: \(lines), errors: \(errorLines)")
    }
}
