"""Scenes: the game screen and the hotseat privacy screen.

Loop contract after pygame/solarwolf ``gamemain`` (STYLE "Modules, UI"): ``starting()`` once,
``event(e)`` for each pygame event, returning outputs for the driver, and ``draw(surface)``
each frame. A scene gets a ``PlayerView``, the legal actions (its commands) and the history
lines; it never touches a game state, the engine's rules or a file.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple, Union

import pygame

from engine.actions import Action, EndTurn
from engine.notation import NotationError, format_action, parse_action, parse_turn
from engine.view import PlayerView

from . import art, choices, theme
from .board_view import DrawnToken, draw_board, drawn_over
from .cell_view import cell_lines, draw_cell_zoom
from .layout import LAYOUT, Layout, cell_at, cell_rect, level_rect
from .panel_view import (HISTORY_ROW, LIST_ROWS, draw_bar, draw_panel, draw_privacy, draw_status,
                         end_button, history_rect, list_row_rect, wrapped_history)
from .small_boards import draw_small_boards
from .words import describe, describe_turn, kind_name

__all__ = ["Apply", "Undo", "Quit", "Dismiss", "LastSeen", "Output", "GameScene", "PrivacyScene", "SIDE_NAME"]

Cell = tuple[int, int]
SIDE_NAME = {"B": "Black", "W": "White"}


class Apply(NamedTuple):
    """The player chose ``action`` (one of the scene's commands)."""

    action: Action


class Undo(NamedTuple):
    """The player asked for Undo (04/U31)."""


class Quit(NamedTuple):
    """The player closed the window or pressed Q."""


class LastSeen(NamedTuple):
    """04/U29: where an enemy piece was last seen before it became hidden, and when."""

    kind: str
    side: str
    row: int
    col: int
    level: str
    ply: int


class Dismiss(NamedTuple):
    """The privacy screen was dismissed."""


Output = Union[Apply, Undo, Quit, Dismiss]
_ARROWS = {pygame.K_UP: (1, 0), pygame.K_DOWN: (-1, 0), pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1)}


class GameScene:
    """The board, the action list, the history and the status line for one viewer."""

    def __init__(self, view: PlayerView, actions: Sequence[Action], history: Sequence[str],
                 status: str = "", error: bool = False, lay: Layout = LAYOUT) -> None:
        self.view, self.actions, self.history, self.lay = view, list(actions), list(history), lay
        self.status, self.error = status, error
        self.selection: Cell | None = None
        self.group: list[Action] = []          # actions of the selected cell for the button used
        self.pending: list[Action] = []        # several actions for one clicked square (04/U36)
        self.cursor: Cell = (1, 1) if view.player == "B" else (10, 10)
        self.list_cursor = 0
        self.list_scroll = 0                   # first row of the action list (wheel, PgUp/PgDn)
        self.words = True                      # history and choices in words; N: notation
        self.history_top: int | None = None    # first history row shown; None follows the newest
        self.hover: Cell | None = None         # the square under the mouse, read in full
        self.small_boards = True               # View: "Big board only" off (04/U28)
        self.show_reinforcements = True        # View: reinforcement squares marked (04/U25)
        self.small_dots: list[tuple[str, int, int, str]] = []
        self.piece_set = "simple"              # View: simple or detailed pieces (04/U24)
        self.last_seen: list[LastSeen] = []    # 04/U29 markers, from the session
        self.show_last_seen = True             # View: Toggle Continue View (04/U29)
        self.changed = False                   # a quiet event (mouse motion) changed the screen
        self.pointer = "move"                  # 04/U34: what the button does now (move / fire)
        self.drawn: list[DrawnToken] = []

    def starting(self) -> None:
        """Called once when the scene becomes current."""
        if not self.status:
            self.status = self._hint()

    # -- input ---------------------------------------------------------------------------------

    def event(self, e: pygame.event.Event) -> list[Output]:
        """One pygame event in, the outputs it causes out."""
        if e.type == pygame.QUIT:
            return [Quit()]
        if e.type == pygame.MOUSEBUTTONDOWN and e.button in (1, 3):
            return self._mouse(e.pos, fire=e.button == 3)
        if e.type == pygame.KEYDOWN:
            return self._key(e.key)
        if e.type == pygame.MOUSEWHEEL:
            self._wheel(e)
        if e.type == pygame.MOUSEMOTION:
            cell = cell_at(e.pos, self.view.player, self.lay)
            if cell != self.hover:
                self.hover, self.changed = cell, True
        return []

    def _wheel(self, e: pygame.event.Event) -> None:
        """Scroll the history (under the mouse) or the action list by three rows a notch."""
        pos = pygame.mouse.get_pos() if not hasattr(e, "pos") else e.pos
        if history_rect(self.lay).collidepoint(pos):
            self.scroll_history(-3 * e.y)
        else:
            self.scroll_list(-3 * e.y)

    def scroll_history(self, rows: int) -> None:
        """Move the history's first shown row by ``rows`` (negative: back in time)."""
        total = len(wrapped_history(self.history_lines(), history_rect(self.lay).width))
        visible = history_rect(self.lay).height // HISTORY_ROW
        top = max(0, total - visible) if self.history_top is None else self.history_top
        top = max(0, min(total - visible, top + rows))
        self.history_top = None if top >= total - visible else top

    def scroll_list(self, rows: int) -> None:
        """Move the action list's first shown row by ``rows``."""
        self.list_scroll = max(0, min(max(0, len(self.listed()) - LIST_ROWS), self.list_scroll + rows))

    def click(self, cell: Cell, fire: bool = False) -> list[Output]:
        """04/U35, U37: select the pieces of ``cell``, or choose the action that reaches it (with
        the button that selected: left for a Move, right for a Fire, 04/U33)."""
        if self.selection is not None and self.group and choices.is_fire(self.group[0]) == fire:
            chosen = choices.actions_to(self.group, cell)
            if len(chosen) == 1:
                return [Apply(chosen[0])]
            if chosen:
                self.pending, self.list_cursor = chosen, 0
                self.status, self.error = f"{len(chosen)} actions reach that square: choose one", False
                return []
        group = choices.actions_from(self.actions, cell, fire)
        self.pointer = "fire" if fire and group else "move"
        self.selection, self.group, self.pending, self.list_cursor = (cell if group else None), group, [], 0
        self.list_scroll = 0
        if not group:
            self.status = "no " + ("Fire" if fire else "action") + " from that square"
        else:
            self.status = f"{len(group)} {'Fires' if fire else 'actions'}: click a yellow square"
        self.error = False
        return []

    def _mouse(self, pos: tuple[int, int], fire: bool) -> list[Output]:
        if end_button(self.lay).collidepoint(pos):
            return self._end_turn()
        for i in range(LIST_ROWS):
            if list_row_rect(i, self.lay).collidepoint(pos):
                index = self._top() + i
                return [Apply(self.listed()[index])] if index < len(self.listed()) else []
        cell = cell_at(pos, self.view.player, self.lay)
        if cell is None:
            return []
        self.cursor = cell
        return self.click(cell, fire)

    def _key(self, key: int) -> list[Output]:
        if key == pygame.K_q:
            return [Quit()]
        if key == pygame.K_e:
            return self._end_turn()
        if key == pygame.K_z:
            return [Undo()]
        if key == pygame.K_n:
            self.words = not self.words
            return []
        if key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.scroll_list(-LIST_ROWS if key == pygame.K_PAGEUP else LIST_ROWS)
            return []
        if key == pygame.K_ESCAPE:
            self.selection, self.group, self.pending = None, [], []
            return []
        if self.pending and key in (pygame.K_UP, pygame.K_DOWN):
            step = -1 if key == pygame.K_UP else 1
            self.list_cursor = (self.list_cursor + step) % len(self.pending)
            return []
        if key in _ARROWS:
            dr, dc = _ARROWS[key] if self.view.player == "B" else tuple(-x for x in _ARROWS[key])
            self.cursor = (min(10, max(1, self.cursor[0] + dr)), min(10, max(1, self.cursor[1] + dc)))
            return []
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if self.pending:
                return [Apply(self.pending[self.list_cursor])]
            return self.click(self.cursor)
        if key == pygame.K_f:
            return self.click(self.cursor, fire=True)
        return []

    def _end_turn(self) -> list[Output]:
        """04/U42: End Turn when it is legal (a Move has been made, U32)."""
        for a in self.actions:
            if isinstance(a, EndTurn):
                return [Apply(a)]
        self.status, self.error = "End Turn is not possible yet: make your Move first (04/U32)", True
        return []

    # -- drawing -------------------------------------------------------------------------------

    def listed(self) -> list[Action]:
        """The actions shown in the side panel: the pending choice, else the selection's."""
        return self.pending or self.group

    def _top(self) -> int:
        return max(self.list_scroll, self.list_cursor - LIST_ROWS + 1)

    def history_lines(self) -> list[str]:
        """The history as shown: finished lines and this turn's actions, in words or notation."""
        actions = list(self.view.turn.actions) if self.view.turn else []
        if not self.words:
            return self.history + ["+ " + a for a in actions]
        return [_line_words(line) for line in self.history] + ["+ " + _action_words(a) for a in actions]

    def draw(self, surface: pygame.Surface, damage: Sequence[pygame.Rect] | None = None) -> list[DrawnToken]:
        """Draw the whole screen; returns the board tokens drawn (kept in ``self.drawn``).
        ``damage``: as ``draw_board`` has it (None: nothing is known of what the surface holds);
        the picture is the same either way, only the board's unchanged squares are not drawn
        again when it is known."""
        lay = self.lay
        if surface.get_size() != (lay.width, lay.height):
            damage = None
        if damage is None:
            surface.fill(theme.BACKGROUND)
        else:                      # the panel and below: the bar fills itself, draw_board the rest
            right = lay.board_x + lay.board_size
            bottom = lay.board_y + lay.board_size
            surface.blit(_blank(lay.width - right, lay.board_size), (right, lay.board_y))  # a copy beats a fill
            surface.fill(theme.BACKGROUND, (0, bottom, lay.width, lay.height - bottom))
        draw_bar(surface, self._title(), self.lay)
        highlights = choices.targets(self.group) if self.selection else []
        self.drawn = draw_board(surface, self.view, self.selection, highlights, self.cursor, self.lay,
                                reinforcements=self.show_reinforcements, piece_set=self.piece_set,
                                damage=damage)
        if self.show_last_seen:
            self._last_seen_markers(surface)
        self._homing_lines(surface)
        heading = "Choose one:" if self.pending else (f"Actions from {self.selection}" if self.selection else "Click a piece")
        words = (lambda a: describe(a, self.view)) if self.words else format_action
        items = [words(a) for a in self.listed()]
        can_end = any(isinstance(a, EndTurn) for a in self.actions)
        draw_panel(surface, heading, items, self.list_cursor if self.pending else -1, self._top(),
                   can_end, self.history_lines(), self.lay, self.history_top,
                   "History, in words (N: notation)" if self.words else "History, notation 04/H7 (N: words)")
        draw_status(surface, self.status, self.error, self.lay)
        self.small_dots = draw_small_boards(surface, self.view, self.selection, self.lay) \
            if self.small_boards else []
        if self.small_boards and self.selection is not None:
            self._selected_picture(surface)
        if self.hover is not None:
            lines = cell_lines(self.view, *self.hover)
            if len(lines) > 2 or any(line.startswith("  ") for line in lines):
                drawn_over(surface, draw_cell_zoom(surface, lines, cell_rect(*self.hover, self.view.player, self.lay)))
        return self.drawn

    def _homing_lines(self, surface: pygame.Surface) -> None:
        """RUL-16: a homing projectile locked on one of the viewer's pieces points at it with a
        dotted red line (the viewer's own target; an enemy's target is not shown)."""
        own = {p.sid: p for p in self.view.own}
        for pr in self.view.projectiles:
            target = own.get(pr.target) if pr.homing and pr.target else None
            if target is None:
                continue
            a = pygame.Vector2(cell_rect(pr.row, pr.col, self.view.player, self.lay).center)
            b = pygame.Vector2(cell_rect(target.row, target.col, self.view.player, self.lay).center)
            steps = max(1, int(a.distance_to(b) // 8))
            for i in range(0, steps, 2):
                dash = pygame.draw.line(surface, theme.PROJECTILE, a.lerp(b, i / steps),
                                        a.lerp(b, min(1, (i + 1) / steps)), 2)
                drawn_over(surface, dash.inflate(4, 4))   # the rect given back may miss the width

    def _last_seen_markers(self, surface: pygame.Surface) -> None:
        """04/U29: a see-through picture where each enemy piece was last seen."""
        for m in self.last_seen:
            strip = level_rect(cell_rect(m.row, m.col, self.view.player, self.lay), m.level, self.lay)
            img = art.ghost_image(m.kind, m.side, m.level, "", strip.height - 1, self.piece_set)
            drawn_over(surface, surface.blit(img, (strip.right - img.get_width(), strip.y)))

    def _selected_picture(self, surface: pygame.Surface) -> None:
        """04/U4: a picture of the selected piece (the detailed set), with its name."""
        mine = [p for p in self.view.own if (p.row, p.col) == self.selection]
        if not mine:
            return
        p = mine[0]
        x, y = self.lay.panel_x + 140, self.lay.board_y
        surface.blit(art.piece_image(p.kind, p.side, p.level, p.hand, 56, "detailed"), (x, y))
        surface.blit(theme.text(18, kind_name(p.kind), theme.TEXT), (x + 64, y + 4))
        if p.codes:
            for i, code in enumerate(p.codes):
                surface.blit(art.article_icon(code, 20), (x + 64 + i * 22, y + 28))

    def _title(self) -> str:
        v = self.view
        if v.result is not None:
            winner = {"B": "Black wins", "W": "White wins"}.get(v.result, "Draw")
            return f"Game over: {winner}, {v.end_reason}"
        return f"{SIDE_NAME[v.player]}'s view, ply {v.ply}, {SIDE_NAME[v.side_to_move]} to move"

    def _hint(self) -> str:
        if self.view.result is not None:
            return "The game is over."
        if not self.actions:
            return f"Waiting for {SIDE_NAME[self.view.side_to_move]}."
        return "Left-click a piece to Move it, right-click to Fire (04/U33)."


class PrivacyScene:
    """Hotseat privacy screen between turns (04/U17): shows no position, any key continues."""

    def __init__(self, next_side: str, lay: Layout = LAYOUT) -> None:
        self.next_side, self.lay = next_side, lay

    def starting(self) -> None:
        """Nothing to prepare."""

    def event(self, e: pygame.event.Event) -> list[Output]:
        """Any key or click dismisses it; closing the window quits."""
        if e.type == pygame.QUIT:
            return [Quit()]
        if e.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            return [Dismiss()]
        return []

    def draw(self, surface: pygame.Surface) -> list[DrawnToken]:
        """A black screen with one sentence; no tokens."""
        draw_privacy(surface, SIDE_NAME[self.next_side], self.lay)
        return []


_BLANKS: dict[tuple[int, int], pygame.Surface] = {}


def _blank(width: int, height: int) -> pygame.Surface:
    """A surface of the background colour (SDL copies a rectangle faster than it fills one
    narrower than the window)."""
    image = _BLANKS.get((width, height))
    if image is None:
        image = pygame.Surface((width, height))
        if pygame.display.get_surface() is not None:
            image = image.convert()
        image.fill(theme.BACKGROUND)
        _BLANKS[width, height] = image
    return image


@functools.lru_cache(maxsize=4096)
def _line_words(line: str) -> str:
    """A history line in words; a line the parser cannot read (censored) stays as it is."""
    try:
        return describe_turn(parse_turn(line))
    except (NotationError, ValueError):
        return line


@functools.lru_cache(maxsize=1024)
def _action_words(text: str) -> str:
    """One action of the turn in progress (notation text) in words."""
    try:
        return describe(parse_action(text))
    except (NotationError, ValueError):
        return text
