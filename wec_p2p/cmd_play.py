"""``wec play``: one laptop, hotseat (04/U17) or against the computer (04/U18)."""
from __future__ import annotations

import argparse
import os
from typing import Any


# SDL falls back to these when it finds no screen: a window there is invisible (issue 12 item 7).
NO_SCREEN_DRIVERS = frozenset({"offscreen", "dummy"})


def register(subparsers: Any) -> None:
    """Add ``wec play``."""
    p = subparsers.add_parser("play", help="play on this computer: hotseat or against the computer",
                              description="Open the board. Hotseat by default (a privacy screen "
                                          "between turns); --vs-computer plays the computer opponent.")
    p.add_argument("--vs-computer", action="store_true", help="the computer plays the other side")
    p.add_argument("--side", choices=("black", "white"), default="black",
                   help="your side against the computer (Black moves first)")
    p.add_argument("--seed", type=int, default=1, help="seed of the computer's random choices")
    p.add_argument("--bot", choices=("random", "greedy", "search"), default="search",
                   help="the computer's level (default search)")
    p.add_argument("--think", type=float, default=1.0, metavar="SECONDS",
                   help="the computer's thinking time per turn (default 1 s)")
    p.add_argument("--load", metavar="SAVE", help="continue a saved game")
    p.add_argument("--save", metavar="SAVE", help="autosave here after every turn")
    p.add_argument("--script", help="play these steps without waiting for input, then quit "
                                    "(click R,C; fire R,C; key NAME; act NOTATION; wait)")
    p.add_argument("--headless", action="store_true", help="no window (SDL dummy video and audio)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Open the window and play; 0 on a normal quit."""
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from engine import api
    from ui.app import state_summary
    from ui.layout import LAYOUT
    from ui.session import Session
    from ui.net_shell import NetShell
    from wec_p2p.cmd_window import ClientActivation, bridge_factory
    from wec_p2p.paths import data_dir

    try:
        state = api.load(args.load) if args.load else api.new_game()
    except (OSError, api.SaveError) as exc:
        print(f"wec play: cannot load the game: {exc}")
        return 2
    computer = ("W" if args.side == "black" else "B") if args.vs_computer else None
    autosave = data_dir() / "unfinished.wec"        # 04/U9: File > Continue after a crash
    if args.think <= 0:
        print(f"wec play: --think must be positive, got {args.think}")
        return 2
    session = Session(state, computer=computer, seed=args.seed, save_path=args.save or autosave,
                      level=args.bot, seconds=args.think)
    pygame.display.init()   # no mixer: the game has no sound yet
    if not args.headless and pygame.display.get_driver() in NO_SCREEN_DRIVERS:
        pygame.quit()
        print("wec play: no display to open a window on (DISPLAY / WAYLAND_DISPLAY not set?); "
              "run it on a desktop, or use --headless --script for a scripted game")
        return 2
    try:
        pygame.display.set_caption("WEC — Weaponized Chess")
        try:
            surface = pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
        except pygame.error as exc:
            print(f"wec play: cannot open a window ({exc}); with no display use --headless --script")
            return 2
        shell = NetShell(session, surface, autosave=autosave, bridge_factory=bridge_factory(args), activation=ClientActivation(),
                         home=False)              # File > Play over WiFi opens the lobby (issue 9)
        code = shell.run(args.script)
        session = shell.session
    finally:
        pygame.quit()
    if args.script is not None:
        print(state_summary(session))
    return code
