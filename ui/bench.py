"""``python -m ui.bench``: the window's frame time and idle CPU, beside their anchors.

Anchors (``notes/anchors-performance.md`` §6, measured again here in the same run): a naive
full redraw of a 1280x900 window (fill, 100 squares + 22 lines, 40 pieces, 20 text labels
rendered every frame, a 6-line panel, flip). Our figure: the game screen at 1366x768 on a
busy mid-game board (all three levels, projectiles in flight, a piece selected), redrawn in
full as after any change, with the SDL dummy video driver. Idle: ``wec play`` (the game
screen) and ``wec window`` (the home screen) each left alone for ``--idle`` seconds (default
30), their CPU time over that wall time. (The dummy driver polls every 20 ms where a real
display sleeps in ``pygame.event.wait``: these are upper bounds. The lobby, setup and a WiFi
game waiting for the peer: ``tests/bench_ui_wifi.py --idle``.)
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from engine import api  # noqa: E402

FRAME_GOAL = 1.5          # issue 12 item 7: a busy frame within 1.5x the naive redraw
IDLE_GOAL = 0.02          # idle under 2% of one core


def busy_state(seed: int = 3, actions: int = 260) -> api.GameState:
    """A seeded random mid-game with pieces on all three levels and a projectile in flight."""
    rng, state = random.Random(seed), api.new_game()
    best = state
    for _ in range(actions):
        if state.result is not None:
            break
        state = api.apply_action(state, api.random_action(state, rng))
        if state.projectiles and state.result is None:
            best = state
    return best


def naive_frame(screen: pygame.Surface, font: pygame.font.Font) -> None:
    """The anchor's frame (§6), drawn exactly as described there."""
    screen.fill((30, 30, 30))
    for r in range(10):
        for c in range(10):
            colour = (200, 200, 180) if (r + c) % 2 == 0 else (90, 110, 70)
            pygame.draw.rect(screen, colour, (20 + c * 80, 20 + r * 80, 80, 80))
    for i in range(11):
        pygame.draw.line(screen, (0, 0, 0), (20 + i * 80, 20), (20 + i * 80, 820))
        pygame.draw.line(screen, (0, 0, 0), (20, 20 + i * 80), (820, 20 + i * 80))
    for k in range(40):
        x, y = 60 + (k % 10) * 80, 60 + (k // 10) * 160
        pygame.draw.circle(screen, (240, 240, 240) if k < 20 else (20, 20, 20), (x, y), 30)
        pygame.draw.circle(screen, (128, 0, 0), (x, y), 30, 2)
    for k in range(20):
        screen.blit(font.render(f"P{k}", True, (255, 0, 0)), (40 + (k % 10) * 80, 90 + (k // 10) * 400))
    for k in range(6):
        screen.blit(font.render(f"panel line {k}: some text", True, (255, 255, 255)), (850, 40 + k * 30))
    pygame.display.flip()


def per_frame(draw: Callable[[], None], frames: int = 60, samples: int = 9) -> float:
    """Median seconds per frame over ``samples`` batches of ``frames`` (one warm-up batch)."""
    out = []
    for i in range(samples + 1):
        t0 = time.perf_counter()
        for _ in range(frames):
            draw()
        if i:
            out.append((time.perf_counter() - t0) / frames)
    return statistics.median(out)


def frame_times() -> tuple[float, float, float]:
    """(naive anchor, our busy frame after a click, after a move) in seconds, measured
    interleaved in this process."""
    from ui import board_view
    from ui.layout import LAYOUT
    from ui.session import Session
    from ui.shell import Shell

    pygame.display.init()
    pygame.font.init()
    anchor_screen = pygame.display.set_mode((1280, 900))
    font = pygame.font.Font(None, 24)
    naive = per_frame(lambda: naive_frame(anchor_screen, font))
    screen = pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    shell = Shell(Session(busy_state()), screen)
    scene = shell.driver.scene
    cells = [(p.row, p.col) for p in scene.view.own]           # type: ignore[union-attr]
    if cells:
        scene.click(cells[0])                                  # type: ignore[union-attr]

    def ours() -> None:
        shell.dirty = True                                     # a full redraw, as after a click
        shell.pump([])
        pygame.display.flip()

    state = shell.session.state
    acts = [a for a in api.legal_actions(state) if type(a).__name__ != "EndTurn"] or api.legal_actions(state)
    after = api.apply_action(state, acts[len(acts) // 2])     # an action that changes the board
    views = [api.observe(after, state.side_to_move), scene.view]   # type: ignore[union-attr]

    def after_move() -> None:
        board_view._COMPOSED.clear()                           # no whole-board reuse: the changed
        scene.view = views[0]                                  # squares are drawn again  # type: ignore[union-attr]
        views.reverse()                                        # two positions a Move apart
        ours()
    mine = per_frame(ours)
    # interleave a second measurement of each, take the better ratio's inputs honestly: medians
    screen = pygame.display.set_mode((1280, 900))
    naive2 = per_frame(lambda: naive_frame(screen, font))
    screen = pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    shell.surface = shell.driver.surface = screen
    mine2 = per_frame(ours)
    moved = per_frame(after_move)
    pygame.quit()
    return statistics.median([naive, naive2]), statistics.median([mine, mine2]), moved


def idle_share(seconds: float, command: str = "play") -> float:
    """CPU seconds used by an idle ``wec COMMAND --headless`` per wall second, after start-up."""
    data = tempfile.TemporaryDirectory()              # no autosave left in the player's own folder
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1", WEC_DATA_DIR=data.name)
    proc = subprocess.Popen([sys.executable, "-m", "wec_p2p.cli", command, "--headless"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(3.0)                    # start-up (imports, first frame) is not idling
        c0, t0 = _cpu(proc.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = _cpu(proc.pid), time.monotonic()
    finally:
        proc.terminate()
        proc.wait(10)
        data.cleanup()
    return (c1 - c0) / (t1 - t0)


def _cpu(pid: int) -> float:
    """User + system CPU seconds of ``pid`` (Linux /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    """Print the frame time beside the naive redraw, and the idle CPU share."""
    p = argparse.ArgumentParser(prog="python -m ui.bench", description=__doc__.splitlines()[0])
    p.add_argument("--idle", type=float, default=30.0, help="seconds of idling to measure (0: skip)")
    args = p.parse_args(argv)
    naive, mine, moved = frame_times()
    for what, figure in (("after a click", mine), ("after a move, board recomposed", moved)):
        ratio = figure / naive
        print(f"frame {what}, busy board 1366x768: {figure * 1e3:.3f} ms | anchor naive full redraw "
              f"1280x900: {naive * 1e3:.3f} ms | ratio {ratio:.2f} (goal <= {FRAME_GOAL}: "
              f"{'met' if ratio <= FRAME_GOAL else 'NOT met'})")
    for command, what in (("play", "wec play, the game screen"), ("window", "wec, the home screen")):
        if args.idle <= 0:
            break
        share = idle_share(args.idle, command)
        print(f"idle CPU over {args.idle:.0f} s, {what}: {share * 100:.2f}% of one core (goal < "
              f"{IDLE_GOAL * 100:.0f}%: {'met' if share < IDLE_GOAL else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
