"""A WiFi game as the window's session: its view comes from bridge events, its actions are posted.

``NetSession`` stands where ``ui.session.Session`` stands for a local game (``ui.app.Driver``
asks it for a scene and hands it the player's actions), but it holds no game state: the
network side (``net.bridge.NetBridge``) owns the game. Each bridge event goes through
``on_event``, which keeps what the screen shows: this player's ``PlayerView`` only (RUL-18),
the legal actions while it is our turn, the peer's last action (highlighted and in words),
"waiting for White…", a lost connection, an undo request and the end of the game.
``apply`` posts ``Act``; the board changes only when the bridge says the action was applied.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Sequence
from typing import Any

import pygame

from engine.actions import Action, EndTurn
from engine.notation import NotationError, format_action, parse_action
from engine.options import Options
from engine.view import PlayerView
from net import frontend as fe

from . import choices, theme
from .board_view import drawn_over
from .layout import LAYOUT, Layout, cell_rect
from .scenes import SIDE_NAME, GameScene
from .words import describe, split_rule

__all__ = ["NetSession", "NetGameScene", "COLOUR_SIDE", "LAST_ACTION_COLOUR", "winner_words"]

COLOUR_SIDE = {"white": "W", "black": "B"}
LAST_ACTION_COLOUR = (60, 200, 255)     # the peer's last action: its squares framed in this


@dataclass
class _StateShim:
    """What ``ui.shell.Shell`` reads of ``session.state`` (menus, game status) in a WiFi game."""

    options: Options
    history: list[str] = field(default_factory=list)
    actions: tuple[Any, ...] = ()
    side_to_move: str = "B"
    ply: int = 1
    result: str | None = None


class NetGameScene(GameScene):
    """The hotseat board for one player, plus the peer's last action framed and a banner line."""

    def __init__(self, view: PlayerView, actions: list[Action], history: list[str], status: str = "",
                 error: bool = False, lay: Layout = LAYOUT, last_cells: tuple[tuple[int, int], ...] = (),
                 last_words: str = "", banner: str = "", over: str = "") -> None:
        super().__init__(view, actions, history, status, error, lay)
        self.last_cells, self.last_words, self.banner, self.over = last_cells, last_words, banner, over
        self.clock = ""                        # the move time limit's countdown (docs/rulings.md N-4)
        self.audit = ""                        # the end-of-game audit in words (issue 9 item 5)

    def _title(self) -> str:
        """As on the hotseat board; a game ended by the protocol (resigned, agreed draw) says so too."""
        return self.over or super()._title()

    def starting(self) -> None:
        """The banner ("waiting for White…", "connection lost…") is the first status shown."""
        if not self.status and self.banner:
            self.status = self.banner
        super().starting()

    def draw(self, surface: pygame.Surface, damage: Sequence[pygame.Rect] | None = None) -> list[Any]:
        """The board as in hotseat, then the peer's last action framed and written out."""
        drawn = super().draw(surface, damage)
        for row, col in self.last_cells:
            drawn_over(surface, pygame.draw.rect(surface, LAST_ACTION_COLOUR,
                                                 cell_rect(row, col, self.view.player, self.lay), 3))
        if self.last_words:                    # under the status line and its details line, if any
            y = self.lay.board_y + self.lay.board_size + (52 if split_rule(self.status)[1] else 32)
            text = theme.fit(18, "Last: " + self.last_words, self.lay.panel_x - self.lay.board_x - 8)
            surface.blit(theme.text(18, text, LAST_ACTION_COLOUR), (self.lay.board_x, y))
        if self.clock:                         # under End Turn, left of the small boards
            x, y = self.lay.panel_x, self.lay.board_y + 34
            surface.blit(theme.text(18, self.clock, theme.ERROR if self.clock.startswith("you") else theme.TEXT),
                         (x, y))
            surface.blit(theme.text(16, "move time limit: the game is lost when it runs out", theme.DIM), (x, y + 22))
        if self.audit:                         # under End Turn, where the clock stood
            x, y = self.lay.panel_x, self.lay.board_y + 34
            text = theme.fit(18, self.audit, surface.get_width() - x - 8)
            colour = theme.ERROR if self.audit.startswith("Audit failed") else theme.TEXT
            surface.blit(theme.text(18, text, colour), (x, y))
        return drawn


class NetSession:
    """One WiFi game seen from this laptop; ``bridge`` is anything with ``post(command)``."""

    computer: str | None = None
    save_path: Path | None = None

    def __init__(self, bridge: Any, colour: str, view: PlayerView) -> None:
        self.bridge, self.colour, self.side = bridge, colour, COLOUR_SIDE[colour]
        self.view = view
        self.legal: list[Action] = []
        self.privacy_pending = False           # never: each laptop shows only its own player
        self.turns: list[str] = []             # finished turns, one line each, in words
        self.this_turn: list[str] = []         # the actions of the turn in progress, in words
        self.last: tuple[str, str] | None = None    # the peer's last action: (notation, words)
        self.banner = ""                       # "waiting for White…", "connection lost…"
        self.notice, self.notice_error = "", False
        self.lost = False
        self.over: fe.GameOver | None = None
        self.ending: fe.AuditStarted | None = None   # the game ended; the audit runs (issue 9 item 5)
        self.audit: fe.AuditVerdict | None = None
        self.undo_asked: int | None = None     # the peer asks to take back action ``index``
        self.draw_offered = False
        self.sent: str | None = None           # our action on its way (no second one meanwhile)
        self.turn_index: int | None = None     # the action index of the last YourTurn
        self.move_limit = 0                    # seconds for each action, when agreed (N-4); 0: none
        self.clock_from: float | None = None   # when the clock of the action awaited started (monotonic)

    # -- what Shell and Driver read --------------------------------------------------------

    @property
    def state(self) -> _StateShim:
        """Enough of a game state for the menus: options, started, this turn's actions."""
        turn = self.view.turn
        return _StateShim(self.view.options, list(self.turns), tuple(turn.actions) if turn else (),
                          self.view.side_to_move, self.view.ply, self.view.result)

    @property
    def viewer(self) -> str:
        """Always this laptop's player."""
        return self.side

    def scene(self, status: str = "", error: bool = False) -> NetGameScene:
        """The board for our player only (RUL-18): our legal actions while it is our turn."""
        if not status and self.notice:
            status, error = self.notice, self.notice_error      # kept until the next action
        last_cells: tuple[tuple[int, int], ...] = ()
        last_words = ""
        if self.last is not None:
            text, last_words = self.last
            last_cells = _cells(text)
            last_words = f"{SIDE_NAME[_other(self.side)]}: {last_words}"
        scene = NetGameScene(self.view, [] if self.sent or self.lost else self.legal, self.history(),
                             status, error, last_cells=last_cells, last_words=last_words, banner=self.banner,
                             over=self._over_title())
        scene.clock = self.clock_words()
        scene.audit = self.audit_words()
        return scene

    def audit_words(self) -> str:
        """The end-of-game audit in words: "" before the game ends, "Checking the game (audit)…"
        while it runs, then the verdict ("Audit passed: nobody lied", or the false claim)."""
        if self.audit is not None:
            return self.audit.words()
        if self.ending is not None and self.over is None:
            return fe.AUDIT_RUNNING
        return ""      # no audit ran (the game was abandoned: N-2, N-3)

    def clock_words(self, now: float | None = None) -> str:
        """The move time limit's countdown in words (docs/rulings.md N-4), "" without one. The
        waiting laptop's clock decides; this one counts from when this laptop heard the move."""
        if not self.move_limit or self.over is not None or self.ending is not None or self.clock_from is None:
            return ""
        now = time.monotonic() if now is None else now
        left = max(0, math.ceil(self.move_limit - (now - self.clock_from)))
        mover = self.view.side_to_move
        who = "you have" if mover == self.side else f"{SIDE_NAME[mover]} has"
        return f"{who} {left} s left for this action"

    def _over_title(self) -> str:
        if self.over is not None:
            return f"Game over: {winner_words(self.over.result)}, {self.over.reason}"
        if self.audit is not None and not self.audit.passed:
            return "Game stopped: the audit found a false claim"
        if self.ending is not None:
            return f"Game over: {winner_words(self.ending.result)}, {self.ending.reason}"
        return ""

    def history(self) -> list[str]:
        """Finished turns and the one in progress, in words."""
        who = SIDE_NAME[self.view.side_to_move]
        return self.turns + ([f"{who}: " + "; ".join(self.this_turn)] if self.this_turn else [])

    # -- what the player does --------------------------------------------------------------

    def apply(self, action: Action) -> str | None:
        """Post our action; None when sent, else why not (nothing is sent then)."""
        if self.over is not None or self.ending is not None or self.audit is not None:
            return "the game is over"
        if self.lost:
            return "connection lost — waiting for the other laptop"
        if self.sent is not None:
            return "your last action is still on its way to the other laptop"
        if action not in self.legal:
            return f"not your move: waiting for {SIDE_NAME[self.view.side_to_move]}" if not self.legal \
                else "that action is not legal now"
        self.sent, self.notice = format_action(action), ""
        self.bridge.post(fe.Act(self.sent))
        return None

    def undo(self) -> str | None:
        """Ask the other player to take back the last action (non-competitive games, 04/U31)."""
        if self.view.options.competitive:
            return "a competitive game has no undo (04/U31, 02/D24)"
        if self.over is not None:
            return "the game is over"
        self.bridge.post(fe.RequestUndo())
        self.notice, self.notice_error = "undo asked: waiting for the other player's answer", False
        return None

    def undo_turn(self) -> str | None:
        """Not in a WiFi game: each undo is one request the other player answers."""
        return "in a WiFi game ask for one undo at a time (Undo last action, Ctrl+Z)"

    def switch_sides(self) -> str | None:
        """Never: each laptop plays its own colour."""
        return "in a WiFi game each laptop plays its own colour"

    def save(self, path: str | Path) -> str | None:
        """A WiFi game is written to both laptops' logs as it goes."""
        return "a WiFi game saves itself on both laptops as it is played (04/U63)"

    def answer_undo(self, yes: bool, reason: str = "") -> None:
        """Our answer to the peer's undo request."""
        self.undo_asked = None
        self.bridge.post(fe.AnswerUndo(yes, reason))

    # -- what the bridge says ---------------------------------------------------------------

    def on_event(self, ev: Any) -> bool:
        """Take one bridge event; True when the screen must show a fresh scene."""
        if isinstance(ev, (fe.YourTurn, fe.Waiting, fe.PeerActed, fe.MyActionApplied)) and \
                (self.clock_from is None or not isinstance(ev, (fe.YourTurn, fe.Waiting))):
            self.clock_from = time.monotonic()     # N-4: each action is timed from the one before it
        if isinstance(ev, fe.YourTurn):
            # the same YourTurn again (the status re-said after a resume) while our action is on its
            # way leaves it on its way: only its applying or refusing frees the board for the next one
            if self.sent is None or ev.index != self.turn_index:
                self.sent = None
            self.view, self.legal, self.turn_index = ev.view, _parsed(ev.legal), ev.index
            self.banner = "your move: left-click a piece to Move it, right-click to Fire (04/U33)"
        elif isinstance(ev, fe.Waiting):
            self.legal = []
            self.banner = f"waiting for {SIDE_NAME[COLOUR_SIDE[ev.side]]}… ({ev.why})"
        elif isinstance(ev, fe.PeerActed):
            # what it takes is read before it is applied: our own pieces on its square (RUL-18)
            words = _words(ev.text, self.view._replace(seen=self.view.own))
            self.view, self.notice, self.legal = ev.view, "", []   # YourTurn brings the legal actions
            if not ev.text.startswith("END"):      # End Turn moves nothing: keep the action before it
                self.last = (ev.text, words)
            self._record(ev.text, ev.view, words)
        elif isinstance(ev, fe.MyActionApplied):
            words = _words(ev.text, self.view)     # the enemies we saw on its square, before it
            # the legal actions of before are stale: a fresh YourTurn (or Waiting) follows
            self.view, self.sent, self.notice, self.legal = ev.view, None, "", []
            self._record(ev.text, ev.view, words)
        elif isinstance(ev, fe.ActionRefused):
            self.sent = None
            self.notice, self.notice_error = f"refused ({ev.rule}): {ev.reason}", True
        elif isinstance(ev, fe.CommandRefused):
            if isinstance(ev.command, fe.Act):
                self.sent = None
            self.notice, self.notice_error = ev.reason, True
        elif isinstance(ev, fe.UndoRequested):
            self.undo_asked = ev.index
        elif isinstance(ev, fe.UndoAnswered):
            if ev.view is not None:
                self.view = ev.view
            if ev.accepted and self.this_turn:
                self.this_turn.pop()
            whose = "your" if ev.asked_by == "me" else "the other player's"
            said = "accepted" if ev.accepted else "refused" + (f": {ev.reason}" if ev.reason else "")
            self.notice, self.notice_error = f"{whose} undo request was {said}", not ev.accepted
        elif isinstance(ev, fe.ConnectionLost):
            self.lost, self.legal = True, []   # after the resume a fresh YourTurn says what is legal
            self.banner = "connection lost — waiting for the other laptop"
        elif isinstance(ev, (fe.Resumed, fe.Connected)):
            self.lost = False
            self.banner = "the other laptop is back: the game goes on"
        elif isinstance(ev, fe.GameOver):
            self.over, self.legal, self.sent = ev, [], None
            if ev.view is not None:
                self.view = ev.view
            self.banner = f"game over: {winner_words(ev.result)} ({ev.reason}) — {self.audit_words()}"
        elif isinstance(ev, fe.AuditStarted):
            self.ending, self.legal, self.sent = ev, [], None
            self.banner = f"game over: {winner_words(ev.result)} ({ev.reason}) — {fe.AUDIT_RUNNING}"
        elif isinstance(ev, fe.AuditVerdict):
            self.audit, self.legal, self.sent = ev, [], None
            self.banner = ev.words()
        elif isinstance(ev, fe.DrawOffered):
            self.draw_offered = True
        elif isinstance(ev, fe.DrawDeclined):
            self.draw_offered = False
            who = "you" if ev.by == "me" else "the other player"
            self.notice, self.notice_error = f"the draw offer was declined by {who} (RUL-53)", False
        elif isinstance(ev, fe.DrawLapsed):
            self.draw_offered = False
            self.notice, self.notice_error = "the draw offer lapsed unanswered (RUL-53)", False
        else:
            return False
        return True

    def _record(self, text: str, view: PlayerView, words: str) -> None:
        if text == "END" or text.startswith("END"):
            mover = _other(view.side_to_move) if view.result is None else view.side_to_move
            self.turns.append(f"{SIDE_NAME[mover]}: " + "; ".join(self.this_turn + ["ends the turn"]))
            self.this_turn = []
        else:
            self.this_turn.append(words)


def winner_words(result: str | None) -> str:
    """"White wins", "Black wins" or "Draw" (a result as the protocol or the engine writes it)."""
    return {"white": "White wins", "W": "White wins", "black": "Black wins", "B": "Black wins"}.get(
        result or "", "Draw")


def _parsed(texts: tuple[str, ...]) -> list[Action]:
    out = []
    for t in texts:
        try:
            out.append(parse_action(t))
        except NotationError:
            continue
    return out


def _words(text: str, view: PlayerView) -> str:
    try:
        return describe(parse_action(text), view)
    except (NotationError, ValueError):
        return text


def _cells(text: str) -> tuple[tuple[int, int], ...]:
    """The squares of an action to frame: where it started and where it went."""
    try:
        action = parse_action(text)
    except (NotationError, ValueError):
        return ()
    if isinstance(action, EndTurn):
        return ()
    out = [c for c in (choices.source_cell(action), choices.target_cell(action)) if c is not None]
    return tuple(dict.fromkeys(out))


def _other(side: str) -> str:
    return "W" if side == "B" else "B"
