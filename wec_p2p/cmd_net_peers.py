"""``wec peers``: advertise this installation and list what discovery sees (ME and PEERS, 04/U59)."""
from __future__ import annotations

import argparse
import dataclasses
import json
import socket
import sys
import time
from pathlib import Path
from typing import Any

from net.discovery import MAX_NAME_CHARS, Discovery, DiscoveryError, PeerInfo
from net.peer_names import Marked, mark

MIN_FORGET_PREFIX = 8
FALLBACK_HINT = ("If the other laptop is on this network, multicast may be blocked (hotel or guest "
                 "WiFi): connect by address instead, e.g. `wec join 192.168.1.20:41000`, or start a "
                 "laptop hotspot and join it (docs/network.md).")


def register(subparsers: Any) -> None:
    """Add ``wec peers``."""
    parser = subparsers.add_parser("peers", help="list the games discovery sees on the local network",
                                   description="Advertise this installation and list ME and the PEERS "
                                               "found over mDNS.")
    parser.add_argument("--timeout", type=float, default=3.0,
                        help="seconds to listen (default 3; with --until, the longest wait)")
    parser.add_argument("--until", metavar="NAME_OR_FINGERPRINT",
                        help="stop listening as soon as this peer is listed (its display name, or at least "
                             f"the first {MIN_FORGET_PREFIX} hex digits of its fingerprint); exit 1 if it is "
                             "not listed within --timeout")
    parser.add_argument("--interface", action="append", metavar="IPV4",
                        help="use only this local address (repeatable; default: all suitable interfaces)")
    parser.add_argument("--name", default=default_name(), help="display name to advertise (default: host name)")
    parser.add_argument("--status", default="idle", help="status to advertise (default idle)")
    parser.add_argument("--rescan-interval", type=float, default=5.0, metavar="SECONDS",
                        help="how often to check for network changes (default 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object {me, peers}")
    parser.add_argument("--forget", metavar="FINGERPRINT",
                        help="remove the pin of a paired peer (its fingerprint, or at least its first "
                             f"{MIN_FORGET_PREFIX} hex digits), so that the next connection pairs again")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Listen for ``args.timeout`` seconds (or until ``args.until`` is listed, or an interrupt)
    and print ME and PEERS; 1 if ``--until``'s peer was not listed in time, 2 if discovery cannot start."""
    from net.identity import load_or_create
    from wec_p2p.paths import data_dir

    if args.forget is not None:
        return forget(data_dir(), args.forget)
    fingerprint = load_or_create(data_dir()).fingerprint
    try:
        discovery = Discovery(args.name, fingerprint, status=args.status, interfaces=args.interface,
                              rescan_interval=args.rescan_interval)
    except ValueError as exc:
        print(f"wec peers: {exc}", file=sys.stderr)
        return 2
    try:
        with discovery:
            seen = _listen(discovery, args.timeout, args.until)
            me, peers = discovery.me, sorted(discovery.peers.values(), key=lambda p: (p.name, p.instance))
    except DiscoveryError as exc:
        print(f"wec peers: {exc}", file=sys.stderr)
        return 2
    from net.peers import PeerStore
    pinned = PeerStore(data_dir()).all()
    print(json.dumps({"me": _as_dict(me), "peers": [_marked_dict(m) for m in mark(peers, pinned)]}) if args.json
          else format_listing(me, peers, args.timeout, pinned))
    if not seen:
        print(f"wec peers: {args.until!r} was not listed within {args.timeout:g} s. {FALLBACK_HINT}", file=sys.stderr)
        return 1
    return 0


def _listen(discovery: Discovery, timeout: float, until: str | None) -> bool:
    """Listen ``timeout`` seconds, or until a peer named ``until`` (or whose fingerprint starts with
    it) is listed; an interrupt (Ctrl-C, SIGINT) ends the listening early and the list is printed.
    False if ``until`` was given and not listed."""
    deadline = time.monotonic() + max(0.0, timeout)
    try:
        while until is None or not any(_matches(p, until) for p in list(discovery.peers.values())):
            left = deadline - time.monotonic()
            if left <= 0:
                return until is None
            time.sleep(min(0.05, left))
    except KeyboardInterrupt:
        return until is None or any(_matches(p, until) for p in list(discovery.peers.values()))
    return True


def _matches(peer: PeerInfo, until: str) -> bool:
    """``until`` names ``peer``: its display name, or a prefix of its fingerprint (8+ hex digits)."""
    prefix = until.strip().lower()
    return peer.name == until or (len(prefix) >= MIN_FORGET_PREFIX and peer.fingerprint.startswith(prefix))


def forget(directory: Path, text: str) -> int:
    """Remove the one pinned peer whose fingerprint starts with ``text``; 0 done, 1 none or ambiguous."""
    from net.peers import PeerStore

    prefix = text.strip().lower()
    if len(prefix) < MIN_FORGET_PREFIX or any(ch not in "0123456789abcdef" for ch in prefix):
        print(f"wec peers --forget: {text!r} is not a fingerprint (at least {MIN_FORGET_PREFIX} hex digits, "
              "as `wec peers` and the IDENTITY CHANGED message show them)", file=sys.stderr)
        return 1
    store = PeerStore(directory)
    matches = [p for p in store.all() if p.fingerprint.startswith(prefix)]
    if len(matches) != 1:
        known = ", ".join(f"{p.fingerprint[:16]} ({p.name!r})" for p in (matches or store.all())) or "none"
        what = "several pinned peers match" if matches else "no pinned peer has this fingerprint"
        print(f"wec peers --forget: {what} {prefix!r}; pinned: {known}", file=sys.stderr)
        return 1
    peer = matches[0]
    store.remove(peer.fingerprint)
    print(f"forgot {peer.name!r} ({peer.fingerprint[:16]}): the next connection with it asks to pair again "
          "(compare the code on both screens)")
    return 0


def format_listing(me: PeerInfo, peers: list[PeerInfo], timeout: float, pinned: list[Any] | None = None) -> str:
    """The ME / PEERS table as text; each peer marked pinned, duplicate name or impostor (issue 10 item 3)."""
    lines = ["ME", "  " + _row(me) if me.host else f"  {me.name}  (no usable network interface)", "PEERS"]
    for m in mark(peers, pinned or []):
        lines.append("  " + _row(m.peer) + (f"  [{m.marks()}]" if m.marks() else ""))
    if not peers:
        lines.append(f"  none found in {timeout:g} s. {FALLBACK_HINT}")
    dups = sorted({m.peer.name for m in mark(peers, pinned or []) if m.duplicate})
    for name in dups:
        lines.append(f"WARNING: several devices call themselves {name!r}: only the fingerprint tells them apart")
    return "\n".join(lines)


def default_name() -> str:
    """The host name, trimmed to a valid display name."""
    name = "".join(ch for ch in socket.gethostname() if ch.isprintable()).strip()[:MAX_NAME_CHARS].strip()
    return name or "WEC player"


def _row(peer: PeerInfo) -> str:
    """One aligned line: name, version, status, address, short fingerprint."""
    return (f"{peer.name:<20} v{peer.version:<3} {peer.status:<8} {peer.host}:{peer.port:<6} "
            f"fp {peer.fingerprint[:16]}")


def _marked_dict(m: Marked) -> dict[str, Any]:
    """JSON-ready fields of a marked peer: ``pinned``, ``duplicate_name``, ``not_pinned_as``."""
    return {**_as_dict(m.peer), "pinned": m.pinned, "duplicate_name": m.duplicate, "not_pinned_as": m.not_pinned_as}


def _as_dict(peer: PeerInfo) -> dict[str, Any]:
    """JSON-ready fields."""
    out = dataclasses.asdict(peer)
    out["addresses"] = list(peer.addresses)
    return out
