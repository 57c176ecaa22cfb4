import CCrashReport
import Glibc
import NeonClient
import NeonCore
import NeonRender

/// The controlling terminal: raw mode, the alternate screen, mouse and paste
/// reporting, its size, and a restore that runs on every exit, crash signals
/// included (`CrashReport`: the crash handler is told how to restore it).
enum Terminal {
    /// What `enter` turns on, and `restoreSequence` turns off again.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[2J"
    static let restoreSequence = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l"

    /// The terminal settings before raw mode, for the restore. Main thread
    /// only; the crash handler has its own copy.
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var active = false

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
        neon_crash_screen_began(bytes, bytes.count, &saved)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        active = true
        write(enterSequence)
    }

    /// Puts the terminal back as it was, and standard error with it (what
    /// it received meanwhile is written out now). Safe to call twice.
    static func restore() {
        guard active else { return }
        active = false
        write(restoreSequence)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        neon_crash_screen_ended()
    }

    /// A cell's size in pixels, from the window size the kernel keeps (0
    /// when the terminal does not set it).
    static func cellPixels() -> (width: Int, height: Int) {
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return (0, 0) }
        return (Int(ws.ws_xpixel) / Int(ws.ws_col), Int(ws.ws_ypixel) / Int(ws.ws_row))
    }

    /// Asks the terminal which graphics protocol it speaks
    /// (`GraphicsProbe.query`; through tmux's passthrough when inside it)
    /// and reads its answer for at most half a second; what else arrives
    /// meanwhile (keys typed during it) is dropped.
    static func probeGraphics(passthrough: Bool) -> GraphicsProtocol? {
        let query = passthrough
            ? "\u{1B}Ptmux;" + GraphicsProbe.query.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
            : GraphicsProbe.query
        write(query)
        var reply: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(500)
        var chunk = [UInt8](repeating: 0, count: 1024)
        while !GraphicsProbe.isComplete(reply), ContinuousClock.now < deadline {
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
            let left = max(Int32((deadline - ContinuousClock.now).inNanoseconds / 1_000_000), 1)
            guard poll(&fds, 1, left) > 0 else { continue }
            let n = read(STDIN_FILENO, &chunk, chunk.count)
            if n > 0 { reply += chunk[0..<n] } else if n == 0 { break }
        }
        return GraphicsProbe.detected(reply: reply, termProgram: ProcessEnvironment()["TERM_PROGRAM"])
    }

    /// Whether the tmux this runs in passes sequences through to the
    /// terminal around it (`set -g allow-passthrough on`, tmux 3.3 and later).
    static func tmuxPassesThrough() -> Bool {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        var pid: pid_t = 0
        let arguments = ["tmux", "show", "-gv", "allow-passthrough"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, &argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { return false }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(pipe[0], &chunk, chunk.count)
            if n > 0 { output += chunk[0..<n] } else if n < 0 && errno == EINTR { continue } else { break }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let value = String(decoding: output.filter { $0 > 0x20 }, as: UTF8.self)
        return value == "on" || value == "all"
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
}
