"""Hidden-information crypto benchmark: ``python -m net.bench_hidden [--rounds N]``.

Measured in one run, interleaved, beside the anchors of ``notes/anchors-performance.md`` §3:

* the per-turn commitment (100 salted leaves and their root), the hashing part alone (values
  encoded, salts drawn: 200 SHA-256 against the anchor's 100), opening and checking one leaf,
  and checking all 100 from a ``turn-open`` (the audit's work per turn), against 100 salted
  SHA-256 commitments ``sha256(salt32 + value64)`` with hashlib (anchor: 28.4 µs per batch);
* one PSI exchange of 10 cells x 10 cells (modes ``set`` and ``first``, both sides, messages
  encoded and decoded), against one X25519 exchange (anchor: 22.9 µs). A DH-PSI of n x m cells
  needs 2(n + m) X25519 operations, so 40 is the floor here.

Prints anchor, figure and ratio (medians over the rounds).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time
from typing import Callable

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from net.commitments import (Context, RandomSalts, _leaves, _levels, _root, commit_turn, verify_leaf,
                             verify_turn)
from net.hidden_messages import PsiStep, TurnOpen, decode_hidden, encode_hidden
from net.psi import PsiAsker, PsiContext, PsiResponder, new_secrets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.bench_hidden", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="interleaved rounds (default 30)")
    args = parser.parse_args(argv)
    for line in run(args.rounds):
        print(line)
    return 0


def run(rounds: int) -> list[str]:
    """The report lines (medians in µs)."""
    game = hashlib.sha256(b"bench").digest()
    ctx = Context(game, "W", 40)
    rows = {i: [i, "PN", "W", i // 10, i % 10, "G", "", [], 0, False, None, []] for i in range(100)}
    salts = [os.urandom(32) for _ in range(100)]
    values = [os.urandom(64) for _ in range(100)]
    tc = commit_turn(ctx, rows, 100, RandomSalts())
    key = X25519PrivateKey.generate()
    peer = X25519PrivateKey.generate().public_key()
    a_cells = [(3, c, "S") for c in range(10)]
    b_cells = [(r, 4, "S") for r in range(10)]

    def anchor_sha() -> None:
        sha = hashlib.sha256
        for s, v in zip(salts, values):
            sha(s + v).digest()

    def commit() -> None:
        commit_turn(ctx, rows, 100, RandomSalts())

    def hashing() -> None:
        _root(ctx, 100, _levels(_leaves(ctx, tc.values, tc.salts))[-1][0])

    def open_one() -> None:
        verify_leaf(ctx, 100, tc.root, tc.open(57))

    audit_ops = TurnOpen.of(tc).openings(game)

    def open_all() -> None:
        verify_turn(ctx, 100, tc.root, audit_ops)

    figures: dict[str, list[float]] = {k: [] for k in
                                       ("anchor_sha", "commit", "hashing", "open_one", "open_all", "anchor_x", "psi_set", "psi_first")}
    jobs: dict[str, Callable[[], None]] = {
        "anchor_sha": anchor_sha, "commit": commit, "hashing": hashing, "open_one": open_one, "open_all": open_all,
        "anchor_x": lambda: key.exchange(peer),
        "psi_set": lambda: _psi(game, "set", a_cells, b_cells),
        "psi_first": lambda: _psi(game, "first", a_cells, b_cells),
    }
    for _ in range(rounds):
        for name, job in jobs.items():
            figures[name].append(_time(job, 20 if name.startswith("psi") else 200))
    med = {k: statistics.median(v) for k, v in figures.items()}
    sha, x = med["anchor_sha"], med["anchor_x"]
    lines = [f"{'figure':58} {'anchor µs':>10} {'figure µs':>10} {'ratio':>7}"]
    for label, name, anchor in (
            ("commit 100 leaves + Merkle root (one turn)", "commit", sha),
            ("  of which hashing: 100 leaves + 99 nodes + root", "hashing", sha),
            ("open + verify one leaf of 100 (a revealed piece)", "open_one", sha),
            ("verify a turn-open of 100 slots (the audit, per turn)", "open_all", sha),
            ("PSI 10 x 10 cells, mode set (HQ-10), both sides", "psi_set", x),
            ("PSI 10 x 10 cells, mode first (HQ-1), 10 steps", "psi_first", x)):
        lines.append(f"{label:58} {anchor:10.1f} {med[name]:10.1f} {med[name] / anchor:7.2f}")
    lines.append(f"anchors: 100 salted SHA-256 (hashlib) {sha:.1f} µs (notes: 28.4); "
                 f"one X25519 exchange {x:.1f} µs (notes: 22.9); PSI floor = 40 exchanges = {40 * x:.0f} µs")
    return lines


def _psi(game: bytes, mode: str, a_cells: list, b_cells: list) -> None:
    """One whole exchange, both sides in this process, every message through the codec."""
    ctx = PsiContext(game, 40, 1, "HQ-10" if mode == "set" else "HQ-1", "B")
    asker = PsiAsker(ctx, mode, a_cells, 10, b"a" * 32, b"b" * 32, *new_secrets())
    resp = PsiResponder(ctx, mode, 10, b_cells, 10, b"b" * 32, *new_secrets())
    reply = resp.on_query(decode_hidden(encode_hidden(asker.query())))
    out = asker.on_reply(decode_hidden(encode_hidden(reply)), 10)
    while isinstance(out, PsiStep):
        r = resp.on_step(decode_hidden(encode_hidden(out)))
        out = asker.on_step_reply(decode_hidden(encode_hidden(r)))
    resp.on_result(decode_hidden(encode_hidden(out)))


def _time(job: Callable[[], None], n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        job()
    return (time.perf_counter() - t0) / n * 1e6


if __name__ == "__main__":
    raise SystemExit(main())
