#!/usr/bin/env python3
"""A third-party NeonSync client written from docs/PROTOCOL.md alone.

Usage: python_client.py PORT
Drives a running neonsyncd on 127.0.0.1:PORT with two `websockets` clients
and checks the documented messages and numbers. Prints one line per check
and exits non-zero on the first mismatch.
"""
import asyncio
import json
import sys

import websockets

MARKDOWN = "# Intro\nHello there.\n\n# Middle\nMore text.\n\n# End\nBye."


def check(condition, what):
    if not condition:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


async def recv(ws, wanted):
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        check(isinstance(message.get("seq"), int), f"{message['type']} carries an integer seq")
        if message["type"] == wanted:
            return message


async def main(port):
    url = f"ws://127.0.0.1:{port}/"
    async with websockets.connect(url, subprotocols=["neonsync.v1"]) as a, \
            websockets.connect(url, subprotocols=["neonsync.v1"]) as b:
        check(a.subprotocol == "neonsync.v1", "the server selects subprotocol neonsync.v1")

        await a.send(json.dumps({"type": "scroll", "top": 1, "viewport": 1, "content": 2,
                                 "anchor": {"block": 0, "offset": 0}}))
        err = await recv(a, "error")
        check(err["code"] == "not_joined" and err["seq"] == 0, "anything before hello is not_joined with seq 0")

        await a.send("{not json")
        check((await recv(a, "error"))["code"] == "invalid_json", "non-JSON is invalid_json")

        await a.send(json.dumps({"type": "hello", "room": "py", "name": "ada", "role": "presenter"}))
        welcome = await recv(a, "welcome")
        check(welcome["document"] is None and welcome["presenter"] == welcome["you"],
              "welcome: no document yet, the presenter is me")
        draft = welcome["draft"]
        check(draft == {"text": "", "rev": 0, "count": 0, "remaining": 280, "limit": 280, "level": "ok",
                         "profile": "graphemes"},
              "welcome: the empty draft with the 280 limit")

        await a.send(json.dumps({"type": "document", "title": "Py", "format": "markdown", "text": MARKDOWN}))
        doc = await recv(a, "document")
        check(doc["by"] == welcome["you"] and doc["text"] == MARKDOWN, "document broadcast to the publisher")

        await b.send(json.dumps({"type": "hello", "room": "py", "name": "bob", "role": "reader"}))
        welcome_b = await recv(b, "welcome")
        check(welcome_b["document"]["title"] == "Py", "the second reader is welcomed with the document")
        check([r["name"] for r in welcome_b["readers"]] == ["ada", "bob"], "readers in join order")
        joined = await recv(a, "joined")
        check(joined["reader"]["name"] == "bob" and joined["seq"] == doc["seq"] + 1, "joined, seq + 1")

        await b.send(json.dumps({"type": "follow", "on": True}))
        await recv(b, "follow")

        # Blocks: 0 heading Intro, 1 paragraph, 2 heading Middle, 3 paragraph, 4 heading End, 5 paragraph.
        await a.send(json.dumps({"type": "scroll", "top": 29, "viewport": 20, "content": 120,
                                 "anchor": {"block": 2, "offset": 0}}))
        progress = await recv(b, "progress")
        check((progress["progress"], progress["percent"], progress["atBottom"], progress["section"])
              == (0.29, 29, False, 1), "progress numbers for 29 of 100 rows, section 1")
        check(progress["anchor"] == {"block": 2, "offset": 0}, "the anchor crosses unchanged")
        tab = await recv(b, "tab")
        check(tab["source"] == "scrolled" and tab["section"] == 1 and tab["seq"] == progress["seq"] + 1,
              "scroll-spy tab change with source scrolled")

        await a.send(json.dumps({"type": "tab", "section": 7}))
        check((await recv(a, "error"))["code"] == "tab_out_of_range", "a tab out of range is refused")

        await b.send(json.dumps({"type": "edit", "rev": 0, "ops": ["héllo 👋"]}))
        ack = await recv(b, "ack")
        edit = await recv(a, "edit")
        check(ack["rev"] == 1 and edit["rev"] == 1 and edit["ops"] == ["héllo 👋"], "edit acked and relayed")
        await a.send(json.dumps({"type": "edit", "rev": 1, "ops": [7, " world"]}))
        check((await recv(a, "ack"))["rev"] == 2, "a scalar-counted retain over the emoji is accepted")

        await b.send(json.dumps({"type": "edit", "rev": 2, "ops": [13, "x" * 250]}))
        limit = await recv(a, "limit")
        check((limit["level"], limit["count"], limit["remaining"], limit["limit"]) == ("warning", 263, 17, 280),
              "a limit event at the warning level with count and remaining")
    print("interop ok", flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
