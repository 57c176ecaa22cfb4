#!/usr/bin/env python3
"""Slow-reader benchmark: one reader stops reading while the others scroll
and type at full speed.

Usage: slow_reader_bench.py NEONSYNCD [--base S] [--stall S] [--scrollers N]
                            [--typists N] [--scroll-rate N] [--max-outbound SIZE]

Starts NEONSYNCD on a free loopback port (no rate, per-address or idle
limits, so that only the slow-reader handling acts) and, in one room:
- a probe reader that scrolls every 20 ms and times the round trip of its own
  `progress` broadcast (the latency every reader sees);
- scrollers that scroll as fast as they can, or --scroll-rate times a second
  each (their reads drained by a thread);
- typists that edit the end of a draft as fast as the protocol allows (one
  edit in flight each, the next on its ack), typing a piece and taking it
  back so the draft stays small: the first in the bench room, the others in
  rooms of their own;
After --base seconds a stalled reader joins over a socket with a 4 KiB
receive buffer and reads nothing for --stall seconds. Every 5 s it prints the
server's RSS, its outbound backlog, coalesced updates, 4008 closes and the
probe's latency; at the end, latency with and without the stalled reader.
Standard library only.
"""
import argparse
import base64
import json
import multiprocessing as mp
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time


class WS:
    """A minimal WebSocket client (RFC 6455): masked text frames out,
    reassembled text frames in."""

    def __init__(self, port, rcvbuf=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           "Sec-WebSocket-Protocol: neonsync.v1\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("handshake refused")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode(errors="replace"))
        self.lock = threading.Lock()

    def send(self, obj, opcode=0x1):
        payload = obj if opcode != 0x1 else json.dumps(obj, separators=(",", ":")).encode()
        n = len(payload)
        header = bytes([0x80 | opcode])
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = _mask(payload, mask)
        with self.lock:
            self.sock.sendall(header + mask + masked)

    def _need(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk

    def recv(self):
        """The next text message as a dict; raises ConnectionError on close."""
        message = b""
        while True:
            self._need(2)
            b0, b1 = self.buf[0], self.buf[1]
            n, at = b1 & 0x7F, 2
            if n == 126:
                self._need(4)
                n, at = struct.unpack("!H", self.buf[2:4])[0], 4
            elif n == 127:
                self._need(10)
                n, at = struct.unpack("!Q", self.buf[2:10])[0], 10
            self._need(at + n)
            payload, self.buf = self.buf[at:at + n], self.buf[at + n:]
            opcode = b0 & 0x0F
            if opcode == 0x9:
                self.send(payload, opcode=0xA)
                continue
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise ConnectionError(f"close {code} {payload[2:].decode(errors='replace')}")
            if opcode in (0x1, 0x0):
                message += payload
                if b0 & 0x80:
                    return json.loads(message)


def _mask(payload, mask):
    n = len(payload)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


def join(port, name, role="reader", rcvbuf=None, room="bench"):
    ws = WS(port, rcvbuf)
    ws.send({"type": "hello", "room": room, "name": name, "role": role})
    if rcvbuf:
        return ws, None
    while True:
        m = ws.recv()
        if m["type"] == "welcome":
            return ws, m


def drain(ws):
    def run():
        try:
            while True:
                ws.recv()
        except (ConnectionError, OSError):
            pass
    threading.Thread(target=run, daemon=True).start()


def scroller(port, index, stop, counter, rate):
    ws, _ = join(port, f"scroller{index}")
    drain(ws)
    top = 0
    next_at = time.monotonic()
    while not stop.is_set():
        if rate:
            next_at += 1 / rate
            time.sleep(max(0, next_at - time.monotonic()))
        top = (top + 1) % 9000
        ws.send({"type": "scroll", "top": top, "viewport": 40, "content": 10000, "anchor": {"block": 0, "offset": 0}})
        with counter.get_lock():
            counter.value += 1


def typist(port, index, stop, counter, resyncs):
    # Typist 0 edits the bench room's draft; the others type in rooms of
    # their own (load on the server, not on the stalled reader), so no two
    # typists take back the same characters.
    room = "bench" if index == 0 else f"typing-{index}"
    ws, welcome = join(port, f"typist{index}", room=room)
    rev, length = welcome["draft"]["rev"], len(welcome["draft"]["text"])
    piece = f"t{index} "
    n = 0
    while not stop.is_set():
        n += 1
        # Type a piece at the end, then take three characters back, so the
        # draft (counted and stored whole at every revision) stays small.
        if n % 2 or length < len(piece):
            ops, change = ([length, piece] if length else [piece]), len(piece)
        else:
            ops, change = ([length - len(piece), -len(piece)] if length > len(piece) else [-len(piece)]), -len(piece)
        ws.send({"type": "edit", "rev": rev, "ops": ops, "key": f"{index}.{n}"})
        while True:
            m = ws.recv()
            if m["type"] == "edit":
                rev = m["rev"]
                length += sum(len(op) if isinstance(op, str) else (op if op < 0 else 0) for op in m["ops"])
            elif m["type"] == "ack":
                rev = m["rev"]
                length += change
                break
            elif m["type"] == "error":
                # This typist's idea of the draft is off: resync like a client.
                ws.sock.close()
                ws, welcome = join(port, f"typist{index}", room=room)
                rev, length = welcome["draft"]["rev"], len(welcome["draft"]["text"])
                with resyncs.get_lock():
                    resyncs.value += 1
                break
        with counter.get_lock():
            counter.value += 1


def probe(port, stop, results):
    ws, welcome = join(port, "probe")
    me = welcome["you"]
    top = 0
    while not stop.is_set():
        top += 1
        sent = time.monotonic()
        ws.send({"type": "scroll", "top": top, "viewport": 40, "content": 1_000_000, "anchor": {"block": 0, "offset": 0}})
        want = round(top / (1_000_000 - 40), 6)
        while True:
            m = ws.recv()
            if m["type"] == "progress" and m["id"] == me and round(m["progress"], 6) >= want:
                break
        results.put((time.time(), time.monotonic() - sent))
        time.sleep(0.02)


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def metrics(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    values = {}
    for line in data.decode().splitlines():
        m = re.match(r"^(neonsync_[a-z_]+) ([0-9.e+]+)$", line)
        if m:
            values[m.group(1)] = float(m.group(2))
    return values


def percentile(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("server")
    parser.add_argument("--base", type=float, default=20)
    parser.add_argument("--stall", type=float, default=60)
    parser.add_argument("--scrollers", type=int, default=4)
    parser.add_argument("--typists", type=int, default=3)
    parser.add_argument("--max-outbound", default="8M")
    parser.add_argument("--scroll-rate", type=float, default=0, help="scrolls/s per scroller; 0 = as fast as it can")
    args = parser.parse_args()

    data = tempfile.mkdtemp(prefix="neonsync-slow-bench-")
    log = os.path.join(data, "server.log")
    server = subprocess.Popen([args.server, "--port", "0", "--data", data, "--log", log,
                               "--max-outbound", args.max_outbound, "--max-draft", "10000000",
                               "--max-members", "100", "--max-rate", "0", "--max-connections-per-ip", "0",
                               "--idle-timeout", "0"])
    port = None
    for _ in range(100):
        time.sleep(0.05)
        if os.path.exists(log):
            m = re.search(r'"event":"start".*?"port":(\d+)', open(log).read())
            if m:
                port = int(m.group(1))
                break
    if port is None:
        sys.exit("neonsyncd did not start")

    owner, _ = join(port, "owner", role="presenter")
    owner.send({"type": "document", "title": "Bench", "format": "text",
                "text": "A paragraph to scroll through.\n\n" * 2000})
    while owner.recv()["type"] != "document":
        pass
    drain(owner)

    stop = mp.Event()
    scrolls, edits = mp.Value("l", 0), mp.Value("l", 0)
    results = mp.Queue()
    workers = [mp.Process(target=scroller, args=(port, i, stop, scrolls, args.scroll_rate)) for i in range(args.scrollers)]
    resyncs = mp.Value("l", 0)
    workers += [mp.Process(target=typist, args=(port, i, stop, edits, resyncs)) for i in range(args.typists)]
    workers += [mp.Process(target=probe, args=(port, stop, results))]
    for w in workers:
        w.start()

    print(f"neonsyncd pid {server.pid} on port {port}, --max-outbound {args.max_outbound}; "
          f"{args.scrollers} scrollers ({args.scroll_rate or 'full speed'}/s each), {args.typists} typists, 1 probe; "
          f"{args.base:.0f} s without, then {args.stall:.0f} s with a stalled reader", flush=True)
    print(f"{'t s':>5} {'phase':<8} {'RSS MB':>7} {'backlog KB':>10} {'coalesced':>10} {'4008':>5} "
          f"{'scroll/s':>8} {'edit/s':>7} {'probe p50 ms':>12} {'p99 ms':>7}", flush=True)
    started = time.time()
    latencies = {"without": [], "stalled": []}
    window = []
    stalled = None
    peak = {"without": 0.0, "stalled": 0.0}
    last = (started, 0, 0)
    while True:
        time.sleep(5)
        now = time.time()
        t = now - started
        phase = "stalled" if stalled else "without"
        while not results.empty():
            at, latency = results.get()
            window.append(latency)
            latencies["stalled" if stalled and at >= stalled_at else "without"].append(latency)
        values = metrics(port)
        rss = rss_mb(server.pid)
        peak[phase] = max(peak[phase], rss)
        rate_s = (scrolls.value - last[1]) / (now - last[0])
        rate_e = (edits.value - last[2]) / (now - last[0])
        last = (now, scrolls.value, edits.value)
        print(f"{t:5.0f} {phase:<8} {rss:7.1f} {values.get('neonsync_outbound_queue_bytes', 0) / 1024:10.0f} "
              f"{values.get('neonsync_coalesced_frames_total', 0):10.0f} {values.get('neonsync_slow_closes_total', 0):5.0f} "
              f"{rate_s:8.0f} {rate_e:7.0f} {percentile(window, 0.5) * 1000:12.2f} {percentile(window, 0.99) * 1000:7.2f}",
              flush=True)
        window = []
        if stalled is None and t >= args.base:
            stalled, _ = join(port, "stalled", rcvbuf=4096)
            stalled_at = time.time()
        elif stalled is not None and now - stalled_at >= args.stall:
            break

    stop.set()
    for w in workers:
        w.join(timeout=5)
        if w.is_alive():
            w.terminate()
    try:
        stalled.sock.settimeout(5)
        outcome = "still open after the stall"
        while True:
            stalled.recv()
    except ConnectionError as e:
        outcome = f"ended: {e}"
    except OSError as e:
        outcome = f"ended: {e}"
    values = metrics(port)
    server.terminate()
    server.wait(timeout=10)
    too_slow = [json.loads(l) for l in open(log) if '"event":"too_slow"' in l]
    shutil.rmtree(data, ignore_errors=True)
    print()
    for phase in ("without", "stalled"):
        v = latencies[phase]
        print(f"probe round trip {'with' if phase == 'stalled' else phase} the stalled reader: {len(v)} samples, p50 {percentile(v, 0.5) * 1000:.2f} ms, "
              f"p99 {percentile(v, 0.99) * 1000:.2f} ms, max {max(v) * 1000 if v else float('nan'):.2f} ms; "
              f"peak server RSS {peak[phase]:.1f} MB")
    print(f"stalled reader: {outcome}; too_slow log lines: {len(too_slow)}; "
          f"coalesced updates: {values.get('neonsync_coalesced_frames_total', 0):.0f}; "
          f"scrolls sent: {scrolls.value}, edits acked: {edits.value} (typists resynced {resyncs.value} times)")


if __name__ == "__main__":
    main()
