import Foundation

/// A private tmux server for one test: windows of exact sizes running real
/// programs, keys sent with send-keys, screens read with capture-pane.
public final class Tmux: Sendable {
    public let socket: String

    public init() throws {
        socket = "neonsync-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard Self.which("tmux") else {
            throw TmuxError("tmux is not installed; run ./deploy/setup.sh")
        }
    }

    deinit {
        _ = try? run(["kill-server"])
    }

    /// Starts `command` in a new detached session `name` of the given size.
    public func start(_ name: String, columns: Int, rows: Int, command: String, environment: [String: String] = [:]) throws {
        let env = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let line = "env TERM=xterm-256color \(env) \(command)"
        try run(["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), line])
        try run(["set-option", "-t", name, "remain-on-exit", "on"])
    }

    public func sendKeys(_ name: String, _ keys: String...) throws {
        try run(["send-keys", "-t", name] + keys)
    }

    public func sendLiteral(_ name: String, _ text: String) throws {
        try run(["send-keys", "-t", name, "-l", text])
    }

    public func resize(_ name: String, columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// The visible screen of `name` as lines of text.
    public func capture(_ name: String) throws -> [String] {
        try run(["capture-pane", "-p", "-t", name]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Waits (bounded) until the screen contains `text`; returns the screen.
    @discardableResult
    public func waitFor(_ name: String, _ text: String, timeout: TimeInterval = 10) throws -> [String] {
        try waitUntil(name, timeout: timeout, "\"\(text)\"") { $0.joined(separator: "\n").contains(text) }
    }

    @discardableResult
    public func waitUntil(_ name: String, timeout: TimeInterval = 10, _ what: String, _ predicate: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var screen: [String] = []
        repeat {
            screen = try capture(name)
            if predicate(screen) { return screen }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        throw TmuxError("timed out waiting for \(what) in \(name); the screen was:\n" + screen.joined(separator: "\n"))
    }

    /// Whether the pane's program has exited, and its status.
    public func exitStatus(_ name: String) throws -> Int? {
        let out = try run(["display-message", "-p", "-t", name, "#{pane_dead} #{pane_dead_status}"])
        let parts = out.split(separator: " ")
        guard parts.first == "1", parts.count > 1 else { return nil }
        return Int(parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard p.terminationStatus == 0 else {
            throw TmuxError("tmux \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    public static func which(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    public static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

public struct TmuxError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
