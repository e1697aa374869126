"""One local game: the state, who plays which side, the computer's moves and autosave.

04/U17 hotseat: two people share the screen; each sees only ``observe(state, side to move)``
and a privacy screen comes between turns. 04/U18 human vs computer: the engine's computer opponent
(``engine.api.Bot``, level random/greedy/search, deciding from its own ``observe()`` view
only, issue 11) plays the other side and the human sees only their own view; ``hint`` asks a
bot of the human's side for a suggestion. Autosave writes the save file (04/U8, U52) after every finished turn.

In the window the computer thinks in a worker thread (``background``, set by the shell's frame
loop): the frame loop keeps drawing and answering the menus while it thinks, and takes the
computer's actions (each already applied by the worker to its own copy of the state, the
engine being pure) at its next frame (``poll``). Undo, switching sides or a new game start a
new generation; a worker of an older one stops at its next clock reading and its results are
dropped. Without ``background`` (tests, scripts, headless games) the computer plays at once.
"""
from __future__ import annotations

import queue
import random
import threading
import time
from pathlib import Path
from typing import Any, Callable

from engine import api
from engine.actions import Action

from engine.events import HiddenAgain, Revealed

from .scenes import GameScene, LastSeen

__all__ = ["Session"]


class Session:
    """The game being played; scenes get views and commands from it, never the state."""

    def __init__(self, state: api.GameState, computer: str | None = None, seed: int = 1,
                 save_path: str | Path | None = None, level: str = "search",
                 seconds: float = 1.0) -> None:
        self.state, self.computer, self.save_path = state, computer, save_path
        self.rng = random.Random(seed)
        self.seed, self.level, self.seconds = seed, level, seconds
        self.bots: dict[str, api.Bot] = {}            # one per side: each remembers its views
        self.privacy_pending = False
        self.last_seen: dict[str, list[LastSeen]] = {"B": [], "W": []}
        self.background = False           # think in a worker thread (the window's frame loop)
        self.wake: Callable[[], None] | None = None   # the worker's "a result is ready"
        self._generation = 0
        self._worker: threading.Thread | None = None
        self._results: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self.hint_text: tuple[str, bool] | None = None    # a background hint's answer
        self.play_computer()

    @property
    def thinking(self) -> bool:
        """Whether a worker of the current generation is still thinking."""
        return self._worker is not None

    @property
    def viewer(self) -> str:
        """Whose view is shown: the human in a game against the computer, else the side to move."""
        if self.computer is not None:
            return "W" if self.computer == "B" else "B"
        return self.state.side_to_move

    def scene(self, status: str = "", error: bool = False) -> GameScene:
        """A fresh game scene for the current viewer (RUL-18: ``observe``; RUL-37: ``history_for``)."""
        viewer = self.viewer
        mine = self.state.side_to_move == viewer and self.state.result is None
        actions = api.legal_actions(self.state) if mine else []
        if not status and self.thinking and self.state.side_to_move == self.computer:
            status = "the computer is thinking..."
        scene = GameScene(api.observe(self.state, viewer), actions,
                          api.history_for(self.state, viewer), status, error)
        scene.last_seen = list(self.last_seen[viewer])
        return scene

    def apply(self, action: Action) -> str | None:
        """Apply a human's action; returns the RuleError text, or None when it was applied."""
        if self.thinking and self.state.side_to_move == self.computer:
            return "the computer is thinking: wait for its turn to end (04/U18)"
        before = self.state.side_to_move
        try:
            self._play(action)
        except api.RuleError as exc:
            return str(exc)
        self._turn_done(before)
        return None

    def undo(self) -> str | None:
        """04/U31: take back the last action, across turns too (non-competitive games only);
        against the computer, back to before the human's last action. Returns why not, or None."""
        if self.state.options.competitive:
            return "a competitive game has no undo (04/U31, 02/D24)"
        state, human_undone = self.state, False
        try:
            while True:
                actor = state.side_to_move if state.actions else _other(state.side_to_move)
                state = api.undo(state)
                human_undone = human_undone or actor != self.computer
                if self.computer is None or (human_undone and state.side_to_move != self.computer):
                    break
        except api.RuleError:
            return "nothing to undo (04/U31)"
        self._restart_at(state)
        return None

    def undo_turn(self) -> str | None:
        """04/U31: back to the start of this turn, or of the previous one if this one has no
        action yet (against the computer: of the human's previous turn)."""
        if self.state.options.competitive:
            return "a competitive game has no undo (04/U31, 02/D24)"
        ply = self.state.ply if self.state.actions else self.state.ply - 1
        try:
            while ply >= 1:
                state = api.undo_to_turn(self.state, ply)
                if state.side_to_move != self.computer:
                    self._restart_at(state)
                    return None
                ply -= 1
        except api.RuleError as exc:
            return str(exc)
        return "nothing to undo (04/U31)"

    def _play(self, action: Action) -> None:
        """Apply ``action`` and keep each side's last-seen markers (04/U29) from its events."""
        self._install(*api.apply_action_events(self.state, action))

    def _install(self, state: api.GameState, events: Any) -> None:
        """The state after an action and that action's events (last-seen markers, 04/U29)."""
        self.state = state
        for viewer, marks in self.last_seen.items():
            for e in api.events_for(events, viewer):
                if isinstance(e, HiddenAgain) and e.side != viewer:
                    marks.append(LastSeen(e.kind, e.side, *e.cell, self.state.ply))
                elif isinstance(e, Revealed) and e.side != viewer:
                    # enemy pieces are not identified (RUL-50 a): a piece of that type seen
                    # again takes away that type's markers
                    marks[:] = [m for m in marks if m.kind != e.kind]

    def bot(self, side: str) -> api.Bot:
        """The computer player of ``side`` (made on first use; a thinking clock of its own,
        which runs out at once when its generation is over, so an abandoned worker stops)."""
        if side not in self.bots:
            generation = self._generation

            def clock() -> float:
                return time.monotonic() if generation == self._generation else float("inf")

            self.bots[side] = api.Bot(self.level, seed=self.seed + (side == "B"),
                                      clock=clock, seconds=self.seconds)
        return self.bots[side]

    def hint(self) -> tuple[str, bool]:
        """The computer's suggestion for the human's next action, from the human's own view
        (issue 11); nothing is applied. Returns (status text, whether it is an error)."""
        me = self.state.side_to_move
        if self.state.result is not None or me == self.computer:
            return "no hint: it is not your turn", True
        if self.background:
            if not self.thinking:
                self._start_worker(self._hint_job, self.state, self.bot(me))
            return "thinking about a hint...", False
        action = self.bot(me).choose(api.observe(self.state, me), api.legal_actions(self.state))
        return f"hint: {api.format_action(action)}", False

    # -- the worker ------------------------------------------------------------------------------

    def _start_worker(self, job: Callable[..., None], state: api.GameState, bot: api.Bot) -> None:
        generation = self._generation

        def run() -> None:
            try:
                job(generation, state, bot)
            except Exception as exc:      # noqa: BLE001  (shown on the status line, not lost)
                self._results.put((generation, "error", f"the computer failed: {exc!r}"))
            finally:
                self._results.put((generation, "done", None))
                if self.wake is not None:
                    self.wake()

        self._worker = threading.Thread(target=run, name="wec-computer", daemon=True)
        self._worker.start()

    def _turn_job(self, generation: int, state: api.GameState, bot: api.Bot) -> None:
        """The computer's whole turn on the worker's own copy of the state."""
        me = state.side_to_move
        while state.side_to_move == me and state.result is None \
                and generation == self._generation:
            action = bot.choose(api.observe(state, me), api.legal_actions(state))
            state, events = api.apply_action_events(state, action)
            self._results.put((generation, "action", (state, events)))
            if self.wake is not None:
                self.wake()

    def _hint_job(self, generation: int, state: api.GameState, bot: api.Bot) -> None:
        me = state.side_to_move
        action = bot.choose(api.observe(state, me), api.legal_actions(state))
        self._results.put((generation, "hint", f"hint: {api.format_action(action)}"))

    def poll(self) -> bool:
        """Take what the worker has done (called every frame); True when the state or the
        hint changed. Also starts the computer's thinking when it is its turn."""
        changed = False
        while True:
            try:
                generation, kind, value = self._results.get_nowait()
            except queue.Empty:
                break
            if generation != self._generation:
                continue                  # an abandoned worker's (undo, switch, new game)
            if kind == "action":
                before = self.state.side_to_move
                self._install(*value)
                if self.state.side_to_move != before or self.state.result is not None:
                    self._autosave()
            elif kind == "hint":
                self.hint_text = (value, False)
            elif kind == "error":
                self.hint_text = (value, True)
            else:
                self._worker = None
            changed = True
        if self.background and not self.thinking:
            self.play_computer()
        return changed

    def _new_generation(self) -> None:
        self._generation += 1
        self._worker = None
        self.bots = {}

    def _restart_at(self, state: api.GameState) -> None:
        self.last_seen = {"B": [], "W": []}           # markers are this session's memory only
        self._new_generation()
        # hotseat (04/U17): an undo back into the other player's turn passes the screen to them
        handover = self.computer is None and state.side_to_move != self.state.side_to_move
        self.state, self.privacy_pending = state, handover
        self._autosave()

    def switch_sides(self) -> str | None:
        """04/U16: the human takes the other colour at once (non-competitive games against the
        computer); the computer then plays if it is now its turn."""
        if self.computer is None:
            return "switching sides is for games against the computer (04/U16)"
        if self.state.options.competitive:
            return "sides cannot be switched in a competitive game (04/U16, 02/D24)"
        self.computer = "B" if self.computer == "W" else "W"
        self._new_generation()            # a worker thinking for the old side stops
        self.play_computer()
        return None

    def save(self, path: str | Path) -> str | None:
        """04/U8: save the game as its history; returns why not, or None."""
        try:
            api.save(self.state, path)
        except OSError as exc:
            return f"cannot save to {path}: {exc.strerror or exc}"
        return None

    def play_computer(self) -> None:
        """Let the computer play while it is its turn (its whole turn, ending with End Turn);
        with ``background`` in a worker thread whose actions ``poll`` takes."""
        if self.background:
            if self.computer == self.state.side_to_move and self.state.result is None \
                    and not self.thinking:
                self._start_worker(self._turn_job, self.state, self.bot(self.computer))
            return
        while self.computer == self.state.side_to_move and self.state.result is None:
            before = self.state.side_to_move
            me = self.state.side_to_move
            self._play(self.bot(me).choose(api.observe(self.state, me),
                                           api.legal_actions(self.state)))
            if self.state.side_to_move != before or self.state.result is not None:
                self._autosave()

    def _turn_done(self, before: str) -> None:
        if self.state.side_to_move == before and self.state.result is None:
            return
        self._autosave()
        if self.computer is None:
            self.privacy_pending = self.state.result is None
        else:
            self.play_computer()

    def _autosave(self) -> None:
        if self.save_path is not None:
            api.save(self.state, self.save_path)


def _other(side: str) -> str:
    return "W" if side == "B" else "B"
