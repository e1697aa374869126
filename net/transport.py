"""TLS 1.3 links carrying framed link messages, with deadlines on every read.

``Link`` reads frames under per-frame deadlines, answers pings, sends a ping when the link
is idle and declares the peer dead after ``Timeouts.dead`` seconds without any frame; a
peer that floods (too many frames per second), sends garbage or stops reading is
disconnected with a logged reason. Connections are opened by ``connect`` (client) and
``accept_tls`` (server, TLS started per connection so the pins are always current).
"""
from __future__ import annotations

import asyncio
import logging
import select
import ssl
import time
from dataclasses import dataclass
from typing import Awaitable, Callable

from net.certs import check_session
from net.errors import PeerTimeout, ProtocolError
from net.frames import encode_frame, read_frame
from net.messages import (LICENCE_REFUSAL_VERSION, LicenceRefused, Message, Ping, Pong, Refuse, Stopped,
                          decode_link, encode_link)

log = logging.getLogger("wec.net")


@dataclass(frozen=True)
class Timeouts:
    """Deadlines and caps (anchors-reliability §3.3); tests pass short ones."""

    connect: float = 5.0
    handshake: float = 10.0
    hello: float = 10.0        # from the end of the TLS handshake to the peer's hello (pings do not extend it)
    shutdown: float = 5.0
    frame: float = 10.0
    ping: float = 5.0
    dead: float = 20.0
    confirm: float = 120.0
    max_frames_per_second: int = 2000
    max_unsent: int = 1 << 20
    max_unauthenticated: int = 32   # connections not yet authenticated (TCP, TLS, hello, pairing), in total
    max_per_address: int = 8        # ... and per remote address; over either cap the oldest is dropped


class PeerRefused(ProtocolError):
    """The peer closed the link with a reason (a ``refuse`` message)."""


class PeerStopped(PeerRefused):
    """The peer stopped the game and closed the link (a ``stopped`` message): it will not resume
    it. ``reason``: the peer's diagnosis."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the other side stopped the game: {reason}")
        self.reason = reason


class OurLicenceRefused(PeerRefused):
    """The peer refused *our* licence token at hello (a ``licence-refused`` message; issue 5)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"the other side refused our licence ({code}): {detail}; no game was started")
        self.code, self.detail = code, detail


class Link:
    """One authenticated TLS connection. ``peer_der`` is the peer certificate (None if it sent none)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peer_der: bytes | None,
                 timeouts: Timeouts, label: str) -> None:
        self.reader, self.writer, self.peer_der = reader, writer, peer_der
        self.timeouts, self.label = timeouts, label
        self._pings = 0
        self._window_start, self._window_frames = time.monotonic(), 0
        self.closed = False
        self.stalled = False   # a write did not complete in time: the peer stopped reading

    def pending(self) -> bool:
        """Whether bytes from the peer wait to be read: in the stream's buffer (asyncio's
        ``StreamReader`` has no public accessor for it) or in the socket. A caller doing work
        ahead (``GameConnection._idle``) stops then, so a frame is never kept waiting."""
        if getattr(self.reader, "_buffer", None):
            return True
        sock = self.writer.get_extra_info("socket")
        if sock is None or self.closed:
            return False
        try:
            if hasattr(select, "poll"):     # any descriptor number (select() stops at 1024)
                poller = select.poll()
                poller.register(sock.fileno(), select.POLLIN)
                return bool(poller.poll(0))
            return bool(select.select([sock.fileno()], [], [], 0)[0])
        except (OSError, ValueError):
            return True

    async def recv(self) -> Message:
        """Next non-ping message. :raises PeerTimeout, ProtocolError, PeerRefused, ConnectionError."""
        t = self.timeouts
        last = time.monotonic()
        while True:
            wait = min(t.ping, max(0.0, last + t.dead - time.monotonic()))
            try:
                try:
                    body = await read_frame(self.reader, wait, t.frame)
                except asyncio.TimeoutError:
                    if time.monotonic() - last < t.dead:
                        if self.reader.at_eof():
                            raise ConnectionError("peer closed the connection") from None
                        self._pings += 1
                        await self.send(Ping(self._pings))
                        continue
                    # The deadline passed, but a busy machine may have run our timer in the same
                    # loop turn as the read that brought the peer's frame: a frame already
                    # received is taken (at once, no waiting) before the peer is declared dead.
                    try:
                        body = await read_frame(self.reader, 0, t.frame)
                    except asyncio.TimeoutError:
                        raise PeerTimeout(f"peer silent for {t.dead:g} s (no frame, no pong)") from None
            except asyncio.IncompleteReadError:
                raise ConnectionError("peer closed the connection") from None
            last = time.monotonic()
            self._count_frame(last)
            msg = decode_link(body)
            if isinstance(msg, Ping):
                await self.send(Pong(msg.n))
            elif isinstance(msg, Refuse):
                raise PeerRefused(f"peer refused: {msg.reason}")
            elif isinstance(msg, Stopped):
                raise PeerStopped(msg.reason)
            elif isinstance(msg, LicenceRefused):
                raise OurLicenceRefused(msg.code, msg.detail)
            elif not isinstance(msg, Pong):
                return msg

    async def send(self, msg: Message) -> None:
        """Send one message. :raises PeerTimeout: the peer stopped reading."""
        if self.closed:
            raise ConnectionError("link closed")
        self.writer.write(encode_frame(encode_link(msg)))
        unsent = self.writer.transport.get_write_buffer_size()
        if unsent > self.timeouts.max_unsent:
            self.stalled = True
            raise PeerTimeout(f"peer stopped reading (over {self.timeouts.max_unsent} bytes unsent)")
        if unsent == 0 and not self.writer.transport.is_closing():
            return   # all handed to the kernel: nothing to wait for (no deadline to arm per frame)
        try:
            async with asyncio.timeout(self.timeouts.frame):   # no task per frame, unlike wait_for
                await self.writer.drain()
        except TimeoutError:
            self.stalled = True
            raise PeerTimeout(f"peer did not read our frame within {self.timeouts.frame:g} s") from None

    async def close(self, reason: str | None = None, stopped: bool = False) -> None:
        """Close (after telling the peer ``reason``: a ``stopped`` message if we ``stopped`` the
        game, else a ``refuse``); safe to call twice.

        A link whose peer stopped reading (``stalled``) is aborted at once: no goodbye, no TLS
        close_notify, no unsent data to flush, so its socket does not linger."""
        if self.closed:
            return
        if self.stalled:
            log.info("%s: closing: peer stopped reading; connection aborted", self.label)
            self.closed = True
            self.writer.transport.abort()
            return
        if reason:
            log.info("%s: closing: %s", self.label, reason)
            try:
                await self.send(Stopped(reason[:512]) if stopped else Refuse(reason[:512]))
                if stopped:
                    # as ``refuse``: the peer may be writing (a claim's receipt wait, a ping); a
                    # close with its bytes unread would reset the connection, and a reset can
                    # destroy our ``stopped`` before the peer reads it (issue 10 item 1). Read and
                    # drop until it closes, at most ``Timeouts.shutdown``.
                    async with asyncio.timeout(self.timeouts.shutdown):
                        while await self.reader.read(65536):
                            pass
            except asyncio.CancelledError:
                self.abort()
                raise
            except Exception:
                pass
        self.closed = True
        self.writer.close()
        try:   # not wait_for: it drops a cancellation that comes as the close completes (net.aio)
            async with asyncio.timeout(self.timeouts.shutdown):
                await self.writer.wait_closed()
        except asyncio.CancelledError:
            self.abort()   # cancelled while closing: no socket left behind
            raise
        except Exception:
            pass

    def abort(self) -> None:
        """Drop the connection at once (no goodbye, nothing flushed); safe to call twice."""
        self.closed = True
        self.writer.transport.abort()

    async def recv_hello(self) -> Message:
        """The peer's first message, within ``Timeouts.hello`` in all (pings do not extend it).

        :raises PeerTimeout: no hello in time."""
        try:
            async with asyncio.timeout(self.timeouts.hello):
                return await self.recv()
        except TimeoutError:
            raise PeerTimeout(f"no hello within {self.timeouts.hello:g} s") from None

    async def refuse(self, reason: str) -> None:
        """Tell the peer ``reason`` (a ``refuse``), then close without losing that message: like
        ``refuse_licence``, read and discard until the peer closes (at most ``Timeouts.shutdown``)."""
        if self.closed:
            return
        log.info("%s: closing: %s", self.label, reason)
        try:
            await self.send(Refuse(reason[:512]))
            async with asyncio.timeout(self.timeouts.shutdown):
                while await self.reader.read(65536):
                    pass
        except asyncio.CancelledError:
            self.abort()
            raise
        except Exception:
            pass
        await self.close()

    async def refuse_licence(self, code: str, detail: str) -> None:
        """Tell the peer its licence was refused, then close without losing that message.

        The peer may already be writing (it accepted our hello); closing with unread data would
        reset the connection and could destroy our message before it is read. So we keep reading
        (and discarding) until the peer closes, or ``Timeouts.shutdown`` passes, then close.
        """
        if self.closed:
            return
        log.info("%s: closing: licence refused (%s): %s", self.label, code, detail)
        try:
            await self.send(LicenceRefused(LICENCE_REFUSAL_VERSION, code[:32], detail[:512]))
            async with asyncio.timeout(self.timeouts.shutdown):
                while await self.reader.read(65536):
                    pass
        except asyncio.CancelledError:
            self.abort()
            raise
        except Exception:
            pass
        await self.close()

    def _count_frame(self, now: float) -> None:
        if now - self._window_start >= 1.0:
            self._window_start, self._window_frames = now, 0
        self._window_frames += 1
        if self._window_frames > self.timeouts.max_frames_per_second:
            raise ProtocolError(f"flood: more than {self.timeouts.max_frames_per_second} frames per second")


async def connect(host: str, port: int, ctx: ssl.SSLContext, timeouts: Timeouts) -> Link:
    """Open a TLS link to ``host:port``.

    :raises ConnectionError/OSError: no answer. :raises ssl.SSLError: handshake refused.
    :raises ProtocolError: not TLS 1.3 / not wec/1.
    """
    try:   # asyncio.timeout, not wait_for, which may drop a cancellation (net.aio)
        async with asyncio.timeout(timeouts.connect + timeouts.handshake):
            reader, writer = await asyncio.open_connection(host, port, ssl=ctx, server_hostname="",
                                                           ssl_handshake_timeout=timeouts.handshake,
                                                           ssl_shutdown_timeout=timeouts.shutdown)
    except TimeoutError:
        raise ConnectionError(f"no answer from {host}:{port} within {timeouts.connect + timeouts.handshake:g} s") from None
    return _checked(reader, writer, timeouts, f"{host}:{port}")


class _Accepted(asyncio.Protocol):
    """A fresh TCP connection, not read from until TLS starts (so no ClientHello byte is lost)."""

    def __init__(self, on_connection: "Callable[[asyncio.Transport], Awaitable[None]]",
                 tasks: "set[asyncio.Task[None]]") -> None:
        self.on_connection, self.tasks = on_connection, tasks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.pause_reading()
        task = asyncio.ensure_future(self.on_connection(transport))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        task.add_done_callback(lambda t: _abort_if_cancelled(t, transport))


def _abort_if_cancelled(task: "asyncio.Task[None]", transport: asyncio.Transport) -> None:
    """A connection's task was cancelled (the listener closes), perhaps before it ever ran: its
    socket is closed here, or nothing else would."""
    if task.cancelled() and not transport.is_closing():
        transport.abort()


async def listen(host: str, port: int, on_connection: "Callable[[asyncio.Transport], Awaitable[None]]",
                 tasks: "set[asyncio.Task[None]]") -> asyncio.AbstractServer:
    """Listen for TCP connections; each one is handed to ``on_connection`` (as a task kept in ``tasks``)."""
    loop = asyncio.get_running_loop()
    return await loop.create_server(lambda: _Accepted(on_connection, tasks), host, port)


async def accept_tls(transport: asyncio.Transport, ctx: ssl.SSLContext, timeouts: Timeouts) -> Link:
    """Server side: run the TLS handshake (with a deadline) on an accepted TCP connection.

    :raises ssl.SSLError: handshake failed (e.g. an unpinned client certificate).
    """
    loop = asyncio.get_running_loop()
    peer = transport.get_extra_info("peername")
    reader = asyncio.StreamReader(loop=loop)
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
    try:
        async with asyncio.timeout(timeouts.handshake + 1):   # not wait_for (net.aio)
            tls = await loop.start_tls(transport, protocol, ctx, server_side=True,
                                       ssl_handshake_timeout=timeouts.handshake)
    except BaseException:
        transport.close()
        raise
    if tls is None:
        raise ConnectionError("connection closed during the TLS handshake")
    writer = asyncio.StreamWriter(tls, protocol, reader, loop)
    return _checked(reader, writer, timeouts, f"{peer[0]}:{peer[1]}" if peer else "?")


def _checked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, timeouts: Timeouts, label: str) -> Link:
    ssl_object = writer.get_extra_info("ssl_object")
    try:
        der = check_session(ssl_object)
    except ProtocolError:
        writer.close()
        raise
    return Link(reader, writer, der, timeouts, label)
