"""Hidden-information exchanges over the network: ``python -m net.bench_hidden_net [--netns]
[--games N] [--actions N] [--turns N]``.

One command for issue 8's "Benchmark" item and issue 10 item 6's yardstick:

* **Added time per action** of the hidden-information exchanges (net/hidden_play_psi.py), PSI on
  (network option ``hidden_psi`` 1, the default) and off (0), beside the signed TLS round trip
  (notes/anchors-performance.md §4, ``net.bench``'s anchor) measured over the same link in the
  same run. The two installations run in two processes (each its own event loop and core), over
  127.0.0.1 and, with ``--netns`` (root + iproute2), between two network namespaces joined by a
  veth pair (tests/netns.py). Each seeded bot game is played twice, with PSI and without: the
  bots' choices depend only on their partial states, which are equal either way, so both runs
  play the same actions and the added time of an action is the difference of its two
  "taken -> applied on both sides" times (net.bot, each side its own actions, WAL fsynced).
* **The whole audit of a 100-turn game** (issue 8 item 5): an in-process seeded game of
  ``--turns`` turns with PSI on (net.hidden_pair), then a resignation; the time of each side's
  ``audit_peer`` (the honest re-run of the peer, every commitment, answer and PSI message).

Prints median and p99 per figure, the ratio to the round trip, and the load average.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from net.bench import _anchor_run, _emit, _load, _netns_module, _pct, play_pair

#: options that bring the zone tests (both zones), locks and hidden movers into play
OPTIONS = dict(detection_dominance="stealth", stealth_range_detection=True, stealth_detect_range=2,
               submerged_detect_range=1, transport_ground_to_ground_only=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.bench_hidden_net", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode")
    peer = sub.add_parser("peer", help="(internal) one installation in its own process")
    peer.add_argument("--role", choices=["host", "guest"], required=True)
    peer.add_argument("--dir", type=Path, required=True)
    peer.add_argument("--interface", required=True)
    peer.add_argument("--peer-host")
    peer.add_argument("--port", type=int, default=0)
    peer.add_argument("--seed", type=int, default=11)
    peer.add_argument("--psi", type=int, choices=[0, 1], default=1)
    peer.add_argument("--actions", type=int, default=40)
    parser.add_argument("--netns", action="store_true", help="also run between two network namespaces (root)")
    parser.add_argument("--games", type=int, default=2, help="games per link (each played with and without PSI; 0: none)")
    parser.add_argument("--actions", type=int, default=40, help="actions per game before the guest resigns")
    parser.add_argument("--turns", type=int, default=100, help="turns of the audited in-process game (0: skip)")
    args = parser.parse_args(argv)
    if args.mode == "peer":
        return asyncio.run(_peer(args))
    print(f"load average (1, 5, 15 min) {_load()} on {os.cpu_count()} cores", flush=True)
    links: list[tuple[str, Any]] = [("loopback", None)]
    if args.netns:
        ns = _netns_module().netns_pair(prefix="wech")
        pair = ns.__enter__()
        links.append(("netns", pair))
    try:
        for name, pair in links if args.games else []:
            for line in _link(name, pair, args.games, args.actions):
                print(line, flush=True)
    finally:
        if args.netns:
            ns.__exit__(None, None, None)
    if args.turns:
        for line in audit_bench(args.turns):
            print(line, flush=True)
    print(f"load average after {_load()}", flush=True)
    return 0


def _link(name: str, pair: Any, games: int, actions: int) -> list[str]:
    rtts = _anchor_run(pair)
    added: list[float] = []
    on: list[float] = []
    off: list[float] = []
    for g in range(games):
        seed = 31 + 2 * g
        base = _game(pair, seed, actions, 0)
        with_psi = _game(pair, seed, actions, 1)
        rtts += _anchor_run(pair)
        if len(base) != len(with_psi):
            raise SystemExit(f"game {seed}: {len(with_psi)} actions with PSI, {len(base)} without")
        added += [a - b for a, b in zip(with_psi, base)]
        on += with_psi
        off += base
    rtt = statistics.median(rtts) * 1e3
    rtt99 = _pct(rtts, 99) * 1e3

    def fig(xs: list[float]) -> str:
        m, p = statistics.median(xs) * 1e3, _pct(xs, 99) * 1e3
        return f"median {m:.1f} ms ({m / rtt:.1f} x RTT), p99 {p:.1f} ms ({p / rtt99:.1f} x RTT p99)"

    return [f"[{name}] signed TLS round trip (anchor, {len(rtts)} trips): median {rtt:.3f} ms, p99 {rtt99:.3f} ms",
            f"[{name}] {len(on)} actions in {games} games (two processes, WAL fsynced), taken -> applied on both sides:",
            f"[{name}]   hidden_psi 0: {fig(off)}",
            f"[{name}]   hidden_psi 1: {fig(on)}",
            f"[{name}]   added by PSI per action: {fig(added)}"]


def _game(pair: Any, seed: int, actions: int, psi: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        h, g = play_pair("net.bench_hidden_net", pair, tmp, seed, ["--psi", str(psi), "--actions", str(actions)],
                         wait=60)
    if g["status"] != "finished" or h["status"] != "finished":
        raise SystemExit(f"benchmark game {seed} (hidden_psi {psi}) did not finish: host {h['status']}, "
                         f"guest {g['status']}")
    return h["latencies"] + g["latencies"]


async def _peer(args: argparse.Namespace) -> int:
    import engine.api as engine
    from net.bot import BotDriver
    from net.identity import load_or_create
    from net.session import Host, NetConfig, play_as_guest

    logging.basicConfig(level=logging.ERROR)

    async def yes(code: str, name: str) -> bool:
        return True

    args.dir.mkdir(parents=True)
    cfg = NetConfig(identity=load_or_create(args.dir), data_dir=args.dir, engine=engine, name=args.role,
                    confirm=yes, wal_sync=True)
    if args.role == "host":
        bot = BotDriver(engine, seed=args.seed, colour="white")
        host = Host(cfg, bot, args.interface, 0)
        _emit(port=await host.start())
        try:
            out = await host.wait(900)
        finally:
            await host.close()
        _emit(status=out.status, latencies=bot.latencies)
        return 0
    bot = BotDriver(engine, seed=args.seed, colour="black", requests=[{**OPTIONS, "hidden_psi": args.psi}],
                    resign_after=args.actions // 2)
    out = await play_as_guest(cfg, bot, args.peer_host, args.port, attempts=5, backoff=0.05)
    _emit(status=out.status, latencies=bot.latencies)
    return 0


def audit_bench(turns: int, seed: int = 5) -> list[str]:
    """An in-process game of ``turns`` turns with PSI on, then the audits (both sides)."""
    import engine.api as engine
    import net.hidden_play as hidden_play
    from net.hidden_pair import HiddenPair

    from net import psi

    times: list[float] = []
    ops: list[int] = []
    real = hidden_play.audit_peer
    blind = psi.Blinder.blind
    count = [0]

    def counted(self: Any, u: bytes, what: str = "value") -> bytes:
        count[0] += 1
        return blind(self, u, what)

    def timed(m: Any) -> Any:
        t0, n0 = time.perf_counter(), count[0]
        try:
            return real(m)
        finally:
            times.append(time.perf_counter() - t0)
            ops.append(count[0] - n0)

    options = engine.Options(**OPTIONS)
    pair = HiddenPair(engine, options)
    rng = random.Random(seed)
    psi.Blinder.blind = counted             # type: ignore[method-assign]
    t0 = time.perf_counter()
    actions = 0
    while pair.mover is not None and not pair.stops and pair.machines["white"].turn < turns:
        m = pair.machines[pair.mover]
        legal = engine.legal_actions(m.state_value)
        ends = [a for a in legal if isinstance(a, engine.EndTurn)]
        action = ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)
        pair.act(engine.format_action(action), legal=True)
        actions += 1
    play = time.perf_counter() - t0
    play_ops = count[0]
    white = pair.machines["white"]
    reached = white.turn
    hidden_play.audit_peer = timed          # type: ignore[assignment]
    try:
        if pair.mover is not None:
            pair.command(pair.mover, pair.machines[pair.mover].resign())
    finally:
        hidden_play.audit_peer = real       # type: ignore[assignment]
        psi.Blinder.blind = blind           # type: ignore[method-assign]
    verdicts = [m.verdict.ok if m.verdict is not None else None for m in pair.machines.values()]
    if pair.stops or not all(verdicts) or len(times) != 2:
        raise SystemExit(f"audited game: stops {pair.stops[:2]}, verdicts {verdicts}")
    msgs = sum(1 for _ in pair.wire)
    return [f"[audit] in-process game of {reached} turns ({actions} actions, {msgs} signed messages, PSI on, "
            f"{white.stats['zone_tests']} zone tests by white), played in {play:.1f} s, "
            f"{play_ops / max(1, actions):.0f} X25519 operations per action (both sides)",
            f"[audit] whole audit (honest re-run of the peer, every commitment, answer and PSI message): "
            f"white {times[0]:.2f} s, black {times[1]:.2f} s; {statistics.mean(times) / max(1, actions) * 1e3:.1f} ms "
            f"per action per side; X25519 operations white {ops[0]}, black {ops[1]}"]


if __name__ == "__main__":
    sys.exit(main())
