"""Network benchmark: ``python -m net.bench [--netns] [--games N]``.

Goal (issue 10 item 6): per action, "taken -> applied on both sides" within 1.5x the signed
TLS round trip plus one engine check, both measured in the same run: the anchor
(notes/anchors-performance.md §4: the client packs and signs a 215 B frame, a server in
another process unpacks, verifies and signs an ack, the client verifies, over mutual TLS 1.3)
is run over the same link, and the engine check (``apply_action`` of the games' own actions)
in this process, just before the games.

The two installations run in two separate processes (each with its own event loop and
core), over 127.0.0.1 and, with ``--netns`` (root + iproute2), between two network
namespaces joined by a veth pair (tests/netns.py; deleted afterwards). For each link it
prints the pairing time (first contact: TLS without client certificate, commit-reveal,
code, confirmations), the pinned mutual-TLS handshake time, and the median / p99 time
from "action taken" to "applied on both sides" over full bot games (each side measures
its own actions on its own clock), with the write-ahead log fsynced (as shipped) and not.

"Applied on both sides" is the later of the mover's "applied" (its peer's ack in) and the
peer's (its ``shown`` in), both read from perf_counter, the machine's one monotonic clock, in the
two processes. The figures are given for every action, for the quiet public actions of
docs/rulings.md P-10 and P-13 (Moves and article actions without zone test) and for those of
them that asked no question (nothing hidden exchanged at all); ``--compare`` also plays every
game with those shortcuts off in both processes (same seeds, alternating game by game),
``--moves P`` has the bots play a Move with chance P; ``--compare-psi`` also plays every game
with the PSI speed-ups of issue 10 item 6 off (the asker raising the responder's whole set
instead of unblinding, no zone-test values computed ahead: the PSI computation as before them;
the same bytes travel). ``--think MS`` has each bot wait MS milliseconds before each of its
actions, as a player thinks (the session then waits as in a game between people and does its
work ahead, ``PsiPlay.idle_step``); ``--compare-idle`` also plays every game without that work;
``--compare-standing`` also plays every game without the owner's standing zone query (docs/rulings.md
P-14: the owner asks its zone test after each event instead); ``--compare-early`` also plays every
game with the resolver's ``shown`` waiting for the owner's ack (docs/rulings.md P-15 off).
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
#: the guest bot resigns after this many actions: with hidden play (PSI on, the default) a full
#: random game takes minutes, and latency per action is the figure, not the game's length
RESIGN_AFTER = 60


def main(argv: list[str] | None = None) -> int:
    """Parse arguments; run the orchestrator or one peer process."""
    parser = argparse.ArgumentParser(prog="python -m net.bench", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode")
    peer = sub.add_parser("peer", help="(internal) one installation in its own process")
    peer.add_argument("--role", choices=["host", "guest"], required=True)
    peer.add_argument("--dir", type=Path, required=True)
    peer.add_argument("--interface", required=True)
    peer.add_argument("--peer-host")
    peer.add_argument("--port", type=int, default=0)
    peer.add_argument("--seed", type=int, default=11)
    peer.add_argument("--sync", type=int, choices=[0, 1], default=1)
    peer.add_argument("--moves", type=float, default=0.0,
                      help="the chance that a bot plays a Move when it has one (0: engine.random_action)")
    peer.add_argument("--quiet", type=int, choices=[0, 1], default=1,
                      help="the quiet-Move shortcut of docs/rulings.md P-10 (both peers alike)")
    peer.add_argument("--psi-fast", type=int, choices=[0, 1], default=1,
                      help="the PSI speed-ups (unblinding, values computed ahead; both peers alike)")
    peer.add_argument("--standing", type=int, choices=[0, 1], default=1,
                      help="the owner's standing zone query (docs/rulings.md P-14); both peers must agree")
    peer.add_argument("--early", type=int, choices=[0, 1], default=1,
                      help="the resolver's shown on the owner's zone answer, before its ack (docs/rulings.md P-15)")
    peer.add_argument("--idle", type=int, choices=[0, 1], default=1,
                      help="work ahead while waiting (the next zone tests' blindings; both peers alike)")
    peer.add_argument("--think", type=float, default=0.0,
                      help="milliseconds each bot waits before each of its actions, as a player thinks")
    peer.add_argument("--actions", type=int, default=RESIGN_AFTER,
                      help="the guest resigns once it has taken this many actions (RUL-53)")
    anchor = sub.add_parser("anchor", help="(internal) one end of the signed TLS round-trip anchor")
    anchor.add_argument("--role", choices=["server", "client"], required=True)
    anchor.add_argument("--dir", type=Path, required=True)
    anchor.add_argument("--peer-dir", type=Path, required=True)
    anchor.add_argument("--interface", required=True)
    anchor.add_argument("--peer-host")
    anchor.add_argument("--port", type=int, default=0)
    anchor.add_argument("--trips", type=int, default=500)
    parser.add_argument("--netns", action="store_true", help="also run between two network namespaces (root)")
    parser.add_argument("--games", type=int, default=2, help="games per configuration (default 2)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--moves", type=float, default=0.0,
                        help="bots that play a Move with this chance when they have one (more public Moves)")
    parser.add_argument("--compare", action="store_true",
                        help="also play each game without the quiet-Move shortcut (P-10), side by side")
    parser.add_argument("--compare-psi", action="store_true",
                        help="also play each game with the PSI speed-ups off (as before them), side by side")
    parser.add_argument("--compare-standing", action="store_true",
                        help="also play every game without the standing zone query (P-14), side by side")
    parser.add_argument("--compare-early", action="store_true",
                        help="also play every game with the resolver's shown after the owner's ack (P-15 off), "
                             "side by side")
    parser.add_argument("--compare-idle", action="store_true",
                        help="also play each game without the work ahead while waiting, side by side")
    parser.add_argument("--think", type=float, default=0.0,
                        help="milliseconds each bot waits before each action, as a player thinks (default 0)")
    args = parser.parse_args(argv)
    if args.mode == "peer":
        return asyncio.run(_peer(args))
    if args.mode == "anchor":
        return asyncio.run(_anchor(args))
    results = run_bench(args.games, args.netns, args.compare, args.moves, args.compare_psi, args.compare_idle,
                        args.think, args.compare_standing, args.compare_early)
    print(json.dumps(results, indent=2) if args.json else format_results(results))
    return 0


#: the configurations a link runs: (label, WAL fsync, quiet-Move shortcut P-10[, PSI speed-ups[, work
#: ahead while waiting[, standing zone query P-14[, shown before the ack P-15]]]])
SHIPPED = ("shipped (fsync on, P-10 on)", 1, 1)
CONFIGS = (SHIPPED, ("fsync off", 0, 1))
WITHOUT_P10 = ("without P-10 (fsync on)", 1, 0)
SLOW_PSI = ("PSI speed-ups off (fsync on, P-10 on)", 1, 1, 0)
NO_IDLE = ("no work ahead while waiting (fsync on, P-10 on)", 1, 1, 1, 0)
NO_STANDING = ("without P-14 (fsync on, P-10 on)", 1, 1, 1, 1, 0)
NO_EARLY = ("without P-15 (fsync on, P-10 on)", 1, 1, 1, 1, 1, 0)


def run_bench(games: int, netns: bool, compare: bool = False, moves: float = 0.0,
              compare_psi: bool = False, compare_idle: bool = False, think: float = 0.0,
              compare_standing: bool = False, compare_early: bool = False) -> dict[str, Any]:
    """Figures per link and configuration: {link: {label: {...}}} (times in ms)."""
    configs = (CONFIGS + ((WITHOUT_P10,) if compare else ()) + ((SLOW_PSI,) if compare_psi else ())
               + ((NO_IDLE,) if compare_idle else ()) + ((NO_STANDING,) if compare_standing else ())
               + ((NO_EARLY,) if compare_early else ()))
    results: dict[str, Any] = {"load": {"before": _load()}, "moves": moves, "think": think}
    if netns:
        with _netns_module().netns_pair(prefix="wecn") as pair:
            results["netns"] = _link(pair, games, configs, moves, think)
    results["loopback"] = _link(None, games, configs, moves, think)
    results["load"]["after"] = _load()
    return results


def _load() -> list[float]:
    """The 1, 5 and 15 minute load averages (the machine may be shared: noted beside the figures)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def format_results(results: dict[str, Any]) -> str:
    """Anchor, figure, ratio and verdict per link: for every action, and for the quiet public
    Moves alone (P-10: no hidden information is exchanged for them)."""
    lines = ["WEC network benchmark: two processes, TLS 1.3, Ed25519, msgpack, hidden play with PSI. Goal (issue "
             "10 item 6): action taken -> applied on both sides <= 1.5 x signed TLS RTT + 1 engine check (same run)"]
    load = results.get("load", {})
    if results.get("moves"):
        lines.append(f"bots play a Move with chance {results['moves']} when they have one, else engine.random_action")
    if results.get("think"):
        lines.append(f"each bot waits {results['think']:g} ms before each of its actions, as a player thinks "
                     "(the time of taking an action starts after it)")
    lines.append(f"load average (1, 5, 15 min) before {load.get('before')}, after {load.get('after')} "
                 f"on {os.cpu_count()} cores")
    for link, r in results.items():
        if link in ("load", "moves", "think"):
            continue
        a, check = r["anchor"], r["engine_check"]
        lines.append(f"[{link}] anchor: signed TLS round trip (215 B, sign + verify + signed ack + verify, mutual "
                     f"TLS, 2 processes, {a['trips']} trips around the games): median {a['median_ms']:.3f} ms, "
                     f"p99 {a['p99_ms']:.3f} ms; one engine check (apply_action): median {check['median_ms']:.3f} "
                     f"ms, p99 {check['p99_ms']:.3f} ms")
        for label, g in r["configs"].items():
            lines.append(f"[{link}, {label}] pairing {g['pairing_ms']:.1f} ms; pinned mutual TLS handshake "
                         f"{g['handshake_ms']:.2f} ms; mover applied (its peer's ack in): all {_fig(g['mover'])}")
            for kind in ("all", "quiet", "plain", "other"):
                lines.append(f"    applied on both sides, {KINDS[kind]}: {_fig(g[kind])}")
        shipped = r["configs"][SHIPPED[0]]
        for kind in ("plain", "quiet", "all"):
            for stat in ("median", "p99"):
                got = shipped[kind].get(f"{stat}_ms")
                if got is None:
                    continue
                goal = 1.5 * a[f"{stat}_ms"] + check[f"{stat}_ms"]
                ratio = got / a[f"{stat}_ms"]
                lines.append(f"[{link}] {KINDS[kind]}, {stat}: {got:.3f} ms = {ratio:.2f} x the signed round trip; "
                             f"goal 1.5 x {a[stat + '_ms']:.3f} + {check[stat + '_ms']:.3f} = {goal:.3f} ms: "
                             + ("MET" if got <= goal else "NOT MET"))
    return "\n".join(lines)


KINDS = {"all": "every action", "quiet": "quiet public actions (Moves P-10, article actions P-13)",
         "plain": "quiet public actions that asked no question (nothing hidden exchanged)",
         "other": "the others (zone tests, hidden information exchanged)"}


def _fig(f: dict[str, Any]) -> str:
    if not f["actions"]:
        return "no action"
    return f"{f['actions']} actions, median {f['median_ms']:.3f} ms, p99 {f['p99_ms']:.3f} ms"


def _stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"actions": 0}
    return {"actions": len(values), "median_ms": statistics.median(values) * 1e3, "p99_ms": _pct(values, 99) * 1e3}


def _link(pair: Any, games: int, configs: tuple[tuple[Any, ...], ...], moves: float = 0.0,
          think: float = 0.0) -> dict[str, Any]:
    """The anchor runs before and after every game (interleaved, so a machine whose load changes
    during the run weighs on both alike); its figures are over all those round trips. The
    configurations alternate game by game (same seeds), so they are measured side by side."""
    rtts = _anchor_run(pair)
    out: dict[str, Any] = {"engine_check": _engine_check(11), "configs": {}}
    runs: dict[str, list[dict[str, Any]]] = {c[0]: [] for c in configs}
    for n in range(games):
        for label, sync, quiet, *fast in configs:
            runs[label].append(_game(pair, sync, quiet, seed=11 + 2 * n, moves=moves, psi_fast=fast[0] if fast else 1,
                                     idle=fast[1] if len(fast) > 1 else 1, think=think,
                                     standing=fast[2] if len(fast) > 2 else 1,
                                     early=fast[3] if len(fast) > 3 else 1))
            rtts += _anchor_run(pair)
    for label, rs in runs.items():
        rows = [x for r in rs for x in r["actions"]]
        out["configs"][label] = {
            "pairing_ms": statistics.median(r["pairing"] for r in rs) * 1e3,
            "handshake_ms": statistics.median(r["handshake"] for r in rs) * 1e3,
            "mover": _stats([x["mover"] for x in rows]), "all": _stats([x["both"] for x in rows]),
            "quiet": _stats([x["both"] for x in rows if x["quiet"]]),
            "plain": _stats([x["both"] for x in rows if x["plain"]]),
            "other": _stats([x["both"] for x in rows if not x["quiet"]])}
    out["anchor"] = {"median_ms": statistics.median(rtts) * 1e3, "p99_ms": _pct(rtts, 99) * 1e3,
                     "trips": len(rtts)}
    return out


def _game(pair: Any, sync: int, quiet: int, seed: int, moves: float = 0.0, psi_fast: int = 1, idle: int = 1,
          think: float = 0.0, standing: int = 1, early: int = 1) -> dict[str, Any]:
    """One fresh pair of installations: pair, handshakes, a bot game; per action of either side:
    taken -> applied by its mover, and -> applied on both sides (the later of the mover's and the
    peer's "applied", both on the one monotonic clock of this machine: perf_counter)."""
    with tempfile.TemporaryDirectory() as tmp:
        h, g = play_pair("net.bench", pair, tmp, seed, ["--sync", str(sync), "--quiet", str(quiet), "--moves", str(moves),
                                                             "--psi-fast", str(psi_fast), "--idle", str(idle),
                                                             "--think", str(think), "--standing", str(standing),
                                                             "--early", str(early)],
                         wait=30)
        if g["status"] != "finished" or h["status"] != "finished":
            raise SystemExit(f"benchmark game did not finish: host {h['status']}, guest {g['status']}")
        rows = []
        for mover, peer in ((h, g), (g, h)):
            seen = {int(i): t for i, t in peer["peer_applied"].items()}
            for index, taken, applied, q in mover["own"]:
                if index in seen:
                    rows.append({"mover": applied - taken, "both": max(applied, seen[index]) - taken, "quiet": q[0],
                                 "plain": q[0] and q[1] == 0})
        return {"pairing": g["pairing"], "handshake": g["handshake"], "actions": rows}


def play_pair(module: str, pair: Any, tmp: str, seed: int, common: list[str],
              wait: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """A host and a guest peer process of ``python -m module peer`` (in the two namespaces of
    ``pair``, or on 127.0.0.1), data under ``tmp``; the host's and the guest's last reports."""
    host_addr = pair.addr_a if pair else "127.0.0.1"
    guest_addr = pair.addr_b if pair else "127.0.0.1"
    host = _spawn(pair, pair.ns_a if pair else None, ["--role", "host", "--dir", f"{tmp}/host", "--interface",
                                                     host_addr, "--seed", str(seed), *common], module=module)
    procs = [host]
    try:
        port = _read(host)["port"]
        guest = _spawn(pair, pair.ns_b if pair else None,
                       ["--role", "guest", "--dir", f"{tmp}/guest", "--interface", guest_addr, "--peer-host",
                        host_addr, "--port", str(port), "--seed", str(seed + 1), *common], module=module)
        procs.append(guest)
        g, h = _read(guest), _read(host)
    finally:
        for proc in procs:
            try:
                proc.wait(wait)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return h, g


def _engine_check(seed: int) -> dict[str, float]:
    """One engine check of a peer's action (parse + ``apply_action``), over a seeded random game."""
    import random

    import engine.api as engine
    state, rng, times = engine.new_game(), random.Random(seed), []
    while engine.outcome(state) is None and len(times) < 400:
        text = engine.format_action(engine.random_action(state, rng))
        t0 = time.perf_counter()
        new = engine.apply_action(state, engine.parse_action(text))
        times.append(time.perf_counter() - t0)
        state = new
    return {"median_ms": statistics.median(times) * 1e3, "p99_ms": _pct(times, 99) * 1e3}


def _anchor_run(pair: Any) -> list[float]:
    """The signed TLS round trip (anchors §4), server and client in two processes over this link."""
    from net.identity import load_or_create
    with tempfile.TemporaryDirectory() as tmp:
        sdir, cdir = Path(tmp) / "server", Path(tmp) / "client"
        for d in (sdir, cdir):
            d.mkdir()
            load_or_create(d)
        host_addr = pair.addr_a if pair else "127.0.0.1"
        server = _spawn(pair, pair.ns_a if pair else None, ["--role", "server", "--dir", str(sdir), "--peer-dir",
                                                           str(cdir), "--interface", host_addr], mode="anchor")
        try:
            port = _read(server)["port"]
            client = _spawn(pair, pair.ns_b if pair else None,
                            ["--role", "client", "--dir", str(cdir), "--peer-dir", str(sdir), "--interface",
                             pair.addr_b if pair else "127.0.0.1", "--peer-host", host_addr, "--port", str(port)],
                            mode="anchor")
            rtts: list[float] = _read(client)["rtts"]
            client.wait(30)
        finally:
            server.wait(30)
    return rtts


async def _anchor(args: argparse.Namespace) -> int:
    """One end of the anchor: 100 warm-up and ``--trips`` timed round trips on one connection."""
    import msgpack

    from net import certs
    from net.frames import encode_frame, read_frame
    from net.identity import load_or_create
    from net.keys import check_public_key, verify

    me, peer = load_or_create(args.dir), load_or_create(args.peer_dir)
    mine, theirs = certs.make_cert(me), certs.make_cert(peer)
    peer_key = check_public_key(peer.public_bytes)
    if args.role == "server":
        done = asyncio.Event()

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while True:
                try:
                    body = await read_frame(reader, 30, 30)
                except (asyncio.IncompleteReadError, ConnectionError):
                    break
                frame = msgpack.unpackb(body)
                if not verify(peer_key, frame[1], frame[0]):
                    raise SystemExit("anchor: bad signature")
                ack = msgpack.packb([frame[0][-8:], b""])
                writer.write(encode_frame(msgpack.packb([ack, me.sign(ack)])))
                await writer.drain()
            writer.close()
            done.set()
        server = await asyncio.start_server(serve, args.interface, 0,
                                            ssl=certs.server_context(mine, [theirs.cert_pem.decode()]))
        _emit(port=server.sockets[0].getsockname()[1])
        await asyncio.wait_for(done.wait(), 120)
        server.close()
        return 0
    reader, writer = await asyncio.open_connection(args.peer_host, args.port, server_hostname="",
                                                   ssl=certs.client_context(mine, theirs.cert_pem.decode()))
    rtts = []
    for n in range(100 + args.trips):
        t0 = time.perf_counter()
        payload = msgpack.packb([1, bytes(32), me.public_bytes, n, bytes(32),
                                 ["action", {"index": n, "text": "Mc3-c5 G"}], bytes(9)])
        writer.write(encode_frame(msgpack.packb([payload, me.sign(payload)])))   # 215 B frame body
        await writer.drain()
        ack, sig = msgpack.unpackb(await read_frame(reader, 30, 30))
        if not verify(peer_key, sig, ack):
            raise SystemExit("anchor: bad signature on the ack")
        if n >= 100:
            rtts.append(time.perf_counter() - t0)
    writer.close()
    _emit(rtts=rtts)
    return 0


def _spawn(pair: Any, ns: str | None, args: list[str], mode: str = "peer",
           module: str = "net.bench") -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", module, mode, *args]
    kw: dict[str, Any] = dict(stdout=subprocess.PIPE, text=True, cwd=str(REPO))
    return pair.run(ns, argv, **kw) if pair else subprocess.Popen(argv, **kw)


def _read(proc: subprocess.Popen[str]) -> dict[str, Any]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        raise SystemExit(f"benchmark peer exited with status {proc.wait()} (see its stderr)")
    return json.loads(line)


async def _peer(args: argparse.Namespace) -> int:
    import engine.api as engine
    from net import certs
    from net.bot import BotDriver
    from net.identity import load_or_create
    from net.peers import PeerStore
    from net.session import Host, NetConfig, play_as_guest, run_pairing
    from net.transport import Timeouts, connect

    from net.hidden_play import HiddenLockstep

    logging.basicConfig(level=logging.ERROR)
    if not args.idle:
        HiddenLockstep.idle_step = lambda self: False   # type: ignore[method-assign]
    HiddenLockstep.quiet_moves = bool(args.quiet)
    HiddenLockstep.standing_queries = bool(args.standing)
    HiddenLockstep.early_shown = bool(args.early)
    if not args.psi_fast:
        from net import psi
        psi.UNBLIND_COST = float("inf")
        HiddenLockstep.psi_warm = False

    async def yes(code: str, name: str) -> bool:
        return True

    args.dir.mkdir(parents=True)
    cfg = NetConfig(identity=load_or_create(args.dir), data_dir=args.dir, engine=engine, name=args.role,
                    confirm=yes, wal_sync=bool(args.sync), timeouts=Timeouts())
    if args.role == "host":
        bot = _timed(BotDriver, args.moves, args.think)(engine, args.seed, "white")
        host = Host(cfg, bot, args.interface, 0)
        _emit(port=await host.start())
        try:
            out = await host.wait(900)
        finally:
            await host.close()
        _emit(status=out.status, own=bot.own, peer_applied=bot.peer_applied)
        return 0
    bot = _timed(BotDriver, args.moves, args.think)(engine, args.seed, "black", resign_after=args.actions)
    t0 = time.perf_counter()
    link = await connect(args.peer_host, args.port, certs.client_context(None, None), cfg.timeouts)
    await run_pairing(cfg, link, "initiator", link.peer_der)
    pairing = time.perf_counter() - t0
    known = PeerStore(cfg.data_dir).all()[0]
    PeerStore(cfg.data_dir).remember_address(known.fingerprint, f"{args.peer_host}:{args.port}")
    handshakes = []
    for _ in range(20):
        t0 = time.perf_counter()
        link = await connect(args.peer_host, args.port, certs.client_context(cfg.certs, known.cert_pem), cfg.timeouts)
        handshakes.append(time.perf_counter() - t0)
        await link.close()
    await asyncio.sleep(0.05)
    out = await play_as_guest(cfg, bot, args.peer_host, args.port, expected_fp=known.fingerprint)
    _emit(status=out.status, pairing=pairing, handshake=statistics.median(handshakes), own=bot.own,
          peer_applied=bot.peer_applied)
    return 0


def _timed(base: type, moves: float = 0.0, think: float = 0.0) -> type:
    """``base`` (a ``BotDriver``) that also keeps, on this machine's monotonic clock, when each of
    its actions was taken and applied here (and whether it was a quiet Move, P-10), and when
    each of the peer's actions was applied here. With ``think`` (ms) it waits that long before
    each action, as a player would (the session's driver wake-up, ``async_wait``, as in the
    window's bridge), so the session waits as it does in a game between people."""

    class Timed(base):  # type: ignore[misc, valid-type]
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            self.own: list[tuple[int, float, float, tuple[bool, int]]] = []
            self.peer_applied: dict[int, float] = {}
            self._ready: tuple[int, float] | None = None    # (action index, when the thinking ends)

        def decide(self, match: Any) -> Any:
            play = match.play
            if think and play is not None and play.my_move() and not self.resigns_now(play):
                now = time.perf_counter()
                if self._ready is None or self._ready[0] != play.index:
                    self._ready = (play.index, now + think / 1e3)
                if now < self._ready[1]:
                    return None
            return super().decide(match)

        if think:
            async def async_wait(self) -> None:
                ready = self._ready
                await asyncio.sleep(max(0.0, ready[1] - time.perf_counter()) if ready else 0.005)

        def _choose(self, play: Any) -> Any:
            if moves and self.bot is None and self.rng.random() < moves:
                from engine.actions import Move
                options = [a for a in self.engine.legal_actions(play.state_value) if isinstance(a, Move)]
                if options:
                    return self.rng.choice(options)
            return super()._choose(play)

        def on_event(self, event: Any) -> None:
            now = time.perf_counter()
            if event.kind == "applied":
                index = event.data["index"] - 1
                if event.data["mine"]:
                    taken = self._taken.get(index)
                    if taken is not None:
                        self.own.append((index, taken, now, (bool(event.data.get("public_quiet")),
                                                             int(event.data.get("questions", 0)))))
                else:
                    self.peer_applied[index] = now
            super().on_event(event)

    return Timed


def _emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _netns_module() -> ModuleType:
    """tests/netns.py (the bench shares the test harness)."""
    sys.path.insert(0, str(REPO / "tests"))
    return importlib.import_module("netns")


if __name__ == "__main__":
    sys.exit(main())
