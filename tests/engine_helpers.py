"""Small helpers for the engine rule tests (tests/test_setup.py, test_articles.py, test_turn.py,
test_history_save.py): build a position, play notation, and check a refusal exactly."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import api
from engine.actions import EndTurn
from engine.errors import RuleError
from engine.position import parse_position, parse_square
from engine.state import GameState, Piece

DATA = Path(__file__).parent / "data"


def setup_json() -> dict[str, Any]:
    """The checked standard set-up, from the copy in tests/data (never /work/shared)."""
    with open(DATA / "standard-setup.json", encoding="utf-8") as f:
        return json.load(f)


def pos(text: str, **options: Any) -> GameState:
    """A position (engine.position format) with the given options."""
    return parse_position(text, api.Options(**options))


def play(state: GameState, *actions: str) -> GameState:
    """Apply actions written in notation (``END`` ends the turn)."""
    for text in actions:
        action = EndTurn() if text == "END" else api.parse_action(text)
        state = api.apply_action(state, action)
    return state


def refused(state: GameState, action: str, rule: str) -> RuleError:
    """Assert the action raises RuleError naming ``rule`` and leaves the state's hash unchanged."""
    before = api.state_hash(state)
    with pytest.raises(RuleError) as info:
        play(state, action)
    assert info.value.rule == rule, str(info.value)
    assert api.state_hash(state) == before
    return info.value


def at(state: GameState, square: str, level: str = "G") -> list[Piece]:
    """Pieces on a cell, in serial order."""
    r, c = parse_square(square)
    return [state.pieces[s] for s in state.at(r, c, level)]


def one(state: GameState, square: str, kind: str, level: str = "G") -> Piece:
    """The single piece of ``kind`` on a cell."""
    found = [p for p in at(state, square, level) if p.kind == kind]
    assert len(found) == 1, (square, kind, found)
    return found[0]


def ground(state: GameState, square: str) -> list[str]:
    """Article tokens lying on a square's Ground, in the order they were put there."""
    return [state.art_code[a] for a in state.ground.get(parse_square(square), ())]


def held(state: GameState, piece: Piece) -> list[str]:
    """Article tokens a piece holds now, in acquisition order."""
    return list(state.codes(state.pieces[piece.sid]))


def legal(state: GameState) -> set[str]:
    """Legal actions in notation."""
    return {api.format_action(a) for a in api.legal_actions(state)}


def moves_of(state: GameState, prefix: str) -> set[str]:
    """Legal Moves whose text starts with ``MV:<prefix>``, e.g. ``moves_of(s, "K(1,5)")``."""
    return {m for m in legal(state) if m.startswith("MV:" + prefix + "->")}
