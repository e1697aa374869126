"""The partial-state game with its disclosing questions through private set intersection
(issue 8 item 4; net/hidden_psi.py over net/psi.py).

00/HQ-10 (the zone test replaces the disclosed detectors: docs/hidden.md G-3), 00/HQ-1 and
00/HQ-12 (a hidden mover's or traveller's cells never travel in clear), RUL-18 (each side
knows exactly what the rules let it know), RUL-37 (every exchange passes the audit).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from engine import api
from engine import partial_codec as codec
from engine.actions import EndTurn, Fire
from engine.asking import Answer, Question, owner_answer
from engine.partial import Resolved, Side, enemy_hidden_held, known_diff, public_hash
from engine.state import GameState, enemy
from engine_helpers import pos
from net.frames import pack
from net.hidden_messages import PsiQuery, PsiReply, PsiStep, PsiStepReply, decode_hidden, encode_hidden
from net.hidden_psi import (PSI_KINDS, PsiAsk, QuestionAsker, QuestionResponder, ZoneAsker,
                            ZoneResponder, absent_cells, audit, question_cells, use_psi,
                            zone_asker_cells, zone_responder_cells)
from net.psi import PsiAuditError, PsiError, cell_u
from test_partial import OPTION_SETS, SKIRMISH
from test_partial_wire import wire

GAME = hashlib.sha256(b"hidden psi game").digest()
ROOT = {"B": hashlib.sha256(b"root B").digest(), "W": hashlib.sha256(b"root W").digest()}


class Net:
    """Everything that travelled, for the assertions and the audit."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.qid = 0
        self.psi: dict[str, int] = {}
        self.plain: dict[str, int] = {}
        self.hits: dict[str, int] = {}
        self.exchanges: list[tuple[Any, Any, tuple, tuple]] = []   # asker, responder, true cells
        self.leaks: list[str] = []
        self.messages = 0

    def secret(self) -> tuple[bytes, bytes]:
        return self.rng.randbytes(32), self.rng.randbytes(32)

    def next_qid(self) -> int:
        self.qid += 1
        return self.qid


def send(msg: Any, own_cells: tuple, ctx: Any, net: Net) -> Any:
    """Through the wire (canonical msgpack), checking that no cell of the sender appears in
    clear: neither its plain encoding nor its unblinded hash under the exchange's context."""
    raw = encode_hidden(msg)
    net.messages += 1
    for c in own_cells:
        if pack(list(c)) in raw:
            net.leaks.append(f"{msg.TAG} carries {c}")
    points = set(getattr(msg, "x", []) or []) | set(getattr(msg, "y", []) or []) | set(getattr(msg, "z", []) or [])
    if isinstance(msg, PsiStep):
        points = {msg.x}
    elif isinstance(msg, PsiStepReply):
        points = {msg.y}
    if points & {cell_u(ctx, c) for c in own_cells}:
        net.leaks.append(f"{msg.TAG} carries an unblinded cell")
    out = decode_hidden(raw)
    assert out == msg
    return out


def drive(asker: Any, responder: Any, msgs: list, net: Net, truth: tuple) -> None:
    """Run one exchange to its end, every message through the wire; ``truth`` is the pair of
    true cell lists (computed apart from the machines) the audit will use."""
    ctx = asker.rec.ctx
    while msgs:
        back = []
        for m in msgs:
            back += responder.on_message(send(m, asker.cells, ctx, net))
        msgs = []
        for m in back:
            msgs += asker.on_message(send(m, responder.cells, ctx, net))
    assert asker.done and responder.done
    net.exchanges.append((asker, responder, *truth))


def ask(resolver: Side, owner: Side, q: Question, net: Net) -> Answer:
    """One remote question through PSI (HQ-1, HQ-12), then a plain open_on for what it found."""
    net.psi[q.kind] = net.psi.get(q.kind, 0) + 1
    qa = QuestionAsker(GAME, net.next_qid(), resolver.side, resolver.state, q, ROOT[resolver.side],
                       ROOT[owner.side], net.secret())
    first = qa.start()
    assert isinstance(first[0], PsiAsk) and isinstance(first[1], PsiQuery)
    header = send(first[0], qa.cells, qa.rec.ctx, net)
    qr = QuestionResponder(GAME, resolver.side, owner.state, owner.side, header, ROOT[owner.side],
                           net.secret())
    truth = (question_cells(q), absent_cells(owner.state, owner.side, q.exclude))
    drive(qa, qr, first[1:], net, truth)
    want = owner_answer(owner.state, owner.side, q)          # what the plain question gives
    if qa.follow_up is None:
        assert qa.answer == want
        if want.value not in (None, False, ()):
            net.hits[q.kind] = net.hits.get(q.kind, 0) + 1
        return qa.answer
    net.hits[q.kind] = net.hits.get(q.kind, 0) + 1
    got = plain(owner, qa.follow_up, net)
    assert got == want
    return got


def plain(owner: Side, q: Question, net: Net) -> Answer:
    net.plain[q.kind] = net.plain.get(q.kind, 0) + 1
    q = codec.load_question(wire(codec.dump_question(q)))
    return codec.load_answer(wire(codec.dump_answer(owner_answer(owner.state, owner.side, q))), q.kind)


def zone(owner: Side, viewer: Side, locked: frozenset[int], net: Net):
    """The zone test (HQ-10): the owner learns which of its squares lie in the viewer's zones."""
    za = ZoneAsker(GAME, net.next_qid(), owner, ROOT[owner.side], ROOT[viewer.side], net.secret())
    zr = ZoneResponder(GAME, za.rec.ctx.qid, viewer, owner.side, ROOT[viewer.side], net.secret())
    drive(za, zr, za.start(), net, (zone_asker_cells(owner), zone_responder_cells(viewer)))
    net.psi["zone"] = net.psi.get("zone", 0) + 1
    if za.found:
        net.hits["zone"] = net.hits.get("zone", 0) + 1
    det = za.detectors(locked)
    full = viewer.detectors()
    assert det.submerged <= full.submerged and det.stealth <= full.stealth
    return det


def event(resolver: Side, owner: Side, action: Any, net: Net, always: bool) -> Resolved:
    """One event, the steps of docs/hidden.md §3 with the PSI exchanges in place of the
    disclosed cells and detectors."""
    psi = always or use_psi(resolver, action)
    answers: list[Answer] = []
    while True:
        step = resolver.resolve_step(action, answers)
        if isinstance(step, Resolved):
            break
        if psi and step.kind in PSI_KINDS:
            answers.append(ask(resolver, owner, step, net))
        else:
            answers.append(plain(owner, step, net))
    res = step
    c = codec.load_consequences(wire(codec.dump_consequences(res.consequences)))
    resolver.adopt(res.work)
    locked_r = frozenset(wire(sorted(resolver.detectors().locked)))      # in clear: the owner answered them
    owner.receive(c)
    shown_o = codec.load_shown(wire(codec.dump_shown(owner.shown_to(zone(owner, resolver, locked_r, net)))))
    targets = tuple(wire(list(owner.lock_targets())))
    locked_o = frozenset(wire(sorted(owner.detectors().locked)))
    gone = frozenset(wire(sorted(resolver.gone(res.before, res.work, targets))))
    shown_r = codec.load_shown(wire(codec.dump_shown(resolver.shown_to(zone(resolver, owner, locked_o - gone, net)))))
    resolver.accept(shown_o)
    owner.end_locks_on(gone)
    owner.accept(shown_r)
    return res


def run(name: str, seed: int, start: str, actions: int, always: bool = False) -> Net:
    rng = random.Random(seed)
    opts = OPTION_SETS[name]
    omni: GameState = api.new_game(api.Options(**opts)) if start == "standard" else pos(SKIRMISH, **opts)
    sides = {s: Side.from_omniscient(omni, s) for s in "BW"}
    net = Net(seed)
    for n in range(actions):
        if omni.result is not None:
            break
        acts = api.legal_actions(omni)
        fires = [a for a in acts if isinstance(a, Fire)]
        action = rng.choice(fires if fires and rng.random() < 0.5 else acts)
        omni = api.apply_action(omni, action)
        mover = next(s for s in sides.values() if s.state.side_to_move == s.side)
        other = sides[enemy(mover.side)]
        event(mover, other, action, net, always)
        if isinstance(action, EndTurn) and mover.state.result is None:
            event(other, mover, None, net, always)
        for s in "BW":
            assert known_diff(sides[s].state, omni, s) == "", (name, seed, start, n, api.format_action(action), s)
            assert enemy_hidden_held(sides[s].state, omni, s) == []
        assert public_hash(sides["B"].state) == public_hash(sides["W"].state) == public_hash(omni)
    assert net.leaks == [], net.leaks[:5]
    return net


@pytest.mark.parametrize("name,seed,start,always,hits", [
    ("deep", 3, "skirmish", True, ("first", "open_on")),
    ("stealth-dominance", 5, "skirmish", False, ("zone",)),
    ("no-reveals", 4, "skirmish", False, ("zone",)),
    ("standard", 2, "standard", False, ()),
])
def test_a_game_with_the_psi_exchanges_equals_the_omniscient_game_hq_10(
        name: str, seed: int, start: str, always: bool, hits: tuple[str, ...]) -> None:
    """HQ-10, RUL-18: with the zone test (and, HQ-1, HQ-12, the questions of hidden actors)
    through PSI instead of the disclosed detectors and cells, after every action both sides
    know exactly what the rules let them know of the omniscient game, with equal public
    hashes; every PSI answer equals the plain question's; no message carries a cell of its
    sender in clear. ``always``: every first/any_on/open_on through PSI, not only those of
    hidden actors."""
    net = run(name, seed, start, 80, always)
    assert net.psi.get("zone", 0) > 0, net.psi
    for kind in hits:
        assert net.hits.get(kind, 0) > 0, (kind, net.psi, net.hits)


def test_every_exchange_of_a_game_passes_the_audit_rul_37() -> None:
    """RUL-37, HQ-1, HQ-10: the audit recomputes every exchange of a game from both reveals
    and the true cells; an honest game passes."""
    net = run("stealth-dominance", 11, "skirmish", 25, always=True)
    assert len(net.exchanges) > 20
    for asker, responder, a_cells, r_cells in net.exchanges:
        audit(asker.record(), a_cells, asker.reveal(), r_cells, responder.reveal())


def _question_messages(cells: tuple, seed: int) -> list[Any]:
    omni = api.new_game(api.Options())
    black = Side.from_omniscient(omni, "B")
    q = Question("first", (cells,), ())
    qa = QuestionAsker(GAME, 7, "B", black.state, q, ROOT["B"], ROOT["W"], (random.Random(seed).randbytes(32), random.Random(seed + 1).randbytes(32)))
    white = Side.from_omniscient(omni, "W")
    msgs = qa.start()
    qr = QuestionResponder(GAME, "B", white.state, "W", msgs[0], ROOT["W"], (b"\x05" * 32, b"\x06" * 32))
    sent = list(msgs)
    msgs = msgs[1:]
    while msgs:
        back = [r for m in msgs for r in qr.on_message(m)]
        msgs = [n for m in back for n in qa.on_message(m)]
        sent += msgs
    return sent, qa


def test_the_asker_sends_no_cell_in_clear_only_public_sizes_hq_1() -> None:
    """HQ-1: a hidden mover's path through PSI: the asker's messages carry only blinded points
    and public values (kind, exclude, padded sizes, step numbers, root); two different paths of
    the same padded size give messages equal in every field but the points, and no point is a
    path cell's unblinded hash or plain encoding."""
    path_a = ((5, 1, "G"), (6, 1, "G"), (7, 1, "G"), (8, 1, "G"), (9, 1, "G"))
    path_b = ((4, 7, "G"), (5, 8, "G"), (6, 9, "G"))
    sent_a, qa = _question_messages(path_a, 1)
    sent_b, qb = _question_messages(path_b, 2)

    def clear(m: Any) -> dict[str, Any]:
        return {k: v for k, v in m.fields().items() if k not in ("x",)}

    assert [m.TAG for m in sent_a] == [m.TAG for m in sent_b] == ["psi-ask", "psi-query"] + ["psi-step"] * 9
    assert [clear(m) for m in sent_a] == [clear(m) for m in sent_b]
    for sent, path, ex in ((sent_a, path_a, qa), (sent_b, path_b, qb)):
        raw = b"".join(encode_hidden(m) for m in sent)
        assert not any(pack(list(c)) in raw for c in path)
        hashes = {cell_u(ex.rec.ctx, c) for c in path}
        points = {x for m in sent if isinstance(m, PsiQuery) for x in m.x}
        points |= {m.x for m in sent if isinstance(m, PsiStep)}
        assert len(points) == 10 and not hashes & points
    # the answer is the plain question's: the first cell holding a White piece (row 9, RUL-40 setup)
    omni = api.new_game(api.Options())
    want = owner_answer(Side.from_omniscient(omni, "W").state, "W", Question("first", (path_a,), ()))
    assert qa.answer == want and want.value is not None
    assert qb.answer == owner_answer(Side.from_omniscient(omni, "W").state, "W", Question("first", (path_b,), ()))


def test_an_owner_that_leaves_a_piece_out_of_its_set_is_caught_by_the_audit_hq_1() -> None:
    """HQ-1, RUL-37: the owner answers from a set without one of its pieces (the "nothing
    there" liar): the asker's answer is wrong, and the audit, with the true cells of the
    opened roots, names the responder's set."""
    omni = api.new_game(api.Options())
    white = Side.from_omniscient(omni, "W")
    black = Side.from_omniscient(omni, "B")
    target = next(p for p in white.state.pieces.values() if p.side == "W" and p.level == "G")
    path = (target.cell,)
    q = Question("first", (path,), ())
    qa = QuestionAsker(GAME, 9, "B", black.state, q, ROOT["B"], ROOT["W"], (b"\x01" * 32, b"\x02" * 32))
    msgs = qa.start()
    liar_state = white.state.clone()
    del liar_state.pieces[target.sid]
    liar_state.touch()
    qr = QuestionResponder(GAME, "B", liar_state, "W", msgs[0], ROOT["W"], (b"\x03" * 32, b"\x04" * 32))
    msgs = msgs[1:]
    while msgs:
        back = [r for m in msgs for r in qr.on_message(m)]
        msgs = [n for m in back for n in qa.on_message(m)]
    assert qa.answer.value is None                      # the lie worked during play
    true_cells = absent_cells(white.state, "W", ())
    with pytest.raises(PsiAuditError) as err:
        audit(qa.record(), question_cells(q), qa.reveal(), true_cells, qr.reveal())
    assert err.value.check == "responder-set"


def test_sizes_other_than_the_public_ones_are_refused_hq_10() -> None:
    """HQ-10, HQ-1: the owner refuses a psi-ask whose padded sizes are not the public ones (a
    size fitted to the path would tell its length)."""
    omni = api.new_game(api.Options())
    white = Side.from_omniscient(omni, "W")
    bad = PsiAsk(1, "first", [], 5, 56)
    with pytest.raises(PsiError, match="size 5"):
        QuestionResponder(GAME, "B", white.state, "W", bad, ROOT["W"], (b"\x03" * 32, b"\x04" * 32))
    with pytest.raises(PsiError, match="set size 40"):
        QuestionResponder(GAME, "B", white.state, "W", PsiAsk(1, "first", [], 10, 40), ROOT["W"],
                          (b"\x03" * 32, b"\x04" * 32))
