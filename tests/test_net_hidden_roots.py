"""Where a side's commitment root may change in hidden play (docs/hidden.md, docs/protocol.md
"Hidden play"): only where its own pieces may change. An honest owner whose lock ended in step 4
(RUL-19) sends a new root in its next message and play goes on; a root that changes anywhere
else (an answer, a resolver's question) is refused at once, naming the message. In-process pairs
of machines (``net.hidden_pair``), with the network option ``hidden_psi`` off and on.
"""
from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import pytest

import engine.api as api
from hidden_games import engine_from
from net.hidden_pair import HiddenPair
from net.hidden_play import HiddenLockstep
from net.hidden_wire import HiddenAck, HiddenAnswer, HiddenQuery, HiddenShown
from net.hidden_wire_psi import HiddenPsi

#: Black's Flamer Pawn on d4 burns Black's own Stealth Pawn on c5, which White's Stealth Pawn on h8
#: holds locked (RUL-19); White's Stealth Pawn on c7 is hidden from Black, so Black's King moves
#: ask White (HQ-1).
POS = ("to-move B\npiece B K j1 G\npiece B FP d4 G\npiece B SHP c5 G\npiece B Q c2 G\n"
       "piece W K j10 G\npiece W SHP h8 G\npiece W SHP c7 G\nlock h8 G c5 G\n")
FIRE = "FI:FL/FP(4,4)->(5,3)"
KING = "MV:K(1,10)->(2,9)"
MISS = "FI:FL/FP(4,4)->(5,5)"   # the Flamer Pawn's Fire at an empty square: nothing of either side gone
LOCKED = 3            # Black's Stealth Pawn on c5 (RUL-40: numbered in the order listed)


def _pair(psi: bool) -> HiddenPair:
    eng = engine_from(POS)
    gid = hashlib.sha256(b"wec/test-roots").digest()
    seeds = {"white": hashlib.sha256(b"w").digest(), "black": hashlib.sha256(b"b").digest()}
    machines = {c: HiddenLockstep(eng, api.Options(), c, gid, seed=seeds[c], psi=psi) for c in ("white", "black")}
    return HiddenPair(eng, api.Options(), game_id=gid, machines=machines)


def _from(pair: HiddenPair, colour: str, kind: type, start: int = 0) -> list[Any]:
    return [m for c, m in pair.wire[start:] if c == colour and isinstance(m, kind)]


@pytest.mark.parametrize("psi", [False, True])
def test_an_owners_new_root_after_its_lock_ended_in_step_4_is_accepted_rul_19(psi: bool) -> None:
    """RUL-19: Black's Fire destroys its own Stealth Pawn that White holds locked; Black's
    ``shown`` names it gone, White's step 4 drops the lock (a changed leaf of White's h8 Stealth
    Pawn), so White's answer in Black's next action carries root number ack + 1. Black accepts it,
    and at the end both audits pass."""
    pair = _pair(psi)
    pair.act(FIRE)
    assert pair.stops == []
    ack = _from(pair, "white", HiddenAck)[-1]
    shown = _from(pair, "black", HiddenShown)[-1]
    assert ack.targets == [LOCKED] and shown.gone == [LOCKED]
    assert pair.machines["white"].side.state.locks == {}
    n = len(pair.wire)
    pair.act(KING)
    answers = _from(pair, "white", HiddenAnswer, n)
    assert pair.stops == [] and answers, "the King's move asked White nothing"
    assert {a.rn for a in answers} == {ack.rn + 1}
    assert pair.machines["black"].history == [FIRE, KING]
    pair.command("black", pair.machines["black"].resign())
    assert all(m.verdict is not None and m.verdict.ok for m in pair.machines.values())


@pytest.mark.parametrize("psi", [False, True])
def test_a_new_root_in_an_answer_where_no_lock_ended_is_refused_rul_19(psi: bool) -> None:
    """RUL-19: with nothing gone in Black's last ``shown`` White's pieces are as its ack committed
    them; an answer under a new root (White re-committing its hidden pieces mid-turn) stops
    Black's machine, naming the answer."""
    pair = _pair(psi)
    told: list[Any] = []

    def tap(sender: str, msg: Any) -> Any:
        if sender == "white" and isinstance(msg, HiddenAnswer) and not told:
            told.append(msg)
            return dataclasses.replace(msg, rn=msg.rn + 1, root=hashlib.sha256(msg.root).digest())
        return msg
    pair.act(MISS)
    assert _from(pair, "black", HiddenShown)[-1].gone == [] and pair.stops == []
    pair.tap = tap
    pair.act(KING)
    assert told
    assert pair.caught and pair.caught[0][0] == "black", pair.caught
    assert "the peer changed its root" in pair.caught[0][1] and "'hidden-answer'" in pair.caught[0][1]


def test_a_new_root_in_a_resolvers_question_is_refused_rul_19() -> None:
    """RUL-19: a resolver's pieces change with its event, not its questions: Black's first question
    of its next action under a new root stops White's machine, naming the question (plain
    questions, ``hidden_psi`` 0)."""
    pair = _pair(False)
    told: list[Any] = []

    def tap(sender: str, msg: Any) -> Any:
        if sender == "black" and isinstance(msg, HiddenQuery) and not told:
            told.append(msg)
            return dataclasses.replace(msg, rn=msg.rn + 1, root=hashlib.sha256(msg.root).digest())
        return msg
    pair.act(MISS)
    assert _from(pair, "black", HiddenShown)[-1].gone == [] and pair.stops == []
    pair.tap = tap
    pair.act(KING)
    assert told
    assert pair.caught and pair.caught[0][0] == "white", pair.caught
    assert "the peer changed its root" in pair.caught[0][1] and "'hidden-query'" in pair.caught[0][1]


def test_a_new_root_in_a_resolvers_first_psi_ask_is_refused_rul_19() -> None:
    """RUL-19: with PSI on (``hidden_psi`` 1) a hidden mover's first question travels as a
    ``psi-ask``; Black's pieces change with its event, not its questions, so its first PSI message
    of a stealthy Pawn's Move under a new root stops White's machine, naming the message."""
    eng = engine_from(POS.replace("piece B Q c2 G\n", "piece B Q c2 G\npiece B SHP b6 G\n"))
    gid = hashlib.sha256(b"wec/test-roots").digest()
    seeds = {"white": hashlib.sha256(b"w").digest(), "black": hashlib.sha256(b"b").digest()}
    machines = {c: HiddenLockstep(eng, api.Options(), c, gid, seed=seeds[c], psi=True) for c in ("white", "black")}
    pair = HiddenPair(eng, api.Options(), game_id=gid, machines=machines)
    told: list[Any] = []

    def tap(sender: str, msg: Any) -> Any:
        if sender == "black" and isinstance(msg, HiddenPsi) and not told:
            told.append(msg)
            return dataclasses.replace(msg, rn=msg.rn + 1, root=hashlib.sha256(msg.root).digest())
        return msg
    pair.act(MISS)
    assert _from(pair, "black", HiddenShown)[-1].gone == [] and pair.stops == []
    pair.tap = tap
    pair.act("MV:SHP(6,2)->(7,1)")    # the stealthy Pawn b6 -> a7, hidden from White: its path goes through PSI
    assert told and told[0].n == 0
    assert pair.caught and pair.caught[0][0] == "white", pair.caught
    assert "the peer changed its root" in pair.caught[0][1]
