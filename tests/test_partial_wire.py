"""The partial-state game as two laptops play it: every value through its plain form.

``engine.partial.play`` runs both sides in one process. Here each event goes the way the
network game sends it (docs/hidden.md §3, issue 8 items 1-3): the resolver re-runs the event
with ``Side.resolve_step`` until it has every answer, each ``Question`` and ``Answer``, the
``Consequences``, ``Detectors`` and ``Shown`` pass through ``engine.partial_codec`` and
msgpack, and the owner answers with ``owner_answer`` from its own state only. After every
action both sides' states must equal what they may know of the omniscient game (RUL-18),
their public hashes must agree (RUL-50), and no value the owner of a hidden piece sent may
hold it unless the rules show it.
"""
from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from engine import api
from engine import partial_codec as codec
from engine.actions import EndTurn, Fire
from engine.asking import Answer, Question, owner_answer
from engine.errors import RuleError
from engine.partial import (Resolved, Side, enemy_hidden_held, known_diff, public_hash,
                            without_locks_on)
from engine.state import GameState, enemy
from engine.visibility import hidden_from
from engine_helpers import pos
from test_partial import OPTION_SETS, SKIRMISH


def wire(data: Any) -> Any:
    """What the other laptop receives: canonical msgpack bytes, decoded."""
    raw = msgpack.packb(data, use_bin_type=True)
    return msgpack.unpackb(raw, raw=False, strict_map_key=True)


class Wire:
    """Counts what travelled, for the assertions."""

    def __init__(self) -> None:
        self.questions: dict[str, int] = {}
        self.rounds = 0


def event(resolver: Side, owner: Side, action: Any, w: Wire) -> Resolved:
    """One event, the four steps of docs/hidden.md §3, every value through the wire."""
    answers: list[Answer] = []
    while True:
        step = resolver.resolve_step(action, answers)
        if isinstance(step, Resolved):
            break
        assert isinstance(step, Question)
        q = codec.load_question(wire(codec.dump_question(step)))
        assert q == step
        w.questions[q.kind] = w.questions.get(q.kind, 0) + 1
        a = owner_answer(owner.state, owner.side, q)
        got = codec.load_answer(wire(codec.dump_answer(a)), q.kind)
        assert got == a
        answers.append(got)
    w.rounds += 1
    res = step
    c = codec.load_consequences(wire(codec.dump_consequences(res.consequences)))
    assert c == res.consequences
    resolver.adopt(res.work)
    det_r = codec.load_detectors(wire(codec.dump_detectors(resolver.detectors())))
    owner.receive(c)
    shown_o = codec.load_shown(wire(codec.dump_shown(owner.shown_to(det_r))))
    targets = tuple(wire(list(owner.lock_targets())))
    det_o = codec.load_detectors(wire(codec.dump_detectors(owner.detectors())))
    gone = frozenset(wire(sorted(resolver.gone(res.before, res.work, targets))))
    shown_r = codec.load_shown(wire(codec.dump_shown(resolver.shown_to(without_locks_on(det_o, gone)))))
    resolver.accept(shown_o)
    owner.end_locks_on(gone)
    owner.accept(shown_r)
    return res


def play_wire(sides: dict[str, Side], action: Any, w: Wire) -> list[Resolved]:
    mover = next(s for s in sides.values() if s.state.side_to_move == s.side)
    other = sides[enemy(mover.side)]
    done = [event(mover, other, action, w)]
    if isinstance(action, EndTurn) and mover.state.result is None:
        done.append(event(other, mover, None, w))
    return done


def run(name: str, seed: int, start: str, actions: int = 120) -> Wire:
    rng = random.Random(seed)
    opts = OPTION_SETS[name]
    omni: GameState = api.new_game(api.Options(**opts)) if start == "standard" else pos(SKIRMISH, **opts)
    sides = {s: Side.from_omniscient(omni, s) for s in "BW"}
    w = Wire()
    n = 0
    while omni.result is None and n < actions:
        acts = api.legal_actions(omni)
        fires = [a for a in acts if isinstance(a, Fire)]
        action = rng.choice(fires if fires and rng.random() < 0.5 else acts)
        omni = api.apply_action(omni, action)
        play_wire(sides, action, w)
        for s in "BW":
            assert known_diff(sides[s].state, omni, s) == "", (name, seed, start, n, api.format_action(action), s)
            assert enemy_hidden_held(sides[s].state, omni, s) == []
        assert public_hash(sides["B"].state) == public_hash(sides["W"].state) == public_hash(omni)
        n += 1
    return w


@pytest.mark.parametrize("name,seed,start", [
    (name, seed, start) for seed, name in enumerate(OPTION_SETS) for start in ("standard", "skirmish")])
def test_a_game_over_the_wire_equals_the_omniscient_game_rul_18(name: str, seed: int, start: str) -> None:
    """RUL-18, HQ-1: each side resolves its own events on its partial state, the owner answers
    from its own state through the plain forms, and after every action both sides know exactly
    what the rules let them know of the omniscient game, with equal public hashes (RUL-50)."""
    w = run(name, seed, start)
    assert w.rounds > 0


def test_question_kinds_all_travel_hq_1() -> None:
    """HQ-1, HQ-2, HQ-12: over a few crowded games every kind of remote question is asked."""
    seen: dict[str, int] = {}
    for seed in range(3):
        for name in OPTION_SETS:
            for k, v in run(name, 100 + seed, "skirmish", 80).questions.items():
                seen[k] = seen.get(k, 0) + v
    assert {"first", "open_on", "any_on", "routes"} <= set(seen), seen


def test_an_illegal_action_is_refused_before_anything_is_asked_rul_18() -> None:
    """RUL-18: resolve_step refuses an action the rules forbid with RuleError and leaves the
    side's state as it was (nothing is asked, nothing sent)."""
    omni = pos(SKIRMISH)
    sides = {s: Side.from_omniscient(omni, s) for s in "BW"}
    mover = sides[omni.side_to_move]
    before = public_hash(mover.state)
    legal = {api.format_action(a) for a in api.legal_actions(omni)}
    bad = next(t for t in ("MV:TA(10,10)>(1,1)", "MV:P(1,1)>(5,5)") if t not in legal)
    with pytest.raises((RuleError, Exception)):
        mover.resolve_step(api.parse_action(bad), [])
    assert public_hash(mover.state) == before


def test_malformed_plain_values_are_refused_with_a_reason_hq_1() -> None:
    """HQ-1: a question or answer that is not a well-formed value of its kind is refused with
    ValueError naming what is wrong, never half-read."""
    with pytest.raises(ValueError, match="malformed question"):
        codec.load_question(["first", [[[0, 1, "G"]]], []])          # row 0 is off the board
    with pytest.raises(ValueError, match="malformed question"):
        codec.load_question(["peek", [], []])
    with pytest.raises(ValueError, match="malformed open_on answer"):
        codec.load_answer([[5], []], "open_on")                      # names a piece it does not open
    with pytest.raises(ValueError, match="malformed first answer"):
        codec.load_answer([True, []], "first")
