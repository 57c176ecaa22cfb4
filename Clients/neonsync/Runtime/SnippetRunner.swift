import Dispatch
import Glibc
import NeonClient
import NeonCore

/// Runs a snippet on this machine (the presenter's, started with -x): its
/// interpreter in a process group of its own, standard input from
/// /dev/null, standard output and error into one pipe read on a thread of
/// its own. What it printed is posted to the runtime's mailbox at most
/// every `SnippetLimits.interval` and once it ends; a snippet still running
/// after `SnippetLimits.seconds`, or printing more than
/// `SnippetLimits.readBytes`, is killed with its whole group.
enum SnippetRunner {
    static func start(_ snippet: Snippet, posting mailbox: RuntimeMailbox) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            mailbox.post(.snippet(SnippetProgress(block: snippet.block, text: "cannot make a pipe: \(String(cString: strerror(errno)))",
                                                  state: .failed)))
            return
        }
        let (reader, writer) = (fds[0], fds[1])
        // Neither end leaks into other children (the interpreter gets the
        // write end as its output only).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writer, 1)
        posix_spawn_file_actions_adddup2(&actions, writer, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let arguments = snippet.command.map { strdup($0) } + [nil]
        let status = posix_spawnp(&pid, snippet.command[0], &actions, &attributes, arguments, environ)
        arguments.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(writer)
        guard status == 0 else {
            close(reader)
            mailbox.post(.snippet(SnippetProgress(
                block: snippet.block, text: "\(snippet.command[0]) could not start: \(String(cString: strerror(status)))", state: .failed)))
            return
        }
        let child = pid
        let block = snippet.block
        DispatchQueue.global().async {
            collect(from: reader, of: child, block: block, posting: mailbox)
        }
    }

    /// Reads the snippet's output until it ends or a limit stops it, then
    /// reaps it.
    private static func collect(from reader: Int32, of child: pid_t, block: Int, posting mailbox: RuntimeMailbox) {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(SnippetLimits.seconds)
        var lastPost = clock.now
        var kept: [UInt8] = []
        var total = 0
        var changed = false
        var stopped: SnippetOutput.State?
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        func text() -> String { SnippetOutput.sanitized(String(decoding: kept, as: UTF8.self)) }
        while true {
            let left = deadline - clock.now
            if left <= .zero { stopped = .timeout; break }
            var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            let wait = min(left, SnippetLimits.interval)
            let ready = poll(&poller, 1, Int32(clamping: max(wait.inNanoseconds / 1_000_000, 1)))
            if ready < 0 && errno != EINTR { break }
            if ready > 0 {
                let count = read(reader, &buffer, buffer.count)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 { break }
                kept.append(contentsOf: buffer[0..<count])
                // Enough to fill an output's lines, and no more.
                if kept.count > 64 * 1024 { kept.removeFirst(kept.count - 64 * 1024) }
                total += count
                changed = true
                if total > SnippetLimits.readBytes { stopped = .truncated; break }
            }
            if changed, clock.now - lastPost >= SnippetLimits.interval {
                mailbox.post(.snippet(SnippetProgress(block: block, text: text(), state: .running)))
                lastPost = clock.now
                changed = false
            }
        }
        if stopped != nil { kill(-child, SIGKILL) }
        close(reader)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // Whatever it left behind in its group goes with it.
        kill(-child, SIGKILL)
        let exited = status & 0x7F == 0
        let code = exited ? Int((status >> 8) & 0xFF) : 128 + Int(status & 0x7F)
        mailbox.post(.snippet(SnippetProgress(block: block, text: text(), state: stopped ?? .exited,
                                              exit: stopped == nil ? code : nil)))
    }
}
