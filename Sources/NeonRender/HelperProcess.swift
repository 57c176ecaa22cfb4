import Glibc

/// Runs a program with an argument list (posix_spawn, no shell), hands it
/// `input` on its standard input (an unlinked temporary file) and
/// collects its standard output, bounded:
/// past `timeLimit` seconds or `outputCap` bytes of output it is killed and
/// the run is a failure. Its standard error goes to /dev/null.
enum HelperProcess {
    /// What a run came to: the output of a program that exited 0, or nil.
    static func run(_ program: String, _ arguments: [String], input: [UInt8],
                    timeLimit: Double = 2, outputCap: Int = 8 << 20) -> [UInt8]? {
        // The input in a file removed at once rather than a pipe: the
        // program reads it at its pace, and an early exit raises no SIGPIPE.
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/neonsync-code-XXXXXX".utf8CString)
        let inputFile = mkstemp(&template)
        guard inputFile >= 0 else { return nil }
        unlink(template)
        defer { close(inputFile) }
        _ = fcntl(inputFile, F_SETFD, FD_CLOEXEC)
        var written = 0
        while written < input.count {
            let sent = input[written...].withUnsafeBytes { write(inputFile, $0.baseAddress, $0.count) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return nil }
            written += sent
        }
        guard lseek(inputFile, 0, SEEK_SET) == 0 else { return nil }
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&fromChild) == 0 else { return nil }
        for end in fromChild { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputFile, 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        close(fromChild[1])
        defer { close(fromChild[0]) }
        guard spawned == 0 else { return nil }
        let output = read(from: fromChild[0], timeLimit: timeLimit, outputCap: outputCap)
        if output == nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED and WEXITSTATUS: a normal exit with status 0.
        guard let output, status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return nil }
        return output
    }

    /// Everything `descriptor` gives until its end, or nil past the limits.
    private static func read(from descriptor: Int32, timeLimit: Double, outputCap: Int) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = now() + timeLimit
        while true {
            let left = deadline - now()
            guard left > 0 else { return nil }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let count = poll(&ready, 1, Int32(min(left * 1000 + 1, 60_000)))
            if count < 0, errno != EINTR { return nil }
            guard count > 0 else { continue }
            let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got == 0 { return output }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
            output += buffer[..<got]
            if output.count > outputCap { return nil }
        }
    }

    private static func now() -> Double {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        return Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9
    }

    /// The first executable called `name` in `$PATH`, or nil.
    static func find(_ name: String, path: String? = nil) -> String? {
        let path = path ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
