"""The engine's public surface, for ``net/``, ``ui/`` and ``wec_p2p/``."""
from __future__ import annotations

from .actions import (Action, Drop, EndTurn, Exchange, Fire, Move, PickUp, PieceDesc,
                      Reinforce, Result, Transport, Turn)
from .answerer import Answerer, OmniscientAnswerer
from .bot import random_action
from .errors import GameOverError, RuleError, SaveError
from .event_diff import derive_events
from .events import (ArticleDropped, ArticleGiven, ArticlePicked, ArticlePlaced, Captured,
                     Converted, Destroyed, Event, GameEnded, HiddenAgain, Moved,
                     ProjectileCreated, ProjectileHit, ProjectileLost, ProjectileStepped,
                     Reinforced, Revealed, Stunned, TurnBegan, events_for)
from .history import dumps, load, loads, replay_turn, save, undo, undo_to_turn
from .notation import (NotationError, format_action, format_history, format_turn,
                       parse_action, parse_history, parse_turn)
from .options import Options
from .position import format_position, parse_position, position_hash
from .queries import CellView, action_pieces, actions_at, actions_of, cell_view, describe_piece
from .rules import apply_action, legal_actions
from .setup import standard_game
from .state import GameState, deserialise, serialise, state_diff, state_hash
from .view import PlayerView, history_for, observe, view_key
from .visibility import hidden_from

__all__ = [
    "Action", "Answerer", "ArticleDropped", "ArticleGiven", "ArticlePicked", "ArticlePlaced",
    "Captured", "CellView", "Converted", "Destroyed", "Drop", "EndTurn", "Event", "Exchange",
    "Fire", "GameEnded", "GameOverError", "GameState", "HiddenAgain", "Move", "Moved",
    "NotationError", "OmniscientAnswerer", "Options", "PickUp", "PieceDesc", "PlayerView",
    "ProjectileCreated", "ProjectileHit", "ProjectileLost", "ProjectileStepped", "Reinforce",
    "Reinforced", "Result", "Revealed", "RuleError", "SaveError", "Stunned", "Transport", "Turn",
    "TurnBegan", "action_pieces", "actions_at", "actions_of", "apply_action",
    "apply_action_events", "cell_view", "derive_events", "describe_piece", "deserialise",
    "dumps", "events_for", "format_action", "format_history", "format_position", "format_turn",
    "hidden_from", "history_for", "legal_actions", "load", "loads", "new_game", "observe",
    "outcome", "parse_action", "parse_history", "parse_position", "parse_turn", "position_hash",
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


def apply_action_events(state: GameState, action: Action,
                        answerer: Answerer | None = None) -> tuple[GameState, tuple[Event, ...]]:
    """``apply_action`` and the events it caused, in the order they happened (see
    ``engine.events``; ``events_for`` gives one player's public form).

    :raises RuleError: the action is illegal now (the input state is unchanged).
    """
    new = apply_action(state, action, answerer)
    return new, derive_events(state, action, new)
