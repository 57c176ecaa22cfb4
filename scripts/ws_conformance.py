#!/usr/bin/env python3
"""RFC 6455 conformance probe in the style of the Autobahn|Testsuite fuzzing
client: one fresh TCP connection per case, every byte written by hand, and
for each case the answer the server gave (HTTP status, pongs, close code) and
how long the TCP connection stayed open after the probe's last byte.

    scripts/ws_conformance.py ws://127.0.0.1:7700/ [--subprotocol neonsync.v1]
    scripts/ws_conformance.py --compare NEONSYNCD [NEONSYNCD_BEFORE]

The first form probes one server and prints its column. --compare starts
neonsyncd (and optionally an older neonsyncd binary, for a before/after
column), the Python websockets broadcast server of bench/broadcast_server.py
and libwebsockets' own C test server (libwebsockets-test-server, when
installed) on loopback ports, probes each and prints one Markdown table, the
one docs/RELIABILITY.md records (about 3.5 minutes: the servers that wait
for an answer to their close frame run into --wait). Exit status: 0 when
neonsyncd (the first binary) passes every case, 1 otherwise.

A frame case passes when the server answers as RFC 6455 requires (see the
comment above cases()) AND ends the TCP connection within 1 s of the
probe's last byte; a handshake case passes on its HTTP answer alone. The
probe never acknowledges a close frame the server sends first: a server
failing the connection (RFC 6455 section 7.1.7) must drop TCP without
waiting for the peer. The same cases, asserting neonsyncd's exact
answers, run in `swift test` (Tests/ProcessServerTests/ConformanceTests.swift);
keep the two lists in step.
"""
import argparse
import os
import select
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import json

MASK = b"\x12\x34\x56\x78"
KEY = "dGhlIHNhbXBsZSBub25jZQ=="
# How long the probe waits for the server's answer and the end of the TCP
# connection after its last byte; what passes is at most PASS_SECONDS.
WAIT_SECONDS = 6.0
PASS_SECONDS = 1.0


def frame(opcode, payload=b"", fin=True, rsv=0, masked=True, length=None):
    """One client frame; `length` overrides the announced payload length."""
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    return head + MASK + bytes(b ^ MASK[i % 4] for i, b in enumerate(payload))


def close(code=None, reason=b""):
    return frame(0x8, b"" if code is None else struct.pack("!H", code) + reason)


def text(data, fin=True):
    return frame(0x1, data, fin=fin)


def cont(data, fin=True):
    return frame(0x0, data, fin=fin)


# Each case: (name, bytes after the handshake, expected). A list of byte
# strings is sent in parts: after each part but the last the probe waits
# (at most 1 s) for a pong, as Autobahn does before it closes.
# expected: "echo" = a normal exchange; the probe ends it with close 1000
# and the server must answer close 1000. A set of close codes = the server
# must fail the connection with one of them (None in the set: dropping TCP
# without a close frame, which RFC 6455 7.1.7 allows, SHOULD send one).
# ("ping", n) = a pong with the same n bytes, then as "echo".
# ("close", code, ...) = the probe sent a valid close; it must come back
# with that code (None: a close frame without a code) or one of the others.
PROTOCOL_ERROR = {1002, None}
BAD_DATA = {1007, 1002, None}


def cases():
    big = [("frame length %d" % n, frame(0x2, b"x" * n) + close(1000), "echo")
           for n in (0, 125, 126, 65535, 65536)]
    pings = [("ping 0 bytes", [frame(0x9), close(1000)], ("ping", 0)),
             ("ping 125 bytes", [frame(0x9, b"p" * 125), close(1000)], ("ping", 125)),
             ("ping 126 bytes", frame(0x9, b"p" * 126), PROTOCOL_ERROR),
             # RFC 6455 5.5.2: a ping received before the close is owed a pong.
             ("ping and close in one write", frame(0x9, b"abc") + close(1000), ("ping", 3))]
    rest = [
        ("unsolicited pong", frame(0xA, b"unsolicited") + close(1000), "echo"),
        ("fragments with a ping between",
         [text(b"frag", fin=False) + frame(0x9, b"in between"), cont(b"men", fin=False) + cont(b"ted") + close(1000)],
         ("ping", 10)),
        ("stray continuation frame", cont(b"stray"), PROTOCOL_ERROR),
        ("new message inside a fragmented one", text(b"one", fin=False) + text(b"two"), PROTOCOL_ERROR),
        ("fragmented ping", frame(0x9, b"x", fin=False), PROTOCOL_ERROR),
    ]
    reserved = [("reserved opcode 0x%X" % op, frame(op, b"r"), PROTOCOL_ERROR)
                for op in (0x3, 0x7, 0xB, 0xF)]
    rsv = [("RSV%d set, no extension" % bit, frame(0x1, b"rsv", rsv=1 << (3 - bit)), PROTOCOL_ERROR)
           for bit in (1, 2, 3)]
    utf8 = [
        ("invalid UTF-8 in a text frame", text(b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80edited"),
         BAD_DATA),
        ("invalid UTF-8 in the second fragment", text(b"hello ", fin=False) + cont(b"\xc3\x28") , BAD_DATA),
        ("UTF-8 character split across fragments", text(b"caf\xc3", fin=False) + cont(b"\xa9") + close(1000),
         "echo"),
        ("message ending inside a UTF-8 character", text(b"caf", fin=False) + cont(b"\xc3"), BAD_DATA),
    ]
    valid_codes = (1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999)
    invalid_codes = (0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535)
    codes = [("close code %d" % c, close(c), ("close", c)) for c in valid_codes]
    codes += [("close code %d" % c, close(c), PROTOCOL_ERROR) for c in invalid_codes]
    # Registered with IANA after RFC 6455, which reserves 1000-2999: echoing
    # them and answering 1002 both pass.
    codes += [("close code %d" % c, close(c), ("close", c, 1002)) for c in (1012, 1013, 1014)]
    closes = [
        ("close without payload", close(), ("close", None)),
        ("close with a UTF-8 reason", close(1000, "bye \u2714".encode()), ("close", 1000)),
        ("close frame with a 1-byte payload", frame(0x8, b"\x03"), PROTOCOL_ERROR),
        ("close reason that is not UTF-8", close(1000, b"bye \xff\xfe"), BAD_DATA),
        ("close frame of 126 bytes", frame(0x8, struct.pack("!H", 1000) + b"r" * 124), PROTOCOL_ERROR),
        ("frames after close", close(1000) + text(b"after close") + frame(0x9, b"after"), ("close", 1000)),
    ]
    huge = [
        ("unmasked client frame", frame(0x1, b"unmasked", masked=False) + close(1000), PROTOCOL_ERROR),
        ("64-bit length with the top bit set",
         bytes([0x82, 0xFF]) + struct.pack("!Q", (1 << 63) | 5) + MASK + b"12345", {1002, 1009, None}),
        ("frame announcing 2^40 bytes", bytes([0x82, 0xFF]) + struct.pack("!Q", 1 << 40) + MASK + b"\x00" * 65536,
         {1009, None}),
    ]
    return big + pings + rest + reserved + rsv + utf8 + codes + closes + huge


def handshake_cases(host):
    def request(drop=(), version="13", key=KEY):
        lines = ["GET / HTTP/1.1", "Host: %s" % host, "Upgrade: websocket", "Connection: Upgrade",
                 "Sec-WebSocket-Key: %s" % key, "Sec-WebSocket-Version: %s" % version]
        return ("\r\n".join(l for l in lines if l.split(":")[0] not in drop) + "\r\n\r\n").encode()
    return [
        ("upgrade without Sec-WebSocket-Key", request(drop=("Sec-WebSocket-Key",)), (400,)),
        ("Sec-WebSocket-Key not 16 bytes", request(key="c2hvcnQ="), (400,)),
        ("upgrade without Host", request(drop=("Host",)), (400,)),
        ("Sec-WebSocket-Version: 12", request(version="12"), (426,)),
        ("upgrade without Sec-WebSocket-Version", request(drop=("Sec-WebSocket-Version",)), (400, 426)),
    ]


class Connection:
    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port), timeout=5)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.eof = False

    def send(self, data):
        try:
            self.sock.sendall(data)
        except OSError:
            pass

    def fill(self, deadline):
        """Reads more; False at end of stream, reset, or the deadline."""
        remaining = deadline - time.monotonic()
        if remaining <= 0 or self.eof:
            return False
        ready, _, _ = select.select([self.sock], [], [], remaining)
        if not ready:
            return False
        try:
            data = self.sock.recv(65536)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            return False
        self.buffer += data
        return True

    def head(self, deadline):
        while b"\r\n\r\n" not in self.buffer:
            if not self.fill(deadline):
                return None
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return head.decode("latin-1")

    def frame(self, deadline):
        while True:
            b = self.buffer
            if len(b) >= 2:
                n, at = b[1] & 0x7F, 2
                if n == 126 and len(b) >= 4:
                    n, at = struct.unpack("!H", b[2:4])[0], 4
                elif n == 127 and len(b) >= 10:
                    n, at = struct.unpack("!Q", b[2:10])[0], 10
                if n < 126 or at > 2:
                    if len(b) >= at + n:
                        self.buffer = b[at + n:]
                        return b[0] & 0x0F, b[at:at + n]
            if not self.fill(deadline):
                return None

    def close_seconds(self, started, deadline):
        """Seconds from `started` until the server ended the stream, or None."""
        self.buffer = b""
        while not self.eof:
            if not self.fill(deadline):
                break
            self.buffer = b""
        return time.monotonic() - started if self.eof else None


def upgrade(conn, host, subprotocol):
    lines = ["GET / HTTP/1.1", "Host: %s" % host, "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: " + KEY, "Sec-WebSocket-Version: 13"]
    if subprotocol:
        lines.append("Sec-WebSocket-Protocol: " + subprotocol)
    conn.send(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = conn.head(time.monotonic() + 5)
    return head is not None and head.startswith("HTTP/1.1 101")


def run_case(host, port, subprotocol, payload, wait):
    """What the server answered: (pongs, close code or 'none'/'short', data frames, seconds to EOF)."""
    conn = Connection(host, port)
    if not upgrade(conn, host, subprotocol):
        return {"error": "upgrade refused"}
    parts = payload if isinstance(payload, list) else [payload]
    pongs, data, code = [], 0, "none"
    for part in parts[:-1]:
        conn.send(part)
        until = time.monotonic() + 1
        while not pongs:
            got = conn.frame(until)
            if got is None:
                break
            if got[0] == 0xA:
                pongs.append(got[1])
            else:
                data += 1
    conn.send(parts[-1])
    started = time.monotonic()
    deadline = started + wait
    while True:
        got = conn.frame(deadline)
        if got is None:
            break
        opcode, body = got
        if opcode == 0xA:
            pongs.append(body)
        elif opcode == 0x8:
            code = None if not body else (struct.unpack("!H", body[:2])[0] if len(body) >= 2 else "short")
            break
        else:
            data += 1
    seconds = conn.close_seconds(started, deadline)
    conn.sock.close()
    return {"pongs": pongs, "code": code, "data": data, "seconds": seconds}


def run_handshake(host, port, request, wait):
    conn = Connection(host, port)
    conn.send(request)
    started = time.monotonic()
    head = conn.head(started + wait)
    status, version = None, None
    if head:
        first = head.split("\r\n")[0].split(" ")
        status = int(first[1]) if len(first) > 1 and first[1].isdigit() else None
        for line in head.split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "sec-websocket-version":
                version = value.strip()
    seconds = conn.close_seconds(started, started + wait)
    conn.sock.close()
    return {"status": status, "version": version, "seconds": seconds}


def judge(result, expected):
    """(passed, text) for one frame case."""
    if "error" in result:
        return False, result["error"]
    seconds, code = result["seconds"], result["code"]
    gone = "TCP open > %.0f s" % WAIT_SECONDS if seconds is None else (
        "TCP closed %.0f ms" % (seconds * 1000) if seconds < PASS_SECONDS else "TCP closed after %.1f s" % seconds)
    said = "no close frame" if code == "none" else (
        "close without code" if code is None else "close 1-byte" if code == "short" else "close %d" % code)
    if code == "none" and seconds is not None:
        said = "dropped, no close frame"
    pong_ok = True
    if isinstance(expected, tuple) and expected[0] == "ping":
        pong_ok = any(len(p) == expected[1] for p in result["pongs"])
        said = ("pong %d B, " % expected[1] if pong_ok else "no pong, ") + said
    if expected == "echo" or (isinstance(expected, tuple) and expected[0] == "ping"):
        want = {1000}
    elif isinstance(expected, tuple) and expected[0] == "close":
        want = set(expected[1:])
    else:
        want = expected
    code_ok = (code in want) if code != "none" else (None in want and seconds is not None)
    timely = seconds is not None and seconds < PASS_SECONDS
    return code_ok and pong_ok and timely, "%s, %s" % (said, gone)


def judge_handshake(result, expected):
    seconds = result["seconds"]
    gone = "TCP open > %.0f s" % WAIT_SECONDS if seconds is None else (
        "TCP closed %.0f ms" % (seconds * 1000) if seconds < PASS_SECONDS else "TCP closed after %.1f s" % seconds)
    status = result["status"]
    said = "no HTTP answer" if status is None else str(status)
    if status == 426:
        said += " (Sec-WebSocket-Version: %s)" % result["version"]
    ok = status in expected and (status != 426 or result["version"] == "13")
    # Only the answer is judged: after a refusal HTTP keep-alive may hold
    # the connection (the TCP column still shows what happened).
    return ok, "%s, %s" % (said, gone)


def probe(url, subprotocol, wait):
    assert url.startswith("ws://"), "only ws:// URLs"
    hostport = url[5:].split("/")[0]
    host, _, port = hostport.rpartition(":")
    port = int(port)
    rows = []
    for name, request, expected in handshake_cases(hostport):
        ok, said = judge_handshake(run_handshake(host, port, request, wait), expected)
        rows.append((name, ok, said))
    for name, payload, expected in cases():
        ok, said = judge(run_case(host, port, subprotocol, payload, wait), expected)
        rows.append((name, ok, said))
    return rows


def wait_port(port, seconds=15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("nothing listens on port %d" % port)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def compare(binaries, wait):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    servers = []  # (column title, port, subprotocol, argv, data directory)
    titles = ["neonsyncd", "neonsyncd before"] if len(binaries) > 1 else ["neonsyncd"]
    # Columns: before, now, the peers.
    for title, binary in reversed(list(zip(titles, binaries))):
        port = free_port()
        data = tempfile.mkdtemp(prefix="neonsync-conformance-")
        servers.append((title, port, "neonsync.v1", [binary, "--port", str(port), "--data", data,
                                                      "--log", os.devnull, "--max-rate", "0"], data))
    port = free_port()
    servers.append(("Python websockets", port, None,
                    [sys.executable, os.path.join(root, "bench", "broadcast_server.py"), "--port", str(port)], None))
    lws = shutil.which("libwebsockets-test-server")
    if lws:
        port = free_port()
        servers.append(("lws test server", port, "lws-mirror-protocol",
                        [lws, "--port=%d" % port, "--interface=127.0.0.1"], None))
    columns, names, passed = [], None, []
    for title, port, subprotocol, argv, data in servers:
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_port(port)
            rows = probe("ws://127.0.0.1:%d/" % port, subprotocol, wait)
        finally:
            process.terminate()
            process.wait(10)
            if data:
                shutil.rmtree(data, ignore_errors=True)
        names = [r[0] for r in rows]
        columns.append([("✅ " if ok else "❌ ") + said for _, ok, said in rows])
        passed.append(sum(ok for _, ok, _ in rows))
        print("probed %s: %d of %d pass" % (title, passed[-1], len(rows)), file=sys.stderr)
    titles = [s[0] for s in servers]
    print("| case | " + " | ".join(titles) + " |")
    print("|---|" + "---|" * len(titles))
    for i, name in enumerate(names):
        print("| %s | %s |" % (name, " | ".join(c[i] for c in columns)))
    print("| **passed** | " + " | ".join("**%d of %d**" % (p, len(names)) for p in passed) + " |")
    return passed[titles.index("neonsyncd")] == len(names)


def main():
    global WAIT_SECONDS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", nargs="?", help="ws://HOST:PORT/ of the server to probe")
    parser.add_argument("--subprotocol", help="Sec-WebSocket-Protocol to ask for")
    parser.add_argument("--compare", nargs="+", metavar="NEONSYNCD",
                        help="start these neonsyncd binaries (now, before) and the peer servers; print one table")
    parser.add_argument("--wait", type=float, default=WAIT_SECONDS,
                        help="seconds to wait for each answer and the end of TCP (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="one JSON line per case instead of a table")
    args = parser.parse_args()
    WAIT_SECONDS = args.wait
    if args.compare:
        sys.exit(0 if compare(args.compare, args.wait) else 1)
    if not args.url:
        parser.error("give a ws:// URL or --compare NEONSYNCD")
    rows = probe(args.url, args.subprotocol, args.wait)
    for name, ok, said in rows:
        if args.json:
            print(json.dumps({"case": name, "pass": ok, "answer": said}))
        else:
            print("%s %-45s %s" % ("PASS" if ok else "FAIL", name, said))
    sys.exit(0 if all(ok for _, ok, _ in rows) else 1)


if __name__ == "__main__":
    main()
