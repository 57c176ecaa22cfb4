import Glibc
import NeonClient
import NeonCore

/// The controlling terminal: raw mode, the alternate screen, mouse and paste
/// reporting, its size, and a restore that runs on every exit, crash signals
/// included.
enum Terminal {
    /// What `enter` turns on, and `restoreSequence` turns off again.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[2J"
    static let restoreSequence = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l"

    /// The terminal settings before raw mode, for the restore paths. A
    /// signal handler must reach them without locks, hence global state
    /// written once before any handler is installed.
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var active = false
    nonisolated(unsafe) static var restoreBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) static var restoreCount = 0

    /// Switches to raw mode and the alternate screen. Fails with a sentence
    /// when standard input or output is not a terminal, or TERM=dumb says
    /// it cannot draw a screen.
    static func enter(for command: CommandName) throws(NeonError) {
        if let problem = TerminalCheck.problem(for: command, inputIsTerminal: isatty(STDIN_FILENO) == 1,
                                               outputIsTerminal: isatty(STDOUT_FILENO) == 1,
                                               term: ProcessEnvironment()["TERM"]) {
            throw NeonError.usage(problem)
        }
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            throw NeonError.usage("cannot read the terminal settings: \(String(cString: strerror(errno)))")
        }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        let bytes = Array(restoreSequence.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        restoreBytes = buffer
        restoreCount = bytes.count
        installCrashHandlers()
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        active = true
        write(enterSequence)
    }

    /// Puts the terminal back as it was. Safe to call twice.
    static func restore() {
        guard active else { return }
        active = false
        write(restoreSequence)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    /// Columns and rows of the terminal (80×24 when it cannot tell).
    static func size() -> (columns: Int, rows: Int) {
        var ws = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    /// Writes all of `text` to standard output.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { writeAll($0) }
    }

    static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// On a crash signal: restore the terminal, then die of the same signal.
    private static func installCrashHandlers() {
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            signal(sig) { number in
                if Terminal.active, let bytes = Terminal.restoreBytes {
                    _ = Glibc.write(STDOUT_FILENO, bytes, Terminal.restoreCount)
                    tcsetattr(STDIN_FILENO, TCSAFLUSH, &Terminal.saved)
                }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }
}
