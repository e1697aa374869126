"""Two network namespaces joined by a veth pair, for real multicast tests (needs root + iproute2).

``with netns_pair() as pair:`` creates ``<prefix>-<pid>-<n>-a`` / ``-b`` with
``10.231.N.1/24`` and ``10.231.N.2/24`` on a veth pair, loopback up and the multicast
route on the veth; ``pair.run(pair.ns_a, argv)`` starts a process inside a namespace.
On exit every process started through ``run`` is stopped and both namespaces are
deleted, even after a failure. Namespaces left by crashed earlier runs (same prefix,
dead pid) are deleted first. No traffic leaves these namespaces.
"""
from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

PREFIX = "wect"
_counter = itertools.count(1)


class NetnsUnavailable(RuntimeError):
    """Network namespaces cannot be created here (not root, no iproute2, or no CAP_SYS_ADMIN)."""


@dataclass
class NetnsPair:
    """Names and addresses of a namespace pair, and the processes started in it."""

    ns_a: str
    ns_b: str
    if_a: str
    if_b: str
    addr_a: str
    addr_b: str
    prefix_len: int = 24
    procs: list[subprocess.Popen[Any]] = field(default_factory=list)

    def run(self, ns: str, argv: Sequence[str], **popen_kwargs: Any) -> subprocess.Popen[Any]:
        """Start ``argv`` inside namespace ``ns``; it is stopped when the pair is torn down."""
        self._check_ns(ns)
        proc = subprocess.Popen(["ip", "netns", "exec", ns, *argv], **popen_kwargs)
        self.procs.append(proc)
        return proc

    def ip(self, ns: str, *args: str) -> None:
        """Run ``ip -n ns ARGS`` (e.g. add an address, set a link down). :raises CalledProcessError:"""
        self._check_ns(ns)
        _ip("-n", ns, *args)

    def stop_all(self, timeout: float = 3.0) -> None:
        """Terminate (then kill) every process started here that is still running."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout)

    def _check_ns(self, ns: str) -> None:
        """Refuse any namespace but ours."""
        if ns not in (self.ns_a, self.ns_b):
            raise ValueError(f"{ns!r} is not one of this pair's namespaces")


def check_available() -> None:
    """:raises NetnsUnavailable: with the reason, when namespaces cannot be used here."""
    if os.geteuid() != 0:
        raise NetnsUnavailable("network-namespace tests need root (ip netns add)")
    if shutil.which("ip") is None:
        raise NetnsUnavailable("network-namespace tests need iproute2 (the `ip` command)")


@contextmanager
def netns_pair(prefix: str = PREFIX) -> Iterator[NetnsPair]:
    """Create the pair, yield it, and always stop its processes and delete it."""
    check_available()
    cleanup_stale(prefix)
    n = next(_counter)
    base = f"{prefix}-{os.getpid()}-{n}"
    subnet = (os.getpid() + n) % 250 + 1        # cosmetic: each pair is isolated anyway
    pair = NetnsPair(ns_a=f"{base}-a", ns_b=f"{base}-b", if_a="wecveth-a", if_b="wecveth-b",
                     addr_a=f"10.231.{subnet}.1", addr_b=f"10.231.{subnet}.2")
    try:
        try:
            _ip("netns", "add", pair.ns_a)
            _ip("netns", "add", pair.ns_b)
        except subprocess.CalledProcessError as exc:
            raise NetnsUnavailable(f"cannot create network namespaces: {exc.stderr.strip()}") from exc
        # Created directly inside the namespaces, so the names never clash with the host's.
        _ip("link", "add", pair.if_a, "netns", pair.ns_a, "type", "veth", "peer", "name", pair.if_b,
            "netns", pair.ns_b)
        for ns, ifname, addr in ((pair.ns_a, pair.if_a, pair.addr_a), (pair.ns_b, pair.if_b, pair.addr_b)):
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "addr", "add", f"{addr}/{pair.prefix_len}", "dev", ifname)
            _ip("-n", ns, "link", "set", ifname, "up")
            _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", ifname)
        yield pair
    finally:
        pair.stop_all()
        for ns in (pair.ns_a, pair.ns_b):
            _delete_ns(ns)


def cleanup_stale(prefix: str = PREFIX) -> list[str]:
    """Delete namespaces named ``<prefix>-<pid>-...`` whose pid is dead; return their names."""
    listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=False).stdout
    pattern = re.compile(rf"^{re.escape(prefix)}-(\d+)-\d+-[ab]$")
    deleted = []
    for line in listing.splitlines():
        name = line.split()[0] if line.split() else ""
        match = pattern.match(name)
        if match and not _pid_alive(int(match.group(1))):
            _delete_ns(name)
            deleted.append(name)
    return deleted


def _delete_ns(ns: str) -> None:
    """Kill what still runs in ``ns`` (only our own test processes live there), then delete it."""
    pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True, check=False).stdout
    for pid in pids.split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass
    subprocess.run(["ip", "netns", "del", ns], capture_output=True, check=False)


def _pid_alive(pid: int) -> bool:
    """True if a process with this pid exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _ip(*args: str) -> None:
    """Run one ``ip`` command. :raises CalledProcessError: with stderr captured."""
    subprocess.run(["ip", *args], capture_output=True, text=True, check=True)
