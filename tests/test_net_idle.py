"""Work ahead while waiting stops for a pending frame (issue 10 item 6; net/transport.py
``Link.pending``, used by net/session.py ``GameConnection._idle``): over a real TCP socket on
127.0.0.1, nothing pending until the peer writes; its bytes pending (in the socket, then in the
stream's buffer) until the frame is read; nothing pending after. 00/HQ-10 (the zone tests whose
values the waiting side computes ahead)."""
from __future__ import annotations

import asyncio

from net.frames import encode_frame, read_frame
from net.transport import Link, Timeouts
from net_helpers import run


async def _pair() -> tuple[Link, asyncio.StreamWriter, asyncio.AbstractServer]:
    accepted: asyncio.Queue[asyncio.StreamWriter] = asyncio.Queue()

    async def on_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await accepted.put(writer)

    server = await asyncio.start_server(on_client, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    return Link(reader, writer, None, Timeouts(), "test"), await accepted.get(), server


async def _until(pred: object, guard: float = 30.0) -> None:
    async with asyncio.timeout(guard):      # a hang guard, not a margin
        while not pred():                   # type: ignore[operator]
            await asyncio.sleep(0.001)


def test_hq_10_a_frame_from_the_peer_is_pending_until_it_is_read() -> None:
    async def go() -> None:
        link, peer, server = await _pair()
        try:
            for _ in range(20):             # the loop runs with nothing to read: never pending
                await asyncio.sleep(0)
                assert link.pending() is False
            peer.write(encode_frame(b"\x93\x01\x02\x03"))
            await peer.drain()
            await _until(link.pending)
            body = await read_frame(link.reader, 30, 30)
            assert body == b"\x93\x01\x02\x03"
            assert link.pending() is False
        finally:
            link.writer.close()
            peer.close()
            server.close()
            await server.wait_closed()
    run(go())
