import Glibc

/// Lines written to standard output and standard error at once, whole
/// (write(2), nothing buffered to flush at exit), by both programs.
public enum StandardStreams {
    /// Writes `line` and a newline to standard output; false when the
    /// output is closed.
    @discardableResult
    public static func output(_ line: String) -> Bool {
        write(line + "\n", to: STDOUT_FILENO)
    }

    /// Writes `line` and a newline to standard error.
    public static func error(_ line: String) {
        write(line + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` to `fd`; false when it cannot be written.
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
