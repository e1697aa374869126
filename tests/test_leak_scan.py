"""The leak scanner (tests/leak_scan.py) checked on the in-process wire game before the network
machine uses it: it finds nothing in honest play, and finds each deliberately planted leak with
the exact piece and moment (issue 8 "What it must show": leak test; RUL-18, RUL-37, HQ-16)."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import msgpack
import pytest

from engine import api
from engine import partial_codec as codec
from engine.actions import EndTurn, Fire
from engine.asking import Answer, Question, owner_answer
from engine.partial import Resolved, Side, Shown, without_locks_on
from engine.state import GameState, enemy
from engine_helpers import pos
from leak_scan import Report, Timeline, scan_state, scan_text, scan_value, split_gaps, strings
from test_partial import OPTION_SETS, SKIRMISH
from test_partial_wire import wire


class Recorder:
    """One in-process game, every value through its plain form, kept per receiver with its window."""

    def __init__(self, omni: GameState) -> None:
        self.start = omni
        self.sides = {s: Side.from_omniscient(omni, s) for s in "BW"}
        self.received: dict[str, list[tuple[tuple[int, int], Any]]] = {"B": [], "W": []}
        self.states: dict[str, list[tuple[int, GameState]]] = {"B": [], "W": []}
        self.actions: list[str] = []
        self.log: dict[str, list[str]] = {"B": [], "W": []}     # the history text each side may read
        self.hidden_sent = 0
        self.tamper: Any = None                                  # a planted leak: f(kind, value, t) -> value

    def send(self, to: str, t: int, tag: str, **fields: Any) -> None:
        value = {tag: {k: wire(v) for k, v in fields.items()}}
        if self.tamper is not None:
            value = self.tamper(tag, value, t, to)
        self.received[to].append(((t, t + 1), value))

    def event(self, resolver: Side, owner: Side, action: Any, t: int) -> Resolved:
        r, o = resolver.side, owner.side
        answers: list[Answer] = []
        while True:
            step = resolver.resolve_step(action, answers)
            if isinstance(step, Resolved):
                break
            assert isinstance(step, Question)
            self.send(o, t, "hidden-query", question=codec.dump_question(step))
            a = owner_answer(owner.state, owner.side, codec.load_question(wire(codec.dump_question(step))))
            self.send(r, t, "hidden-answer", answer=codec.dump_answer(a))
            answers.append(codec.load_answer(wire(codec.dump_answer(a)), step.kind))
        res = step
        c = res.consequences
        if action is not None and c.action is None:
            self.hidden_sent += 1
        resolver.adopt(res.work)
        det_r = resolver.detectors()
        self.send(o, t, "hidden-event", cons=codec.dump_consequences(c), det=codec.dump_detectors(det_r))
        owner.receive(c)
        shown_o = owner.shown_to(det_r)
        targets = tuple(owner.lock_targets())
        det_o = owner.detectors()
        self.send(r, t, "hidden-ack", targets=list(targets), shown=codec.dump_shown(shown_o),
                  det=codec.dump_detectors(det_o))
        gone = frozenset(resolver.gone(res.before, res.work, targets))
        shown_r = resolver.shown_to(without_locks_on(det_o, gone))
        self.send(o, t, "hidden-shown", gone=sorted(gone), shown=codec.dump_shown(shown_r))
        resolver.accept(shown_o)
        owner.end_locks_on(gone)
        owner.accept(shown_r)
        return res

    def act(self, action: Any) -> None:
        t = len(self.actions)
        mover = next(s for s in self.sides.values() if s.state.side_to_move == s.side)
        other = self.sides[enemy(mover.side)]
        res = self.event(mover, other, action, t)
        text = api.format_action(action)
        self.log[mover.side].append(text)
        self.log[other.side].append(text if res.consequences.action is not None else "?")
        if isinstance(action, EndTurn) and mover.state.result is None:
            self.event(other, mover, None, t)
        self.actions.append(text)
        for s in "BW":
            self.states[s].append((t + 1, self.sides[s].state))

    def scan(self, tl: Timeline, side: str) -> Report:
        rep = Report(side)
        for t, st in self.states[side]:
            rep.add(scan_state(tl, side, t, st))
        for win, value in self.received[side]:
            rep.add(scan_value(tl, side, value, win, allow=_allow(tl, side)))
        return rep


def _allow(tl: Timeline, side: str) -> Any:
    from leak_scan import net_allow
    return net_allow(tl, side)


def play(name: str, seed: int, start: str, actions: int = 100, rec_cls: type = Recorder) -> Recorder:
    rng = random.Random(seed)
    opts = OPTION_SETS[name]
    omni = api.new_game(api.Options(**opts)) if start == "standard" else pos(SKIRMISH, **opts)
    rec = rec_cls(omni)
    while omni.result is None and len(rec.actions) < actions:
        acts = api.legal_actions(omni)
        fires = [a for a in acts if isinstance(a, Fire)]
        action = rng.choice(fires if fires and rng.random() < 0.5 else acts)
        omni = api.apply_action(omni, action)
        rec.act(action)
    return rec


def _log_bytes(rec: Recorder, side: str) -> bytes:
    """A side's readable history as a log would hold it (msgpack, text in clear)."""
    return msgpack.packb(rec.log[side], use_bin_type=True)


@pytest.mark.parametrize("name,seed,start", [
    ("stealth-dominance", 3, "skirmish"), ("no-reveals", 4, "skirmish"), ("deep", 5, "skirmish"),
    ("fast", 7, "skirmish"), ("standard", 6, "standard")])
def test_honest_play_has_no_leak_rul_18(name: str, seed: int, start: str) -> None:
    """RUL-18, RUL-37: in honest in-process play neither side's states, received values or
    readable history hold an enemy piece the rules hide from it, apart from the two disclosures
    docs/hidden.md §6 names as open gaps (G-2, G-3: the private set intersection closes them),
    which the scanner reports by name."""
    rec = play(name, seed, start)
    tl = Timeline(rec.start, rec.actions)
    for side in "BW":
        rep = rec.scan(tl, side)
        assert rep.piece_plies > 0 and rep.rows > 0
        rep.add(scan_text(tl, side, _log_bytes(rec, side), tl.end - 1))
        leaks, gaps = split_gaps(rep.leaks)
        assert leaks == [], "\n".join(map(str, leaks[:10]))
        assert set(gaps) <= {"G-3 detectors", "G-3 detectors (lock question)", "G-2 nudge landing"}


def _hidden_moment(rec: Recorder, tl: Timeline, viewer: str, mover: str = "") -> tuple[int, int]:
    """The first moment at which a piece of ``viewer``'s enemy is hidden from it (and ``mover``
    acts, if given), and the piece's serial."""
    for t in range(1, tl.end):
        if mover and tl.movers[t] != mover:
            continue
        hidden = sorted(tl.hidden(t, viewer) & tl.hidden(t + 1, viewer))
        if hidden:
            return t, hidden[0]
    raise AssertionError("no hidden piece in this game")


GAME = ("no-reveals", 4, "skirmish")


def test_a_hidden_piece_kept_in_a_state_is_found_rul_18() -> None:
    """RUL-18: plant a hidden enemy piece (from the omniscient state) in Black's state at moment
    t: the scanner names that state, that piece and that moment, and nothing else."""
    rec = play(*GAME)
    tl = Timeline(rec.start, rec.actions)
    t, sid = _hidden_moment(rec, tl, "B")
    st = dict(rec.states["B"])[t].clone()
    st.pieces[sid] = tl.states[t].pieces[sid]
    rep = scan_state(tl, "B", t, st)
    assert [(f.artifact, f.kind, f.sid, f.window) for f in rep.leaks] == [("state", "piece", sid, (t, t))]
    assert scan_state(tl, "B", t, dict(rec.states["B"])[t]).leaks == []


@pytest.mark.parametrize("tag,field", [("hidden-ack", "shown"), ("hidden-shown", "shown"),
                                       ("hidden-ack", "targets")])
def test_a_hidden_piece_in_a_message_is_found_hq_16(tag: str, field: str) -> None:
    """HQ-16, RUL-18: the owner's ``Shown`` (or another field) planted with one of its pieces the
    other side cannot see, at moment t: found in that message, with that piece and window; a
    ``Shown`` piece the receiver does see stays allowed."""
    rec = play(*GAME, actions=30)
    tl0 = Timeline(rec.start, rec.actions)
    # the resolver sends "hidden-shown", the owner "hidden-ack"
    t, sid = _hidden_moment(rec, tl0, "B", mover="W" if tag == "hidden-shown" else "B")

    def tamper(kind: str, value: Any, when: int, to: str) -> Any:
        if kind == tag and when == t and to == "B" and not value[kind].get("planted"):
            from engine.partial import opening
            op = opening(tl0.states[t], sid)
            value[kind][field] = list(value[kind][field]) + [wire(codec.dump_opening(op))]
        return value

    rec2 = Recorder(rec.start)
    rec2.tamper = tamper
    for text in rec.actions:
        rec2.act(api.parse_action(text))
    tl = Timeline(rec2.start, rec2.actions)
    leaks, _ = split_gaps(rec2.scan(tl, "B").leaks)
    assert [(f.kind, f.sid, f.window, f.where.split("[")[0]) for f in leaks] == \
        [("piece", sid, (t, t + 1), f"{tag}.{field}")], "\n".join(map(str, leaks))


def test_a_hidden_piece_inside_msgpack_bytes_is_found_rul_18() -> None:
    """RUL-18: a piece row inside bytes (a blob of canonical msgpack, as signed payloads carry
    them) is decoded and found."""
    rec = play(*GAME, actions=10)
    tl = Timeline(rec.start, rec.actions)
    t, sid = _hidden_moment(rec, tl, "B")
    row = codec.dump_piece(tl.states[t].pieces[sid])
    blob = msgpack.packb({"x": [1, msgpack.packb([row], use_bin_type=True)]}, use_bin_type=True)
    rep = scan_value(tl, "B", {"hidden-event": {"cons": blob}}, (t, t + 1))
    assert [(f.sid, f.where) for f in rep.leaks] == [(sid, "hidden-event.cons<mp>.x[1]<mp>[0]")]


def test_the_readable_history_names_no_hidden_square_and_a_planted_one_is_found_rul_37() -> None:
    """RUL-37: the history a side may read writes ``?`` for the enemy's hidden actions; strings
    on it find nothing; the same log with one hidden action in clear is caught twice: its text,
    and the square of a hidden piece nobody named."""
    rec = play(*GAME)
    tl = Timeline(rec.start, rec.actions)
    hidden = tl.hidden_actions("B")
    assert len(hidden) >= 5
    assert scan_text(tl, "B", _log_bytes(rec, "B"), tl.end - 1).leaks == []
    assert "?" in strings(b"\x00\x01????\x02") [0]
    i = max(k for k, text in hidden.items() if k < tl.end - 1 and tl.first_public("B", text) > tl.end)
    leaky = list(rec.log["B"])
    assert leaky[i] == "?"
    leaky[i] = rec.actions[i]
    found = scan_text(tl, "B", msgpack.packb(leaky), tl.end - 1).leaks
    kinds = {f.kind for f in found}
    assert "action-text" in kinds, found
    assert any(f.kind == "action-text" and f"hidden action {i} " in f.detail for f in found)
