"""The board editor's buffer (04/U46-U51): what is placed, as values, and its position file.

Pure (no pygame): the editor screen adds and removes pieces, ground articles and
reinforcements here, then ``check()`` asks the engine (``engine.position.parse_position`` and
its validation, which reports every problem at once) and gives each problem back with the
square it concerns, so the screen can mark it there (U49: the engine checks what it can;
U50's cautions are the player's). ``from_state`` opens the current game as the buffer (U10).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from engine import api
from engine.options import Options
from engine.pieces import KINDS
from engine.position import format_position, parse_position, parse_square, square_name

__all__ = ["EPiece", "EArticle", "EReinforcement", "Problem", "EditorBuffer"]

_LEVEL_WORD = {"G": "G", "A": "A", "S": "S"}


@dataclass(frozen=True, slots=True)
class EPiece:
    """A piece to place: side, type and hand, square and level, held articles, stun."""

    side: str
    kind: str
    row: int
    col: int
    level: str = "G"
    hand: str = ""
    articles: tuple[str, ...] = ()
    stun: int = 0
    moved: bool = False

    def line(self) -> str:
        extra = list(self.articles) + ([f"stun={self.stun}"] if self.stun else []) + (["moved"] if self.moved else [])
        return " ".join(["piece", self.side, self.kind + self.hand, square_name(self.row, self.col),
                         _LEVEL_WORD[self.level], *extra])


@dataclass(frozen=True, slots=True)
class EArticle:
    """An article lying on the ground, owned by nobody."""

    code: str
    row: int
    col: int

    def line(self) -> str:
        return f"article {self.code} {square_name(self.row, self.col)}"


@dataclass(frozen=True, slots=True)
class EReinforcement:
    """A reinforcement waiting on its square (04/U47 "reinforcement"; U50: it carries nothing)."""

    side: str
    kind: str
    row: int
    col: int
    hand: str = ""

    def line(self) -> str:
        return f"reinforcement {self.side} {self.kind}{self.hand} {square_name(self.row, self.col)}"


class Problem(NamedTuple):
    """One thing the engine refuses, and the square it concerns (None: the whole board)."""

    square: tuple[int, int] | None
    text: str


@dataclass
class EditorBuffer:
    """Everything placed, in placing order (the engine numbers pieces in that order, RUL-40)."""

    pieces: list[EPiece] = field(default_factory=list)
    articles: list[EArticle] = field(default_factory=list)
    reinforcements: list[EReinforcement] = field(default_factory=list)
    to_move: str = "B"
    options: Options = field(default_factory=Options)

    @classmethod
    def from_state(cls, state: api.GameState) -> "EditorBuffer":
        """04/U10: the current position (pieces, ground, reinforcements) as the buffer."""
        return cls.from_text(format_position(state), state.options)

    @classmethod
    def from_text(cls, text: str, options: Options | None = None) -> "EditorBuffer":
        """A buffer from a position file's piece, article, reinforcement and to-move lines.

        :raises ValueError: a line of those kinds that cannot be read (other lines are kept by
        the engine only: projectiles, locks and the turn in progress are not edited, U48)."""
        buf = cls(options=options or Options())
        for raw in text.splitlines():
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "to-move" and len(words) == 2:
                buf.to_move = words[1]
            elif words[0] == "piece" and len(words) >= 5:
                side, token, square, level = words[1:5]
                kind, hand = (token[:-1], token[-1]) if token[-1] in "<>" else (token, "")
                row, col = parse_square(square)
                arts = tuple(w for w in words[5:] if "=" not in w and w != "moved" and w != "origin"
                             and not w.startswith(("id=", "art-", "ready", "hits", "revealed", "trip")))
                stun = next((int(w[5:]) for w in words[5:] if w.startswith("stun=")), 0)
                buf.pieces.append(EPiece(side, kind, row, col, level, hand, arts, stun, "moved" in words[5:]))
            elif words[0] == "article" and len(words) >= 3 and words[2] != "-":
                row, col = parse_square(words[2])
                buf.articles.append(EArticle(words[1], row, col))
            elif words[0] == "reinforcement" and len(words) >= 4:
                token = words[2]
                kind, hand = (token[:-1], token[-1]) if token[-1] in "<>" else (token, "")
                row, col = parse_square(words[3])
                buf.reinforcements.append(EReinforcement(words[1], kind, row, col, hand))
        return buf

    # -- editing ---------------------------------------------------------------------------------

    def add_piece(self, piece: EPiece) -> None:
        """Place ``piece`` (a reinforcement is added with ``add_reinforcement``)."""
        self.pieces.append(piece)

    def add_article(self, article: EArticle) -> None:
        """Lay an article on the ground."""
        self.articles.append(article)

    def add_reinforcement(self, r: EReinforcement) -> None:
        """Put a waiting reinforcement on its square (one per square, 04/N11)."""
        self.reinforcements = [x for x in self.reinforcements if (x.row, x.col) != (r.row, r.col)] + [r]

    def remove_at(self, row: int, col: int, level: str | None = None) -> str | None:
        """Take away the last thing placed on the square (at ``level`` for pieces, if given):
        a piece, else an article, else a reinforcement; returns what went, or None."""
        for i in range(len(self.pieces) - 1, -1, -1):
            p = self.pieces[i]
            if (p.row, p.col) == (row, col) and level in (None, p.level):
                del self.pieces[i]
                return f"{p.side} {KINDS[p.kind].name if p.kind in KINDS else p.kind}"
        for i in range(len(self.articles) - 1, -1, -1):
            if (self.articles[i].row, self.articles[i].col) == (row, col):
                return "article " + self.articles.pop(i).code
        for i in range(len(self.reinforcements) - 1, -1, -1):
            if (self.reinforcements[i].row, self.reinforcements[i].col) == (row, col):
                return "reinforcement " + self.reinforcements.pop(i).kind
        return None

    def set_stun(self, row: int, col: int, level: str, stun: int) -> bool:
        """Set the stun counter of the last piece placed at (row, col, level); False if none."""
        for i in range(len(self.pieces) - 1, -1, -1):
            p = self.pieces[i]
            if (p.row, p.col, p.level) == (row, col, level):
                self.pieces[i] = replace(p, stun=stun)
                return True
        return False

    def clear(self) -> None:
        """U46: an empty board (the usual start of an edit)."""
        self.pieces, self.articles, self.reinforcements = [], [], []

    # -- the engine's verdict ----------------------------------------------------------------------

    def text(self) -> str:
        """The buffer as a position file."""
        lines = ["# WEC position 1", f"to-move {self.to_move}"]
        lines += [p.line() for p in self.pieces]
        lines += [a.line() for a in self.articles]
        lines += [r.line() for r in self.reinforcements]
        return "\n".join(lines) + "\n"

    def check(self) -> tuple[api.GameState | None, list[Problem]]:
        """The playable state, or None and every problem with its square (U49)."""
        text = self.text()
        try:
            return parse_position(text, self.options), []
        except api.SaveError as exc:
            return None, [self._locate(p, text) for p in str(exc).split("; ") if p]

    def _locate(self, problem: str, text: str) -> Problem:
        m = re.match(r"line (\d+): (.*)", problem)
        if m:
            line = text.splitlines()[int(m.group(1)) - 1].split()
            square = next((w for w in line[1:] if re.fullmatch(r"[a-j](10|[1-9])", w)), None)
            return Problem(parse_square(square) if square else None, m.group(2))
        m = re.match(r"([a-j](?:10|[1-9]))\b", problem)
        return Problem(parse_square(m.group(1)) if m else None, problem)
