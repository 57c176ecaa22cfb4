import Foundation

/// Runs neonsyncd with `arguments` to its exit; returns status, stdout and
/// stderr (for short outputs: standard output is read to its end first).
public func runDaemon(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    try runProgram(ServerProcess.binary, arguments)
}

/// Runs `neonsync ARGS` (built beside the tests) to its end.
public func runClient(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    try runProgram(ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync"), arguments)
}

/// Runs a program to its end; returns its status, output and errors.
public func runProgram(_ program: URL, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = program
    p.arguments = arguments
    p.standardInput = FileHandle.nullDevice
    let out = try ChildPipe()
    let err = try ChildPipe()
    p.standardOutput = out.writing
    p.standardError = err.writing
    defer {
        out.closeWritingEnd()
        err.closeWritingEnd()
    }
    try p.runUnblocked()
    out.closeWritingEnd()
    err.closeWritingEnd()
    let output = out.reading.readDataToEndOfFile()
    let errors = err.reading.readDataToEndOfFile()
    p.waitForExit()
    return (p.finalStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
}

/// A private (mode 600) token secret file for one test, removed with it.
public final class TestSecret: Sendable {
    public let path = NSTemporaryDirectory() + "neonsync-secret-\(UUID().uuidString)"
    /// The secret's bytes as text (the file holds it and a newline).
    public let text = "test-secret-\(UUID().uuidString)"

    public init() throws {
        try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A token minted by `neonsyncd token` (its last line of output).
    public func mint(room: String, role: String, ttl: String = "10m") throws -> String {
        let result = try runDaemon(["token", "--secret-file", path, "--room", room, "--role", role, "--ttl", ttl])
        guard result.status == 0, let last = result.out.split(separator: "\n").last else {
            throw ServerProcessError("neonsyncd token failed: \(result.err)")
        }
        return String(last)
    }
}

/// A file holding `text` with `mode` in the temporary directory, for the
/// tests of private files (the caller unlinks it).
public func fileWithMode(_ text: String, _ mode: mode_t, prefix: String = "neonsync-file") throws -> String {
    let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, mode)
    return path
}
