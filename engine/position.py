"""Position files: a board as data, written by the editor and loaded by the game (01/§19).

One item per line; ``#`` starts a comment. Squares are ``a1``..``j10`` (02/§2.1), levels
``G``/``A``/``S``. Pieces are numbered in the order listed (RUL-40)::

    # WEC position 1
    to-move B                        (B or W; optional, default B)
    piece B TA> a1 G FL ASH          side, kind[hand], square, level, held articles
    piece W RP a4 G SH stun=2        options: stun=N, moved (a Pawn that left its start)
    article SC e6                    an unowned article on the ground
    reinforcement B JE d8            a waiting reinforcement (kind[hand])
    lock e2 G f9 G                   the Anti-Stealth of the first piece locked on the second

Every problem is reported at once (STYLE: editor validation), each with its line number.
"""
from __future__ import annotations

from .actions import AIR, GROUND, SUB
from .errors import SaveError
from .options import Options
from .pieces import ARTICLES, KINDS
from .state import BLACK, WHITE, GameState, Piece

MAGIC = "# WEC position 1"
_LEVELS = {"G": GROUND, "A": AIR, "S": SUB}
_PAWNS = frozenset({"RP", "FP", "SP", "CP", "SOP", "XP", "SHP"})


def parse_square(text: str) -> tuple[int, int]:
    """``e4`` -> (row 4, col 5). :raises ValueError: not a square of the board."""
    if len(text) < 2 or text[0] not in "abcdefghij" or not text[1:].isdigit():
        raise ValueError(f"not a square: {text!r}")
    row = int(text[1:])
    if not 1 <= row <= 10 or text[1] == "0":
        raise ValueError(f"not a square: {text!r}")
    return row, "abcdefghij".index(text[0]) + 1


def square_name(row: int, col: int) -> str:
    """(row, col) -> ``e4``."""
    return f"{'abcdefghij'[col - 1]}{row}"


def parse_position(text: str, options: Options | None = None) -> GameState:
    """A game state from a position file, Black or White to move at its first ply.

    :raises SaveError: listing every problem found, each with its line number.
    """
    from .rules import begin_turn

    state = GameState(options or Options())
    problems: list[str] = []
    pending_locks: list[tuple[int, tuple[int, int, str], tuple[int, int, str]]] = []
    to_move = BLACK
    aid = 1
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        try:
            head = words[0]
            if head == "to-move" and len(words) == 2 and words[1] in (BLACK, WHITE):
                to_move = words[1]
            elif head == "piece" and len(words) >= 5:
                state.pieces[state.next_sid] = _piece(state.next_sid, words[1:], state, aid)
                held = state.pieces[state.next_sid].arts
                for a, code in zip(held, [w for w in words[5:] if w in ARTICLES]):
                    state.art_code[a] = code
                aid += len(held)
                state.next_sid += 1
            elif head == "article" and len(words) == 3 and words[1] in ARTICLES:
                sq = parse_square(words[2])
                state.art_code[aid] = words[1]
                state.ground[sq] = state.ground.get(sq, ()) + (aid,)
                aid += 1
            elif head == "reinforcement" and len(words) == 4 and words[1] in (BLACK, WHITE):
                kind, hand = _kind(words[2])
                sq = parse_square(words[3])
                if sq in state.reinforcements:          # never drop one silently
                    handed = hand or state.reinforcements[sq][2]
                    raise ValueError(_second_reinforcement(words[3], handed))
                state.reinforcements[sq] = (words[1], kind, hand)
            elif head == "lock" and len(words) == 5:
                a = (*parse_square(words[1]), _LEVELS[words[2]])
                b = (*parse_square(words[3]), _LEVELS[words[4]])
                pending_locks.append((number, a, b))
            else:
                raise ValueError(f"cannot read {line!r}")
        except (ValueError, KeyError, IndexError) as exc:
            problems.append(f"line {number}: {exc}")
    for number, a, b in pending_locks:
        src = [p for p in state.pieces.values() if p.cell == a]
        dst = [p for p in state.pieces.values() if p.cell == b]
        if not src or not dst:
            problems.append(f"line {number}: lock names an empty cell")
        else:
            state.locks[("p", src[0].sid)] = dst[0].sid
    problems += validate(state)
    if problems:
        raise SaveError("; ".join(problems))
    if to_move == WHITE:
        state.ply = 2
    state.start = {"setup": "position", "text": text}
    begin_turn(state)
    return state


def _second_reinforcement(square: str, handed: str) -> str:
    """Why a second reinforcement on one square is refused (04/N11; the engine keeps one)."""
    if handed:
        return f"{square}: a handed reinforcement must be the only one on its square (04/N11)"
    return f"{square}: one reinforcement per square (several on one square are not supported)"


def _kind(token: str) -> tuple[str, str]:
    hand = token[-1] if token[-1] in "<>" else ""
    kind = token[:-1] if hand else token
    kind = {"STP": "SP"}.get(kind, kind)
    if kind not in KINDS:
        raise ValueError(f"unknown piece type {kind!r}")
    if KINDS[kind].handed != bool(hand):
        raise ValueError(f"{kind} {'needs' if KINDS[kind].handed else 'has no'} a hand (< or >)")
    return kind, hand


def _piece(sid: int, words: list[str], state: GameState, first_aid: int) -> Piece:
    side, token, square, level = words[:4]
    if side not in (BLACK, WHITE):
        raise ValueError(f"side must be B or W, got {side!r}")
    kind, hand = _kind(token)
    row, col = parse_square(square)
    stun, moved, arts = 0, False, []
    for w in words[4:]:
        if w.startswith("stun="):
            stun = int(w[5:])
        elif w == "moved":
            moved = True
        elif w in ARTICLES:
            arts.append(w)
        else:
            raise ValueError(f"unknown piece attribute {w!r}")
    ids = tuple(range(first_aid, first_aid + len(arts)))
    return Piece(sid, kind, side, row, col, _LEVELS[level], hand, ids, stun,
                 origin=kind in _PAWNS and not moved)


def validate(state: GameState) -> list[str]:
    """Every problem of a position at once (01/R5, 01/R10.3, RUL-28)."""
    from .board import capacity, coexists

    problems = []
    for cell, sids in sorted(state.cells().items()):
        ps = [state.pieces[s] for s in sids]
        name = f"{square_name(cell[0], cell[1])} {cell[2]}"
        if len(ps) > 2:
            problems.append(f"{name}: more than 2 pieces (01/R5.1)")
        elif len(ps) == 2 and ps[0].side == ps[1].side and \
                not any(coexists(state, p.kind) for p in ps):
            problems.append(f"{name}: two pieces without Coexistence (01/R5.4)")
    for sq, aids in sorted(state.ground.items()):
        if len(aids) > 2:
            problems.append(f"{square_name(*sq)}: more than 2 articles (01/R1.5)")
    for p in state.pieces.values():
        if len(p.arts) > capacity(state, p):
            problems.append(f"{square_name(p.row, p.col)} {p.kind}: over capacity (RUL-28)")
    if len(state.art_code) > 200:
        problems.append("more than 200 articles (01/R10.3)")
    for side in (BLACK, WHITE):
        if not any(p.side == side and KINDS[p.kind].role == "primary"
                   for p in state.pieces.values()):
            problems.append(f"{'Black' if side == BLACK else 'White'} has no primary "
                            "government piece (01/R3.1)")
    return problems


def format_position(state: GameState) -> str:
    """The position file of the board as it is now (no turn history)."""
    level_names = {v: k for k, v in _LEVELS.items()}
    lines = [MAGIC, f"to-move {state.side_to_move}"]
    for sid in sorted(state.pieces):
        p = state.pieces[sid]
        extra = list(state.codes(p))
        if p.stun:
            extra.append(f"stun={p.stun}")
        if p.kind in _PAWNS and not p.origin:
            extra.append("moved")
        lines.append(" ".join(["piece", p.side, p.kind + p.hand, square_name(p.row, p.col),
                               level_names[p.level], *extra]))
    for sq in sorted(state.ground):
        for a in state.ground[sq]:
            lines.append(f"article {state.art_code[a]} {square_name(*sq)}")
    for sq, (side, kind, hand) in sorted(state.reinforcements.items()):
        lines.append(f"reinforcement {side} {kind}{hand} {square_name(*sq)}")
    for (kind, ident), target in sorted(state.locks.items()):
        if kind == "p" and ident in state.pieces and target in state.pieces:
            a, b = state.pieces[ident], state.pieces[target]
            lines.append(f"lock {square_name(a.row, a.col)} {level_names[a.level]} "
                         f"{square_name(b.row, b.col)} {level_names[b.level]}")
    return "\n".join(lines) + "\n"
