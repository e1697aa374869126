"""The board editor on screen (04/U46-U51): a tool panel of pygame-gui controls beside the big
board; a click on a square applies the tool; Check shows every problem the engine finds, each
marked on its square; Play starts a game from the position.

Tools (U47: a choice from every set): what to do (add a piece, lay an article, add a
reinforcement, remove, set stun), and for a piece its side, type, hand, level, carried
articles and stun. The buffer is ``ui.editor_model.EditorBuffer``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextBox, UITextEntryLine
from pygame_gui.windows import UIFileDialog

from engine import api
from engine.pieces import ARTICLES, KINDS
from engine.view import GroundArticle, Reinforcement

from . import theme
from .board_view import draw_board
from .editor_model import EArticle, EditorBuffer, EPiece, EReinforcement, Problem
from .layout import LAYOUT, Layout, cell_at, cell_rect
from .words import ARTICLE_NAMES

__all__ = ["EditorScreen", "PlayPosition", "LeaveEditor", "EditRules", "TOOLS"]

TOOLS = ("Add piece", "Lay article", "Add reinforcement", "Remove", "Set stun")
_SIDES = {"Black": "B", "White": "W"}
_SIDE_NAME = {v: k for k, v in _SIDES.items()}
_HANDS = {"no hand": "", "left hand": "<", "right hand": ">"}
_LEVELS = {"Ground": "G", "Air": "A", "Sub": "S"}
_KIND_NAMES = {f"{k.name} ({k.code})": k.code for k in KINDS.values()}
_ARTICLE_NAMES = {f"{ARTICLE_NAMES[c]} ({c})": c for c in ARTICLES}


class PlayPosition(NamedTuple):
    """Play a game from this checked position."""

    state: api.GameState


class LeaveEditor(NamedTuple):
    """Back to the game, the position unchanged."""


class EditRules(NamedTuple):
    """Open the options screen for the position's rules (04/U15)."""


class _Token(NamedTuple):
    kind: str
    hand: str
    codes: tuple[str, ...]
    stun: int
    side: str
    row: int
    col: int
    level: str


class _EditorView(NamedTuple):
    """What ``draw_board`` needs, for every piece of both sides (the editor sees everything)."""

    player: str
    ply: int
    own: tuple[_Token, ...]
    seen: tuple[()]
    ground: tuple[GroundArticle, ...]
    projectiles: tuple[()]
    reinforcements: tuple[Reinforcement, ...]


class EditorScreen:
    """The editor: ``buffer`` holds the position; ``problems`` the last check's findings."""

    def __init__(self, manager: pygame_gui.UIManager, buffer: EditorBuffer, lay: Layout = LAYOUT) -> None:
        self.manager, self.buffer, self.lay = manager, buffer, lay
        self.problems: list[Problem] = []
        self.status = "U46: clear the board, then add the pieces you want; click a square to use the tool"
        x, y, w = lay.panel_x, lay.board_y, 330
        self.choice: dict[str, str] = {"tool": TOOLS[0], "side": "Black", "kind": next(iter(_KIND_NAMES)),
                                       "hand": "no hand", "level": "Ground", "article": next(iter(_ARTICLE_NAMES)),
                                       "stun": "0", "to_move": _SIDE_NAME.get(buffer.to_move, "Black")}
        self.menus: dict[str, UIDropDownMenu] = {}
        rows: list[tuple[str, str, list[str]]] = [
            ("tool", "Tool", list(TOOLS)), ("side", "Side", list(_SIDES)), ("kind", "Piece", list(_KIND_NAMES)),
            ("hand", "Hand", list(_HANDS)), ("level", "Level", list(_LEVELS)),
            ("article", "Article", list(_ARTICLE_NAMES)), ("stun", "Stun", [str(n) for n in range(10)]),
            ("to_move", "To move", list(_SIDES))]
        self.labels = []
        for i, (key, label, options) in enumerate(rows):
            self.labels.append(UILabel(pygame.Rect(x, y + i * 34, 90, 30), label, manager))
            self.menus[key] = UIDropDownMenu(options, self.choice[key], pygame.Rect(x + 95, y + i * 34, w, 30),
                                             manager, expansion_height_limit=300)
        top = y + len(rows) * 34
        self.labels.append(UILabel(pygame.Rect(x, top, 90, 30), "Carries", manager))
        self.articles_entry = UITextEntryLine(pygame.Rect(x + 95, top, w, 30), manager,
                                              placeholder_text="article codes, e.g. FL SH")
        self.articles_entry.set_tooltip("the articles a new piece carries: " + ", ".join(ARTICLES))
        buttons = [("clear", "Clear board"), ("standard", "Standard start"), ("check", "Check"),
                   ("save", "Save position…"), ("load", "Load position…"), ("rules", "Rules…"),
                   ("play", "Play from here"), ("back", "Back to the game")]
        self.buttons: dict[str, UIButton] = {}
        for i, (key, text) in enumerate(buttons):
            self.buttons[key] = UIButton(pygame.Rect(x + (i % 3) * 200, top + 44 + (i // 3) * 38, 190, 32),
                                         text, manager)
        self.report = UITextBox("", pygame.Rect(x, top + 162, lay.width - x - 10, lay.height - top - 172), manager)
        self.dialog: UIFileDialog | None = None
        self.dialog_purpose = ""

    # -- input -----------------------------------------------------------------------------------

    def ui_event(self, e: pygame.event.Event) -> PlayPosition | LeaveEditor | None:
        """A pygame(-gui) event in; Play or Leave out (or None)."""
        if e.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for key, menu in self.menus.items():
                if menu is e.ui_element:
                    self.choice[key] = e.text
                    if key == "to_move":
                        self.buffer.to_move = _SIDES[e.text]
        elif e.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and e.ui_element is self.dialog:
            self.dialog = None
            self.file_picked(Path(e.text))
        elif e.type == pygame_gui.UI_WINDOW_CLOSE and e.ui_element is self.dialog:
            self.dialog = None
        elif e.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if button is e.ui_element:
                    return self.press(key)
        elif e.type == pygame.MOUSEBUTTONDOWN and e.button == 1 and self.dialog is None:
            cell = cell_at(e.pos, "B", self.lay)
            if cell is not None:
                self.click(cell)
        return None

    def choose(self, key: str, text: str) -> None:
        """Make a choice as its drop-down would (tests)."""
        self.choice[key] = text
        if key == "to_move":
            self.buffer.to_move = _SIDES[text]

    def press(self, key: str) -> PlayPosition | LeaveEditor | EditRules | None:
        """One of the buttons."""
        if key in ("save", "load"):
            title = "Save the position" if key == "save" else "Load a position"
            self.dialog = UIFileDialog(pygame.Rect(200, 80, 600, 500), self.manager, window_title=title,
                                       initial_file_path=str(Path.cwd()), allow_existing_files_only=key == "load")
            self.dialog_purpose = key
            return None
        if key == "rules":
            return EditRules()
        if key == "clear":
            self.buffer.clear()
            self._set_problems([], "the board is empty")
        elif key == "standard":
            self.buffer = EditorBuffer.from_state(api.new_game(self.buffer.options))
            self._show_to_move()
            self._set_problems([], "the standard start")
        elif key == "check":
            state, problems = self.buffer.check()
            self._set_problems(problems, "the position is playable" if state is not None else
                               f"{len(problems)} problem(s), marked on their squares")
        elif key == "play":
            state, problems = self.buffer.check()
            if state is not None:
                return PlayPosition(state)
            self._set_problems(problems, "cannot play yet: fix the marked squares")
        elif key == "back":
            return LeaveEditor()
        return None

    def click(self, cell: tuple[int, int]) -> None:
        """Apply the current tool to square ``cell``."""
        row, col = cell
        c = self.choice
        tool, side, level = c["tool"], _SIDES[c["side"]], _LEVELS[c["level"]]
        if tool == "Add piece":
            arts = tuple(self.articles_entry.get_text().upper().split())
            bad = [a for a in arts if a not in ARTICLES]
            if bad:
                self.status = f"not article codes: {' '.join(bad)} (they are: {' '.join(ARTICLES)})"
                return
            kind = _KIND_NAMES[c["kind"]]
            self.buffer.add_piece(EPiece(side, kind, row, col, level, _HANDS[c["hand"]], arts, int(c["stun"])))
            self.status = f"added {c['side']} {KINDS[kind].name} at ({row},{col})"
        elif tool == "Lay article":
            self.buffer.add_article(EArticle(_ARTICLE_NAMES[c["article"]], row, col))
            self.status = f"laid {c['article']} at ({row},{col})"
        elif tool == "Add reinforcement":
            kind = _KIND_NAMES[c["kind"]]
            self.buffer.add_reinforcement(EReinforcement(side, kind, row, col, _HANDS[c["hand"]]))
            self.status = f"{c['side']} reinforcement {KINDS[kind].name} waits at ({row},{col})"
        elif tool == "Remove":
            gone = self.buffer.remove_at(row, col, level)
            self.status = f"removed {gone} from ({row},{col})" if gone else f"nothing at ({row},{col}) {c['level']}"
        elif tool == "Set stun":
            done = self.buffer.set_stun(row, col, level, int(c["stun"]))
            self.status = f"stun {c['stun']} set" if done else f"no piece at ({row},{col}) {c['level']}"
        self.problems = []

    def file_picked(self, path: Path) -> None:
        """Save the buffer as a position file there, or load one into the buffer (04/U46)."""
        if self.dialog_purpose == "save":
            try:
                path.write_text(self.buffer.text(), encoding="utf-8")
            except OSError as exc:
                self._set_problems([], f"cannot save to {path}: {exc.strerror or exc}")
                return
            self._set_problems([], f"saved the position to {path.name}")
            return
        try:
            text = path.read_text(encoding="utf-8")
            buffer = EditorBuffer.from_text(text, self.buffer.options)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            self._set_problems([], f"cannot load {path.name}: {exc}")
            return
        self.buffer = buffer
        self._show_to_move()
        state, problems = buffer.check()
        self._set_problems(problems, f"loaded {path.name}" + ("" if state is not None else
                                                              f": {len(problems)} problem(s) marked"))

    def _show_to_move(self) -> None:
        """The To move list shows the buffer's side again (a new buffer came in)."""
        old = self.menus["to_move"]
        self.choice["to_move"] = _SIDE_NAME.get(self.buffer.to_move, "Black")
        self.menus["to_move"] = UIDropDownMenu(list(_SIDES), self.choice["to_move"], old.relative_rect,
                                               self.manager, expansion_height_limit=300)
        old.kill()

    def _set_problems(self, problems: list[Problem], status: str) -> None:
        self.problems, self.status = problems, status
        self.report.set_text("<br>".join(
            (f"({p.square[0]},{p.square[1]}): " if p.square else "") + p.text for p in problems))

    # -- drawing ---------------------------------------------------------------------------------

    def view(self) -> _EditorView:
        """Everything in the buffer as ``draw_board`` draws it."""
        b = self.buffer
        return _EditorView("B", 1, tuple(_Token(p.kind, p.hand, p.articles, p.stun, p.side, p.row, p.col, p.level)
                                      for p in b.pieces), (),
                           tuple(GroundArticle(a.row, a.col, a.code, 0) for a in b.articles), (),
                           tuple(Reinforcement(r.row, r.col, r.side, r.kind, r.hand) for r in b.reinforcements))

    def draw(self, surface: pygame.Surface) -> None:
        """The board with the buffer, problem squares outlined in red, and the status line."""
        surface.fill(theme.BACKGROUND)
        surface.fill(theme.BAR, pygame.Rect(0, 0, self.lay.width, self.lay.bar))
        surface.blit(theme.text(18, "Board editor (04/U46)", theme.TEXT), (self.lay.menus + 8, 7))
        draw_board(surface, self.view(), lay=self.lay)  # type: ignore[arg-type]
        for p in self.problems:
            if p.square is not None:
                pygame.draw.rect(surface, theme.ERROR, cell_rect(*p.square, "B", self.lay), 3)
        y = self.lay.board_y + self.lay.board_size + 8
        colour = theme.ERROR if self.problems else theme.TEXT
        surface.blit(theme.text(18, theme.fit(18, self.status, self.lay.board_size), colour), (self.lay.board_x, y))

    def kill(self) -> None:
        """Remove every widget of the screen."""
        if self.dialog is not None:
            self.dialog.kill()
        for element in [*self.menus.values(), *self.labels, self.articles_entry, *self.buttons.values(), self.report]:
            element.kill()

    def values(self) -> dict[str, Any]:
        """The current choices (tests)."""
        return dict(self.choice)
