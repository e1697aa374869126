"""Added time per action of the PSI exchanges in real network play: ``python -m net.bench_hidden_play_psi
[--games N] [--actions N] [--no-sync]``.

Two installations in this process play seeded random-bot games over mutual TLS on 127.0.0.1
(``net.session``: signed chain messages, the write-ahead log fsynced as shipped unless
``--no-sync``), each game twice in one run: with the network option ``hidden_psi`` 1 (the
default: zone tests, PSI questions and lock searches, net/hidden_play_psi.py) and 0 (zones and
cells in clear). The bots' choices depend only on their partial states, which are equal either
way, so both runs play the same actions. Each bot measures "action taken -> applied on both
sides" for its own actions (net.bot); the added time of an action is the difference between its
two runs. Printed beside the anchor of notes/anchors-performance.md §3 (one X25519 exchange,
22.9 µs) measured in the same run: median and p99 of the added time, the X25519 operations and
PSI messages per action, and the ratio of the median to (operations × the measured X25519 time).
Both peers share one event loop (one core): the figure includes both sides' work.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

import engine.api as engine
from net import psi
from net.bench_hidden_psi import ANCHOR_X25519_US, _blind, _Count, _counted, _pct
from net.bot import BotDriver
from net.identity import load_or_create
from net.session import Host, NetConfig, play_as_guest

OPTIONS = dict(detection_dominance="stealth", stealth_range_detection=True, stealth_detect_range=2,
               submerged_detect_range=1, transport_ground_to_ground_only=False)


async def _yes(code: str, name: str) -> bool:
    return True


def _cfg(root: Path, name: str, sync: bool) -> NetConfig:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    return NetConfig(identity=load_or_create(d), data_dir=d, engine=engine, name=name, confirm=_yes, wal_sync=sync)


async def _game(root: Path, seed: int, actions: int, on: int, sync: bool) -> tuple[list[float], dict[str, Any]]:
    opts = {**OPTIONS, "hidden_psi": on}
    host_bot = BotDriver(engine, seed=seed, colour="white")
    guest_bot = BotDriver(engine, seed=seed + 1, colour="black", requests=[opts], resign_after=actions // 2)
    host = Host(_cfg(root, "host", sync), host_bot, "127.0.0.1", 0)
    port = await host.start()
    t0 = time.perf_counter()
    try:
        guest = await play_as_guest(_cfg(root, "guest", sync), guest_bot, "127.0.0.1", port, attempts=5, backoff=0.05)
        await host.wait(600)
    finally:
        await host.close()
    if guest.status != "finished":
        raise RuntimeError(f"game {seed} (hidden_psi {on}) did not finish: {guest.status} {guest.reason}")
    play = guest.match.play
    stats: dict[str, Any] = {k: play.stats.get(k, 0) for k in ("zone_tests", "psi_questions", "psi_messages")}
    stats["wall"] = time.perf_counter() - t0      # the whole game, start phases and the audit included
    return host_bot.latencies + guest_bot.latencies, stats


def run(games: int, actions: int, sync: bool) -> list[str]:
    key = X25519PrivateKey.from_private_bytes(os.urandom(32))
    peer = X25519PublicKey.from_public_bytes(X25519PrivateKey.generate().public_key().public_bytes_raw())
    lines = [f"load: {os.getloadavg()[0]:.2f} (1-min average at start); WAL fsync {'on' if sync else 'off'}"]
    added: list[float] = []
    with_psi: list[float] = []
    plain: list[float] = []
    ops = msgs = n = 0
    walls = [0.0, 0.0]
    anchor: list[float] = []
    psi.Blinder.blind = _counted                         # type: ignore[method-assign]
    try:
        for g in range(games):
            seed = 31 + 2 * g
            with tempfile.TemporaryDirectory() as tmp:
                base, st0 = asyncio.run(_game(Path(tmp) / "plain", seed, actions, 0, sync))
                ops0 = _Count.ops
                on, stats = asyncio.run(_game(Path(tmp) / "psi", seed, actions, 1, sync))
                ops += _Count.ops - ops0
            if len(on) != len(base):
                raise RuntimeError(f"game {seed}: {len(on)} actions with PSI, {len(base)} without")
            added += [a - b for a, b in zip(on, base)]
            with_psi += on
            plain += base
            msgs += stats["psi_messages"]
            walls[0] += st0["wall"]
            walls[1] += stats["wall"]
            n += len(on)
            t = time.perf_counter()
            for _ in range(200):
                key.exchange(peer)
            anchor.append((time.perf_counter() - t) / 200)
    finally:
        psi.Blinder.blind = _blind                       # type: ignore[method-assign]
    x_us = statistics.median(anchor) * 1e6
    ms = [a * 1e3 for a in added]
    lines.append(f"{games} games, {n} actions over TLS on 127.0.0.1 (both peers in one process)")
    lines.append(f"  anchor X25519 exchange {ANCHOR_X25519_US:.1f} µs | measured here {x_us:.1f} µs | "
                 f"ratio {x_us / ANCHOR_X25519_US:.2f}")
    lines.append(f"  per action without PSI: median {statistics.median(plain) * 1e3:.1f} ms, "
                 f"p99 {_pct(plain, 0.99) * 1e3:.1f} ms; with PSI: median {statistics.median(with_psi) * 1e3:.1f} ms, "
                 f"p99 {_pct(with_psi, 0.99) * 1e3:.1f} ms")
    lines.append(f"  added per action: median {statistics.median(ms):.1f} ms, p99 {_pct(ms, 0.99):.1f} ms; "
                 f"psi messages {msgs / n:.1f} per action (both sides); X25519 ops {ops / n:.0f} per action "
                 f"(both sides, the two audits' honest re-runs of every exchange included)")
    lines.append(f"  whole games (start phases, pairing and the audit included): {walls[0]:.1f} s without PSI, "
                 f"{walls[1]:.1f} s with; {(walls[1] - walls[0]) / n * 1e3:.1f} ms more per action on average")
    floor = (ops / n) * x_us / 1e3
    lines.append(f"  ratio of the mean added time per action, audits included, to (ops x X25519) "
                 f"{(walls[1] - walls[0]) / n * 1e3 / floor:.2f}"
                 if floor else "  no X25519 operation")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.bench_hidden_play_psi", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--no-sync", action="store_true", help="the write-ahead log not fsynced")
    args = parser.parse_args(argv)
    for line in run(args.games, args.actions, not args.no_sync):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
