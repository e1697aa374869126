"""A tiny stand-in with the engine.api surface (a take-away race game), for protocol unit tests.

Only the protocol machines' unit tests use it; the full-game tests use the real engine.
"""
from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass
from typing import Any

GOVS = ("monarchy", "democracy", "theocracy")


class RuleError(ValueError):
    def __init__(self, rule: str, msg: str) -> None:
        super().__init__(msg)
        self.rule = rule


class NotationError(ValueError):
    pass


@dataclass(frozen=True)
class Options:
    gov_white: str = "monarchy"
    gov_black: str = "monarchy"
    target: int = 21
    max_take: int = 3
    competitive: bool = False

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Options":
        names = {f.name: f.type for f in dataclasses.fields(cls)}
        for k, v in d.items():
            if k not in names:
                raise ValueError(f"unknown option {k!r}")
        o = cls(**d)
        if o.gov_white not in GOVS or o.gov_black not in GOVS:
            raise ValueError("unknown government type")
        if not (isinstance(o.target, int) and 5 <= o.target <= 100 and isinstance(o.max_take, int)
                and 1 <= o.max_take <= 9 and isinstance(o.competitive, bool)):
            raise ValueError("bad option value")
        return o

    def replace(self, **changes: Any) -> "Options":
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class GameState:
    options: Options
    total: int
    mover: str
    prev: "GameState | None" = None


def new_game(options: Options | None = None) -> GameState:
    return GameState(options or Options(), 0, "black")


def parse_action(text: str) -> int:
    parts = text.split()
    if len(parts) != 2 or parts[0] != "take" or not parts[1].isdigit():
        raise NotationError(f"not an action: {text!r}")
    return int(parts[1])


def format_action(action: int) -> str:
    return f"take {action}"


def legal_actions(state: GameState) -> list[int]:
    if outcome(state) is not None:
        return []
    return [n for n in range(1, state.options.max_take + 1) if state.total + n <= state.options.target]


def apply_action(state: GameState, action: int) -> GameState:
    if outcome(state) is not None:
        raise RuleError("99/END", "the game is over")
    if action not in legal_actions(state):
        raise RuleError("99/TAKE", f"cannot take {action}")
    return GameState(state.options, state.total + action, "white" if state.mover == "black" else "black", state)


def side_to_move(state: GameState) -> str:
    return state.mover


def outcome(state: GameState) -> str | None:
    if state.total >= state.options.target:
        return "white" if state.mover == "black" else "black"
    return None


def state_hash(state: GameState) -> str:
    return hashlib.sha256(repr((state.options, state.total, state.mover)).encode()).hexdigest()


def state_diff(a: GameState, b: GameState) -> str:
    for f in ("options", "total", "mover"):
        if getattr(a, f) != getattr(b, f):
            return f"{f}: {getattr(a, f)!r} != {getattr(b, f)!r}"
    return "no difference"


def undo(state: GameState) -> GameState:
    if state.options.competitive:
        raise RuleError("04/U56", "undo is disabled in competitive games")
    if state.prev is None:
        raise RuleError("04/U56", "nothing to undo")
    return state.prev


def random_action(state: GameState, rng: random.Random) -> int:
    return rng.choice(legal_actions(state))
