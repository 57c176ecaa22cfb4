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
        // Dead panes stay, with their last screen, from the server's first
        // moment: a program that exits before a later set-option could
        // would take its window with it.
        guard FileManager.default.createFile(atPath: configuration, contents: Data("set-option -g remain-on-exit on\n".utf8)) else {
            throw TmuxError("cannot write \(configuration)")
        }
    }

    /// The server's configuration file (removed with the other files).
    private var configuration: String { NSTemporaryDirectory() + "tmux-\(socket)-conf" }

    /// Ends the server and everything in its panes: each pane's process
    /// group gets SIGHUP (as when a terminal closes), then the server
    /// SIGKILL (this tmux ignores `kill-server` and SIGTERM while it keeps
    /// dead panes for `remain-on-exit`).
    deinit {
        let panes = (try? run(["list-panes", "-a", "-F", "#{pane_pid}"])) ?? ""
        for pid in panes.split(whereSeparator: \.isNewline).compactMap({ pid_t($0) }) {
            kill(-pid, SIGHUP)
        }
        if let server = (try? run(["display-message", "-p", "#{pid}"])).flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(server, SIGKILL)
        }
        for file in (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
        where file.hasPrefix("tmux-\(socket)-") {
            unlink(NSTemporaryDirectory() + file)
        }
    }

    /// Starts `command` in a new detached session `name` of the given size.
    /// Its exit status is written to a file for `exitStatus(_:)`.
    public func start(_ name: String, columns: Int, rows: Int, command: String, environment: [String: String] = [:]) throws {
        let env = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let status = statusFile(name)
        unlink(status)
        let script = "env TERM=xterm-256color \(env) \(command); echo $? > \(status)"
        try run(["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), "sh", "-c", script])
    }

    private func statusFile(_ name: String) -> String {
        NSTemporaryDirectory() + "tmux-\(socket)-\(name).status"
    }

    public func sendKeys(_ name: String, _ keys: String...) throws {
        try run(["send-keys", "-t", name] + keys)
    }

    public func sendLiteral(_ name: String, _ text: String) throws {
        try run(["send-keys", "-t", name, "-l", "--", text])
    }

    public func resize(_ name: String, columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// The visible screen of `name` as lines of text.
    public func capture(_ name: String) throws -> [String] {
        var lines = try run(["capture-pane", "-p", "-t", name]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Waits (bounded) until the screen contains `text`; returns the screen.
    @discardableResult
    public func waitFor(_ name: String, _ text: String, timeout: TimeInterval = 20) throws -> [String] {
        try waitUntil(name, timeout: timeout, "\"\(text)\"") { $0.joined(separator: "\n").contains(text) }
    }

    @discardableResult
    public func waitUntil(_ name: String, timeout: TimeInterval = 20, _ what: String, _ predicate: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var screen: [String] = []
        repeat {
            screen = try capture(name)
            if predicate(screen) { return screen }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        throw TmuxError("timed out waiting for \(what) in \(name); the screen was:\n" + screen.joined(separator: "\n"))
    }

    /// Waits until the screen of `name` stops changing (the same in two
    /// captures 150 ms apart): an animation has ended.
    @discardableResult
    public func waitUntilStill(_ name: String, timeout: TimeInterval = 10) throws -> [String] {
        var previous = try capture(name)
        return try waitUntil(name, timeout: timeout, "a still screen") { screen in
            defer { previous = screen }
            Thread.sleep(forTimeInterval: 0.1)
            return screen == previous
        }
    }

    /// The exit status of the session's program, or nil while it runs.
    public func exitStatus(_ name: String) throws -> Int? {
        guard let text = try? String(contentsOfFile: statusFile(name), encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs one tmux command and waits for it with waitpid. Not Foundation's
    /// Process: it notices a child's exit through an inherited descriptor,
    /// which the tmux server that `new-session` forks keeps open forever.
    /// Output goes through a file for the same reason.
    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let path = NSTemporaryDirectory() + "tmux-\(socket)-\(UUID().uuidString).out"
        defer { unlink(path) }
        let argv = ["tmux", "-L", socket, "-f", configuration] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        Self.closeInheritedDescriptors(&actions)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, &cArgs, environ)
        guard spawned == 0 else { throw TmuxError("cannot start tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let exited = (status & 0x7F) == 0
        guard exited && ((status >> 8) & 0xFF) == 0 else {
            throw TmuxError("tmux \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// The tmux server that `new-session` forks lives on after the test: it
    /// must not inherit the test process's other descriptors, or a pipe a
    /// concurrent test reads to end-of-file would never reach it. glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` closes them all in the
    /// child; it is looked up at run time because Swift's Glibc module does
    /// not import it.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
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
