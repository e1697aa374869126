"""Cost of the PSI exchanges of ``net.hidden_psi``: ``python -m net.bench_hidden_psi [--games N]
[--actions N]``.

Seeded random games from the standard start, in one process, played twice per game in one
run: with ``engine.partial.play`` (the values in clear, the baseline) and with
``net.hidden_psi.play`` (the zone test each way after every event; the remote ``first`` /
``any_on`` / ``open_on`` of hidden actors through PSI), messages encoded and decoded. Prints,
beside the anchor of ``notes/anchors-performance.md`` §3 (one X25519 exchange: 22.9 µs) measured
in the same run: per exchange kind the X25519 operations, the time (median, p99) and the ratio
to (operations × the measured X25519 time); per action the added time (median, p99), the
operations, messages and round trips. Network latency is not included (in-process).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import time
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from engine import api
from engine.actions import Fire
from engine.partial import Side, play as plain_play
from net import hidden_psi as hp
from net import psi
from net.hidden_messages import PsiReply, PsiStepReply, decode_hidden, encode_hidden

ANCHOR_X25519_US = 22.9
OPTION_SETS = {"defaults": {}, "stealth range detection": dict(stealth_range_detection=True,
                                                                stealth_detect_range=2)}


class _Count:
    ops = 0


_blind = psi.Blinder.blind


def _counted(self: psi.Blinder, u: bytes, what: str = "value") -> bytes:
    _Count.ops += 1
    return _blind(self, u, what)


class BenchLink(hp.Link):
    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        roots = {s: hashlib.sha256(s.encode()).digest() for s in "BW"}
        super().__init__(hashlib.sha256(b"bench").digest(), roots,
                         lambda: (rng.randbytes(32), rng.randbytes(32)))
        self.per_kind: dict[str, list[tuple[float, int]]] = {}
        self.messages = self.bytes = self.trips = 0
        self._t0 = 0.0
        self._ops0 = 0

    def next_qid(self) -> int:
        self._t0, self._ops0 = time.perf_counter(), _Count.ops
        return super().next_qid()

    def send(self, msg: Any, own_cells: Any, ctx: Any) -> Any:
        raw = encode_hidden(msg)
        self.messages += 1
        self.bytes += len(raw)
        if isinstance(msg, (PsiReply, PsiStepReply)):
            self.trips += 1
        return decode_hidden(raw)

    def plain(self, owner: Side, q: Any) -> Any:
        if q.kind == "open_on":
            self.trips += 1          # the follow-up in clear (counted only for PSI follow-ups)
        return super().plain(owner, q)

    def exchanged(self, kind: str, asker: Any, responder: Any, truth: Any) -> None:
        self.per_kind.setdefault(kind, []).append((time.perf_counter() - self._t0, _Count.ops - self._ops0))


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]


def run(games: int, actions: int) -> list[str]:
    key = X25519PrivateKey.from_private_bytes(os.urandom(32))
    peer = X25519PublicKey.from_public_bytes(X25519PrivateKey.generate().public_key().public_bytes_raw())
    lines = [f"load: {os.getloadavg()[0]:.2f} (1-min average at start)"]
    psi.Blinder.blind = _counted                         # type: ignore[method-assign]
    try:
        for name, opts in OPTION_SETS.items():
            link = BenchLink(1)
            added: list[float] = []
            ops_per_action: list[int] = []
            anchor: list[float] = []
            n_actions = 0
            for g in range(games):
                rng = random.Random(100 + g)
                omni = api.new_game(api.Options(**opts))
                base = {s: Side.from_omniscient(omni, s) for s in "BW"}
                sides = {s: Side.from_omniscient(omni, s) for s in "BW"}
                for _ in range(actions):
                    if omni.result is not None:
                        break
                    acts = api.legal_actions(omni)
                    fires = [a for a in acts if isinstance(a, Fire)]
                    action = rng.choice(fires if fires and rng.random() < 0.5 else acts)
                    omni = api.apply_action(omni, action)
                    t = time.perf_counter()
                    plain_play(base, action)
                    t_plain = time.perf_counter() - t
                    ops0 = _Count.ops
                    t = time.perf_counter()
                    hp.play(link, sides, action)
                    t_psi = time.perf_counter() - t
                    added.append(t_psi - t_plain)
                    ops_per_action.append(_Count.ops - ops0)
                    t = time.perf_counter()
                    for _ in range(20):
                        key.exchange(peer)
                    anchor.append((time.perf_counter() - t) / 20)
                    n_actions += 1
            x_us = statistics.median(anchor) * 1e6
            lines.append(f"[{name}] {games} games, {n_actions} actions from the standard start")
            lines.append(f"  anchor X25519 exchange {ANCHOR_X25519_US:.1f} µs | measured here {x_us:.1f} µs | "
                         f"ratio {x_us / ANCHOR_X25519_US:.2f}")
            for kind, rows in sorted(link.per_kind.items()):
                ms = [r[0] * 1e3 for r in rows]
                ops = statistics.mean(r[1] for r in rows)
                floor = ops * x_us / 1e3
                lines.append(f"  exchange {kind:8s} n={len(rows):5d}  X25519 ops {ops:6.1f}  "
                             f"median {statistics.median(ms):7.2f} ms  p99 {_pct(ms, 0.99):7.2f} ms  "
                             f"ratio to ops x X25519 {statistics.median(ms) / floor:.2f}")
            ms = [a * 1e3 for a in added]
            lines.append(f"  per action: added {statistics.median(ms):.1f} ms median, {_pct(ms, 0.99):.1f} ms p99; "
                         f"X25519 ops {statistics.mean(ops_per_action):.0f}; messages "
                         f"{link.messages / n_actions:.1f} ({link.bytes / n_actions / 1024:.1f} KiB); "
                         f"round trips {link.trips / n_actions:.1f}")
    finally:
        psi.Blinder.blind = _blind                       # type: ignore[method-assign]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.bench_hidden_psi", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--actions", type=int, default=60)
    args = parser.parse_args(argv)
    for line in run(args.games, args.actions):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
