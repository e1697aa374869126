"""The equivalence run of issue 8: ``python tests/run_hidden_games.py [--games 100] [--wec 10]``.

Plays ``--games`` seeded network games of hidden play over real TLS on 127.0.0.1 (``--wec`` of them
as two ``wec`` processes, the rest between two in-process installations), cycling over every
option set of tests/test_partial.py and both starts (standard, the crowded skirmish), and prints
the report of tests/hidden_games.py: games passed (final states equal to the omniscient replay,
both audits passed, no leak), question kinds and the HQ items they serve, the hiding reasons and
rules met, the leak scanner's counts. Exit 0 when every game passed.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hidden_games import check, check_wec, failed, plan, play_game, play_wec_game, summarize  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--wec", type=int, default=10, help="how many of them as two wec processes")
    p.add_argument("--actions", type=int, default=60, help="actions before a side resigns (the audit runs)")
    p.add_argument("--first-seed", type=int, default=0)
    args = p.parse_args(argv)
    results = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="wec-hidden-") as root:
        for k, (name, seed, start) in enumerate(plan(args.games, args.first_seed)):
            tmp = Path(root) / f"g{k}"
            how = "wec processes" if k >= args.games - args.wec else "in-process"
            try:
                if how == "wec processes":
                    game = play_wec_game(tmp, name, seed, start, resign_after=args.actions // 2)
                    checked = check_wec(game)
                else:
                    game = play_game(tmp, name, seed, start, actions=args.actions)
                    checked = check(game)
            except Exception as exc:      # a hung or crashed game is a failed game, the run goes on
                game, checked = failed(name, seed, start, f"{type(exc).__name__}: {exc}")
            results.append((game, checked))
            print(f"game {k + 1:3d} {name:<18} {start:<9} seed {seed:3d} {how:<13} {checked.actions:4d} actions "
                  f"{checked.hidden_actions:3d} hidden {game.seconds:5.1f} s {'ok' if checked.ok else 'FAILED'}",
                  flush=True)
    print()
    print(summarize(results))
    print(f"wall time {time.perf_counter() - t0:.0f} s; load {os.getloadavg()[0]:.2f}")
    return 0 if all(ch.ok for _, ch in results) else 1


if __name__ == "__main__":
    sys.exit(main())
