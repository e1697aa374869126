"""A connection flood against a host, run as its own process (``python tests/net_flood.py``).

``python net_flood.py HOST PORT SILENT PINGING [BIND]`` opens SILENT TCP connections that
never send a byte, then PINGING connections that finish TLS (no client certificate, as a
pairing device would) and then only send pings, every 0.2 s, never a hello. It prints one
JSON line when the flood is up, holds every connection (never reconnecting) until its stdin
closes or 120 s pass, then prints how many the host closed, closes the rest and exits.
"""
from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from net import certs  # noqa: E402
from net.frames import encode_frame  # noqa: E402
from net.messages import Ping, encode_link  # noqa: E402

LIFETIME = 120.0


async def _silent(host: str, port: int, bind: str | None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket()
    if bind:
        sock.bind((bind, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    return await asyncio.open_connection(sock=sock)


async def _tls(host: str, port: int, bind: str | None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket()
    if bind:
        sock.bind((bind, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    return await asyncio.wait_for(asyncio.open_connection(sock=sock, ssl=certs.client_context(None, None),
                                                          server_hostname=""), 30)


async def _watch(reader: asyncio.StreamReader, closed: list[int]) -> None:
    try:
        while await reader.read(4096):
            pass
    except Exception:
        pass
    closed[0] += 1


async def main(host: str, port: int, silent: int, pinging: int, bind: str | None) -> None:
    closed = [0]
    links: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    watchers = []
    for _ in range(silent):
        links.append(await _silent(host, port, bind))
        watchers.append(asyncio.ensure_future(_watch(links[-1][0], closed)))
    results = await asyncio.gather(*(_tls(host, port, bind) for _ in range(pinging)), return_exceptions=True)
    tls = [r for r in results if isinstance(r, tuple)]
    for r in tls:
        watchers.append(asyncio.ensure_future(_watch(r[0], closed)))
    print(json.dumps({"silent": silent, "tls_ok": len(tls), "tls_failed": pinging - len(tls)}), flush=True)
    ping = encode_frame(encode_link(Ping(1)))
    loop = asyncio.get_running_loop()
    stdin_closed = asyncio.Event()

    def wait_stdin() -> None:
        sys.stdin.read()
        loop.call_soon_threadsafe(stdin_closed.set)
    threading.Thread(target=wait_stdin, daemon=True).start()
    end = loop.time() + LIFETIME
    while not stdin_closed.is_set() and loop.time() < end:
        for _, writer in tls:
            if not writer.is_closing():
                try:
                    writer.write(ping)
                except Exception:
                    pass
        await asyncio.sleep(0.2)
    await asyncio.sleep(0.1)
    print(json.dumps({"closed_by_host": closed[0], "total": silent + pinging}), flush=True)
    for _, writer in links + tls:
        writer.transport.abort()
    for w in watchers:
        w.cancel()


if __name__ == "__main__":
    a = sys.argv[1:]
    asyncio.run(main(a[0], int(a[1]), int(a[2]), int(a[3]), a[4] if len(a) > 4 else None))
    sys.exit(0)
