"""Engine benchmarks, printed as medians: ``python -m wec_p2p.bench`` (issue 2).

- legal-action generation at the standard start;
- legal-action generation in 20 mid-game positions (seeded random games, start of a turn);
- random-game throughput (seeded random legal actions, actions per second);
- legal actions and the cost of applying each Fire in 10 Fire-heavy positions;
- state hash of a mid-game position.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable

from engine import api


def _median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` calls after one warm-up."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _fresh_legal(state: api.GameState) -> Callable[[], object]:
    def run() -> object:
        state.touch()                # drop the per-state caches: measure a cold generation
        return api.legal_actions(state)
    return run


def mid_game_positions(count: int, seed: int = 1) -> list[api.GameState]:
    """Start-of-turn positions from seeded random games, plies 20..120."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = api.new_game()
        target = rng.randrange(20, 120)
        while state.result is None and len(state.history) < target:
            state = api.apply_action(state, api.random_action(state, rng))
        if state.result is None and not state.actions:
            out.append(state)
    return out


def throughput(games: int, actions: int, seed: int = 0) -> tuple[float, int]:
    """Actions per second over seeded random games (uniform choice among legal actions)."""
    total = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        state = api.new_game()
        n = 0
        while state.result is None and n < actions:
            state = api.apply_action(state, rng.choice(api.legal_actions(state)))
            n += 1
        total += n
    return total / (time.perf_counter() - t0), total


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print medians."""
    parser = argparse.ArgumentParser(prog="python -m wec_p2p.bench")
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args(argv)

    start = api.new_game()
    n_start = len(api.legal_actions(start))
    t_start = _median_time(_fresh_legal(start), args.repeat)
    print(f"legal actions, standard start: {n_start} actions, median {t_start * 1e3:.2f} ms")

    positions = mid_game_positions(20)
    medians, counts = [], []
    for state in positions:
        counts.append(len(api.legal_actions(state)))
        medians.append(_median_time(_fresh_legal(state), max(3, args.repeat // 3)))
    print(f"legal actions, 20 mid-game positions: median {statistics.median(counts)} actions, "
          f"median {statistics.median(medians) * 1e3:.2f} ms "
          f"(min {min(medians) * 1e3:.2f}, max {max(medians) * 1e3:.2f})")

    fire_heavy = sorted(mid_game_positions(40, seed=7),
                        key=lambda st: -sum(isinstance(a, api.Fire) for a in api.legal_actions(st)))[:10]
    fires = [[a for a in api.legal_actions(st) if isinstance(a, api.Fire)] for st in fire_heavy]
    gen = [_median_time(_fresh_legal(st), max(3, args.repeat // 3)) for st in fire_heavy]
    print(f"legal actions, 10 Fire-heavy positions: median {statistics.median(len(f) for f in fires)} "
          f"Fires among the actions, median {statistics.median(gen) * 1e3:.2f} ms")
    per_fire = []
    for st, fs in zip(fire_heavy, fires):
        for f in fs[:40]:
            per_fire.append(_median_time(lambda st=st, f=f: api.apply_action(st, f), 3))
    print(f"apply one Fire (resolution, {len(per_fire)} Fires): median "
          f"{statistics.median(per_fire) * 1e6:.0f} us, max {max(per_fire) * 1e3:.2f} ms")

    mid = positions[0]
    t_hash = _median_time(lambda: (mid.touch(), api.state_hash(mid)), args.repeat)
    print(f"state hash, mid-game position: median {t_hash * 1e6:.0f} us")

    rates = [throughput(1, 300, seed=s)[0] for s in range(args.games)]
    print(f"random games: median {statistics.median(rates):.0f} actions/s "
          f"over {args.games} games of 300 actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
