#!/usr/bin/env python3
"""Checks a neonsyncd serving TLS from Python's standard ssl module.

Usage: python_tls_client.py PORT CA_FILE ALLOWED_ORIGIN
neonsyncd runs on 127.0.0.1:PORT with --tls-cert/--tls-key (a certificate
for localhost signed by CA_FILE) and --allow-origin ALLOWED_ORIGIN. Prints
one line per check and exits non-zero on the first mismatch.
"""
import asyncio
import json
import ssl
import sys
import urllib.request

import websockets


def check(condition, what):
    if not condition:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


async def welcome(ws, name):
    await ws.send(json.dumps({"type": "hello", "room": "tls", "name": name, "role": "reader"}))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if message["type"] == "welcome":
            return message


async def main(port, ca_file, allowed):
    trusting = ssl.create_default_context(cafile=ca_file)
    base = f"localhost:{port}"

    with urllib.request.urlopen(f"https://{base}/healthz", context=trusting, timeout=5) as answer:
        check(answer.status == 200 and answer.read() == b"ok\n", "HTTPS GET /healthz answers 200 ok")
    with urllib.request.urlopen(f"https://{base}/metrics", context=trusting, timeout=5) as answer:
        check(answer.status == 200 and b"neonsync_build_info" in answer.read(), "HTTPS GET /metrics serves the metrics")

    async with websockets.connect(f"wss://{base}/", ssl=trusting, subprotocols=["neonsync.v1"]) as ws:
        check(ws.subprotocol == "neonsync.v1", "wss:// handshake with the CA trusted, subprotocol neonsync.v1")
        joined = await welcome(ws, "py")
        check(joined["you"] != "", "hello over wss:// is answered with a welcome")

    try:
        async with websockets.connect(f"wss://{base}/", ssl=ssl.create_default_context(), open_timeout=5):
            check(False, "without the CA the certificate is refused")
    except ssl.SSLCertVerificationError as error:
        check(error.verify_code == 20, "without the CA the certificate is refused (unable to get local issuer certificate)")

    async with websockets.connect(f"wss://{base}/", ssl=trusting, origin=allowed, subprotocols=["neonsync.v1"]) as ws:
        joined = await welcome(ws, "page")
        check(joined["you"] != "", f"a handshake with the allowed Origin {allowed} is served")

    try:
        async with websockets.connect(f"wss://{base}/", ssl=trusting, origin="https://evil.example", open_timeout=5):
            check(False, "a handshake from another Origin is refused")
    except websockets.exceptions.InvalidStatus as error:
        check(error.response.status_code == 403, "a handshake from https://evil.example gets 403")

    try:
        async with websockets.connect(f"ws://{base}/", open_timeout=5):
            check(False, "plain ws:// to the TLS port fails")
    except (websockets.exceptions.InvalidMessage, ConnectionError, EOFError, OSError, asyncio.TimeoutError) as error:
        check(True, f"plain ws:// to the TLS port fails ({type(error).__name__})")

    print("tls interop ok", flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3]))
