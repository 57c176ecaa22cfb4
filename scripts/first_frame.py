#!/usr/bin/env python3
"""Time from starting `neonsync read FILE` in an 80x24 pseudo-terminal to the
first frame that shows FILE's first paragraph, for each client binary given,
runs alternating between them; prints one JSON object per binary with the
median and the 90th percentile in milliseconds.

  first_frame.py --server ws://127.0.0.1:PORT/ --file DOC --marker TEXT --runs N NAME=BINARY...
"""
import argparse, fcntl, json, os, pty, select, signal, struct, termios, time


def one(binary, server, file, marker, room):
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(binary, [binary, "read", file, "--room", room, "--name", "probe", "--server", server])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen, elapsed = b"", None
    deadline = start + 30
    while time.monotonic() < deadline:
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
        if marker.encode() in seen:
            elapsed = time.monotonic() - start
            break
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)
    os.close(fd)
    if elapsed is None:
        raise SystemExit(f"{binary} showed no '{marker}' within 30 s")
    return elapsed * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("--marker", required=True)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    named = [b.split("=", 1) for b in args.binaries]
    times = {name: [] for name, _ in named}
    for run in range(args.runs):
        for name, binary in named:
            times[name].append(one(binary, args.server, args.file, args.marker, f"first-frame-{run % 4}"))
    for name, values in times.items():
        values.sort()
        print(json.dumps({"binary": name, "runs": len(values), "median_ms": round(values[len(values) // 2], 1),
                          "p90_ms": round(values[int(len(values) * 0.9) - 1], 1), "min_ms": round(values[0], 1)}))


main()
