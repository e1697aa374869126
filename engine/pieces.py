"""Piece types, their inherent abilities and capabilities (01/R7.7, 01/R8.1, 01/R9.2, RUL-24)."""
from __future__ import annotations

from dataclasses import dataclass

from .actions import AIR, GROUND, SUB


@dataclass(frozen=True, slots=True)
class KindInfo:
    """What a piece type is and can do."""

    code: str                      # notation token (04/H9b)
    name: str
    movement: str                  # movement class: pawn, king, step, sub, jet, tank, cleric, chopper, queen
    inherent: tuple[str, ...]      # inherent article abilities, as article tokens (01/R10.5)
    combat: bool                   # 03/M0.7 (pawns capture only on attack squares)
    coexist: bool = False          # RUL-24 union set
    carrier: bool = False          # RUL-25: Chopper and Sub carry one friendly piece
    handed: bool = False           # 03/M0.3: Tank, Cleric, Chopper
    role: str = ""                 # "primary" / "secondary" government piece (01/R9.1)


_KINDS = (
    KindInfo("K", "King", "king", ("AFL", "ARL"), True, role="primary"),
    KindInfo("DI", "Dictator", "king", ("ACS", "ARL"), True, role="primary"),
    KindInfo("AV", "Avatar", "king", ("AST", "ARL"), True, role="primary"),
    KindInfo("PR", "President", "king", ("ACS", "AFL"), True, role="primary"),
    KindInfo("Q", "Queen", "queen", ("ACS", "AST"), True, role="secondary"),
    KindInfo("AS", "Assassin", "queen", ("AFL", "AST"), True, role="secondary"),
    KindInfo("AC", "Acolyte", "queen", ("AFL", "ACS"), True, role="secondary"),
    KindInfo("PM", "Prime Minister", "queen", ("ARL", "AST"), True, role="secondary"),
    KindInfo("TA", "Tank", "tank", ("FL",), True, handed=True),
    KindInfo("CL", "Cleric", "cleric", ("CS",), True, handed=True),
    KindInfo("CH", "Chopper", "chopper", ("ST",), True, coexist=True, carrier=True, handed=True),
    KindInfo("DO", "Bulldozer", "step", (), False, coexist=True),
    KindInfo("DS", "Destroyer", "step", ("TL",), False, coexist=True),
    KindInfo("AAA", "AAA", "step", ("SH", "SL"), False, coexist=True),
    KindInfo("SU", "Sub", "sub", ("TL", "RL"), False, coexist=True, carrier=True),
    KindInfo("JE", "Jet", "jet", ("SL", "RL"), False, coexist=True),
    KindInfo("RP", "Rocket Launcher Pawn", "pawn", ("RL", "ARL"), True),
    KindInfo("FP", "Flamer Pawn", "pawn", ("FL", "AFL"), True),
    KindInfo("SP", "Stunner Pawn", "pawn", ("ST", "AST"), True),
    KindInfo("CP", "Conversion Pawn", "pawn", ("CS", "ACS"), True),
    KindInfo("SOP", "SAM and Torpedo Pawn", "pawn", ("SL", "TL"), True),
    KindInfo("XP", "XXX Pawn", "pawn", ("XXX",), True),
    KindInfo("SHP", "Stealth Pawn", "pawn", ("SH", "ASH"), True),
)

KINDS: dict[str, KindInfo] = {k.code: k for k in _KINDS}

#: Article tokens (04/H9c) and their classes (01/§11).
WEAPONS = ("FL", "ST", "CS", "RL", "SL", "TL")
TRANSPORTS = ("BI", "JP", "SC")
DEFENCES = {"AFL": "FL", "AST": "ST", "ACS": "CS", "ARL": "RL", "ASL": "SL", "ATL": "TL"}
ARTICLES = WEAPONS + TRANSPORTS + tuple(DEFENCES) + ("SH", "ASH", "XXX")

#: Government types (01/R9.1): primary and secondary piece tokens.
GOVERNMENTS = {
    "monarchy": ("K", "Q"),
    "dictatorship": ("DI", "AS"),
    "theocracy": ("AV", "AC"),
    "democracy": ("PR", "PM"),
}


def native_levels(kind: str) -> tuple[str, ...]:
    """Levels a piece can occupy unaided, ignoring transport trips (RUL-25)."""
    if kind in ("JE", "CH"):
        return (GROUND, AIR)
    if kind == "SU":
        return (GROUND, SUB)
    return (GROUND,)
