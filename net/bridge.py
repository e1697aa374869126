"""The network side a window drives: discovery, pairing, setup and play on a private loop thread.

STYLE "Async boundaries": the asyncio core (``net.discovery``, ``net.session``) runs in one
thread of its own; the front end's frame loop posts commands (``post``, never blocks) and
drains ``events`` (a ``queue.SimpleQueue`` of ``net.frontend`` values). Neither awaits the
other. One bridge serves one session at a time: ``Host`` or ``Join``, then the game, then
``SessionEnded``; a dropped link is resumed by the session itself (``ConnectionLost``, then
``Resumed``). ``close()`` is safe to call twice and from any thread but the loop's.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

from net import frontend as fe
from net.discovery import AsyncDiscovery, DiscoveryError, HostPortError, PeerInfo, parse_host_port
from net.loop_thread import start_loop_thread, stop_loop_thread
from net.errors import IdentityChanged, NetError, PairingFailed
from net.human import HumanDriver
from net.lobby import diagnose, local_interfaces, peers_snapshot
from net.peer_names import listing, resolve
from net.peers import KnownPeer, PeerStore
from net.session import Host, NetConfig, Outcome, play_as_guest

log = logging.getLogger("wec.net")


@dataclass(frozen=True)
class BridgeConfig:
    """Where and how the bridge plays. ``interfaces``: IPv4 addresses for mDNS and listening
    (None: every suitable interface, listening on all); short timings are for tests."""

    net: NetConfig
    interfaces: Sequence[str] | None = None
    port: int = 0
    discovery: bool = True
    hint_after: float = 5.0          # seconds of an empty lobby before NothingFound
    refresh: float = 0.1             # how often the lobby model is brought up to date
    rescan_interval: float = 5.0
    resume_attempts: int = 30
    backoff: float = 0.5


class NetBridge:
    """Runs the network core in its own thread; the front end posts commands and drains events."""

    def __init__(self, cfg: BridgeConfig) -> None:
        self.cfg = cfg
        self.events: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.net = dataclasses.replace(cfg.net, confirm=self._async_confirm)
        self.driver = HumanDriver(self.net.engine, self.events.put, on_link=self._on_link)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._close_lock = threading.Lock()
        self._commands: asyncio.Queue[Any] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._disc: AsyncDiscovery | None = None
        self._host: Host | None = None
        self._session: asyncio.Task[Any] | None = None
        self._confirming: asyncio.Future[bool] | None = None
        self._pinned_before: set[str] | None = None     # pins when the pairing code was shown
        self._shown: fe.PeersChanged | None = None
        self._pins: list[KnownPeer] | None = None     # the pinned peers (read again after each change)
        self._hinted = False
        self._contact = False     # a peer reached us (pairing or a game): the lobby needs no diagnosis
        self._port = 0

    # ---- the front end's side (any thread but the loop's) ----

    def start(self, timeout: float = 10.0) -> Self:
        """Start the loop thread, discovery and the lobby. :raises DiscoveryError: bad interface."""
        if self._thread is not None:
            return self
        self._loop, self._thread = start_loop_thread("wec-net-bridge")
        try:
            asyncio.run_coroutine_threadsafe(self._async_start(), self._loop).result(timeout)
        except BaseException:
            self.close()
            raise
        return self

    def post(self, command: Any) -> None:
        """Hand one ``net.frontend`` command to the network thread (never blocks).

        :raises RuntimeError: the bridge is not running."""
        loop, commands = self._loop, self._commands
        if loop is None or commands is None or loop.is_closed():
            raise RuntimeError("the network bridge is not running")
        loop.call_soon_threadsafe(commands.put_nowait, command)

    def set_new_game(self, on: bool) -> None:
        """``--new-game`` for the connections from now on: an unfinished game with the peer that
        connects is set aside (``NetConfig.new_game``); the window sets it for one connection."""
        self.net.new_game = on

    def drain(self) -> list[Any]:
        """Every event queued since the last call, oldest first (once per frame)."""
        out: list[Any] = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def close(self, timeout: float = 10.0) -> None:
        """End the session and discovery, stop the thread; safe to call twice."""
        with self._close_lock:
            loop, thread, self._loop, self._thread = self._loop, self._thread, None, None
            if loop is None or thread is None:
                return
            stop_loop_thread(loop, thread, self._async_close, timeout, "network bridge")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # ---- the loop's side ----

    async def _async_start(self) -> None:
        self._commands = asyncio.Queue()
        net = self.net
        if self.cfg.discovery:
            self._disc = AsyncDiscovery(net.name[:40], net.identity.fingerprint, status="idle",
                                        interfaces=self.cfg.interfaces, rescan_interval=self.cfg.rescan_interval)
            await self._disc.async_start()
        self._spawn(self._async_commands())
        self._spawn(self._async_lobby())

    async def _async_close(self) -> None:
        if self._confirming is not None and not self._confirming.done():
            self._confirming.set_result(False)
        if self._session is not None:
            self._session.cancel()
            await asyncio.gather(self._session, return_exceptions=True)
        if self._host is not None:
            await self._host.close()
            self._host = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._disc is not None:
            await self._disc.async_close()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _async_commands(self) -> None:
        assert self._commands is not None
        while True:
            cmd = await self._commands.get()
            try:
                await self._command(cmd)
            except Exception as exc:  # noqa: BLE001 - a bad command must not stop the bridge
                log.warning("command %r failed: %r", cmd, exc)
                self.events.put(fe.CommandRefused(cmd, str(exc)))

    async def _command(self, cmd: Any) -> None:
        if isinstance(cmd, fe.GAME_COMMANDS):
            if not self.driver.connected:
                self.events.put(fe.CommandRefused(cmd, "not connected to the other laptop: wait until it is back"))
                return
            self.driver.push(cmd)
        elif isinstance(cmd, fe.ConfirmCode):
            if self._confirming is None or self._confirming.done():
                self.events.put(fe.CommandRefused(cmd, "no pairing code is waiting for an answer"))
                return
            self._confirming.set_result(cmd.yes)
        elif isinstance(cmd, (fe.Host, fe.Join)):
            if self._session is not None and not self._session.done():
                self.events.put(fe.CommandRefused(cmd, "a session is already running (Quit it first)"))
                return
            self._session = self._spawn(self._async_host() if isinstance(cmd, fe.Host) else self._async_join(cmd))
        elif isinstance(cmd, fe.Rescan):
            if self._disc is not None:
                await self._disc.async_rescan()
        elif isinstance(cmd, fe.ForgetPeer):
            found = PeerStore(self.net.data_dir).remove(cmd.fingerprint)
            if not found:
                self.events.put(fe.CommandRefused(cmd, f"no pinned peer has fingerprint {cmd.fingerprint[:16]}"))
            self._pins = None
        elif isinstance(cmd, fe.Quit):
            await self._async_quit()
        else:
            self.events.put(fe.CommandRefused(cmd, f"unknown command {type(cmd).__name__}"))

    async def _async_quit(self) -> None:
        """End the session (an unfinished game stays in the log and resumes next time)."""
        if self._session is not None and not self._session.done():
            self._session.cancel()
            await asyncio.gather(self._session, return_exceptions=True)
        if self._host is not None:
            await self._host.close()
            self._host = None
        self.driver.connected = False
        await self._status("idle", 0)

    # ---- sessions ----

    async def _async_host(self) -> None:
        interface = self.cfg.interfaces[0] if self.cfg.interfaces else "0.0.0.0"
        host = Host(self.net, self.driver, interface, self.cfg.port)
        host.connections = _Watched(self._host_connection)   # pairing outcomes (public list)
        try:
            self._port = await host.start()
        except OSError as exc:
            self.events.put(fe.Problem(f"cannot listen on {interface}:{self.cfg.port}: {exc}"))
            return
        self._host = host
        await self._status("hosting", self._port)
        self.events.put(fe.Hosting(self._port, self._me().addresses))
        try:
            outcome = await host.wait(None)
        finally:
            self.driver.connected = False
        await host.close()
        self._host = None
        self._ended(outcome)
        await self._status("idle", 0)

    async def _async_join(self, cmd: fe.Join) -> None:
        try:
            host, port, expected = self._target(cmd.target)
        except HostPortError as exc:
            self.events.put(fe.Problem(str(exc)))
            return
        store = PeerStore(self.net.data_dir)
        pinned = store.get(expected) if expected else store.by_address(f"{host}:{port}")
        try:
            outcome = await play_as_guest(self.net, self.driver, host, port, expected_fp=expected,
                                          attempts=self.cfg.resume_attempts, backoff=self.cfg.backoff)
        except IdentityChanged as exc:
            fp = pinned.fingerprint if pinned is not None else (expected or "")
            forget = f"wec peers --forget {fp[:16]}" if pinned is not None else ""   # nothing pinned: nothing to forget
            self.events.put(fe.IdentityWarning(str(exc), fp, forget))
            return
        except PairingFailed as exc:
            self.events.put(fe.PairingFailed(str(exc)))
            return
        except (NetError, ConnectionError, OSError) as exc:
            self.events.put(fe.Problem(str(exc)))
            return
        finally:
            self.driver.connected = False
            await self._status("idle", 0)
        self._ended(outcome)

    def _target(self, text: str) -> tuple[str, int, str | None]:
        """(host, port, expected fingerprint) of a Join target: a lobby key (the entry clicked), a
        name or a fingerprint prefix (``net.peer_names.resolve``: names are claims), or host:port.

        :raises HostPortError: unknown, ambiguous, or a pinned peer's name on another identity."""
        seen = list(self._disc.peers.values()) if self._disc is not None else []
        wanted = text.strip()
        for peer in seen:
            if peer.instance.lower() == wanted.lower():
                return peer.host, peer.port, peer.fingerprint
        found = resolve(wanted, seen, PeerStore(self.net.data_dir).all(), final=True)
        for warning in found.warnings:
            self.events.put(fe.Problem(warning))
        if found.peer is not None:
            return found.peer.host, found.peer.port, found.peer.fingerprint
        if found.choices:
            raise HostPortError(f"several devices answer {wanted!r}:\n{listing(found.choices)}\ncompare the "
                                "fingerprints with the other screen and choose one in the lobby")
        if found.refused is not None:
            raise HostPortError(found.refused)
        try:
            host, port = parse_host_port(text)
        except HostPortError:
            raise HostPortError(f"{text!r} is no game in the lobby and not host:port "
                                "(for example 192.168.1.20:41000)") from None
        return host, port, None

    def _ended(self, outcome: Outcome) -> None:
        self.events.put(fe.SessionEnded(outcome.status, outcome.reason, outcome.outcome,
                                        str(outcome.transcript) if outcome.transcript else None))

    def _host_connection(self, outcome: Outcome) -> None:
        """A connection to our host ended: report pairing results (the game reports itself)."""
        if outcome.status == "paired":
            self._remembered()
        elif outcome.status == "refused" and self._pinned_before is not None:
            self._pinned_before = None
            self.events.put(fe.PairingFailed(outcome.reason))
        elif outcome.status == "refused":            # a paired peer's game refused here: say so here too
            self.events.put(fe.Problem(f"refused the other laptop's connection: {outcome.reason}"))

    def _on_link(self, up: bool) -> None:
        """The driver heard link-up / link-lost: a connection finished pairing, or dropped."""
        if up:
            self._contact = True
            self._remembered()
            self._spawn(self._status("playing", None))

    # ---- pairing (called by net.session in the loop) ----

    async def _async_confirm(self, code: str, peer_name: str) -> bool:
        self._contact = True
        self._pinned_before = {p.fingerprint for p in PeerStore(self.net.data_dir).all()}
        self._confirming = asyncio.get_running_loop().create_future()
        self.events.put(fe.PairingCode(code, peer_name))
        try:
            return await self._confirming
        finally:
            self._confirming = None

    def _remembered(self) -> None:
        """Emit PeerRemembered for the pins made since the pairing code was shown."""
        if self._pinned_before is None:
            return
        for peer in PeerStore(self.net.data_dir).all():
            if peer.fingerprint not in self._pinned_before:
                self.events.put(fe.PeerRemembered(peer.name, peer.fingerprint))
        self._pinned_before = None
        self._pins = None   # the peer's lobby state is now "paired"

    # ---- the lobby ----

    async def _async_lobby(self) -> None:
        """Keep PEERS / ME up to date, and explain an empty lobby after ``hint_after`` seconds."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        while True:
            snapshot = fe.PeersChanged(self._peers(), self._me())
            if snapshot != self._shown:
                self._shown = snapshot
                self.events.put(snapshot)
            if (not self._hinted and not snapshot.peers and not self._contact and self.cfg.hint_after >= 0
                    and loop.time() - started >= self.cfg.hint_after):
                self._hinted = True
                self.events.put(fe.NothingFound(diagnose(local_interfaces(), self._port)))
            await asyncio.sleep(self.cfg.refresh)

    def _peers(self) -> tuple[fe.LobbyPeer, ...]:
        if self._disc is None:
            return ()
        if self._pins is None:
            self._pins = PeerStore(self.net.data_dir).all()
        return peers_snapshot(self._disc.peers.values(), self._pins, self.net.identity.fingerprint)

    def _me(self) -> fe.Me:
        if self._disc is not None:
            me: PeerInfo = self._disc.me
            return fe.Me(me.name, me.fingerprint, me.addresses, me.port, me.status)
        addresses = tuple(self.cfg.interfaces or (ip for _, ip in local_interfaces()))
        return fe.Me(self.net.name, self.net.identity.fingerprint, addresses, self._port,
                     "hosting" if self._host is not None else "idle")

    async def _status(self, status: str, port: int | None) -> None:
        if self._disc is not None:
            try:
                await self._disc.async_update_status(status, port)
            except (ValueError, DiscoveryError, OSError) as exc:
                log.warning("discovery status %s: %s", status, exc)


class _Watched(list):  # type: ignore[type-arg]
    """``Host.connections`` that also calls ``on_append`` for each connection's outcome."""

    def __init__(self, on_append: Any) -> None:
        super().__init__()
        self.on_append = on_append

    def append(self, item: Any) -> None:
        super().append(item)
        self.on_append(item)

