"""Bot tournaments: ``python -m wec_p2p.tournament --games 50 --a search --b greedy``.

Plays ``--games`` games between two bot levels, colours alternating (game 1: A is Black, who
moves first, RUL-1), each bot deciding from its own ``observe()`` view only. A game that reaches
``--max-plies`` is adjudicated (docs/rulings.md AI-3): the side ahead by at least
``--margin`` pawn units of material (``engine.ai_eval.material``, on the full state, as an
arbiter would count) wins, otherwise it is a draw. Prints the results table, each level's
median, p99 and maximum time per turn (a turn = all of one side's choices in one ply), the
turns over the budget by more than 20 %, and the search nodes per second beside python-chess
push+pop measured in the same run (anchor: ../shared/notes/anchors-performance.md; the
``chess`` package is optional, the line is skipped without it).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field

from engine import api
from engine.ai import DEFAULT_NODES, DEFAULT_SECONDS, LEVELS, Bot
from engine.ai_eval import material

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"


@dataclass
class Stats:
    """What one level did over the tournament."""

    turn_times: list[float] = field(default_factory=list)
    nodes: int = 0
    think: float = 0.0


def play_game(a: str, b: str, a_black: bool, seed: int, options: api.Options, max_plies: int,
              margin: float, seconds: float, stats: dict[str, Stats],
              nodes: int | None = None, clock: bool = True,
              turn_nodes: int | None = None) -> tuple[str, str, int]:
    """One game; returns (winner "a"/"b"/"draw", how it ended, plies)."""
    black, white = (a, b) if a_black else (b, a)
    tick = time.monotonic if clock else None
    bots = {"B": Bot(black, seed=seed, nodes=nodes, clock=tick, seconds=seconds,
                     turn_nodes=turn_nodes),
            "W": Bot(white, seed=seed + 1, nodes=nodes, clock=tick, seconds=seconds,
                     turn_nodes=turn_nodes)}
    state = api.new_game(options)
    turn_time, turn_ply = 0.0, state.ply
    while state.result is None and len(state.history) < max_plies:
        me = state.side_to_move
        bot = bots[me]
        other = bots["W" if me == "B" else "B"]
        other.observe(api.observe(state, other_side(me)))
        t0 = time.perf_counter()
        action = bot.choose(api.observe(state, me), api.legal_actions(state))
        dt = time.perf_counter() - t0
        st = stats.setdefault(bot.level, Stats())
        st.nodes += bot.last_nodes
        st.think += dt
        turn_time += dt
        state = api.apply_action(state, action)
        if state.ply != turn_ply or state.result is not None:
            st.turn_times.append(turn_time)
            turn_time, turn_ply = 0.0, state.ply
    side_of = {"B": "a" if a_black else "b", "W": "b" if a_black else "a"}
    if state.result is not None:
        return ("draw" if state.result == "draw" else side_of[state.result]), "rules", \
            len(state.history)
    lead = material(state, "B")
    if abs(lead) >= margin:
        return side_of["B" if lead > 0 else "W"], "adjudicated", len(state.history)
    return "draw", "adjudicated", len(state.history)


def budget_text(nodes: int | None, turn_nodes: int | None = None) -> str:
    """The node budget, as the table states it."""
    if turn_nodes is not None:
        return f"{turn_nodes} nodes per turn (greedy: its full ranking)"
    if nodes is not None:
        return f"{nodes} nodes per choice"
    return ", ".join(f"{lv} {n} nodes" for lv, n in DEFAULT_NODES.items() if n) + " per choice"


def other_side(side: str) -> str:
    """The other side's letter."""
    return "W" if side == "B" else "B"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def chess_push_pop() -> float | None:
    """Median seconds of one python-chess push+pop on kiwipete, or None without ``chess``."""
    try:
        import chess
    except ImportError:
        return None
    board = chess.Board(KIWIPETE)
    moves = list(board.legal_moves)
    runs = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _rep in range(20):
            for m in moves:
                board.push(m)
                board.pop()
        runs.append((time.perf_counter() - t0) / (20 * len(moves)))
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    """Run the tournament and print the tables."""
    p = argparse.ArgumentParser(prog="python -m wec_p2p.tournament", description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--a", choices=LEVELS, default="search")
    p.add_argument("--b", choices=LEVELS, default="greedy")
    p.add_argument("--movement", default="weaponized_chess",
                   choices=("weaponized_chess", "standard_chess", "mass_destruction_chess"))
    p.add_argument("--max-plies", type=int, default=120, help="adjudicate after this many plies")
    p.add_argument("--margin", type=float, default=3.0,
                   help="material lead (pawn units) that wins an adjudicated game")
    p.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                   help="thinking time per turn of greedy and search (default 1 s)")
    p.add_argument("--nodes", type=int, help="node budget per choice (default: per level)")
    p.add_argument("--turn-nodes", type=int,
                   help="node budget per turn, shared out among the turn's choices as the "
                        "seconds are (replaces --nodes)")
    p.add_argument("--no-clock", action="store_true",
                   help="node budgets only (reproducible games; time is measured, not limited)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    try:
        options = api.Options(movement_type=args.movement,
                              move_only=args.movement == "mass_destruction_chess")
    except ValueError as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    stats: dict[str, Stats] = {}
    tally = {"a": [0, 0, 0], "b": [0, 0, 0]}           # wins, draws, losses per colour of A
    ends = {"rules": 0, "adjudicated": 0}
    wall = time.perf_counter()
    for g in range(args.games):
        a_black = g % 2 == 0
        winner, how, plies = play_game(args.a, args.b, a_black, args.seed + 2 * g, options,
                                       args.max_plies, args.margin, args.seconds, stats,
                                       args.nodes, not args.no_clock, args.turn_nodes)
        row = tally["a" if a_black else "b"]
        row[{"a": 0, "draw": 1, "b": 2}[winner]] += 1
        ends[how] += 1
        print(f"game {g + 1:3d}: A={args.a} plays {'Black' if a_black else 'White'}: "
              f"{ {'a': 'A wins', 'b': 'B wins', 'draw': 'draw'}[winner]} ({how}, {plies} plies)",
              flush=True)
    wall = time.perf_counter() - wall
    print(f"\n{args.a} (A) vs {args.b} (B), {args.games} games, movement {args.movement}, "
          f"cap {args.max_plies} plies, margin {args.margin}, "
          + (f"node budgets only ({budget_text(args.nodes, args.turn_nodes)}, no clock: reproducible)"
             if args.no_clock else f"{args.seconds:g} s per turn, {budget_text(args.nodes, args.turn_nodes)}"))
    print(f"{'A as':<8}{'games':>7}{'A wins':>8}{'draws':>7}{'A losses':>10}")
    for name, key in (("Black", "a"), ("White", "b")):
        w, d, l = tally[key]
        print(f"{name:<8}{w + d + l:>7}{w:>8}{d:>7}{l:>10}")
    w = tally["a"][0] + tally["b"][0]
    d = tally["a"][1] + tally["b"][1]
    l = tally["a"][2] + tally["b"][2]
    print(f"{'total':<8}{w + d + l:>7}{w:>8}{d:>7}{l:>10}   A score "
          f"{100 * (w + 0.5 * d) / max(1, w + d + l):.0f}%, A wins {100 * w / max(1, w + d + l):.0f}%")
    print(f"ended by the rules {ends['rules']}, adjudicated {ends['adjudicated']}; "
          f"wall time {wall:.0f} s")
    print(f"\n{'level':<8}{'turns':>7}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}"
          f"{'>120% budget':>14}{'nodes/s':>10}")
    for level, st in sorted(stats.items()):
        if not st.turn_times:
            continue
        over: object = sum(t > 1.2 * args.seconds for t in st.turn_times) \
            if level != "random" else 0
        if args.no_clock:
            over = "-"                    # no time budget: nothing to be over
        nps = st.nodes / st.think if st.think and st.nodes else 0.0
        print(f"{level:<8}{len(st.turn_times):>7}{1000 * statistics.median(st.turn_times):>11.1f}"
              f"{1000 * _pct(st.turn_times, 0.99):>9.1f}{1000 * max(st.turn_times):>9.1f}"
              f"{over:>14}{nps:>10.0f}")
    anchor = chess_push_pop()
    for level, st in sorted(stats.items()):
        if level == "search" and st.think and anchor:
            nps = st.nodes / st.think
            print(f"\nsearch nodes/s {nps:.0f} (a node = apply one action to a belief state, "
                  f"evaluation included); python-chess push+pop {1 / anchor:.0f}/s "
                  f"({anchor * 1e6:.1f} us); ratio {1 / anchor / nps:.0f}x slower")
    if anchor is None:
        print("\n(python-chess not installed: no anchor line; pip install chess)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
