#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal of COLUMNS x ROWS until its output
holds MARKER (or 30 s pass), ends it with SIGTERM and writes every byte it
wrote to the terminal to standard output: what a terminal receives, escape
sequences included (the OSC 8 hyperlink tests read it; tmux 3.3 would drop
them).

  pty_capture.py COLUMNS ROWS MARKER -- COMMAND [ARGUMENT...]

With PTY_KEYS set, those keys are typed once MARKER has shown, and the
capture goes on until PTY_THEN shows after them.
"""
import fcntl, os, pty, select, signal, struct, sys, termios, time


def main():
    columns, rows, marker = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].encode()
    command = sys.argv[sys.argv.index("--") + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    seen = b""
    deadline = time.monotonic() + 30
    keys, then = os.environ.get("PTY_KEYS", "").encode(), os.environ.get("PTY_THEN", "").encode()
    typed_at = None

    def done():
        if marker not in seen:
            return False
        if not keys:
            return True
        return typed_at is not None and then in seen[typed_at:]

    while time.monotonic() < deadline and not done():
        if keys and typed_at is None and marker in seen:
            typed_at = len(seen)
            os.write(fd, keys)
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.kill(pid, signal.SIGTERM)
    # Read what it writes while it restores the terminal, until it has
    # ended; one still running 10 s after SIGTERM is killed (and said so on
    # standard error), so the capture never waits forever.
    end = time.monotonic() + 10
    ended = False
    while time.monotonic() < end and not ended:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
                seen += chunk
            except OSError:
                pass
        ended = os.waitpid(pid, os.WNOHANG)[0] == pid
    if not ended:
        sys.stderr.write(f"pty_capture: {command[0]} still ran 10 s after SIGTERM; killed\n")
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    sys.stdout.buffer.write(seen)
    sys.exit(0 if done() else 1)


main()
