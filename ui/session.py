"""One local game: the state, who plays which side, the computer's moves and autosave.

04/U17 hotseat: two people share the screen; each sees only ``observe(state, side to move)``
and a privacy screen comes between turns. 04/U18 human vs computer: the engine's computer opponent
(``engine.api.Bot``, level random/greedy/search, deciding from its own ``observe()`` view only)
plays the other side and the human sees only their own view. Autosave writes the save file (04/U8, U52) after every finished turn.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

from engine import api
from engine.actions import Action

from .scenes import GameScene

__all__ = ["Session"]


class Session:
    """The game being played; scenes get views and commands from it, never the state."""

    def __init__(self, state: api.GameState, computer: str | None = None, seed: int = 1,
                 save_path: str | Path | None = None, level: str = "search",
                 seconds: float = 1.0) -> None:
        self.state, self.computer, self.save_path = state, computer, save_path
        self.rng = random.Random(seed)
        self.bot = api.Bot(level, seed=seed, clock=time.monotonic, seconds=seconds)
        self.helper = api.Bot(level, seed=seed + 1, clock=time.monotonic, seconds=seconds)
        self.privacy_pending = False
        self.play_computer()

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
        return GameScene(api.observe(self.state, viewer), actions,
                         api.history_for(self.state, viewer), status, error)

    def apply(self, action: Action) -> str | None:
        """Apply a human's action; returns the RuleError text, or None when it was applied."""
        before = self.state.side_to_move
        try:
            self.state = api.apply_action(self.state, action)
        except api.RuleError as exc:
            return str(exc)
        self._turn_done(before)
        return None

    def undo(self) -> str | None:
        """04/U31: take back the human's last action of this turn; returns why not, or None."""
        if not self.state.actions:
            return "04/U31: only this turn's actions can be undone here"
        try:
            self.state = api.undo(self.state)
        except api.RuleError as exc:
            return str(exc)
        return None

    def hint(self) -> tuple[str, bool]:
        """The computer's suggestion for the human's next action, from the human's view alone
        (issue 11); (status text, is it an error)."""
        me = self.state.side_to_move
        if self.state.result is not None or (self.computer is not None and me == self.computer):
            return "no hint: it is not your turn", True
        action = self.helper.choose(api.observe(self.state, me), api.legal_actions(self.state))
        return f"hint: {api.format_action(action)}", False

    def switch_sides(self) -> str | None:
        """04/U18: swap colours with the computer; refused in a competitive game (02/D24) and
        in hotseat. Returns why not, or None (the computer then plays if it is its turn)."""
        if self.computer is None:
            return "switching sides needs a game against the computer (04/U18)"
        if self.state.options.competitive:
            return "02/D24: sides cannot be switched in a competitive game"
        self.computer = "W" if self.computer == "B" else "B"
        self.bot, self.helper = self.helper, self.bot
        self.play_computer()
        return None

    def play_computer(self) -> None:
        """Let the computer play while it is its turn (its whole turn, ending with End Turn)."""
        while self.computer == self.state.side_to_move and self.state.result is None:
            before = self.state.side_to_move
            me = self.state.side_to_move
            action = self.bot.choose(api.observe(self.state, me), api.legal_actions(self.state))
            self.state = api.apply_action(self.state, action)
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
