"""The computer thinks in a worker thread while the window's frame loop runs (04/U18; issue 11):
the window keeps answering the player's input and drawing during the computer's turn, takes
the computer's actions at a later frame, and an undo during the thinking drops the abandoned
worker's actions. A real ``ui.shell.Shell`` on the SDL dummy driver, real pygame events; the
bot's clock is held by the test (a gate) so that "while it thinks" does not depend on speed."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import threading
import time

import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)

from engine import api
from engine.history import parse_turn
from ui.layout import cell_rect
from ui.scenes import GameScene
from ui.session import Session
from ui.shell import Shell

GUARD = 120.0                       # a hang guard only: nothing here measures time


def frame(shell: Shell, events: list[pygame.event.Event] | None = None) -> None:
    shell.pump(events or [], 0.02)


def click(shell: Shell, pos: tuple[int, int]) -> None:
    frame(shell, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                  pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])
    frame(shell)


def key(shell: Shell, k: int) -> None:
    frame(shell, [pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""),
                  pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="")])
    frame(shell)


def frames_until(shell: Shell, ok, what: str) -> None:        # type: ignore[no-untyped-def]
    end = time.monotonic() + GUARD
    while not ok():
        assert time.monotonic() < end, f"never happened: {what}"
        frame(shell)
        time.sleep(0.005)


def gated_shell(screen: pygame.Surface) -> tuple[Shell, threading.Event]:
    """A window against the computer (White, greedy) whose thinking waits for the gate."""
    session = Session(api.new_game(), computer="W", level="greedy", seconds=1.0)
    gate = threading.Event()

    def clock() -> float:
        gate.wait(GUARD)
        return time.monotonic()

    session.bots["W"] = api.Bot("greedy", seed=2, clock=clock, seconds=1.0)
    shell = Shell(session, screen)
    shell.background = True           # as ``Shell.run`` sets it for a person at the window
    frame(shell)
    return shell, gate


def human_turn(shell: Shell) -> None:
    """Black (the human) moves SHP(2,5)->(4,7) by two clicks and ends the turn with E."""
    click(shell, cell_rect(2, 5, "B").center)
    click(shell, cell_rect(4, 7, "B").center)
    key(shell, pygame.K_e)


def test_the_window_answers_while_the_computer_thinks_04_U18(screen: pygame.Surface) -> None:
    """04/U18: after the human's End Turn the computer (White) thinks in the background: the
    frame loop still draws and answers a key (N shows the pieces in words, 04/U24) and says
    the computer is thinking; once the computer's clock runs, its whole turn arrives at a later
    frame: a White Move in the history, Black to move at ply 3."""
    shell, gate = gated_shell(screen)
    human_turn(shell)
    session = shell.session
    assert session.thinking and session.state.side_to_move == "W" and session.state.ply == 2
    scene = shell.driver.scene
    assert isinstance(scene, GameScene) and scene.status == "the computer is thinking..."
    words = shell.driver.prefs["words"]
    shell.drew = False
    key(shell, pygame.K_n)                                   # the player's input, answered now
    assert shell.driver.prefs["words"] is (not words) and shell.drew
    assert session.thinking and session.state.ply == 2       # still the computer's turn
    gate.set()
    frames_until(shell, lambda: session.state.side_to_move == "B" and not session.thinking,
                 "the computer's turn arrives")
    s = session.state
    assert (s.ply, len(s.history)) == (3, 2)
    move = parse_turn(s.history[1]).move
    white = {(p.kind, p.row, p.col, p.level) for p in api.new_game().pieces.values() if p.side == "W"}
    assert (move.piece.kind, move.piece.row, move.piece.col, move.piece.level) in white
    assert isinstance(shell.driver.scene, GameScene) and shell.driver.scene.actions  # human's turn


def test_undo_while_the_computer_thinks_drops_its_actions_04_U31(screen: pygame.Surface) -> None:
    """04/U31: Undo (Ctrl+Z) during the computer's thinking goes back to before the human's
    last action; the abandoned worker's actions, arriving later, are dropped: the position stays
    the undone one, Black to move with its Move taken back."""
    shell, gate = gated_shell(screen)
    start = api.state_hash(shell.session.state)
    human_turn(shell)
    session = shell.session
    assert session.thinking
    assert session.undo() is None                            # the menu's Undo
    undone = api.state_hash(session.state)
    assert session.state.side_to_move == "B" and session.state.ply == 1
    assert len(session.state.actions) == 1 and undone != start   # the Move stands, End Turn undone
    gate.set()
    old_worker = [t for t in threading.enumerate() if t.name == "wec-computer"]
    for t in old_worker:
        t.join(GUARD)
    for _ in range(5):
        frame(shell)
    assert api.state_hash(session.state) == undone and not session.thinking


def test_a_real_window_process_answers_while_the_computer_thinks_04_U18(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """04/U18 in a real ``wec window --headless --control`` process (no licence: the computer
    needs none): Play against the computer, the human's Move by two clicks, End Turn by E;
    while the computer (search, 1 s a turn) thinks, the test keeps pressing N (words, 04/U24)
    and the window handles some of those key presses during the thinking and then shows the
    computer's finished turn: Black to move at ply 3, two turns in the history."""
    import json
    import queue
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "WEC_DATA_DIR": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1",
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    err = open(tmp_path / "window.err", "w")
    proc = subprocess.Popen([sys.executable, "-m", "wec_p2p.cli", "window", "--headless", "--control"],
                            env=env, cwd=repo, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=err)
    models: queue.SimpleQueue = queue.SimpleQueue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            models.put(json.loads(line))
        models.put(None)

    threading.Thread(target=read, daemon=True).start()
    last: dict = {}

    def send(item: dict) -> None:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(item) + "\n")
        proc.stdin.flush()

    def wait(ok, what: str) -> dict:                     # type: ignore[no-untyped-def]
        nonlocal last
        end = time.monotonic() + GUARD
        while True:
            while True:
                try:
                    m = models.get_nowait()
                except queue.Empty:
                    break
                assert m is not None, f"the window exited: {(tmp_path / 'window.err').read_text()[-2000:]}"
                last = m
            if last and ok(last):
                return last
            assert time.monotonic() < end, f"never happened: {what}; last: {last.get('local')}"
            time.sleep(0.01)

    try:
        m = wait(lambda m: m.get("screen") == "home", "the home screen")
        b = next(b for b in m["buttons"] if b[0] == "Play against the computer")
        send({"click": [b[1], b[2]]})
        m = wait(lambda m: m.get("screen") == "local" and m["local"]["moves"], "the game")
        assert m["local"]["computer"] == "W" and m["local"]["to_move"] == "B"
        _, src, dst = m["local"]["moves"][0]
        send({"click": src})
        send({"click": dst})
        wait(lambda m: m["local"]["ply"] == 1 and not m["local"]["moves"], "the human's Move")
        send({"key": "e"})
        wait(lambda m: m["local"]["to_move"] == "W", "End Turn")
        end = time.monotonic() + GUARD
        while not (last["local"]["to_move"] == "B" and not last["local"]["thinking"]):
            assert time.monotonic() < end, "the computer never finished its turn"
            send({"key": "n"})                            # the player keeps pressing a key
            time.sleep(0.01)
            wait(lambda m: True, "a screen")
        m = wait(lambda m: m["local"]["to_move"] == "B" and not m["local"]["thinking"],
                 "the computer's turn")
        assert m["local"]["ply"] == 3 and m["local"]["history"] == 2
        assert m["local"]["inputs_while_thinking"] >= 1
    finally:
        if proc.poll() is None:
            proc.stdin.close()                            # type: ignore[union-attr]
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        err.close()


def test_a_hint_is_thought_in_the_background_04_U18(screen: pygame.Surface) -> None:
    """04/U18: Ctrl+H on the human's turn asks the computer of the human's side: the window
    says it is thinking and keeps running; the hint arrives at a later frame as a legal action
    of the human's side; nothing is applied."""
    session = Session(api.new_game(), computer="W", level="greedy", seconds=1.0)
    gate = threading.Event()

    def clock() -> float:
        gate.wait(GUARD)
        return time.monotonic()

    session.bots["B"] = api.Bot("greedy", seed=3, clock=clock, seconds=1.0)
    shell = Shell(session, screen)
    shell.background = True
    frame(shell)
    before = api.state_hash(session.state)
    frame(shell, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=pygame.KMOD_CTRL, unicode=""),
                  pygame.event.Event(pygame.KEYUP, key=pygame.K_h, mod=pygame.KMOD_CTRL, unicode="")])
    scene = shell.driver.scene
    assert isinstance(scene, GameScene) and scene.status == "thinking about a hint..."
    gate.set()
    frames_until(shell, lambda: shell.driver.scene.status.startswith("hint: "), "the hint")
    legal = {api.format_action(a) for a in api.legal_actions(session.state)}
    assert shell.driver.scene.status[len("hint: "):] in legal
    assert api.state_hash(session.state) == before
