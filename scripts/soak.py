#!/usr/bin/env python3
"""Soak: churn a real neonsyncd for a set time, then check it gave everything back.

Usage: soak.py NEONSYNCD [--cluster] [--duration S] [--warmup S] [--settle S]
               [--storm-size N] [--storm-every S] [--join-rate N] [--create-rate N]
               [--edit-rate N] [--heap] [--csv FILE] [--server-arg=FLAG ...]

Starts NEONSYNCD itself on a free loopback port in a temporary directory
(with --cluster: a redis-server of its own and two nodes on it), with the
server's defaults (64 connections per address, --room-ttl 30d, ...), and for
--duration seconds:
- joins and leaves rooms at a steady rate (--join-rate a second: a reader
  joins one of 20 lobby rooms, scrolls once, stays 0.2-2 s and leaves, half
  of them with a close handshake, half by dropping the socket);
- creates and abandons rooms (--create-rate a second: a new room name, every
  other one given a document and a draft edit, then left for good);
- every --storm-every seconds, a reconnect storm: --storm-size connections
  join 500 storm rooms, all drop their sockets at once, all reconnect and
  join again, then all leave; the clients are spread over the source
  addresses 127.0.0.2-127.0.0.250 (bound before connecting) so that the
  server's per-address cap (64) stays in force and is never reached;
- keeps one reader stalled: a socket with a 4 KiB receive buffer in
  lobby-0, where a chatter relays 2 KB 20 times a second, that never reads (it sends an unsolicited pong every 10 s,
  so it is the reading that stalls, not the idle timer that acts); when the
  server cuts it off (too slow), a new one takes its place;
- edits two drafts with acked keys: per draft room one editor that inserts
  and deletes and one that inserts (in a cluster, on different nodes), one
  edit in flight each, --edit-rate a second each. An observer of each draft
  room records every `edit` broadcast; at the end the edits replayed from
  the initial text must give a fresh welcome's draft text and revision, and
  every acked key must be the revision its ack named.

Every 10 s it prints one CSV line per node: server RSS (/proc/PID/status),
open descriptors (/proc/PID/fd), and from /metrics: rooms held, connections,
outbound queue frames and bytes (and Redis's used memory in a cluster).
After the churn it waits --settle seconds and checks: RSS within 10% of its
level after --warmup, descriptors back to the idle server's, rooms back to
the idle server's (the abandoned rooms are counted apart: the server keeps
an empty room for --room-ttl), no acked edit lost. With --heap it also
compares glibc's live heap (malloc_stats() through gdb) after warm-up and
after settling, which tells a leak from memory the allocator keeps for
reuse, and shows RSS after malloc_trim(0) at the very end. It prints a
Markdown table of the checks and exits 1 when one fails.
"""
import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import websockets

LOBBIES = 20
STORM_ROOMS = 500
DRAFT_ROOMS = 2
SOURCES = [f"127.0.0.{i}" for i in range(2, 251)]
HOLD = 30  # bound, in seconds, of any one wait on the server
USED = {}  # node port -> the rooms the soak joined through it


def log(text):
    print(f"# {time.strftime('%H:%M:%S')} {text}", flush=True)


# ---------------------------------------------------------------- processes

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Node:
    def __init__(self, binary, directory, name, extra):
        self.name = name
        self.log = os.path.join(directory, f"{name}.log")
        self.process = subprocess.Popen([binary, "--port", "0", "--log", self.log] + extra,
                                        stdout=subprocess.DEVNULL, stderr=open(self.log + ".err", "w"))
        self.pid = self.process.pid
        self.port = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            if os.path.exists(self.log):
                m = re.search(r'"event":"start".*?"port":(\d+)', open(self.log).read())
                if m:
                    self.port = int(m.group(1))
                    return
            time.sleep(0.05)
        raise SystemExit(f"neonsyncd {name} did not start; see {self.log}.err")

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/"

    def heap_mb(self, trim=False):
        """The bytes glibc's malloc holds in use (live heap, whatever RSS
        the allocator keeps), from malloc_stats() called through gdb; with
        `trim`, then malloc_trim(0) too, so that RSS shows the live heap."""
        err = self.log + ".err"
        at = os.path.getsize(err)
        calls = ["-ex", "call (void)malloc_stats()"] + (["-ex", "call (int)malloc_trim(0)"] if trim else [])
        subprocess.run(["gdb", "-p", str(self.pid), "-batch", "-nx"] + calls,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        with open(err) as f:
            f.seek(at)
            stats = f.read()
        m = re.search(r"Total \(incl\. mmap\):\s*system bytes\s*=\s*\d+\s*in use bytes\s*=\s*(\d+)", stats)
        return round(int(m.group(1)) / 1048576, 1) if m else float("nan")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Redis:
    def __init__(self, directory):
        self.port = free_port()
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--dir", directory, "--save", "", "--appendonly", "yes",
                                         "--appendfsync", "always", "--protected-mode", "no",
                                         "--logfile", os.path.join(directory, "redis.log")])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if self.command("PING").startswith("+PONG"):
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("redis-server did not answer PING within 20 s")

    def command(self, line):
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(line.encode() + b"\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                data += chunk
                if not chunk or data.startswith((b"+", b"-", b":")) and data.endswith(b"\r\n"):
                    return data.decode(errors="replace")
                if data.startswith(b"$"):
                    head, _, rest = data.partition(b"\r\n")
                    if len(rest) >= int(head[1:]) + 2:
                        return rest.decode(errors="replace")

    def used_memory_mb(self):
        m = re.search(r"used_memory:(\d+)", self.command("INFO memory"))
        return int(m.group(1)) / 1048576 if m else float("nan")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


# ---------------------------------------------------------------- sampling

def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def fd_count(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def metrics(port):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    values = {}
    for line in data.decode(errors="replace").splitlines():
        m = re.match(r"^(neonsync_[a-z_]+)(\{[^}]*\})? ([-0-9.e+]+)$", line)
        if m:
            values[m.group(1)] = values.get(m.group(1), 0) + float(m.group(3))
    return values


COLUMNS = ["t_s", "phase", "node", "rss_mb", "fds", "rooms", "connections", "queue_frames", "queue_kb", "redis_mb"]


class Sampler:
    def __init__(self, nodes, redis, csv_path):
        self.nodes, self.redis = nodes, redis
        self.rows = []
        self.phase = "idle"
        self.started = time.monotonic()
        self.stop = threading.Event()
        self.csv = open(csv_path, "w") if csv_path else None
        self.emit(",".join(COLUMNS))

    def emit(self, line):
        print(line, flush=True)
        if self.csv:
            self.csv.write(line + "\n")
            self.csv.flush()

    def sample(self):
        t = round(time.monotonic() - self.started)
        redis_mb = self.redis.used_memory_mb() if self.redis else float("nan")
        out = []
        for node in self.nodes:
            # Descriptors first: the /metrics request's own socket is not counted.
            fds = fd_count(node.pid)
            m = metrics(node.port)
            row = {"t_s": t, "phase": self.phase, "node": node.name, "rss_mb": round(rss_mb(node.pid), 1),
                   "fds": fds, "rooms": int(m.get("neonsync_rooms", -1)),
                   "connections": int(m.get("neonsync_connections_open", -1)),
                   "queue_frames": int(m.get("neonsync_outbound_queue_frames", -1)),
                   "queue_kb": round(m.get("neonsync_outbound_queue_bytes", -1) / 1024, 1),
                   "redis_mb": round(redis_mb, 2)}
            self.rows.append(row)
            self.emit(",".join(str(row[c]) for c in COLUMNS))
            out.append(row)
        return out

    def run(self):
        while not self.stop.wait(10):
            try:
                self.sample()
            except OSError as error:
                log(f"sample failed: {error}")


# ---------------------------------------------------------------- clients

def connect(url, source=None, **kw):
    return websockets.connect(url, subprotocols=["neonsync.v1"], open_timeout=HOLD, close_timeout=5,
                              ping_interval=None, max_size=None,
                              local_addr=(source, 0) if source else None, **kw)


async def hello(ws, room, name, role="reader", **extra):
    await ws.send(json.dumps({"type": "hello", "room": room, "name": name, "role": role, **extra}))
    async with asyncio.timeout(HOLD):
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "welcome":
                USED.setdefault(ws.remote_address[1], set()).add(room)
                return m
            if m["type"] == "error":
                raise HelloRefused(m["code"], f"hello to {room}: {m['code']}: {m['message']}")


class HelloRefused(RuntimeError):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def delta(ops):
    return sum(len(op) if isinstance(op, str) else (op if op < 0 else 0) for op in ops)


def apply_ops(text, ops):
    out, at = [], 0
    for op in ops:
        if isinstance(op, str):
            out.append(op)
        elif op > 0:
            out.append(text[at:at + op])
            at += op
        else:
            at -= op
    if at != len(text):
        raise ValueError(f"ops span {at} scalars of a {len(text)}-scalar draft")
    return "".join(out)


class Counters:
    def __init__(self):
        self.values = {}

    def add(self, name, n=1):
        self.values[name] = self.values.get(name, 0) + n


class Soak:
    def __init__(self, args, nodes):
        self.args, self.nodes = args, nodes
        self.count = Counters()
        self.stopping = asyncio.Event()
        self.acked = [{} for _ in range(DRAFT_ROOMS)]   # per draft room: key -> rev
        self.history = [{} for _ in range(DRAFT_ROOMS)]  # per draft room: rev -> (ops, key)
        self.initial = [None] * DRAFT_ROOMS               # (rev, text) the observer started from
        self.tasks = set()

    def node(self, i):
        return self.nodes[i % len(self.nodes)]

    async def paced(self, rate, make, limit):
        """Starts make(n) rate times a second until stopping, at most `limit`
        at once; a rate of 0 starts nothing."""
        if rate <= 0:
            return
        gate = asyncio.Semaphore(limit)
        n = 0
        next_at = time.monotonic()
        while not self.stopping.is_set():
            next_at += 1 / rate
            await asyncio.sleep(max(0, next_at - time.monotonic()))
            if gate.locked():
                self.count.add("skipped (too many in flight)")
                continue
            n += 1

            async def one(n=n):
                async with gate:
                    try:
                        async with asyncio.timeout(2 * HOLD):
                            await make(n)
                    except Exception as error:
                        self.count.add(f"{make.__name__} failed: {getattr(error, 'code', type(error).__name__)}")
            task = asyncio.create_task(one())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def churn(self, n):
        node = self.node(n)
        room = f"lobby-{n % LOBBIES}"
        async with connect(node.url, SOURCES[n % len(SOURCES)]) as ws:
            welcome = await hello(ws, room, f"churn{n}")
            if welcome["document"] is None:
                await ws.send(json.dumps({"type": "document", "title": "Lobby", "format": "text",
                                          "text": "A lobby paragraph.\n\n" * 40}))
            else:
                await ws.send(json.dumps({"type": "scroll", "top": n % 40, "viewport": 20, "content": 80,
                                          "anchor": {"block": n % 40, "offset": 0}}))
            await asyncio.sleep(random.uniform(0.2, 2))
            if n % 2:
                ws.transport.abort()
        self.count.add("churn joins")

    async def create(self, n):
        node = self.node(n)
        room = f"gone-{n}"
        async with connect(node.url, SOURCES[(n * 7) % len(SOURCES)]) as ws:
            await hello(ws, room, f"maker{n}", "presenter")
            if n % 2 == 0:
                await ws.send(json.dumps({"type": "document", "title": f"Gone {n}", "format": "markdown",
                                          "text": f"# Abandoned {n}\n\nNobody comes back here."}))
                await ws.send(json.dumps({"type": "edit", "rev": 0, "ops": [f"note {n}"], "key": f"gone-{n}"}))
                async with asyncio.timeout(HOLD):
                    while json.loads(await ws.recv())["type"] != "ack":
                        pass
        self.count.add("rooms abandoned")

    async def storm(self, index):
        size = self.args.storm_size
        log(f"storm {index}: {size} connections")
        started = time.monotonic()
        gate = asyncio.Semaphore(400)

        async def open_one(i, wave):
            async with gate:
                try:
                    ws = await connect(self.node(i).url, SOURCES[i % len(SOURCES)])
                    await hello(ws, f"storm-{i % STORM_ROOMS}", f"s{index}.{wave}.{i}")
                    return ws
                except Exception as error:
                    self.count.add(f"storm connect failed: {getattr(error, 'code', type(error).__name__)}")
                    return None

        first = await asyncio.gather(*(open_one(i, 0) for i in range(size)))
        opened = sum(ws is not None for ws in first)
        for ws in first:
            if ws is not None:
                ws.transport.abort()
        second = await asyncio.gather(*(open_one(i, 1) for i in range(size)))
        reopened = sum(ws is not None for ws in second)
        await asyncio.sleep(2)
        await asyncio.gather(*(ws.close() for ws in second if ws is not None), return_exceptions=True)
        self.count.add("storm connections", opened + reopened)
        log(f"storm {index}: {opened} joined, dropped, {reopened} rejoined, left, in {time.monotonic() - started:.0f} s")

    async def storms(self):
        await asyncio.sleep(self.args.warmup * 0.4)
        index = 0
        while not self.stopping.is_set():
            index += 1
            try:
                async with asyncio.timeout(max(240, self.args.storm_every)):
                    await self.storm(index)
            except TimeoutError:
                self.count.add("storm over its time bound")
            try:
                async with asyncio.timeout(self.args.storm_every):
                    await self.stopping.wait()
            except TimeoutError:
                pass

    async def stalled(self):
        """One reader that never reads; replaced when the server cuts it off."""
        loop = asyncio.get_running_loop()
        while not self.stopping.is_set():
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            await loop.sock_connect(sock, ("127.0.0.1", self.nodes[0].port))
            key = "c29ha3NvYWtzb2Frc29haw=="
            await loop.sock_sendall(sock, (f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                                           "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: neonsync.v1\r\n\r\n").encode())
            await asyncio.sleep(0.5)
            await loop.sock_sendall(sock, frame(json.dumps({"type": "hello", "room": "lobby-0", "name": "stalled",
                                                            "role": "reader"}).encode()))
            self.count.add("stalled readers")
            while not self.stopping.is_set():
                try:
                    async with asyncio.timeout(10):
                        await self.stopping.wait()
                except TimeoutError:
                    pass
                state = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]
                if state != 1:  # no longer ESTABLISHED: the server closed it
                    self.count.add("stalled reader cut off by the server")
                    break
                try:
                    sock.send(frame(b"s", opcode=0xA))
                except OSError:
                    self.count.add("stalled reader cut off by the server")
                    break
            sock.close()

    async def chatter(self):
        """Relays 2 KB 20 times a second into lobby-0, the stalled reader's
        room, so that its backlog grows towards --max-outbound."""
        data = "x" * 2000
        while not self.stopping.is_set():
            try:
                async with connect(self.nodes[-1].url) as ws:
                    await hello(ws, "lobby-0", "chatter")
                    drain = asyncio.create_task(self.drain(ws))
                    next_at = time.monotonic()
                    while not self.stopping.is_set():
                        next_at += 0.05
                        await asyncio.sleep(max(0, next_at - time.monotonic()))
                        await ws.send(json.dumps({"type": "relay", "data": data}))
                        self.count.add("relays sent")
                    drain.cancel()
            except (ConnectionError, OSError, TimeoutError, websockets.ConnectionClosed, RuntimeError) as error:
                self.count.add(f"chatter reconnects ({type(error).__name__})")
                await asyncio.sleep(1)

    @staticmethod
    async def drain(ws):
        async for _ in ws:
            pass

    async def editor(self, room_index, role_index):
        """Edits a draft, one edit in flight; editor 0 of a room inserts and
        deletes, editor 1 only inserts (so no two deletes are concurrent and
        each editor knows the draft's length exactly)."""
        node = self.node(room_index + role_index)
        room = f"draft-{room_index}"
        name = f"editor{room_index}.{role_index}"
        period = 1 / self.args.edit_rate
        n = 0
        rev = length = pending_key = None
        while not self.stopping.is_set():
            try:
                async with connect(node.url) as ws:
                    welcome = await hello(ws, room, name, **({} if rev is None else {"draftRev": rev}))
                    draft = welcome["draft"]
                    if rev is not None and "missed" in draft:
                        for edit in draft["missed"]:
                            if edit.get("key") == pending_key:
                                self.acked[room_index][pending_key] = edit["rev"]
                                self.count.add("edits acked by a welcome's missed")
                    rev, length = draft["rev"], len(draft["text"])
                    pending_key = None
                    while not self.stopping.is_set():
                        await asyncio.sleep(period)
                        n += 1
                        if role_index == 0 and length > 150:
                            at = random.randrange(0, length - 20)
                            ops = [op for op in (at, -20, length - at - 20) if op]
                        elif length < 240:
                            at = random.randint(0, length)
                            ops = [op for op in (at, f"[{role_index}.{n}]", length - at) if op]
                        else:
                            continue
                        pending_key = f"{name}.{n}"
                        await ws.send(json.dumps({"type": "edit", "rev": rev, "ops": ops, "key": pending_key}))
                        async with asyncio.timeout(HOLD):
                            while True:
                                m = json.loads(await ws.recv())
                                if m["type"] == "edit":
                                    rev, length = m["rev"], length + delta(m["ops"])
                                elif m["type"] == "ack":
                                    rev, length = m["rev"], length + delta(ops)
                                    self.acked[room_index][pending_key] = m["rev"]
                                    pending_key = None
                                    self.count.add("edits acked")
                                    break
                                elif m["type"] == "error":
                                    self.count.add(f"edit error {m['code']}")
                                    raise ConnectionError(m["code"])
                    while True:  # drain what is on its way
                        try:
                            async with asyncio.timeout(2):
                                await ws.recv()
                        except TimeoutError:
                            break
            except (ConnectionError, OSError, TimeoutError, websockets.ConnectionClosed, RuntimeError) as error:
                self.count.add(f"editor reconnects ({type(error).__name__})")
                await asyncio.sleep(1)

    async def observer(self, room_index, ready):
        """Records every edit broadcast of a draft room, in revision order."""
        node = self.node(room_index + 1)
        room = f"draft-{room_index}"
        rev = None
        history = self.history[room_index]
        while True:
            try:
                async with connect(node.url) as ws:
                    welcome = await hello(ws, room, f"observer{room_index}", "observer",
                                          **({} if rev is None else {"draftRev": rev}))
                    draft = welcome["draft"]
                    if rev is None:
                        self.initial[room_index] = (draft["rev"], draft["text"])
                        rev = draft["rev"]
                        ready.set()
                    elif "missed" in draft:
                        for edit in draft["missed"]:
                            history[edit["rev"]] = (edit["ops"], edit.get("key"))
                            rev = edit["rev"]
                    else:
                        self.count.add("observer lost track (no missed edits)")
                    async for raw in ws:
                        m = json.loads(raw)
                        if m["type"] == "edit":
                            if m["rev"] != rev + 1:
                                self.count.add("observer saw a revision gap")
                            history[m["rev"]] = (m["ops"], m.get("key"))
                            rev = m["rev"]
                    return
            except (ConnectionError, OSError, TimeoutError, websockets.ConnectionClosed, RuntimeError) as error:
                if self.stopping.is_set() and isinstance(error, websockets.ConnectionClosedOK):
                    return
                self.count.add(f"observer reconnects ({type(error).__name__})")
                await asyncio.sleep(1)

    async def check_drafts(self):
        """Replays every observed edit and compares with a fresh welcome."""
        results = []
        for i in range(DRAFT_ROOMS):
            async with connect(self.node(i).url) as ws:
                welcome = await hello(ws, f"draft-{i}", f"checker{i}", "observer")
            start_rev, text = self.initial[i]
            history = self.history[i]
            problems = []
            for rev in range(start_rev + 1, welcome["draft"]["rev"] + 1):
                if rev not in history:
                    problems.append(f"revision {rev} never observed")
                    break
                text = apply_ops(text, history[rev][0])
            lost = [key for key, rev in self.acked[i].items()
                    if rev not in history or history[rev][1] != key]
            if lost:
                problems.append(f"{len(lost)} acked edits not at their revision (first: {lost[0]})")
            if text != welcome["draft"]["text"]:
                problems.append("replayed text differs from the welcome's draft")
            results.append((f"draft-{i}", len(self.acked[i]), welcome["draft"]["rev"], problems))
        return results


def frame(payload, opcode=0x1):
    n = len(payload)
    header = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n))
    mask = os.urandom(4)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# ---------------------------------------------------------------- the run

async def churn_phase(args, nodes, sampler):
    soak = Soak(args, nodes)
    ready = [asyncio.Event() for _ in range(DRAFT_ROOMS)]
    observers = [asyncio.create_task(soak.observer(i, ready[i])) for i in range(DRAFT_ROOMS)]
    async with asyncio.timeout(HOLD):
        for event in ready:
            await event.wait()
    sampler.phase = "warmup"
    workers = [asyncio.create_task(soak.editor(r, e)) for r in range(DRAFT_ROOMS) for e in range(2)]
    workers += [asyncio.create_task(soak.paced(args.join_rate, soak.churn, 64)),
                asyncio.create_task(soak.paced(args.create_rate, soak.create, 16)),
                asyncio.create_task(soak.storms()),
                asyncio.create_task(soak.stalled()), asyncio.create_task(soak.chatter())]
    await asyncio.sleep(args.warmup)
    warm = sampler.sample()
    if args.heap:
        for row, node in zip(warm, nodes):
            row["heap_mb"] = await asyncio.to_thread(node.heap_mb)
    sampler.phase = "churn"
    log("warm-up over: " + ", ".join(f"{r['node']} {r['rss_mb']} MB" for r in warm))
    await asyncio.sleep(max(0, args.duration - args.warmup))
    log("churn over: stopping the load")
    soak.stopping.set()
    sampler.phase = "stopping"
    done, late = await asyncio.wait(workers + list(soak.tasks), timeout=300)
    for task in late:
        task.cancel()
    soak.count.add("load tasks cancelled after 300 s", len(late))
    drafts = await soak.check_drafts()
    for task in observers:
        task.cancel()
    await asyncio.gather(*observers, return_exceptions=True)
    return soak, warm, drafts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("server", help="the neonsyncd binary (a release build)")
    parser.add_argument("--cluster", action="store_true", help="two nodes on a redis-server of their own")
    parser.add_argument("--duration", type=float, default=1800, help="seconds of churn, warm-up included (default 1800)")
    parser.add_argument("--warmup", type=float, default=180, help="seconds before RSS is taken as the reference (default 180)")
    parser.add_argument("--settle", type=float, default=120, help="seconds to wait after the churn (default 120)")
    parser.add_argument("--storm-size", type=int, default=5000, help="connections per reconnect storm (default 5000)")
    parser.add_argument("--storm-every", type=float, default=300, help="seconds between storms (default 300)")
    parser.add_argument("--join-rate", type=float, default=10, help="lobby joins a second (default 10; 0: none)")
    parser.add_argument("--create-rate", type=float, default=1, help="rooms created and abandoned a second (default 1; 0: none)")
    parser.add_argument("--edit-rate", type=float, default=5, help="edits a second per editor (default 5)")
    parser.add_argument("--heap", action="store_true",
                        help="also compare glibc's live heap (malloc_stats through gdb) after warm-up and after "
                             "settling, and show RSS after malloc_trim(0) at the end; needs gdb")
    parser.add_argument("--csv", help="also write the samples to this file")
    parser.add_argument("--server-arg", action="append", default=[], help="one more neonsyncd flag (repeatable)")
    args = parser.parse_args()
    if not os.access(args.server, os.X_OK):
        parser.error(f"{args.server} is not an executable neonsyncd; build one with swift build -c release "
                     "--product neonsyncd (scripts/soak.sh does) and pass .build/release/neonsyncd")
    if args.duration <= args.warmup:
        parser.error("--duration must be longer than --warmup")
    if args.heap and not shutil.which("gdb"):
        parser.error("--heap calls malloc_stats() through gdb, which is not installed; apt-get install gdb, or drop --heap")

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < 2 * args.storm_size + 1000:
        raise SystemExit(f"ulimit -Hn is {hard}; a storm of {args.storm_size} needs {2 * args.storm_size + 1000}")

    directory = tempfile.mkdtemp(prefix="neonsync-soak-")
    redis = None
    nodes = []
    try:
        if args.cluster:
            redis = Redis(directory)
            for name in ("a", "b"):
                nodes.append(Node(args.server, directory, name, ["--redis", f"redis://127.0.0.1:{redis.port}",
                                                                  "--node", name] + args.server_arg))
        else:
            os.makedirs(os.path.join(directory, "data"), mode=0o700)
            nodes.append(Node(args.server, directory, "one", ["--data", os.path.join(directory, "data")] + args.server_arg))
        log(f"{'cluster of ' + str(len(nodes)) + ' nodes' if args.cluster else 'one node'} in {directory}: "
            + ", ".join(f"{n.name} pid {n.pid} port {n.port}" for n in nodes)
            + f"; {args.duration:.0f} s churn, warm-up {args.warmup:.0f} s, settle {args.settle:.0f} s")
        sampler = Sampler(nodes, redis, args.csv)
        time.sleep(1)
        idle = sampler.sample()
        thread = threading.Thread(target=sampler.run, daemon=True)
        thread.start()
        soak, warm, drafts = asyncio.run(churn_phase(args, nodes, sampler))
        sampler.phase = "settle"
        log(f"settling {args.settle:.0f} s")
        time.sleep(args.settle)
        sampler.stop.set()
        thread.join(20)
        sampler.phase = "final"
        final = sampler.sample()
        if args.heap:
            for row, node in zip(final, nodes):
                row["heap_mb"] = node.heap_mb(trim=True)
                row["trimmed_rss_mb"] = round(rss_mb(node.pid), 1)
        return report(args, soak, idle, warm, final, drafts, sampler.rows)
    finally:
        for node in nodes:
            node.stop()
        if redis:
            redis.stop()
        shutil.rmtree(directory, ignore_errors=True)


def report(args, soak, idle, warm, final, drafts, rows):
    checks = []
    for i, node in enumerate(final):
        name = node["node"]
        limit = warm[i]["rss_mb"] * 1.10
        checks.append((f"{name}: RSS within 10% of after warm-up", f"{warm[i]['rss_mb']} MB",
                       f"{node['rss_mb']} MB (limit {limit:.1f})", node["rss_mb"] <= limit))
        if "heap_mb" in node:
            heap_limit = warm[i]["heap_mb"] * 1.10
            checks.append((f"{name}: live heap (glibc in use) within 10% of after warm-up", f"{warm[i]['heap_mb']} MB",
                           f"{node['heap_mb']} MB (limit {heap_limit:.1f}); RSS after malloc_trim(0): "
                           f"{node['trimmed_rss_mb']} MB", node["heap_mb"] <= heap_limit))
        checks.append((f"{name}: descriptors back to the idle server's", idle[i]["fds"], node["fds"],
                       node["fds"] <= idle[i]["fds"]))
        checks.append((f"{name}: connections back to 0", idle[i]["connections"], node["connections"],
                       node["connections"] == 0))
        checks.append((f"{name}: outbound queue empty", f"{idle[i]['queue_frames']} frames",
                       f"{node['queue_frames']} frames", node["queue_frames"] == 0))
        used = USED.get(soak.nodes[i].port, set())
        gone = sum(room.startswith("gone-") for room in used)
        checks.append((f"{name}: rooms back to the idle server's", idle[i]["rooms"],
                       f"{node['rooms']} ({gone} abandoned, {len(used) - gone} others)",
                       node["rooms"] <= idle[i]["rooms"]))
        if args.cluster:
            # A cluster node lets go of the rooms none of its connections
            # used for --room-release (60 s by default, within --settle).
            checks.append((f"{name}: rooms held ≤ rooms joined through it (unused ones released)", len(used),
                           node["rooms"], node["rooms"] <= len(used)))
        else:
            checks.append((f"{name}: rooms held = rooms joined through it (nothing else kept)", len(used),
                           node["rooms"], node["rooms"] == len(used)))
    for room, acked, rev, problems in drafts:
        checks.append((f"{room}: every acked edit in the final draft", f"{acked} acked",
                       f"rev {rev}" + ("; " + "; ".join(problems) if problems else ", replay = welcome text"),
                       acked > 0 and not problems))
    print()
    print(f"Soak of {'a two-node cluster' if args.cluster else 'one node'}: {args.duration:.0f} s of churn "
          f"(warm-up {args.warmup:.0f} s), {args.settle:.0f} s settle")
    print()
    print("| check | reference | after settling | verdict |")
    print("|---|---|---|---|")
    for name, before, after, ok in checks:
        print(f"| {name} | {before} | {after} | {'pass' if ok else '**FAIL**'} |")
    print()
    print("| load | count |")
    print("|---|---|")
    for name, value in sorted(soak.count.values.items()):
        print(f"| {name} | {value} |")
    print()
    growth_table(rows)
    return 0 if all(ok for *_, ok in checks) else 1


def growth_table(rows):
    """One row per minute and node (the last sample of each minute)."""
    print("| min | phase | node | RSS MB | fds | rooms | conns | queue frames | queue KB | redis MB |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    last = {}
    for row in rows:
        last[(row["t_s"] // 60, row["node"])] = row
    for (minute, _), row in sorted(last.items()):
        print(f"| {minute} | {row['phase']} | {row['node']} | {row['rss_mb']} | {row['fds']} | {row['rooms']} | "
              f"{row['connections']} | {row['queue_frames']} | {row['queue_kb']} | {row['redis_mb']} |")


if __name__ == "__main__":
    sys.exit(main())
