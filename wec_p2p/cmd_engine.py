"""``wec legal``, ``wec selfplay``, ``wec replay``: the engine from the command line (issue 2 item 9)."""
from __future__ import annotations

import argparse
import random
import sys
import time

from engine import api


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the engine sub-commands."""
    p = subparsers.add_parser("legal", help="print the legal actions of the side to move")
    p.add_argument("save", nargs="?", help="a save file (default: the standard start)")
    p.set_defaults(func=cmd_legal)

    p = subparsers.add_parser("selfplay", help="play seeded random legal actions, or two bots")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", choices=api.BOT_LEVELS,
                   help="both sides play the computer opponent at this level, each from its own "
                        "view (default: the historical seeded random actions)")
    p.add_argument("--think", type=float, default=1.0, metavar="SECONDS",
                   help="greedy/search thinking time per turn (default 1 s)")
    p.add_argument("--turns", type=int, default=100, help="stop after this many turns (plies)")
    p.add_argument("--save", help="write the game to this save file")
    p.add_argument("--quiet", action="store_true", help="print only the final state line")
    p.set_defaults(func=cmd_selfplay)

    p = subparsers.add_parser("replay", help="replay a save file and print its history")
    p.add_argument("save")
    p.add_argument("--quiet", action="store_true", help="print only the final state line")
    p.set_defaults(func=cmd_replay)


def _fail(message: str) -> int:
    print(f"wec: {message}", file=sys.stderr)
    return 2


def _load(path: str | None) -> api.GameState:
    return api.new_game() if path is None else api.load(path)


def cmd_legal(args: argparse.Namespace) -> int:
    """Print one legal action per line, in the notation."""
    try:
        state = _load(args.save)
    except api.SaveError as exc:
        return _fail(str(exc))
    for action in api.legal_actions(state):
        print(api.format_action(action))
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Play ``--turns`` plies of seeded random actions; last line ``state <hash>``."""
    rng = random.Random(args.seed)
    state = api.new_game()
    bots = {}
    if args.bot is not None:
        if args.think <= 0:
            return _fail(f"--think must be positive, got {args.think}")
        bots = {side: api.Bot(args.bot, seed=args.seed + n, clock=time.monotonic,
                              seconds=args.think) for n, side in enumerate("BW")}
    while state.result is None and len(state.history) < args.turns:
        if bots:
            me = state.side_to_move
            action = bots[me].choose(api.observe(state, me), api.legal_actions(state))
        else:
            action = api.random_action(state, rng)
        state = api.apply_action(state, action)
    if not args.quiet:
        for number, line in enumerate(state.history, start=1):
            print(f"{number:4d} {'B' if number % 2 else 'W'} {line}")
        print(f"result {api.outcome(state) or 'running'}"
              + (f" ({state.end_reason})" if state.end_reason else ""))
    if args.save:
        try:
            api.save(state, args.save)
        except OSError as exc:
            return _fail(f"{args.save}: cannot write: {exc}")
    print(f"state {api.state_hash(state)}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a save file; last line ``state <hash>``."""
    try:
        state = api.load(args.save)
    except api.SaveError as exc:
        return _fail(str(exc))
    if not args.quiet:
        for number, line in enumerate(state.history, start=1):
            print(f"{number:4d} {'B' if number % 2 else 'W'} {line}")
        print(f"result {api.outcome(state) or 'running'}"
              + (f" ({state.end_reason})" if state.end_reason else ""))
    print(f"state {api.state_hash(state)}")
    return 0
