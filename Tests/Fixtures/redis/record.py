#!/usr/bin/env python3
"""Records the replies the cluster reader and writer act on, as raw RESP
bytes, from a throwaway redis-server (7.0.15 recorded the files here): run it from the repository's root
(`python3 Tests/Fixtures/redis/record.py`) and it rewrites the *.resp files
next to it. The scripts are the ones in Sources/NeonServer/Cluster/ClusterScripts.swift.
Room "r", incarnation 7; entries 1-2 are hellos of c1 and c2, 3-4 their byes.
Node "a" is incarnation 7, "b" the live 8, "c" the dead 9.
"""
import os, re, socket, subprocess, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def scripts():
    text = open(os.path.join(ROOT, "Sources/NeonServer/Cluster/ClusterScripts.swift")).read()
    found = {}
    for name, body in re.findall(r'static let (\w+) = """\n(.*?)\n    """', text, re.S):
        lines = [line[4:] for line in body.split("\n")]
        found[name] = "\n".join(lines).replace("\\\\", "\\")
    return found


def command(*args):
    out = b"*%d\r\n" % len(args)
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        out += b"$%d\r\n%s\r\n" % (len(data), data)
    return out


class Connection:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.buffer = b""

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("redis-server closed the connection")
        self.buffer += chunk

    def _end(self, at):
        """Where the reply starting at `at` ends, or None when not all here."""
        line = self.buffer.find(b"\r\n", at)
        if line < 0:
            return None
        kind, head = self.buffer[at:at + 1], self.buffer[at + 1:line]
        if kind in (b"+", b"-", b":"):
            return line + 2
        if kind == b"$":
            n = int(head)
            end = line + 2 + n + 2 if n >= 0 else line + 2
            return end if len(self.buffer) >= end else None
        if kind == b"*":
            at = line + 2
            for _ in range(max(int(head), 0)):
                at = self._end(at)
                if at is None:
                    return None
            return at
        raise ValueError("unexpected RESP type %r" % kind)

    def reply(self):
        while (end := self._end(0)) is None:
            self._fill()
        raw, self.buffer = self.buffer[:end], self.buffer[end:]
        return raw

    def ask(self, *args):
        self.sock.sendall(command(*args))
        return self.reply()


def save(name, *raw):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"".join(raw))


def main():
    port = 6391
    folder = tempfile.mkdtemp()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", folder],
                              stdout=subprocess.DEVNULL)
    try:
        for _ in range(50):
            try:
                c = Connection(port)
                break
            except OSError:
                time.sleep(0.1)
        s = scripts()
        sha = {name: c.ask("SCRIPT", "LOAD", s[name])[5:-2].decode()
               for name in ("load", "append", "snapshot", "beat", "expire")}
        snap, log, counter, channel = "neonsync:{r}:snap", "neonsync:{r}:log", "neonsync:{r}:n", "neonsync:{r}:events"
        save("load-empty.resp", c.ask("EVALSHA", sha["load"], 2, snap, log))

        subscriber = Connection(port)
        save("subscribe.resp", subscriber.ask("SUBSCRIBE", channel))
        hello = '{"type":"hello","room":"r","name":"%s","role":"reader"}'
        entries = [("m", "c1", hello % "ada"), ("m", "c2", hello % "bob"), ("b", "c1", ""), ("b", "c2", "")]
        args = ["EVALSHA", sha["append"], 0, "neonsync:rooms", "neonsync:gen:7:rooms"]
        for kind, client, message in entries:
            args += ["r", "1" if kind == "m" else "0", kind, client, 7, 1_000_000_000, message]
        save("append-4.resp", c.ask(*args))
        save("published-1-4.resp", *[subscriber.reply() for _ in entries])

        save("load-4.resp", c.ask("EVALSHA", sha["load"], 2, snap, log))
        save("xrange-after-1.resp", c.ask("XRANGE", log, "(1-0", "+"))
        save("xrange-after-3.resp", c.ask("XRANGE", log, "(3-0", "+"))
        save("xrange-after-4.resp", c.ask("XRANGE", log, "(4-0", "+"))
        save("mget-4.resp", c.ask("MGET", "neonsync:{r}:v", counter))

        image = '{"name":"r","profile":"graphemes","limit":500,"seq":3,"draftText":"","draftRevision":0,"recentEdits":[],"members":[]}'
        save("snapshot.resp", c.ask("EVALSHA", sha["snapshot"], 2, snap, log, 3, image, 3))
        save("xrange-trimmed.resp", c.ask("XRANGE", log, "(1-0", "+"))
        save("load-image.resp", c.ask("EVALSHA", sha["load"], 2, snap, log))

        # The counter set back under the log: XADD refuses entry 1 of r,
        # entry 1 of room s goes in.
        c.ask("SET", counter, 0)
        args = ["EVALSHA", sha["append"], 0, "neonsync:rooms", "neonsync:gen:7:rooms",
                "r", "0", "b", "c3", 7, 1_000_000_000, "", "s", "0", "b", "c4", 7, 1_000_000_000, ""]
        save("append-refused.resp", c.ask(*args))
        c.ask("DEL", counter)
        save("mget-none.resp", c.ask("MGET", "neonsync:{r}:v", counter))
        save("noscript.resp", c.ask("EVALSHA", "0" * 40, 0))

        incarnations, node = "neonsync:incarnations", "neonsync:node:a"
        beat = ["EVALSHA", sha["beat"], 2, node, incarnations, 7, 10000, "a"]
        c.ask("HSET", incarnations, 7, "a", 8, "b", 9, "c")
        c.ask("SET", node, 7, "PX", 10000)
        c.ask("SET", "neonsync:node:b", 8, "PX", 10000)
        save("beat-renewed.resp", c.ask(*beat))
        save("hgetall-incarnations.resp", c.ask("HGETALL", incarnations))
        save("get-nodes.resp", c.ask("GET", "neonsync:node:b"), c.ask("GET", "neonsync:node:c"))
        c.ask("DEL", node)
        save("beat-expired.resp", c.ask(*beat))
        c.ask("DEL", node)
        c.ask("HDEL", incarnations, 7)
        save("beat-reaped.resp", c.ask(*beat))
        c.ask("SET", node, 10)
        save("beat-taken.resp", c.ask(*beat))

        # Room t left empty by its entry 1 at 1000 ms, nobody joined since.
        c.ask("SET", "neonsync:{t}:n", 1)
        c.ask("ZADD", "neonsync:idle", 1000, "t")
        c.ask("HSET", "neonsync:idle:entry", "t", 1)
        save("expire-one.resp", c.ask("EVALSHA", sha["expire"], 0, 61000, 60000, 100))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
