"""LAN discovery over mDNS/DNS-SD (zeroconf): advertise ME, list PEERS, live (04/U59).

Each running game registers one ``_wec._tcp.local.`` service and browses for the
others. The TXT record carries the display name, protocol version, identity
fingerprint and status; it is untrusted input (anyone on the LAN can send it), so it
is parsed strictly and a bad record is logged and ignored. Identity is decided only
by the TLS pin check in the transport, never by anything seen here.

Threading: ``AsyncDiscovery`` runs inside one asyncio loop (the ``async_`` prefix
means "call in the loop"); ``Discovery`` is the thin sync shell that owns a private
loop thread. Either way the UI drains ``events`` (a thread-safe queue) each frame and
reads ``peers`` / ``me`` snapshots; nothing blocks the UI.

zeroconf binds its sockets once, so a monitor compares the host's IPv4 addresses
every ``rescan_interval`` seconds (and notices a wake from sleep); on a change it
restarts zeroconf on the new interfaces and registers again.
"""
from __future__ import annotations

import asyncio
import enum
import ipaddress
import logging
import queue
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import ifaddr
from zeroconf import DNSQuestionType, IPVersion, NonUniqueNameException, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.loop_thread import start_loop_thread, stop_loop_thread

__all__ = [
    "PROTOCOL_VERSION",
    "SERVICE_TYPE",
    "STATUSES",
    "AsyncDiscovery",
    "Discovery",
    "DiscoveryError",
    "EventKind",
    "HostPortError",
    "MalformedRecord",
    "PeerEvent",
    "PeerInfo",
    "format_txt",
    "parse_host_port",
    "parse_txt",
    "peer_from_service_info",
    "suitable_addresses",
    "woke_from_sleep",
]

log = logging.getLogger(__name__)

SERVICE_TYPE = "_wec._tcp.local."
PROTOCOL_VERSION = 1          # the wire protocol spoken by net.transport; advertised as ``v``
TXT_VERSION = "1"             # layout of our TXT record (RFC 6763 §6.7 ``txtvers``)
STATUSES = ("idle", "hosting", "playing")  # known values; any token matching _STATUS_RE is accepted
RECORD_TTL = 120              # seconds, for every record: a crashed peer drops out within 2 min
RESOLVE_TIMEOUT_MS = 3000     # how long to wait for a peer's SRV/TXT/A after it was seen
WAKE_JUMP = 5.0               # wall clock ahead of monotonic by this much = we were asleep
MAX_NAME_CHARS = 40

_STATUS_RE = re.compile(r"[a-z][a-z0-9-]{0,15}")
_FP_RE = re.compile(r"[0-9a-f]{64}")
_VERSION_RE = re.compile(r"[1-9][0-9]{0,4}")
_HOSTNAME_RE = re.compile(r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                          r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?")
_IFF_UP, _IFF_LOOPBACK, _IFF_MULTICAST = 0x1, 0x8, 0x1000


class DiscoveryError(Exception):
    """Discovery could not start on the requested network interfaces."""


class MalformedRecord(ValueError):
    """A peer's advertisement is missing a field or has a bad value; the peer is ignored."""


class HostPortError(ValueError):
    """The text is not ``host:port`` (for example ``192.168.1.20:41000``)."""


@dataclass(frozen=True, slots=True)
class PeerInfo:
    """One running game as seen on the network (or ME): where to connect and what it says."""

    name: str
    version: int
    fingerprint: str
    status: str
    host: str
    port: int
    instance: str = ""                  # mDNS instance name, unique per running game
    addresses: tuple[str, ...] = ()     # every advertised IPv4 address; ``host`` is the best one


class EventKind(enum.Enum):
    """What happened to a peer (or to ME)."""

    ADDED = "added"
    UPDATED = "updated"
    REMOVED = "removed"
    ME = "me"          # our own advertisement changed (status, port, interfaces)


@dataclass(frozen=True, slots=True)
class PeerEvent:
    """A change for the UI's PEERS / ME lists."""

    kind: EventKind
    peer: PeerInfo


# --- TXT record codec --------------------------------------------------------------


def format_txt(name: str, version: int, fingerprint: str, status: str) -> dict[bytes, bytes]:
    """Our TXT record as zeroconf properties. :raises ValueError: a field we would refuse to parse."""
    txt = {b"txtvers": TXT_VERSION.encode(), b"v": str(version).encode(),
           b"fp": fingerprint.encode(), b"st": status.encode(), b"nm": name.encode("utf-8")}
    parse_txt(txt)  # never advertise what a peer would drop
    return txt


def parse_txt(properties: Mapping[bytes, bytes | None]) -> tuple[str, int, str, str]:
    """Return ``(name, version, fingerprint, status)``. :raises MalformedRecord: naming the field."""
    fields: dict[str, bytes | None] = {}
    for raw_key, value in properties.items():
        key = raw_key.decode("ascii", "replace").lower()   # RFC 6763 §6.4: keys are case-insensitive
        if key in fields:
            raise MalformedRecord(f"duplicate TXT key {key!r}")
        fields[key] = value
    if _txt_field(fields, "txtvers") != TXT_VERSION:
        raise MalformedRecord(f"unsupported txtvers {fields.get('txtvers')!r}")
    version_text = _txt_field(fields, "v")
    if not _VERSION_RE.fullmatch(version_text) or int(version_text) > 65535:
        raise MalformedRecord(f"bad protocol version v={version_text!r}")
    fingerprint = _txt_field(fields, "fp")
    if not _FP_RE.fullmatch(fingerprint):
        raise MalformedRecord(f"bad fingerprint fp={fingerprint!r}")
    status = _txt_field(fields, "st")
    if not _STATUS_RE.fullmatch(status):
        raise MalformedRecord(f"bad status st={status!r}")
    name = _txt_field(fields, "nm")
    _check_name(name)
    return name, int(version_text), fingerprint, status


def peer_from_service_info(info: AsyncServiceInfo, networks: Sequence[ipaddress.IPv4Network] = ()) -> PeerInfo:
    """Build a PeerInfo from a resolved service. :raises MalformedRecord: bad TXT, port or address."""
    name, version, fingerprint, status = parse_txt(info.properties)
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only))
    if not addresses:
        raise MalformedRecord("no IPv4 address")
    if info.port is None or not 0 <= info.port <= 65535:
        raise MalformedRecord(f"bad port {info.port!r}")
    return PeerInfo(name, version, fingerprint, status, _best_address(addresses, networks),
                    info.port, info.name.removesuffix("." + SERVICE_TYPE), addresses)


# --- manual fallback ---------------------------------------------------------------


def parse_host_port(text: str, default_port: int | None = None) -> tuple[str, int]:
    """Parse ``host:port`` typed by the player (IPv4, ``[IPv6]`` or a name). :raises HostPortError:"""
    example = "expected host:port, e.g. 192.168.1.20:41000"
    text = text.strip()
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            raise HostPortError(f"{text!r}: {example}")
        port_text = rest[1:] if rest else None
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise HostPortError(f"{text!r}: {host!r} is not an IPv6 address") from None
    else:
        if text.count(":") > 1:
            raise HostPortError(f"{text!r}: put an IPv6 address in brackets, e.g. [fe80::1]:41000")
        host, sep, port_text_or_empty = text.partition(":")
        port_text = port_text_or_empty if sep else None
        if not _HOSTNAME_RE.fullmatch(host):
            raise HostPortError(f"{text!r}: {host!r} is not a host name or IPv4 address; {example}")
    if port_text is None:
        if default_port is None:
            raise HostPortError(f"{text!r}: missing port; {example}")
        return host, default_port
    if not port_text.isascii() or not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise HostPortError(f"{text!r}: port must be a number from 1 to 65535")
    return host, int(port_text)


# --- interfaces --------------------------------------------------------------------


def suitable_addresses() -> list[str]:
    """IPv4 addresses of interfaces that are up, multicast-capable and not loopback, sorted."""
    found: set[str] = set()
    for adapter in ifaddr.get_adapters():
        flags = _link_flags(adapter.nice_name)
        if flags is not None and (not flags & _IFF_UP or not flags & _IFF_MULTICAST or flags & _IFF_LOOPBACK):
            continue
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str) and not ipaddress.IPv4Address(ip.ip).is_loopback:
                found.add(ip.ip)
    return sorted(found, key=ipaddress.IPv4Address)


def woke_from_sleep(wall0: float, mono0: float, wall1: float, mono1: float) -> bool:
    """True if the wall clock ran ahead of the monotonic one (which stops while suspended)."""
    return (wall1 - wall0) - (mono1 - mono0) > WAKE_JUMP


# --- the async core ----------------------------------------------------------------


class AsyncDiscovery:
    """Advertise ME and keep a live dict of PEERS; every ``async_`` method runs in one loop."""

    def __init__(self, name: str, fingerprint: str, *, port: int = 0, status: str = "idle",
                 version: int = PROTOCOL_VERSION, interfaces: Sequence[str] | None = None,
                 rescan_interval: float = 5.0, confirm_timeout: float = 3.0) -> None:
        """Configure; nothing is sent before ``async_start``. :raises ValueError: bad own field."""
        format_txt(name, version, fingerprint, status)
        _check_port(port)
        self.events: queue.SimpleQueue[PeerEvent] = queue.SimpleQueue()
        self._name, self._fingerprint, self._version = name, fingerprint, version
        self._status, self._port = status, port
        self._explicit = None if interfaces is None else tuple(str(ipaddress.IPv4Address(a)) for a in interfaces)
        self._rescan_interval, self._confirm_timeout = rescan_interval, confirm_timeout
        self._instance = _new_instance_name(fingerprint)
        self._addresses: tuple[str, ...] = ()
        self._networks: list[ipaddress.IPv4Network] = []
        self._peers: dict[str, PeerInfo] = {}
        self._unconfirmed: set[str] = set()
        self._bad: dict[str, str] = {}                 # peer key -> last reason logged
        self._changed = threading.Condition()          # guards _peers for readers in other threads
        self._aiozc: AsyncZeroconf | None = None
        self._browsers: list[AsyncServiceBrowser] = []
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._pending: set[asyncio.Future[Any]] = set()
        self._expire_handle: asyncio.TimerHandle | None = None
        self._monitor: asyncio.Task[None] | None = None
        self._lock: asyncio.Lock | None = None
        self._started = self._closed = False

    @property
    def peers(self) -> dict[str, PeerInfo]:
        """A snapshot of the peers seen now (ME excluded), keyed by lower-case instance name."""
        with self._changed:
            return dict(self._peers)

    @property
    def me(self) -> PeerInfo:
        """What we advertise; ``host`` is empty while no interface is usable."""
        host = self._addresses[0] if self._addresses else ""
        return PeerInfo(self._name, self._version, self._fingerprint, self._status, host,
                        self._port, self._instance_name(), self._addresses)

    def wait_for(self, predicate: Callable[[dict[str, PeerInfo]], bool], timeout: float) -> bool:
        """Block (never in the loop thread) until ``predicate(peers)`` holds; False on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(dict(self._peers)), timeout)

    async def async_start(self) -> None:
        """Start advertising and browsing. :raises DiscoveryError: no requested interface exists."""
        if self._started:
            return
        self._started = True
        self._lock = asyncio.Lock()
        wanted = self._wanted_addresses()
        if self._explicit is not None and not wanted:
            raise DiscoveryError(f"none of the interfaces {', '.join(self._explicit)} exists on this machine")
        async with self._lock:
            await self._async_restart(wanted)
        if self._explicit is not None and not self._addresses:
            await self.async_close()
            raise DiscoveryError(f"cannot use interfaces {', '.join(self._explicit)} for mDNS (see log)")
        self._monitor = asyncio.create_task(self._async_monitor(), name="wec-discovery-monitor")

    async def async_update_status(self, status: str, port: int | None = None) -> None:
        """Advertise a new status (and port). :raises ValueError: bad status or port."""
        format_txt(self._name, self._version, self._fingerprint, status)
        if port is not None:
            _check_port(port)
        self._status, self._port = status, self._port if port is None else port
        if self._lock is None:
            return
        async with self._lock:
            if self._aiozc is not None and not self._closed:
                # zeroconf re-sends a registration or update several times from a task of its own;
                # one still running would re-send the old status after the new one (a host that
                # starts right after the lobby opened showed as "idle", port 0): stop it first.
                for fut in list(self._pending):
                    fut.cancel()
                self._track(await self._aiozc.async_update_service(self._service_info()))
        self._emit(EventKind.ME, self.me)

    async def async_rescan(self) -> None:
        """Restart zeroconf on the current interfaces and browse afresh (the Discover button)."""
        if self._lock is None or self._closed:
            return
        async with self._lock:
            await self._async_restart(self._wanted_addresses())

    async def async_close(self) -> None:
        """Say goodbye and release every socket, task and timer; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._monitor is not None and self._monitor is not asyncio.current_task():
            self._monitor.cancel()
            await asyncio.gather(self._monitor, return_exceptions=True)
        if self._expire_handle is not None:
            self._expire_handle.cancel()
        await self._async_stop_zeroconf()

    # --- internals (all in the loop) ---

    async def _async_monitor(self) -> None:
        """Every rescan_interval: restart on an interface change or after a sleep."""
        wall, mono = time.time(), time.monotonic()
        while not self._closed:
            await asyncio.sleep(self._rescan_interval)
            now_wall, now_mono = time.time(), time.monotonic()
            slept = woke_from_sleep(wall, mono, now_wall, now_mono)
            wall, mono = now_wall, now_mono
            wanted = self._wanted_addresses()   # getifaddrs: microseconds, fine in the loop
            if wanted == self._addresses and not slept:
                continue
            log.info("network changed (%s -> %s%s): restarting discovery", ",".join(self._addresses) or "none",
                     ",".join(wanted) or "none", ", woke from sleep" if slept else "")
            assert self._lock is not None
            async with self._lock:
                if not self._closed:
                    await self._async_restart(wanted)

    async def _async_restart(self, wanted: tuple[str, ...]) -> None:
        """Close zeroconf, start it on ``wanted``, keep peers until they fail to reappear."""
        await self._async_stop_zeroconf(goodbye=False)
        self._addresses, self._networks = wanted, _networks_of(wanted)
        if wanted:
            try:
                await self._async_start_zeroconf()
            except (OSError, NonUniqueNameException, RuntimeError) as exc:
                log.warning("discovery could not start on %s: %s", ",".join(wanted), exc)
                await self._async_stop_zeroconf()
                self._addresses, self._networks = (), []   # the monitor retries next tick
        with self._changed:
            self._unconfirmed = set(self._peers)
        if self._expire_handle is not None:
            self._expire_handle.cancel()
        delay = self._confirm_timeout if self._addresses else 0.0
        self._expire_handle = asyncio.get_running_loop().call_later(delay, self._expire_unconfirmed)
        self._emit(EventKind.ME, self.me)

    async def _async_start_zeroconf(self) -> None:
        """Open zeroconf on our addresses, browse, and register ME without probing."""
        self._aiozc = AsyncZeroconf(interfaces=list(self._addresses), ip_version=IPVersion.V4Only)
        # Two browsers: zeroconf's default asks first with QU (unicast answers), which peers that
        # announced less than a second ago answer at once; but a unicast answer to port 5353 reaches
        # only one of the sockets bound there, so with another responder on this host (avahi, a
        # second game on 127.0.0.1) it is often lost. The QM browser gets multicast answers.
        self._browsers = [AsyncServiceBrowser(self._aiozc.zeroconf, SERVICE_TYPE, handlers=[self._on_change],
                                              question_type=kind) for kind in (DNSQuestionType.QM, None)]
        info = self._service_info()
        try:
            # The instance name ends in 32 random bits, so skipping RFC 6762 probing is safe
            # (cooperating_responders) and ME shows up in ~ms instead of ~1.2 s.
            announced = await self._aiozc.async_register_service(
                info, ttl=None, allow_name_change=True, cooperating_responders=True)
        except NonUniqueNameException:
            self._instance = _new_instance_name(self._fingerprint)
            info = self._service_info()
            announced = await self._aiozc.async_register_service(
                info, allow_name_change=True, cooperating_responders=True)
        self._instance = info.name.removesuffix("." + SERVICE_TYPE)
        self._track(announced)

    async def _async_stop_zeroconf(self, goodbye: bool = True) -> None:
        """Cancel resolutions and the browser, close sockets; goodbyes only when leaving for good."""
        for task in self._resolving.values():
            task.cancel()
        await asyncio.gather(*self._resolving.values(), return_exceptions=True)
        self._resolving.clear()
        for fut in list(self._pending):
            fut.cancel()
        await asyncio.gather(*self._pending, return_exceptions=True)
        self._pending.clear()
        for browser in self._browsers:
            await browser.async_cancel()
        self._browsers = []
        if self._aiozc is not None:
            aiozc, self._aiozc = self._aiozc, None
            if not goodbye:
                # We come straight back under the same name: a goodbye would make every peer
                # drop us and re-add us a moment later. Unregistered here, close() sends none.
                aiozc.zeroconf.registry.async_remove(aiozc.zeroconf.registry.async_get_service_infos())
            try:
                await aiozc.async_close()
            except Exception as exc:  # noqa: BLE001 - a dead interface must not stop the restart
                log.warning("error while closing zeroconf: %s", exc)

    def _on_change(self, zeroconf: Zeroconf, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        """Browser callback (in the loop, must not block): resolve or drop the peer."""
        key = _peer_key(name)
        if self._aiozc is None or zeroconf is not self._aiozc.zeroconf or key == _peer_key(self._service_name()):
            return
        if state_change is ServiceStateChange.Added and key in self._resolving:
            return  # the other browser saw it too: one resolution is enough
        previous = self._resolving.pop(key, None)
        if previous is not None:
            previous.cancel()
        if state_change is ServiceStateChange.Removed:
            self._remove(key)
            return
        task = asyncio.get_running_loop().create_task(self._async_resolve(zeroconf, name, key))
        self._resolving[key] = task
        task.add_done_callback(lambda t: self._resolving.pop(key, None) if self._resolving.get(key) is t else None)

    async def _async_resolve(self, zeroconf: Zeroconf, name: str, key: str) -> None:
        """Fetch SRV/TXT/A for ``name`` and record the peer, or ignore a bad record."""
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            if not await info.async_request(zeroconf, RESOLVE_TIMEOUT_MS, question_type=DNSQuestionType.QM):
                log.info("peer %s did not answer with its address and TXT in time", name)
                return
            peer = peer_from_service_info(info, self._networks)
        except MalformedRecord as exc:
            if self._bad.get(key) != str(exc):   # once per peer and reason: no log flood
                self._bad[key] = str(exc)
                log.warning("ignoring malformed advertisement %r: %s", name, exc)
            self._remove(key)
            return
        self._bad.pop(key, None)
        with self._changed:
            old = self._peers.get(key)
            self._peers[key] = peer
            self._unconfirmed.discard(key)
            self._changed.notify_all()
        if old != peer:
            self._emit(EventKind.ADDED if old is None else EventKind.UPDATED, peer)

    def _remove(self, key: str) -> None:
        """Forget a peer and tell the UI."""
        with self._changed:
            peer = self._peers.pop(key, None)
            self._unconfirmed.discard(key)
            self._changed.notify_all()
        if peer is not None:
            self._emit(EventKind.REMOVED, peer)

    def _expire_unconfirmed(self) -> None:
        """Drop the peers that did not reappear after a restart."""
        self._expire_handle = None
        for key in sorted(self._unconfirmed):
            self._remove(key)

    def _emit(self, kind: EventKind, peer: PeerInfo) -> None:
        """Queue an event for the UI (thread-safe, never blocks)."""
        self.events.put(PeerEvent(kind, peer))

    def _track(self, fut: Any) -> None:
        """Keep zeroconf's announcement future so close() can cancel it."""
        if isinstance(fut, asyncio.Future):
            self._pending.add(fut)
            fut.add_done_callback(self._pending.discard)

    def _wanted_addresses(self) -> tuple[str, ...]:
        """The addresses to use now: the explicit ones that exist, or all suitable ones."""
        if self._explicit is None:
            return tuple(suitable_addresses())
        present = {ip.ip for a in ifaddr.get_adapters() for ip in a.ips if ip.is_IPv4}
        return tuple(a for a in self._explicit if a in present)

    def _instance_name(self) -> str:
        """Our instance label (zeroconf may have renamed it on a clash)."""
        return self._instance

    def _service_name(self) -> str:
        """Our full service name."""
        return f"{self._instance}.{SERVICE_TYPE}"

    def _service_info(self) -> AsyncServiceInfo:
        """The ServiceInfo we register (fresh each time, since zeroconf mutates it)."""
        return AsyncServiceInfo(
            SERVICE_TYPE, self._service_name(), port=self._port,
            properties=format_txt(self._name, self._version, self._fingerprint, self._status),
            server=f"{self._instance}.local.", host_ttl=RECORD_TTL, other_ttl=RECORD_TTL,
            parsed_addresses=list(self._addresses))


# --- the sync shell ----------------------------------------------------------------


class Discovery:
    """AsyncDiscovery on a private loop thread, for sync callers (UI, CLI); a context manager."""

    def __init__(self, name: str, fingerprint: str, *, port: int = 0, status: str = "idle",
                 version: int = PROTOCOL_VERSION, interfaces: Sequence[str] | None = None,
                 rescan_interval: float = 5.0, confirm_timeout: float = 3.0) -> None:
        """Configure; call ``start()`` or use ``with``. :raises ValueError: bad own field."""
        self.core = AsyncDiscovery(name, fingerprint, port=port, status=status, version=version,
                                   interfaces=interfaces, rescan_interval=rescan_interval,
                                   confirm_timeout=confirm_timeout)
        self.events = self.core.events
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._close_lock = threading.Lock()

    @property
    def peers(self) -> dict[str, PeerInfo]:
        """A snapshot of the peers seen now (ME excluded), keyed by instance name."""
        return self.core.peers

    @property
    def me(self) -> PeerInfo:
        """What we advertise."""
        return self.core.me

    def start(self, timeout: float = 10.0) -> Self:
        """Start the loop thread and discovery. :raises DiscoveryError: no requested interface exists."""
        if self._thread is not None:
            return self
        self._loop, self._thread = start_loop_thread("wec-discovery")
        try:
            self._call(self.core.async_start(), timeout)
        except BaseException:
            self.close()
            raise
        return self

    def update_status(self, status: str, port: int | None = None, timeout: float = 5.0) -> None:
        """Advertise a new status (and port). :raises ValueError: bad status or port."""
        format_txt(self.core.me.name, self.core.me.version, self.core.me.fingerprint, status)
        self._call(self.core.async_update_status(status, port), timeout)

    def rescan(self, timeout: float = 10.0) -> None:
        """Restart zeroconf and browse afresh (the Discover button)."""
        self._call(self.core.async_rescan(), timeout)

    def drain_events(self) -> list[PeerEvent]:
        """Every event queued since the last call, oldest first (for the UI frame loop)."""
        out: list[PeerEvent] = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def wait_for(self, predicate: Callable[[dict[str, PeerInfo]], bool], timeout: float) -> bool:
        """Block until ``predicate(peers)`` holds; False on timeout."""
        return self.core.wait_for(predicate, timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Say goodbye, stop the loop thread and close the loop; safe to call twice."""
        with self._close_lock:
            loop, thread, self._loop, self._thread = self._loop, self._thread, None, None
            if loop is None or thread is None:
                return
            stop_loop_thread(loop, thread, self.core.async_close, timeout, "discovery")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _call(self, coro: Any, timeout: float) -> Any:
        """Run a coroutine in the loop thread and wait for its result."""
        if self._loop is None:
            coro.close()
            raise RuntimeError("discovery is not running")
        fut: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return fut.result(timeout)


# --- helpers -----------------------------------------------------------------------


def _txt_field(fields: Mapping[str, bytes | None], key: str) -> str:
    """One required TXT value as strict UTF-8. :raises MalformedRecord:"""
    value = fields.get(key)
    if value is None:
        raise MalformedRecord(f"missing TXT key {key!r}")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedRecord(f"TXT key {key!r} is not UTF-8") from None


def _check_name(name: str) -> None:
    """A display name: 1-40 printable characters, no edge spaces. :raises MalformedRecord:"""
    if not name or len(name) > MAX_NAME_CHARS or name != name.strip():
        raise MalformedRecord(f"bad display name nm={name!r} (1-{MAX_NAME_CHARS} characters, no edge spaces)")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise MalformedRecord(f"display name nm={name!r} has control characters")


def _check_port(port: int) -> None:
    """0 (not accepting connections yet) to 65535. :raises ValueError:"""
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port must be 0-65535, got {port!r}")


def _peer_key(service_name: str) -> str:
    """Dict key for a peer: its instance label in lower case (DNS names ignore case)."""
    return service_name.removesuffix("." + SERVICE_TYPE).lower()


def _new_instance_name(fingerprint: str) -> str:
    """``wec-<12 hex of fingerprint>-<8 random hex>``: unique per running game."""
    return f"wec-{fingerprint[:12]}-{secrets.token_hex(4)}"


def _best_address(addresses: Sequence[str], networks: Iterable[ipaddress.IPv4Network]) -> str:
    """The first address on one of our subnets, else the first advertised."""
    nets = list(networks)
    for address in addresses:
        if any(ipaddress.IPv4Address(address) in net for net in nets):
            return address
    return addresses[0]


def _networks_of(addresses: Sequence[str]) -> list[ipaddress.IPv4Network]:
    """The subnets (from ifaddr prefixes) that our addresses belong to."""
    wanted = set(addresses)
    return [ipaddress.IPv4Network(f"{ip.ip}/{ip.network_prefix}", strict=False)
            for adapter in ifaddr.get_adapters() for ip in adapter.ips
            if ip.is_IPv4 and ip.ip in wanted]


def _link_flags(ifname: str) -> int | None:
    """Linux interface flags from sysfs, or None where unavailable."""
    try:
        return int(Path(f"/sys/class/net/{ifname}/flags").read_text().strip(), 16)
    except (OSError, ValueError):
        return None
