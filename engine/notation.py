"""Printer and parser of the Game History notation (04 Part 2, RUL-35, RUL-36, RUL-51).

Pure syntax: no game rules, no game state, no I/O. Every printer has a parser:

* ``format_action`` / ``parse_action``: one action per line (CLI ``wec legal``, network).
  The text is the part as a turn line writes it, without its leading comma; a standalone
  Fire is written ``FI:`` (no number) and ``EndTurn()`` is ``END``.
* ``format_turn`` / ``parse_turn``: one history line (04/H7 ``Turn``).
* ``format_history`` / ``parse_history``: one turn per line (04/H8 [R1]).

The printer writes the canonical form of 04/H24. The parser is a small recursive-descent
parser over a cursor that follows the lexical rules of 04/H23. For every value ``x`` the
printer accepts, ``parse(format(x)) == x`` up to these documented normalisations:

* aliases (RUL-35): piece type ``STP`` is read and printed ``SP``; an article ``JU`` in an
  article list is ``JP``; a firing article ``JP`` is ``JU``;
* passenger rule: in a turn, the first Transport part directly after the ``MV:`` part is
  the Move's ``passenger`` iff its piece starts in the mover's cell (level and square) and
  ends in the Move's destination cell; otherwise it is one of ``Turn.transports``. So a
  turn whose Move has no passenger and no Doze, and whose first transport looks like a
  passenger, reads back with that transport as the passenger.

And for every canonical string ``s`` the parser accepts, ``format(parse(s)) == s``, except
for these inputs that the parser tolerates and the printer never writes:

* the aliases above; a standalone Fire written ``FI1:`` / ``FI2:``;
* trailing Articles of a Transport part (04/H8 [R5]; dropped, RUL-36 prints none);
* a Doze part after a non-passenger Transport part (04/H7 allows ``(Transport|Doze)*``;
  the value keeps the Doze in the Move, printed right after the Move and its passenger).
"""
from __future__ import annotations

from typing import Any, Callable, NoReturn

from engine.actions import (
    AIR,
    GROUND,
    SUB,
    Action,
    Drop,
    EndTurn,
    Exchange,
    Fire,
    Move,
    PickUp,
    PieceDesc,
    Reinforce,
    Result,
    Transport,
    Turn,
)

__all__ = [
    "NotationError",
    "PIECE_TYPES",
    "ARTICLES",
    "FIRING_ARTICLES",
    "RESULT_TYPES",
    "format_action",
    "parse_action",
    "format_turn",
    "parse_turn",
    "format_history",
    "parse_history",
]

# --------------------------------------------------------------------------- token tables

#: Piece-type tokens as printed (04/H9b, RUL-35: ``SP`` is printed, ``STP`` accepted).
PIECE_TYPES: tuple[str, ...] = (
    "DO", "TA", "CH", "JE", "SU", "DS", "AAA", "CL", "Q", "K",
    "PR", "PM", "DI", "AS", "AC", "AV",
    "RP", "FP", "SHP", "SP", "CP", "XP", "SOP",
)
#: Accepted spellings of piece types that print differently (RUL-35).
PIECE_TYPE_ALIASES: dict[str, str] = {"STP": "SP"}

#: Article tokens as printed in article lists (04/H9c, RUL-35: ``JP`` printed, ``JU`` accepted).
ARTICLES: tuple[str, ...] = (
    "FL", "ST", "CS", "TL", "RL", "SL", "SH", "XXX",
    "ARL", "ASL", "ATL", "ACS", "AST", "AFL", "ASH",
    "BI", "SC", "JP",
)
ARTICLE_ALIASES: dict[str, str] = {"JU": "JP"}
#: Article-list tokens of the printed grammar that are kill results, not articles (RUL-35).
KILL_TOKENS: tuple[str, ...] = ("TK", "RK", "SK")

#: Firing-article tokens as printed (04/H9d, RUL-35: ``JU`` printed, ``JP`` accepted).
FIRING_ARTICLES: tuple[str, ...] = ("FL", "ST", "CS", "RL", "TL", "SL", "BI", "SC", "JU")
FIRING_ARTICLE_ALIASES: dict[str, str] = {"JP": "JU"}

#: Result-type tokens (04/H9e): projectiles, kills and every piece type.
RESULT_TYPES: tuple[str, ...] = ("R", "T", "S", "RK", "TK", "SK", "STK", "CK") + PIECE_TYPES

#: Result forms of ``Result.form`` (04/H20).
RESULT_FORMS: tuple[str, ...] = ("->", "v", "*")

LEVEL_MARKS: dict[str, str] = {GROUND: "", AIR: "^", SUB: "v"}
ORIENTS: tuple[str, ...] = ("", "<", ">")
COLOURS: tuple[str, ...] = ("B", "W")
MAX_ARTICLES = 3      # 04/H7 Articles: Count 1..3
MAX_DOZE = 5          # 04/H7 Doze: one to five DozedPiece entries (04/H14)
MAX_FIRES = 2         # 04/H8 [R2]
MAX_STUN = 255        # 04/H9

# Lookup tables: token as read -> canonical token.
_PIECE_READ: dict[str, str] = {t: t for t in PIECE_TYPES} | PIECE_TYPE_ALIASES
_ARTICLE_READ: dict[str, str] = {t: t for t in ARTICLES} | ARTICLE_ALIASES
_FIRING_READ: dict[str, str] = {t: t for t in FIRING_ARTICLES} | FIRING_ARTICLE_ALIASES
_RESULT_READ: dict[str, str] = {t: t for t in RESULT_TYPES} | PIECE_TYPE_ALIASES
# Token as a value may hold -> token as printed (aliases print canonically, RUL-35).
_PIECE_PRINT = _PIECE_READ
_ARTICLE_PRINT = _ARTICLE_READ
_FIRING_PRINT = _FIRING_READ
_RESULT_PRINT = _RESULT_READ
_INDEX_READ: dict[str, int] = {str(n): n for n in range(1, 11)}
_SQUARE_READ: dict[str, tuple[int, int]] = {
    f"({r},{c})": (r, c) for r in range(1, 11) for c in range(1, 11)
}
_STEP_READ: dict[str, int] = {"0": 0, "1": 1, "-1": -1}
_LEVEL_READ: dict[str, str] = {"^": AIR, "v": SUB}
_DIGITS = "0123456789"


# --------------------------------------------------------------------------- errors

class NotationError(ValueError):
    """Text that is not valid notation, or a value that cannot be printed.

    ``text`` is the offending text, ``pos`` the 0-based index of the error in it (the
    message shows it 1-based), ``line`` the 1-based line number in a history, if any.
    """

    def __init__(self, message: str, text: str = "", pos: int = -1, line: int | None = None) -> None:
        where = f" at {pos + 1} in {text!r}" if pos >= 0 else ""
        prefix = f"line {line}: " if line is not None else ""
        super().__init__(f"{prefix}{message}{where}")
        self.reason = message
        self.text = text
        self.pos = pos
        self.line = line


# --------------------------------------------------------------------------- parser

def _is_passenger(move: Move, t: Transport) -> bool:
    """Whether a Transport part directly after ``move`` is its passenger (the passenger rule)."""
    p, m = t.piece, move.piece
    return (p.level == m.level and p.row == m.row and p.col == m.col
            and t.level == move.level and t.row == move.row and t.col == move.col)


class _Parser:
    """A cursor over one line of notation; each method reads one grammar rule (04/H7)."""

    __slots__ = ("s", "i", "n")

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.n = len(text)

    # -- helpers

    def fail(self, message: str, at: int | None = None) -> NoReturn:
        """Raise a NotationError at the cursor (or at ``at``)."""
        raise NotationError(message, self.s, self.i if at is None else at)

    def peek(self) -> str:
        """The character under the cursor, or '' at the end."""
        return self.s[self.i] if self.i < self.n else ""

    def expect(self, literal: str) -> None:
        """Consume ``literal`` or fail."""
        if self.s.startswith(literal, self.i):
            self.i += len(literal)
        else:
            self.fail(f"expected {literal!r}")

    def end(self) -> None:
        """Fail unless the whole text has been read."""
        if self.i != self.n:
            self.fail(f"unexpected {self.s[self.i:self.i + 8]!r}")

    def _match(self, table: dict[str, str], at: int) -> str | None:
        """Longest token of ``table`` (lengths 3, 2, 1) starting at ``at`` (04/H23.2-3)."""
        s = self.s
        for k in (3, 2, 1):
            tok = s[at:at + k]
            if len(tok) == k and tok in table:
                return tok
        return None

    # -- terminals

    def index(self) -> int:
        """Index ::= "10" | [1-9] (04/H9: no leading zeros, 04/H23.4)."""
        s, i = self.s, self.i
        j = i
        while j < self.n and s[j] in _DIGITS:
            j += 1
        if j == i:
            self.fail("expected a row or column 1-10")
        v = _INDEX_READ.get(s[i:j])
        if v is None:
            self.fail(f"bad index {s[i:j]!r} (1-10, no leading zero)")
        self.i = j
        return v

    def square(self) -> tuple[int, int]:
        """Square ::= "(" Index "," Index ")" (04/H10, H23.8); read as one unit."""
        s, i = self.s, self.i
        j = s.find(")", i + 4, i + 7)
        if j > 0:
            sq = _SQUARE_READ.get(s[i:j + 1])
            if sq is not None:
                self.i = j + 1
                return sq
        self.expect("(")  # slow path: find the exact error
        r = self.index()
        self.expect(",")
        c = self.index()
        self.expect(")")
        return r, c

    def level(self) -> str:
        """Level ::= ("^" | "v")?; absent is Ground (04/H8 [R3])."""
        lv = _LEVEL_READ.get(self.peek())
        if lv is None:
            return GROUND
        self.i += 1
        return lv

    def orient(self) -> str:
        """Orient ::= ("<" | ">")? (04/H23.7: after a piece it is always Orient)."""
        c = self.peek()
        if c == "<" or c == ">":
            self.i += 1
            return c
        return ""

    def piece_type(self) -> str:
        """PieceType, with the STP alias (RUL-35)."""
        tok = self._match(_PIECE_READ, self.i)
        if tok is None:
            self.fail("unknown piece type")
        self.i += len(tok)
        return _PIECE_READ[tok]

    def _article_at(self, at: int) -> str | None:
        """The article token (or kill token) starting at ``at``, else None (04/H23.2)."""
        s = self.s
        tok = s[at:at + 3]
        if len(tok) == 3 and tok in _ARTICLE_READ:
            return tok
        tok = s[at:at + 2]
        if len(tok) == 2 and (tok in _ARTICLE_READ or tok in KILL_TOKENS):
            return tok
        return None

    def article(self) -> str:
        """Article: one article token, with the JU alias (RUL-35)."""
        tok = self._article_at(self.i)
        if tok is None:
            self.fail("unknown article")
        if tok in KILL_TOKENS:
            self.fail(f"{tok!r} is a kill result, not an article (RUL-35)")
        self.i += len(tok)
        return _ARTICLE_READ[tok]

    def articles(self) -> tuple[str, ...]:
        """Articles ::= (Count Article{1,3})?; Count = number of tokens (04/H8 [R4], H9).

        A digit starts Articles only if an article token follows it; otherwise it is left
        for the caller (a Stun inside a ``*`` result, 04/H23.5).
        """
        s, i = self.s, self.i
        if i >= self.n or s[i] not in _DIGITS or self._article_at(i + 1) is None:
            return ()
        count_at = i
        if s[i] not in "123":
            self.fail("article count must be 1-3")
        count = ord(s[i]) - 48
        self.i = i + 1
        arts = []
        while self._article_at(self.i) is not None:
            if len(arts) == MAX_ARTICLES:
                self.fail("more than 3 articles")
            arts.append(self.article())
        if len(arts) != count:
            self.fail(f"count {count} does not match {len(arts)} article(s)", count_at)
        return tuple(arts)

    def piece(self) -> PieceDesc:
        """Piece ::= PieceType Level Square Articles Orient (04/H11)."""
        kind = self.piece_type()
        lv = self.level()
        r, c = self.square()
        arts = self.articles()
        return PieceDesc(kind, lv, r, c, arts, self.orient())

    # -- parts

    def move(self) -> Move | None:
        """``MV:`` Piece "->" Level Square, or ``MV:-`` for no Move (RUL-36)."""
        self.expect("MV:")
        c = self.peek()
        if c == "-":
            self.i += 1
            return None
        if c == "?":
            self.fail("censor mark '?' is display-only and has no value (RUL-36, RUL-37)")
        p = self.piece()
        self.expect("->")
        lv = self.level()
        r, c2 = self.square()
        return Move(p, lv, r, c2)

    def transport(self) -> Transport:
        """Transport ::= "-TRA->" Piece Level Square Articles; Articles dropped (RUL-36)."""
        self.expect("-TRA->")
        p = self.piece()
        lv = self.level()
        r, c = self.square()
        self.articles()
        return Transport(p, lv, r, c)

    def doze(self, move: Move) -> tuple[tuple[str, int, int], ...]:
        """Doze ::= ",DO>" Square DozedPiece ("," DozedPiece){0,4} (04/H14, H23.6)."""
        self.expect(",DO>")
        sq_at = self.i
        if self.square() != (move.row, move.col):
            self.fail("the Doze square must be the Move's destination (04/H14)", sq_at)
        entries = []
        while True:
            if len(entries) == MAX_DOZE:
                self.fail("more than 5 doze entries")
            kind = self.piece_type()
            r, c = self.square()
            entries.append((kind, r, c))
            # A ',' continues the Doze only if PieceType and '(' follow (04/H23.6).
            s, i = self.s, self.i
            if i >= self.n or s[i] != ",":
                break
            tok = self._match(_PIECE_READ, i + 1)
            if tok is None or not s.startswith("(", i + 1 + len(tok)):
                break
            self.i = i + 1
        return tuple(entries)

    def firing_article(self) -> str:
        """FiringArticle, with the JP alias (RUL-35)."""
        tok = self.s[self.i:self.i + 2]
        canon = _FIRING_READ.get(tok)
        if canon is None:
            self.fail("unknown firing article")
        self.i += 2
        return canon

    def shot(self) -> Fire:
        """Shot ::= FiringArticle "/" Piece ("->" Square Orient | "=>" Piece) (04/H15)."""
        art = self.firing_article()
        self.expect("/")
        p = self.piece()
        s, i = self.s, self.i
        if s.startswith("->", i):
            self.i = i + 2
            r, c = self.square()
            return Fire(art, p, r, c, self.orient())
        if s.startswith("=>", i):
            self.i = i + 2
            return Fire(art, p, target=self.piece())
        self.fail("expected '->' or '=>'")

    def pickup(self) -> PickUp:
        """Pickup (without ",PU:") ::= Piece "^" Article (04/H16)."""
        p = self.piece()
        self.expect("^")
        return PickUp(p, self.article())

    def exchange(self) -> Exchange:
        """Exchange (without ",EX:") ::= Piece "->" Article ("<=>" Article "<-" | "->") Piece."""
        giver = self.piece()
        self.expect("->")
        art = self.article()
        swapped = None
        if self.s.startswith("<=>", self.i):
            self.i += 3
            swapped = self.article()
            self.expect("<-")
        else:
            self.expect("->")
        return Exchange(giver, art, self.piece(), swapped)

    def reinforce(self) -> Reinforce:
        """Reinforce (without ",RE:") ::= Square PieceType Orient (04/H18)."""
        r, c = self.square()
        kind = self.piece_type()
        return Reinforce(r, c, kind, self.orient())

    def drop(self) -> Drop:
        """Drop (without ",DR:") ::= Piece "v" Article (04/H19)."""
        p = self.piece()
        self.expect("v")
        return Drop(p, self.article())

    def step(self) -> int:
        """Step ::= "-"? ("0" | "1"), never "-0" (04/H8 [R7])."""
        s, i = self.s, self.i
        j = i + 1 if s.startswith("-", i) else i
        k = j
        while k < self.n and s[k] in _DIGITS:
            k += 1
        if k == j:
            self.fail("expected an offset -1, 0 or 1")
        tok = s[i:k]
        if tok == "-0":
            self.fail("offset '-0' is not allowed (04/H8 [R7])")
        v = _STEP_READ.get(tok)
        if v is None:
            self.fail(f"offset {tok!r} beyond ±1")
        self.i = k
        return v

    def stun(self) -> int:
        """Stun ::= "0" | [1-9][0-9]{0,2}, value 0..255 (04/H9)."""
        s, i = self.s, self.i
        j = i
        while j < self.n and s[j] in _DIGITS:
            j += 1
        tok = s[i:j]
        if not tok:
            self.fail("expected a stun value 0-255")
        if len(tok) > 1 and tok[0] == "0":
            self.fail(f"stun {tok!r} has a leading zero")
        if int(tok) > MAX_STUN:
            self.fail(f"stun {tok} above 255")
        self.i = j
        return int(tok)

    def result(self) -> Result:
        """Result ::= ResultType ("->" Square Offset | "v" Square | "*" Piece Stun Colour)."""
        tok = self._match(_RESULT_READ, self.i)
        if tok is None:
            self.fail("unknown result type")
        kind = _RESULT_READ[tok]
        self.i += len(tok)
        c = self.peek()
        if c == "*":
            self.i += 1
            p = self.piece()
            stun = self.stun()
            colour = self.peek()
            if colour != "B" and colour != "W":
                self.fail("expected colour 'B' or 'W'")
            self.i += 1
            return Result(kind, "*", piece=p, stun=stun, colour=colour)
        if c == "v":
            self.i += 1
            r, c2 = self.square()
            return Result(kind, "v", r, c2)
        if self.s.startswith("->", self.i):
            self.i += 2
            r, c2 = self.square()
            self.expect("(")
            dr = self.step()
            self.expect(",")
            dc = self.step()
            self.expect(")")
            return Result(kind, "->", r, c2, dr, dc)
        self.fail("expected '->', 'v' or '*' after the result type")

    # -- lines

    def turn(self) -> Turn:
        """Turn ::= Move (Transport | Doze)* Fire? Pickup? Exchange? Reinforce? Drop? Results?"""
        move = self.move()
        transports: list[Transport] = []
        fires: list[Fire] = []
        pickup = exchange = reinforce = drop = None
        results: list[Result] = []
        stage = 0          # 0 transport/doze, 1 fire, 2 PU, 3 EX, 4 RE, 5 DR, 6 RS
        first = True       # nothing read yet after the MV part
        dozed = False
        s = self.s
        while self.i < self.n:
            at = self.i
            if s.startswith("-TRA->", at):
                if stage > 0:
                    self.fail("Transport part out of order (04/H3)")
                t = self.transport()
                if first and move is not None and _is_passenger(move, t):
                    move = Move(move.piece, move.level, move.row, move.col, t.piece, move.doze)
                else:
                    transports.append(t)
            elif s.startswith(",DO>", at):
                if stage > 0:
                    self.fail("Doze part out of order (04/H3)")
                if dozed:
                    self.fail("more than one Doze part")
                if move is None:
                    self.fail("a Doze needs a Move (04/H14)")
                doze = self.doze(move)
                dozed = True
                move = Move(move.piece, move.level, move.row, move.col, move.passenger, doze)
            elif s.startswith(",FI", at):
                if len(fires) == MAX_FIRES:
                    self.fail("more than 2 fires (04/H8 [R2])")
                if stage > 1:
                    self.fail("Fire part out of order (04/H3)")
                label = f",FI{len(fires) + 1}:"
                if not s.startswith(label, at):
                    self.fail(f"expected {label!r}")
                self.i = at + len(label)
                fires.append(self.shot())
                stage = 1
            else:
                label = s[at:at + 4]
                new = _PART_STAGE.get(label)
                if new is None:
                    self.fail("expected ',' and a part, '-TRA->' or the end")
                if new <= stage:
                    self.fail(f"part {label[1:]!r} out of order or repeated (04/H3, H8 [R2])")
                stage = new
                self.i = at + 4
                if new == 2:
                    pickup = self.pickup()
                elif new == 3:
                    exchange = self.exchange()
                elif new == 4:
                    reinforce = self.reinforce()
                elif new == 5:
                    drop = self.drop()
                else:
                    results.append(self.result())
                    while s.startswith(",", self.i):
                        label = s[self.i:self.i + 4]
                        if label in _PART_STAGE or label[:3] == ",FI" or label == ",DO>":
                            self.fail(f"part {label[1:]!r} out of order: Results come last (04/H3)")
                        self.i += 1
                        results.append(self.result())
            first = False
        return Turn(move, tuple(transports), tuple(fires), pickup, exchange, reinforce, drop,
                    tuple(results))

    def action(self) -> Action:
        """One action in the single-action form of ``format_action``."""
        s = self.s
        if s.startswith("END"):
            self.i = 3
            return EndTurn()
        if s.startswith("MV:-"):
            self.fail("'MV:-' is not an action; a turn without a Move ends with 'END'", 3)
        if s.startswith("MV:"):
            move = self.move()
            if move is None:  # unreachable: 'MV:-' was rejected above
                self.fail("expected a Move", 3)
            if s.startswith("-TRA->", self.i):
                at = self.i
                t = self.transport()
                if not _is_passenger(move, t):
                    self.fail("a Move's Transport must be its passenger (start in the mover's "
                              "cell, end at its destination)", at)
                move = Move(move.piece, move.level, move.row, move.col, t.piece)
            if s.startswith(",DO>", self.i):
                move = Move(move.piece, move.level, move.row, move.col, move.passenger,
                            self.doze(move))
            return move
        for label in ("FI:", "FI1:", "FI2:"):
            if s.startswith(label):
                self.i = len(label)
                return self.shot()
        if s.startswith("PU:"):
            self.i = 3
            return self.pickup()
        if s.startswith("EX:"):
            self.i = 3
            return self.exchange()
        if s.startswith("RE:"):
            self.i = 3
            return self.reinforce()
        if s.startswith("DR:"):
            self.i = 3
            return self.drop()
        self.fail("expected 'MV:', 'FI:', 'PU:', 'EX:', 'RE:', 'DR:' or 'END'", 0)


_PART_STAGE: dict[str, int] = {",PU:": 2, ",EX:": 3, ",RE:": 4, ",DR:": 5, ",RS:": 6}


def parse_turn(text: str) -> Turn:
    """Parse one history line (04/H7 ``Turn``); raise NotationError on any deviation."""
    p = _Parser(text)
    turn = p.turn()
    p.end()
    return turn


def parse_action(text: str) -> Action:
    """Parse one action written as by ``format_action``; raise NotationError otherwise."""
    p = _Parser(text)
    action = p.action()
    p.end()
    return action


def parse_history(text: str) -> list[Turn]:
    """Parse one turn per line (LF or CRLF, optional final newline); errors name the line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    turns = []
    for number, line in enumerate(lines, 1):
        if line.endswith("\r"):
            line = line[:-1]
        try:
            turns.append(parse_turn(line))
        except NotationError as e:
            raise NotationError(e.reason, e.text, e.pos, number) from None
    return turns


# --------------------------------------------------------------------------- printer

def _bad(what: str, value: object) -> NoReturn:
    """Raise the printer's error for a value outside the grammar."""
    raise NotationError(f"cannot format {what} {value!r}")


def _index(v: int) -> str:
    """Index 1..10 as decimal."""
    if type(v) is not int or not 1 <= v <= 10:
        _bad("row/column", v)
    return str(v)


_SQUARE_TEXT = {(r, c): f"({r},{c})" for r in range(1, 11) for c in range(1, 11)}


def _square(r: int, c: int) -> str:
    """``(r,c)``."""
    if type(r) is int and type(c) is int:           # (True == 1: bools are checked below)
        text = _SQUARE_TEXT.get((r, c))
        if text is not None:
            return text
    return f"({_index(r)},{_index(c)})"


def _level(lv: str) -> str:
    """Level mark; Ground is written as nothing (04/H24)."""
    mark = LEVEL_MARKS.get(lv)
    if mark is None:
        _bad("level", lv)
    return mark


def _orient(o: str) -> str:
    """Orient mark (or nothing)."""
    if o not in ORIENTS:
        _bad("orientation", o)
    return o


def _piece_type(kind: str) -> str:
    """Canonical piece-type token (RUL-35: ``STP`` prints ``SP``)."""
    tok = _PIECE_PRINT.get(kind)
    if tok is None:
        _bad("piece type", kind)
    return tok


def _article(art: str) -> str:
    """Canonical article token (RUL-35: ``JU`` prints ``JP``; no kill tokens)."""
    tok = _ARTICLE_PRINT.get(art)
    if tok is None:
        _bad("article", art)
    return tok


def _piece(p: PieceDesc) -> str:
    """PieceType Level Square Articles Orient (04/H11, H24)."""
    arts = p.articles
    if arts:
        if len(arts) > MAX_ARTICLES:
            _bad("article list (more than 3)", arts)
        body = f"{len(arts)}{''.join([_article(a) for a in arts])}"
    else:
        body = ""
    kind = _PIECE_PRINT.get(p.kind)
    level = LEVEL_MARKS.get(p.level)
    if kind is None or level is None or p.orient not in ORIENTS:
        return f"{_piece_type(p.kind)}{_level(p.level)}{_square(p.row, p.col)}{body}{_orient(p.orient)}"
    return f"{kind}{level}{_square(p.row, p.col)}{body}{p.orient}"


def _move(m: Move) -> str:
    """``MV:`` part with its passenger Transport and its Doze (04/H12-H14, RUL-36)."""
    dest = f"{_level(m.level)}{_square(m.row, m.col)}"
    out = f"MV:{_piece(m.piece)}->{dest}"
    if m.passenger is not None:
        q, mp = m.passenger, m.piece
        if (q.level, q.row, q.col) != (mp.level, mp.row, mp.col):
            _bad("passenger outside the mover's cell", q)
        out += f"-TRA->{_piece(q)}{dest}"
    if m.doze:
        if len(m.doze) > MAX_DOZE:
            _bad("doze (more than 5 entries)", m.doze)
        entries = ",".join([f"{_piece_type(k)}{_square(r, c)}" for k, r, c in m.doze])
        out += f",DO>{_square(m.row, m.col)}{entries}"
    return out


def _transport(t: Transport) -> str:
    """``-TRA->`` part, with no trailing Articles (RUL-36)."""
    return f"-TRA->{_piece(t.piece)}{_level(t.level)}{_square(t.row, t.col)}"


def _shot(f: Fire) -> str:
    """FiringArticle "/" Piece and its aim (04/H15)."""
    art = _FIRING_PRINT.get(f.article)
    if art is None:
        _bad("firing article", f.article)
    if f.target is None:
        aim = f"->{_square(f.row, f.col)}{_orient(f.orient)}"
    else:
        if f.row or f.col or f.orient:
            _bad("homing Fire with a square or path", f)
        aim = f"=>{_piece(f.target)}"
    return f"{art}/{_piece(f.piece)}{aim}"


def _pickup(a: PickUp) -> str:
    """Piece "^" Article (04/H16)."""
    return f"{_piece(a.piece)}^{_article(a.article)}"


def _exchange(a: Exchange) -> str:
    """Giver "->" Article ("<=>" Swapped "<-" | "->") Receiver (04/H17)."""
    mid = "->" if a.swapped is None else f"<=>{_article(a.swapped)}<-"
    return f"{_piece(a.giver)}->{_article(a.article)}{mid}{_piece(a.receiver)}"


def _reinforce(a: Reinforce) -> str:
    """Square PieceType Orient (04/H18)."""
    return f"{_square(a.row, a.col)}{_piece_type(a.kind)}{_orient(a.orient)}"


def _drop(a: Drop) -> str:
    """Piece "v" Article (04/H19)."""
    return f"{_piece(a.piece)}v{_article(a.article)}"


def _step(v: int) -> str:
    """Offset component -1, 0 or 1 (04/H24: ``-`` only for -1)."""
    if type(v) is not int or not -1 <= v <= 1:
        _bad("offset", v)
    return str(v)


def _result(r: Result) -> str:
    """One Result entry (04/H20, RUL-36)."""
    kind = _RESULT_PRINT.get(r.kind)
    if kind is None:
        _bad("result type", r.kind)
    if r.form == "*":
        if r.piece is None or r.row or r.col or r.dr or r.dc:
            _bad("'*' result (needs a piece and no square)", r)
        if type(r.stun) is not int or not 0 <= r.stun <= MAX_STUN:
            _bad("stun", r.stun)
        if r.colour not in COLOURS:
            _bad("colour", r.colour)
        return f"{kind}*{_piece(r.piece)}{r.stun}{r.colour}"
    if r.piece is not None or r.stun or r.colour:
        _bad(f"{r.form!r} result with a piece", r)
    if r.form == "v":
        if r.dr or r.dc:
            _bad("'v' result with an offset", r)
        return f"{kind}v{_square(r.row, r.col)}"
    if r.form == "->":
        return f"{kind}->{_square(r.row, r.col)}({_step(r.dr)},{_step(r.dc)})"
    _bad("result form", r.form)


#: id(part) -> (part, its printed body): see ``format_turn``'s ``memo``
Memo = dict[int, tuple[object, str]]


def _body(memo: Memo | None, part: Any, printer: Callable[[Any], str]) -> str:
    """``printer(part)``, remembered in ``memo`` (parts are immutable values; the memo keeps
    each part alive, so its id is not reused while the entry lasts)."""
    if memo is None:
        return printer(part)
    e = memo.get(id(part))
    if e is None or e[0] is not part:
        e = memo[id(part)] = (part, printer(part))
    return e[1]


def format_turn(turn: Any, memo: Memo | None = None) -> str:
    """Print one history line in the fixed part order of 04/H3, H7 (canonical, 04/H24).

    ``turn``: a ``Turn``, or any value with its fields (the state's ``TurnRecord``, whose
    lists print as the tuples would).

    ``memo`` (optional) keeps each part's printed text, for a caller that prints many turns
    sharing parts (the state hash prints the turn in progress after every action)."""
    if memo is not None and len(turn.fires) <= MAX_FIRES:
        return _format_turn_memo(turn, memo)
    parts = [_body(memo, turn.move, _move) if turn.move is not None else "MV:-"]
    parts += [_body(memo, t, _transport) for t in turn.transports]
    if len(turn.fires) > MAX_FIRES:
        _bad("fires (more than 2)", turn.fires)
    for n, f in enumerate(turn.fires, 1):
        parts.append(f",FI{n}:{_body(memo, f, _shot)}")
    if turn.pickup is not None:
        parts.append(f",PU:{_body(memo, turn.pickup, _pickup)}")
    if turn.exchange is not None:
        parts.append(f",EX:{_body(memo, turn.exchange, _exchange)}")
    if turn.reinforce is not None:
        parts.append(f",RE:{_body(memo, turn.reinforce, _reinforce)}")
    if turn.drop is not None:
        parts.append(f",DR:{_body(memo, turn.drop, _drop)}")
    if turn.results:
        parts.append(",RS:" + ",".join([_body(memo, r, _result) for r in turn.results]))
    return "".join(parts)


def _format_turn_memo(turn: Any, memo: Memo) -> str:
    """``format_turn`` with a memo, the lookups written out (the state hash calls it after
    every action): the same text."""
    get = memo.get
    m = turn.move
    if m is None:
        parts = ["MV:-"]
    else:
        e = get(id(m))
        parts = [e[1] if e is not None and e[0] is m else _body(memo, m, _move)]
    for t in turn.transports:
        e = get(id(t))
        parts.append(e[1] if e is not None and e[0] is t else _body(memo, t, _transport))
    n = 0
    for f in turn.fires:
        n += 1
        e = get(id(f))
        parts.append(_FIRE_HEADS[n])
        parts.append(e[1] if e is not None and e[0] is f else _body(memo, f, _shot))
    if turn.pickup is not None:
        parts.append(",PU:")
        parts.append(_body(memo, turn.pickup, _pickup))
    if turn.exchange is not None:
        parts.append(",EX:")
        parts.append(_body(memo, turn.exchange, _exchange))
    if turn.reinforce is not None:
        parts.append(",RE:")
        parts.append(_body(memo, turn.reinforce, _reinforce))
    if turn.drop is not None:
        parts.append(",DR:")
        parts.append(_body(memo, turn.drop, _drop))
    results = turn.results
    if results:
        texts = []
        for r in results:
            e = get(id(r))
            texts.append(e[1] if e is not None and e[0] is r else _body(memo, r, _result))
        parts.append(",RS:")
        parts.append(",".join(texts))
    return "".join(parts)


_FIRE_HEADS = {n: f",FI{n}:" for n in range(1, MAX_FIRES + 1)}


def format_action(action: Action, memo: Memo | None = None) -> str:
    """Print one action as its turn part without the leading comma (``FI:``, ``END``);
    ``memo`` as for ``format_turn``."""
    if isinstance(action, Move):
        return _body(memo, action, _move)
    if isinstance(action, Fire):
        return f"FI:{_body(memo, action, _shot)}"
    if isinstance(action, PickUp):
        return f"PU:{_body(memo, action, _pickup)}"
    if isinstance(action, Exchange):
        return f"EX:{_body(memo, action, _exchange)}"
    if isinstance(action, Reinforce):
        return f"RE:{_body(memo, action, _reinforce)}"
    if isinstance(action, Drop):
        return f"DR:{_body(memo, action, _drop)}"
    if isinstance(action, EndTurn):
        return "END"
    _bad("action", action)


def format_history(turns: list[Turn] | tuple[Turn, ...]) -> str:
    """Print one turn per line, each ending in a newline (04/H8 [R1])."""
    return "".join([format_turn(t) + "\n" for t in turns])


def format_piece(desc: PieceDesc) -> str:
    """A piece description as the history writes it, e.g. ``TA^(5,5)1JP<`` (04/H11)."""
    return _piece(desc)
