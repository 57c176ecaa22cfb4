#!/usr/bin/env python3
"""The Python peer of the relay benchmark: a websockets server that sends
every message it receives to every connected client, the sender included,
as a user would write it (websockets' asyncio server and broadcast(),
one event loop).

    python3 bench/broadcast_server.py --port 7703
"""
import argparse
import asyncio

from websockets.asyncio.server import broadcast, serve
from websockets.exceptions import ConnectionClosed

CLIENTS = set()


async def relay(connection):
    CLIENTS.add(connection)
    try:
        async for message in connection:
            broadcast(CLIENTS, message)
    except ConnectionClosed:
        pass
    finally:
        CLIENTS.discard(connection)


async def main():
    parser = argparse.ArgumentParser(description="WebSocket broadcast server for neonsync bench relay --peer raw")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7703)
    args = parser.parse_args()
    async with serve(relay, args.host, args.port, max_size=None, compression=None, ping_interval=None):
        print(f"listening on ws://{args.host}:{args.port}/", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
