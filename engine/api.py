"""The engine's public surface, for ``net/``, ``ui/`` and ``wec_p2p/``."""
from __future__ import annotations

from .actions import (Action, Drop, EndTurn, Exchange, Fire, Move, PickUp, PieceDesc,
                      Reinforce, Result, Transport, Turn)
from .ai import LEVELS as BOT_LEVELS, Bot
from .answerer import Answerer, OmniscientAnswerer
from .bot import random_action
from .errors import GameOverError, RuleError, SaveError
from .history import dumps, load, loads, replay_turn, save, undo, undo_to_turn
from .notation import (NotationError, format_action, format_history, format_turn,
                       parse_action, parse_history, parse_turn)
from .options import Options
from .rules import apply_action, legal_actions
from .setup import standard_game
from .state import GameState, deserialise, serialise, state_diff, state_hash
from .view import PlayerView, history_for, observe, view_key

__all__ = [
    "Action", "Answerer", "BOT_LEVELS", "Bot", "Drop", "EndTurn", "Exchange", "Fire", "GameOverError", "GameState",
    "Move", "NotationError", "OmniscientAnswerer", "Options", "PickUp", "PieceDesc", "PlayerView",
    "Reinforce", "Result", "RuleError", "SaveError", "Transport", "Turn", "apply_action",
    "deserialise", "dumps", "format_action", "format_history", "format_turn", "history_for",
    "legal_actions", "load", "loads", "new_game", "observe", "outcome", "parse_action",
    "parse_history", "parse_turn",
    "random_action", "replay_turn", "save", "serialise", "side_to_move", "standard_game",
    "state_diff", "state_hash", "undo", "undo_to_turn", "view_key",
]


def new_game(options: Options | None = None) -> GameState:
    """A new standard game with ``options`` (default: the standard game)."""
    return standard_game(options or Options())


def side_to_move(state: GameState) -> str:
    """"white" or "black"."""
    return "black" if state.side_to_move == "B" else "white"


def outcome(state: GameState) -> str | None:
    """None while the game runs; "white", "black" or "draw" once it has ended."""
    return {None: None, "B": "black", "W": "white", "draw": "draw"}[state.result]
