"""The standard set-up (02/§2, 02/§3, RUL-32, RUL-33, RUL-39, RUL-40)."""
from __future__ import annotations

from typing import Any

from .actions import GROUND
from .options import Options
from .pieces import GOVERNMENTS
from .state import BLACK, WHITE, GameState, Piece

# Own files 1..10 of each side, back rank then front rank (02/§2.3); "P1"/"P2" are the
# primary/secondary government pieces of the side's government type. Handedness is the
# "inward" scheme of RUL-32: Right Tank, Left Cleric, Right Chopper on own files 1-5.
_BACK = (("TA>",), ("DO", "SU"), ("CL<",), ("CH>", "JE"), ("P1",), ("P2",),
         ("CH<", "JE"), ("CL>",), ("DO", "SU"), ("TA<",))
_FRONT = (("RP",), ("SP",), ("FP", "AAA"), ("CP", "DS"), ("SHP",), ("XP",),
          ("CP", "DS"), ("FP", "AAA"), ("SP",), ("RP",))

# Articles by rank 3..8, files a..j (02/§3.1); "+" joins two articles on one square.
_ARTICLES = {
    8: "SH TL BI+SL JP SC SC JP BI+SL TL ASH",
    7: "ATL ASH SL ACS ARL AFL AST SL ASH ATL",
    6: "TL SH ASL CS XXX+RL XXX+FL ST ASL SH TL",
    5: "TL SH ASL ST XXX+FL XXX+RL CS ASL SH TL",
    4: "ATL ASH SL AST AFL ARL ACS SL ASH ATL",
    3: "ASH TL BI+SL JP SC SC JP BI+SL TL SH",
}

# Reinforcements by own file (RUL-33): kind and hand; "P2" is the side's secondary piece.
_REINFORCEMENTS = ("TA>", "SU", "CL<", "JE", "P2", "DO", "JE", "AAA", "SU", "DS")


def absolute(side: str, own_file: int, own_rank: int) -> tuple[int, int]:
    """(row, col) of a side's own file/rank (02/§2.1)."""
    if side == BLACK:
        return own_rank, own_file
    return 11 - own_rank, 11 - own_file


def _split(token: str, gov: str) -> tuple[str, str]:
    primary, secondary = GOVERNMENTS[gov]
    token = {"P1": primary, "P2": secondary}.get(token, token)
    if token[-1] in "<>":
        return token[:-1], token[-1]
    return token, ""


def standard_game(options: Options | None = None) -> GameState:
    """The standard starting position for ``options`` (Black to move, ply 1)."""
    options = options or Options()
    state = GameState(options)
    sid = 1
    for side in (BLACK, WHITE):          # serials follow standard-setup.json's order (RUL-40)
        gov = options.gov_black if side == BLACK else options.gov_white
        for own_rank, rank in ((1, _BACK), (2, _FRONT)):
            for own_file, tokens in enumerate(rank, start=1):
                row, col = absolute(side, own_file, own_rank)
                for token in tokens:
                    kind, hand = _split(token, gov)
                    state.pieces[sid] = Piece(sid, kind, side, row, col, GROUND, hand,
                                              origin=(kind in _PAWNS))
                    sid += 1
    state.next_sid = sid
    aid = 1
    for row in sorted(_ARTICLES):
        for col, cell in enumerate(_ARTICLES[row].split(), start=1):
            ids = []
            for code in cell.split("+"):
                state.art_code[aid] = code
                ids.append(aid)
                aid += 1
            state.ground[(row, col)] = tuple(ids)
    if options.reinforcement_layout == "standard":
        for side in (BLACK, WHITE):
            gov = options.gov_black if side == BLACK else options.gov_white
            for own_file, token in enumerate(_REINFORCEMENTS, start=1):
                kind, hand = _split(token, gov)
                state.reinforcements[absolute(side, own_file, 8)] = (side, kind, hand)
    if options.stealth_lock_on:           # 02/§2.7: the Stealth Pawns start locked on each other
        stealth = [p for p in state.pieces.values() if p.kind == "SHP"]
        for p in stealth:
            other = next(q for q in stealth if q.side != p.side)
            state.locks[("p", p.sid)] = other.sid
    state.start = {"setup": "standard"}
    from .rules import begin_turn

    begin_turn(state)
    return state


_PAWNS = frozenset({"RP", "FP", "SP", "CP", "SOP", "XP", "SHP"})


def start_descriptor(state: GameState) -> dict[str, Any]:
    """What a save file records about the starting position."""
    return dict(state.start)
