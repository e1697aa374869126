"""Save files, replay and undo (04/H1, 04/U31, 02/D24).

A save file is the manual's Game History (one line per finished turn, 04/H2) under a small
header that records what the history alone cannot (04/H1 ambiguity: options and start):

    # WEC game 1
    options {"tank_range": 6}            (JSON: the options that differ from the defaults)
    start standard
    MV:...                               (finished turns, in the notation)
    + PU:...                             (actions of the turn in progress, in played order)

The history does not record the order of a turn's actions (04/H3, H11); replay tries the
orders in a fixed sequence and keeps the first whose re-printed line equals the saved line.
"""
from __future__ import annotations

from collections.abc import Callable

import itertools
import json
from pathlib import Path

from .actions import Action, EndTurn, Turn
from .errors import RuleError, SaveError
from .notation import NotationError, format_turn, parse_action, parse_turn
from .options import Options
from .rules import apply_action
from .setup import standard_game
from .state import GameState

MAGIC = "# WEC game 1"
ORDER = "#order "          # the played order of the line above, when not the printing order


def new_game(options: Options | None = None) -> GameState:
    """A new standard game."""
    return standard_game(options or Options())


def dumps(state: GameState) -> str:
    """The save-file text of a game (history plus the turn in progress)."""
    from .notation import format_action

    defaults = Options().to_dict()
    changed = {k: v for k, v in state.options.to_dict().items() if defaults[k] != v}
    start = "standard" if state.start.get("setup") == "standard" else \
        "position " + json.dumps(state.start.get("text", ""))
    lines = [MAGIC, "options " + json.dumps(changed, sort_keys=True), "start " + start]
    for line, order in zip(state.history, state.orders):
        lines.append(line)
        if order:
            lines.append(ORDER + order)
    if state.result is None:
        lines += ["+ " + format_action(a) for a in state.actions]
    return "\n".join(lines) + "\n"


def save(state: GameState, path: str | Path) -> None:
    """Write the save file atomically (temporary file, then rename)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dumps(state), encoding="utf-8")
    tmp.replace(path)


def loads(text: str, name: str = "<save>",
          progress: Callable[[int, int], None] | None = None) -> GameState:
    """Rebuild a game from save-file text by replaying it; ``progress(done, total)`` is told
    after each line (a window shows it while a long game loads).

    :raises SaveError: the text is not a save file, or a line cannot be parsed or replayed;
        the message names ``name`` and the line.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != MAGIC:
        raise SaveError(f"{name}:1: not a WEC save file (expected {MAGIC!r})")
    if not text.endswith("\n"):          # dumps ends every line: a cut file loses the last one
        raise SaveError(f"{name}:{len(lines)}: the file is cut short (no end of line)")
    if len(lines) < 3 or not lines[1].startswith("options ") or not lines[2].startswith("start "):
        raise SaveError(f"{name}:2: the header needs an 'options' and a 'start' line")
    try:
        options = Options.from_dict(json.loads(lines[1][len("options "):]))
    except (ValueError, TypeError) as exc:
        raise SaveError(f"{name}:2: bad options: {exc}") from None
    try:
        state = initial_state(options, lines[2][len("start "):])
    except (SaveError, ValueError) as exc:
        raise SaveError(f"{name}:3: bad start: {exc}") from None
    body = lines[3:]
    number = 3
    i = 0
    while i < len(body):
        if progress is not None:
            progress(i, len(body))
        line = body[i]
        number = i + 4
        i += 1
        if state.result is not None:
            raise SaveError(f"{name}:{number}: the game was already over before this line")
        try:
            if line.startswith("+ "):
                state = apply_action(state, parse_action(line[2:]))
                continue
            if line.startswith("#"):
                raise SaveError(f"{name}:{number}: an '{ORDER.strip()}' line must follow a turn")
            order = None
            if i < len(body) and body[i].startswith(ORDER):
                order = body[i][len(ORDER):].split(",")
                i += 1
            before = len(state.history)
            state = replay_turn(state, parse_turn(line), order)
            # a game that ends in the next turn's start phase (a trip crash) writes that
            # turn's line too (RUL-2): it must follow in the file
            for extra in state.history[before + 1:]:
                if i >= len(body) or body[i] != extra:
                    raise SaveError(f"{name}:{i + 4}: expected the line {extra!r}")
                i += 1
        except NotationError as exc:
            raise SaveError(f"{name}:{number}: {exc}") from None
        except RuleError as exc:
            raise SaveError(f"{name}:{number}: illegal: {exc}") from None
    if progress is not None:
        progress(len(body), len(body))
    return state


def load(path: str | Path, progress: Callable[[int, int], None] | None = None) -> GameState:
    """Read and replay a save file. :raises SaveError: unreadable, corrupt or illegal content."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{path}: cannot read: {exc}") from None
    return loads(text, str(path), progress)


def initial_state(options: Options, start: str) -> GameState:
    """The starting state named by a save header's ``start`` value."""
    if start == "standard":
        return standard_game(options)
    if start.startswith("position "):
        from .position import parse_position

        text = json.loads(start[len("position "):])
        if not isinstance(text, str):
            raise SaveError("the position must be a JSON string")
        return parse_position(text, options)
    raise SaveError(f"unknown start {start!r} (expected 'standard' or 'position ...')")


def turn_actions(turn: Turn) -> list[Action]:
    """The player's actions named by a history line, in printing order (04/H3)."""
    acts: list[Action] = []
    if turn.move is not None:
        acts.append(turn.move)
    acts.extend(turn.fires)
    for part in (turn.pickup, turn.exchange, turn.reinforce, turn.drop):
        if part is not None:
            acts.append(part)
    return acts


def replay_turn(state: GameState, turn: Turn, order: list[str] | None = None) -> GameState:
    """Apply one history line at the start of a turn (omniscient replay).

    ``order`` is the played order of the line's parts (tags MV, FI1, FI2, PU, EX, RE, DR)
    when the save recorded it; otherwise the orders are tried, printing order first.

    :raises RuleError: no order of the line's actions reproduces the line exactly.
    """
    want = format_turn(turn)
    acts = turn_actions(turn)
    fires = [a for a in acts if a in turn.fires]
    first_error: RuleError | None = None
    if order is not None:
        by_tag = dict(zip(_tags(turn), acts))
        if sorted(order) != sorted(by_tag):
            raise RuleError("04/H3", f"the order {','.join(order)} does not match the line's parts")
        candidates = [tuple(by_tag[t] for t in order)]
    else:
        candidates = _orders(acts, fires)
    for order_ in candidates:
        try:
            s = state
            for action in order_:
                if s.result is not None:
                    break
                s = apply_action(s, action)
            if s.result is None:
                s = apply_action(s, EndTurn())
        except RuleError as exc:
            first_error = first_error or exc
            continue
        if len(s.history) > len(state.history) and s.history[len(state.history)] == want:
            return s
    if first_error is not None:
        raise first_error
    raise RuleError("04/H2", f"replaying the line does not reproduce it: {want}")


def _tags(turn: Turn) -> list[str]:
    """Part tags of a line's actions, in printing order."""
    tags = ["MV"] if turn.move is not None else []
    tags += [f"FI{i}" for i in range(1, len(turn.fires) + 1)]
    for tag, part in (("PU", turn.pickup), ("EX", turn.exchange), ("RE", turn.reinforce),
                      ("DR", turn.drop)):
        if part is not None:
            tags.append(tag)
    return tags


def _orders(acts: list[Action], fires: list[Action]) -> list[tuple[Action, ...]]:
    """Orders to try: printing order first; the two Fires keep their recorded order (04/H15)."""
    out = []
    for perm in itertools.permutations(acts):
        if len(fires) == 2 and perm.index(fires[0]) > perm.index(fires[1]):
            continue
        out.append(perm)
    return out


def undo(state: GameState) -> GameState:
    """The state before the last action (04/U31). :raises RuleError: competitive game or start."""
    if state.options.competitive:
        raise RuleError("02/D24", "undo is locked in a competitive game")
    parent = state.parent       # the previous state itself, or rebuilt from the undo record
    if parent is not None:
        return parent
    if state.ply == 1 and not state.actions and not state.history:
        raise RuleError("04/U31", "nothing to undo")
    replayed = loads(dumps(state))
    if replayed.parent is None:
        raise RuleError("04/U31", "nothing to undo")
    return replayed.parent


def undo_to_turn(state: GameState, ply: int) -> GameState:
    """The state at the start of ``ply`` (04/U31 'undo back to a turn')."""
    if state.options.competitive:
        raise RuleError("02/D24", "undo is locked in a competitive game")
    if not 1 <= ply <= len(state.history) + 1:
        raise RuleError("04/U31", f"ply {ply} is not in this game (1..{len(state.history) + 1})")
    s = initial_state(state.options, dumps(state).split("\n")[2][len("start "):])
    for line in state.history[: ply - 1]:
        s = replay_turn(s, parse_turn(line))
    return s
