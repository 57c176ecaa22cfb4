import Glibc
import NeonCore
import NeonLock

/// Writes JSON log lines to a file (appending) or standard output, dropping
/// records below the chosen level. Safe to use from any thread.
public final class LogWriter: Sendable {
    public enum Destination: Equatable, Sendable {
        case standardOutput
        case file(String)
    }

    public let destination: Destination
    public let minimumLevel: LogRecord.Level
    /// Whether document and draft text go into the log (`--log-content`).
    public let includeContent: Bool
    /// Cluster mode: the node's name, written into every line as `node`.
    public let node: String?
    private let fd: Locked<Int32>

    /// Opens the destination; a file that cannot be opened is an error that
    /// names it.
    public init(destination: Destination, minimumLevel: LogRecord.Level, includeContent: Bool = false,
                node: String? = nil) throws(NeonError) {
        self.includeContent = includeContent
        self.node = node
        self.destination = destination
        self.minimumLevel = minimumLevel
        fd = Locked(try Self.open(destination))
    }

    deinit {
        fd.withLock { if $0 > 2 { close($0) } }
    }

    public func log(_ record: LogRecord) {
        guard record.level >= minimumLevel else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let line = LogLine.render(record, at: now, includeContent: includeContent, node: node)
        fd.withLock { descriptor in
            var bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Reopens the log file (after logrotate moved it); standard output is
    /// left alone.
    public func reopen() throws(NeonError) {
        guard case .file = destination else { return }
        let fresh = try Self.open(destination)
        fd.withLock { old in
            if old > 2 { close(old) }
            old = fresh
        }
    }

    private static func open(_ destination: Destination) throws(NeonError) -> Int32 {
        switch destination {
        case .standardOutput:
            return STDOUT_FILENO
        case let .file(path):
            // Mode 600: log lines name rooms and readers (and, with
            // --log-content, what they wrote).
            let d = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard d >= 0 else {
                throw NeonError("cannot open log file \(path): \(String(cString: strerror(errno))); choose a writable path with --log, or --log - for standard output")
            }
            fchmod(d, 0o600)
            return d
        }
    }
}

