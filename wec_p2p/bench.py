"""Engine benchmarks beside their anchors, measured in one run: ``python -m wec_p2p.bench``
(issue 2, issue 13 item 8).

Each figure is printed beside its anchor from ``../shared/notes/anchors-performance.md``,
re-measured in the same process and interleaved with it (anchor, figure, anchor, figure, ...),
with the ratio and whether the goal is met:

- a generated action: cold ``legal_actions`` in 20 mid-game positions (seeded random games,
  start of a turn), per action, against python-chess ``list(board.legal_moves)`` per move on
  kiwipete (goal <= 5x);
- apply + undo: every legal action of those positions applied and undone (``api.undo``), per
  action, against python-chess ``push`` + ``pop`` (goal <= 10x); once with the previous state
  still held by the caller (a search: undo returns it), once as a long game kept for undo
  (apply, the new state keeps only its undo record, undo rebuilds the previous state from it);
- a random game, per ply (one WEC ply is one turn of several actions): generate + choose +
  apply every action of 100-turn games, then undo every action, against python-chess's random
  200-ply game per ply (no goal; reported);
- the state hash of a state one action after a hashed state (as in a game: the parts the
  previous hash packed are kept, the new action's text is printed for the first time), against
  ``sha256(packb(state))`` of the ~5 KB state with pre-ordered keys of the notes (goal <=
  1.5x), and beside an anchor state of our states' size; also the hash of a state that kept no
  part (everything packed, the anchor's own workload), beside the anchor of our size;
- memory per turn of a 1,000-turn game kept whole for undo (tracemalloc; goal <= 10 KB);
- informative, without an anchor: legal actions at the standard start, Fire-heavy positions and
  the cost of resolving one Fire.

python-chess is optional (``pip install -e '.[bench]'``); without it the chess anchors are left
out and the bench says so.
"""
from __future__ import annotations

import argparse
import gc
import hashlib
import random
import statistics
import time
import tracemalloc
from typing import Callable

from engine import api
from engine.movegen import generate
from engine.pieces import KINDS

from . import bench_anchors as anchors

#: figure -> goal ratio (None: reported without a goal)
GOALS = {"action": 5.0, "apply_undo": 10.0, "apply_undo_rebuilt": 10.0, "game": None,
         "hash": 1.5, "hash_same": 1.5, "hash_scratch": None}


_clock = time.perf_counter        # --clock cpu: time.thread_time (this thread's CPU time)


def per_call(fn: Callable[[], object], min_time: float = 0.05, batches: int = 5) -> float:
    """Median seconds per call: batches sized to take ``min_time`` each, one warm-up batch."""
    number = 1
    while True:
        t0 = _clock()
        for _ in range(number):
            fn()
        if _clock() - t0 >= min_time:
            break
        number *= 2
    times = []
    for _ in range(batches):
        t0 = _clock()
        for _ in range(number):
            fn()
        times.append((_clock() - t0) / number)
    return statistics.median(times)


def _median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` calls after one warm-up."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = _clock()
        fn()
        times.append(_clock() - t0)
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


def _primary_takers(state: api.GameState) -> set[api.Action]:
    """Moves that take a visible primary government piece (they end the game, RUL-2)."""
    side = state.side_to_move
    out: set[api.Action] = set()
    if state.turn.moved:
        return out
    for plan in generate(state, side):
        r, c, lv = plan.cells[-1]
        if plan.capture and any(KINDS[state.pieces[s].kind].role == "primary"
                                and state.pieces[s].side != side for s in state.at(r, c, lv)):
            out.add(plan.move)
    return out


def long_game(turns: int, seed: int) -> api.GameState:
    """A seeded random game played on to ``turns`` finished turns: an action that would end
    the game is set aside while another is legal; when every one ends it, a few actions are
    taken back (``api.undo``) and the game goes on differently (as tests/test_properties.py)."""
    rng = random.Random(seed)
    state = api.new_game()
    setbacks = 0
    while len(state.history) < turns:
        legal = api.legal_actions(state)
        takers = _primary_takers(state)
        legal = [a for a in legal if a not in takers] or legal
        rng.shuffle(legal)
        new = next((n for n in (api.apply_action(state, a) for a in legal) if n.result is None),
                   None)
        if new is None:
            setbacks += 1
            for _ in range(min(len(state.actions) + 2 * len(state.history),
                               rng.randrange(2, 12 * setbacks + 2))):
                state = api.undo(state)
            continue
        state = new
    return state


# -- the figures ---------------------------------------------------------------------------------

def action_case(positions: list[api.GameState]) -> Callable[[], float]:
    """Cold legal-action generation per action, median over the positions."""
    def run() -> float:
        per = []
        for st in positions:
            n = len(api.legal_actions(st))
            per.append(per_call(_fresh_legal(st), 0.02, 3) / n)
        return statistics.median(per)
    return run


def apply_undo_case(positions: list[api.GameState], held: bool) -> Callable[[], float]:
    """Apply + undo of every legal action, per action, over all positions, the actions applied
    as they were just listed (as a search does). ``held``: the previous state stays referenced
    (a search holding its node: undo returns it). Otherwise as a long game kept for undo: each
    new state keeps only its undo record (``seal``, what applying the next action does) and
    undo rebuilds the previous state from it; timed as apply + seal (each state freed at
    once) plus the undo of states that hold nothing else (made untimed, ``detached``)."""
    def run() -> float:
        total, n = 0.0, 0
        for st in positions:
            acts = api.legal_actions(st)
            if held:
                def go(st: api.GameState = st, acts: list[api.Action] = acts) -> None:
                    for a in acts:
                        api.undo(api.apply_action(st, a))
            else:
                def sealed(st: api.GameState = st, acts: list[api.Action] = acts) -> None:
                    for a in acts:
                        api.apply_action(st, a).seal()
                orphans = [api.apply_action(st, a).detached() for a in acts]

                def go(orphans: list[api.GameState] = orphans) -> None:
                    for k in orphans:
                        api.undo(k)
                total += per_call(sealed, 0.02, 3)
            total += per_call(go, 0.02, 3)
            n += len(acts)
        return total / n
    return run


def game_case(games: int, turns: int = 100) -> Callable[[], float]:
    """Random games (generate + choose + apply), then every action undone; seconds per turn."""
    def run() -> float:
        per = []
        for g in range(games):
            rng = random.Random(g)
            t0 = _clock()
            state = api.new_game()
            while state.result is None and len(state.history) < turns:
                state = api.apply_action(state, rng.choice(api.legal_actions(state)))
            played = len(state.history)
            while state.actions or state.history:
                state = api.undo(state)
            per.append((_clock() - t0) / max(1, played))
        return statistics.median(per)
    return run


def hash_case(positions: list[api.GameState], per_position: int = 5) -> Callable[[], float]:
    """The first hash of a state one action after a state already hashed, as in a game, where
    every state is hashed in turn: for each of ``per_position`` actions spread over each
    position's list, every repetition hashes the position afresh (untimed: the parts the hash
    keeps are then the position's own), forgets the action's printed text (it has never been
    printed in a game), applies it (untimed) and times the new state's hash. Mean per hash
    for each position, median over positions."""
    work = []
    for st in positions:
        acts = api.legal_actions(st)
        step = max(1, len(acts) // per_position)
        work.append((st, acts[::step][:per_position]))

    def run() -> float:
        per = []
        for prev, actions in work:
            total, n = 0.0, 0
            while total < 0.01:
                for action in actions:
                    prev.touch_bytes()
                    api.state_hash(prev)
                    prev.shared("fmt").pop(id(action), None)
                    new = api.apply_action(prev, action)
                    t0 = _clock()
                    api.state_hash(new)
                    total += _clock() - t0
                    n += 1
            per.append(total / n)
        return statistics.median(per)
    return run


def hash_scratch_case(positions: list[api.GameState]) -> Callable[[], float]:
    """The hash of a state that has kept no packed part (read back from its bytes, untimed):
    everything packed and hashed, the anchor's own workload; median over positions."""
    data = [api.serialise(st) for st in positions]

    def run() -> float:
        per = []
        for b in data:
            total, n = 0.0, 0
            while total < 0.005:
                fresh = api.deserialise(b)
                t0 = _clock()
                api.state_hash(fresh)
                total += _clock() - t0
                n += 1
            per.append(total / n)
        return statistics.median(per)
    return run


def memory_per_turn(turns: int, seed: int = 3) -> tuple[float, int]:
    """Bytes per finished turn that a game kept whole for undo holds (tracemalloc), and turns."""
    long_game(turns, seed)       # the same game once untraced: fills the process-wide caches
    gc.collect()                 # (route tables, lru caches), which are not the game's memory
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    state = long_game(turns, seed)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    played = len(state.history)
    # the live state itself (its pieces, caches, history text) counts too: a generous measure
    return used / max(1, played), played


# -- printing ------------------------------------------------------------------------------------

def _fmt(seconds: float) -> str:
    return f"{seconds * 1e6:8.2f} us" if seconds < 1e-3 else f"{seconds * 1e3:8.2f} ms"


def _row(name: str, anchor_name: str, anchor: float | None, ours: float, goal: float | None) -> None:
    if anchor is None:
        print(f"{name:34s} {_fmt(ours)}   anchor {anchor_name}: n/a (python-chess missing)")
        return
    ratio = ours / anchor
    verdict = "no goal" if goal is None else f"goal <= {goal:g}x: {'yes' if ratio <= goal else 'NO'}"
    print(f"{name:34s} {_fmt(ours)}   anchor {anchor_name} {_fmt(anchor)}   "
          f"ratio {ratio:5.2f}x   {verdict}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks (anchors interleaved) and print anchor, figure, ratio, goal met."""
    parser = argparse.ArgumentParser(prog="python -m wec_p2p.bench")
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved anchor/figure rounds; the median is printed")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--memory-turns", type=int, default=1000)
    parser.add_argument("--skip-info", action="store_true", help="only the anchored figures")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall: time.perf_counter, as the anchors' notes measure (default); "
                             "cpu: this thread's CPU time, steadier on a shared, busy machine "
                             "(time taken by other processes is left out of every figure and "
                             "anchor alike)")
    args = parser.parse_args(argv)
    global _clock
    _clock = time.thread_time if args.clock == "cpu" else time.perf_counter

    if anchors.chess_available():
        print(f"anchors: python-chess {anchors.chess_version()}, msgpack + SHA-256; "
              f"{args.rounds} interleaved rounds, medians, {args.clock} clock")
    else:
        print("anchors: python-chess is NOT installed (pip install -e '.[bench]'): the chess "
              "anchors and ratios are left out; msgpack + SHA-256 only")
    positions = mid_game_positions(args.positions)
    cases: dict[str, tuple[Callable[[], float] | None, Callable[[], float]]] = {}
    if anchors.chess_available():
        mg, n_mg = anchors.movegen_case()
        pp, n_pp = anchors.push_pop_case()
        cases["action"] = (lambda: per_call(mg) / n_mg, action_case(positions))
        cases["apply_undo"] = (lambda: per_call(pp) / n_pp, apply_undo_case(positions, True))
        cases["apply_undo_rebuilt"] = (lambda: per_call(pp) / n_pp,
                                       apply_undo_case(positions, False))
        cases["game"] = (lambda: statistics.median(
            _time_game(s) for s in range(args.games * 3)), game_case(args.games))
    else:
        cases["action"] = (None, action_case(positions))
        cases["apply_undo"] = (None, apply_undo_case(positions, True))
        cases["apply_undo_rebuilt"] = (None, apply_undo_case(positions, False))
        cases["game"] = (None, game_case(args.games))
    hc, size = anchors.hash_case()
    ours_hash = hash_case(positions)
    cases["hash"] = (lambda: per_call(hc), ours_hash)
    ours_size = int(statistics.median(len(api.serialise(st)) for st in positions))
    hc2, size2 = anchors.hash_case(ours_size)
    cases["hash_same"] = (lambda: per_call(hc2), None)      # the same figure as "hash"
    cases["hash_scratch"] = (lambda: per_call(hc2), hash_scratch_case(positions))

    results: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in cases}
    for _ in range(args.rounds):
        for key, (anchor, ours) in cases.items():
            if anchor is not None:
                results[key][0].append(anchor())
            if ours is not None:
                results[key][1].append(ours())
    results["hash_same"] = (results["hash_same"][0], results["hash"][1])

    def med(xs: list[float]) -> float | None:
        return statistics.median(xs) if xs else None

    names = {
        "action": (f"generated action ({args.positions} mid-game)", "chess move (kiwipete)"),
        "apply_undo": ("apply + undo, previous held", "chess push+pop"),
        "apply_undo_rebuilt": ("apply + undo, previous rebuilt", "chess push+pop"),
        "game": ("random game, per WEC ply (turn)", "chess random game per ply"),
        "hash": ("state hash, state just reached", f"sha256(packb) {size} B"),
        "hash_same": ("  the same, anchor of our size", f"sha256(packb) {size2} B"),
        "hash_scratch": ("  a state with no part kept", f"sha256(packb) {size2} B"),
    }
    for key in cases:
        a, o = results[key]
        _row(names[key][0], names[key][1], med(a), statistics.median(o), GOALS[key])
    print(f"  (our states: median {ours_size} B serialised, {ours_size / size:.1f}x the ~5 KB "
          f"anchor state of the notes, which the goal names; SHA-256 alone of our bytes costs "
          f"{_sha_alone(positions) * 1e6:.1f} us; docs/engine.md)")

    per_turn, played = memory_per_turn(args.memory_turns)
    print(f"{'memory per turn, game kept for undo':34s} {per_turn / 1024:8.2f} KB   over "
          f"{played} turns (tracemalloc)   goal <= 10 KB: {'yes' if per_turn <= 10240 else 'NO'}")

    if not args.skip_info:
        _info()
    return 0


def _sha_alone(positions: list[api.GameState]) -> float:
    """SHA-256 of a median state's bytes alone, per call."""
    data = sorted((api.serialise(st) for st in positions), key=len)
    b = data[len(data) // 2]
    return per_call(lambda: hashlib.sha256(b).hexdigest())


def _time_game(seed: int) -> float:
    t0 = _clock()
    n = anchors.random_game(seed)
    return (_clock() - t0) / n


def _info() -> None:
    """Figures without an anchor (issue 2)."""
    start = api.new_game()
    n_start = len(api.legal_actions(start))
    t_start = _median_time(_fresh_legal(start), 7)
    print(f"legal actions, standard start: {n_start} actions, median {t_start * 1e3:.2f} ms")
    fire_heavy = sorted(mid_game_positions(40, seed=7),
                        key=lambda st: -sum(isinstance(a, api.Fire) for a in api.legal_actions(st)))[:10]
    fires = [[a for a in api.legal_actions(st) if isinstance(a, api.Fire)] for st in fire_heavy]
    gen = [_median_time(_fresh_legal(st), 3) for st in fire_heavy]
    print(f"legal actions, 10 Fire-heavy positions: median {statistics.median(len(f) for f in fires)} "
          f"Fires among the actions, median {statistics.median(gen) * 1e3:.2f} ms")
    per_fire = []
    for st, fs in zip(fire_heavy, fires):
        for f in fs[:40]:
            per_fire.append(_median_time(lambda st=st, f=f: api.apply_action(st, f), 3))
    print(f"apply one Fire (resolution, {len(per_fire)} Fires): median "
          f"{statistics.median(per_fire) * 1e6:.0f} us, max {max(per_fire) * 1e3:.2f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
