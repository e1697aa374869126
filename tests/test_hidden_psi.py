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
from engine.actions import Fire
from engine.asking import Answer, Question, owner_answer
from engine.partial import Side, enemy_hidden_held, known_diff, public_hash
from engine.state import GameState
from engine_helpers import pos
from net.frames import pack
from net.hidden_messages import PsiQuery, PsiStep, PsiStepReply, decode_hidden, encode_hidden
from net import hidden_psi as hp
from net.hidden_psi import PsiAsk, QuestionAsker, QuestionResponder, absent_cells, audit, question_cells
from net.psi import PsiAuditError, PsiError, cell_u
from test_partial import OPTION_SETS, SKIRMISH
from test_partial_wire import wire

GAME = hashlib.sha256(b"hidden psi game").digest()
ROOT = {"B": hashlib.sha256(b"root B").digest(), "W": hashlib.sha256(b"root W").digest()}


class Net(hp.Link):
    """The wire between the two sides: every PSI message through canonical msgpack, checked
    for cells of its sender in clear; plain questions and the values of the four steps through
    their plain forms; every exchange kept for the audit."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        super().__init__(GAME, ROOT, lambda: (rng.randbytes(32), rng.randbytes(32)))
        self.psi: dict[str, int] = {}
        self.plain_asked: dict[str, int] = {}
        self.hits: dict[str, int] = {}
        self.exchanges: list[tuple[Any, Any, tuple, tuple]] = []
        self.leaks: list[str] = []
        self.messages = 0
        self.compared = 0

    def send(self, msg: Any, own_cells: Any, ctx: Any) -> Any:
        """No cell of the sender appears in clear: neither its plain encoding nor its
        unblinded hash under the exchange's context."""
        raw = encode_hidden(msg)
        self.messages += 1
        for c in own_cells:
            if pack(list(c)) in raw:
                self.leaks.append(f"{msg.TAG} carries {c}")
        if isinstance(msg, PsiStep):
            points = {msg.x}
        elif isinstance(msg, PsiStepReply):
            points = {msg.y}
        else:
            points = set(getattr(msg, "x", [])) | set(getattr(msg, "y", [])) | set(getattr(msg, "z", []))
        if points & {cell_u(ctx, c) for c in own_cells}:
            self.leaks.append(f"{msg.TAG} carries an unblinded cell")
        out = decode_hidden(raw)
        assert out == msg
        return out

    def plain(self, owner: Side, q: Question) -> Answer:
        self.plain_asked[q.kind] = self.plain_asked.get(q.kind, 0) + 1
        q = codec.load_question(wire(codec.dump_question(q)))
        return codec.load_answer(wire(codec.dump_answer(owner_answer(owner.state, owner.side, q))), q.kind)

    def exchanged(self, kind: str, asker: Any, responder: Any, truth: tuple[Any, Any]) -> None:
        self.psi[kind] = self.psi.get(kind, 0) + 1
        found = asker.found if kind == "zone" else (asker.follow_up is not None or
                                                    asker.answer.value not in (None, False, ()))
        if found:
            self.hits[kind] = self.hits.get(kind, 0) + 1
        self.exchanges.append((asker, responder, *truth))

    def answered(self, owner: Side, q: Question, answer: Answer) -> None:
        want = owner_answer(owner.state, owner.side, q)      # what the plain question gives
        assert answer == want, (q.kind, answer, want)
        self.compared += 1

    def carry(self, what: str, value: Any) -> Any:
        if what == "consequences":
            return codec.load_consequences(wire(codec.dump_consequences(value)))
        if what == "shown":
            return codec.load_shown(wire(codec.dump_shown(value)))
        if what == "gone" or what == "locked":
            return frozenset(wire(sorted(value)))
        return tuple(wire(list(value)))


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
        hp.play(net, sides, action, always)
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
    assert net.compared == sum(v for k, v in net.psi.items() if k != "zone")
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
    bad = PsiAsk(1, "first", [], 5, 56, [])
    with pytest.raises(PsiError, match="size 5"):
        QuestionResponder(GAME, "B", white.state, "W", bad, ROOT["W"], (b"\x03" * 32, b"\x04" * 32))
    with pytest.raises(PsiError, match="set size 40"):
        QuestionResponder(GAME, "B", white.state, "W", PsiAsk(1, "first", [], 10, 40, []), ROOT["W"],
                          (b"\x03" * 32, b"\x04" * 32))


def test_detectors_are_zones_of_squares_not_pieces_hq_10() -> None:
    """HQ-10, RUL-18, 00/T34: Black's Destroyer on e3 (a Torpedo Launcher, submerged detection
    range 3) is disclosed only as the squares within 3 of e3 (rows 1-6, files b-h: 42 squares),
    no piece, type or serial; White's submerged Sub on e7 lies outside them and stays hidden,
    on e6 inside them and is shown. The zone test over PSI finds the same: nothing for e7, e6
    for e6."""
    omni = pos("to-move W\npiece B K j1 G\npiece B DS e3 G\npiece W K j10 G\npiece W SU e7 S\n")
    black, white = Side.from_omniscient(omni, "B"), Side.from_omniscient(omni, "W")
    det = black.detectors()
    assert det.submerged == frozenset((r, c) for r in range(1, 7) for c in range(2, 9))
    assert det.stealth == frozenset() and det.locked == frozenset()
    assert codec.load_detectors(wire(codec.dump_detectors(det))) == det
    assert codec.dump_detectors(det)[0][:2] == [[1, 2], [1, 3]]
    assert [op.piece.kind for op in white.shown_to(det).pieces] == ["K"]     # the Sub stays hidden
    link = hp.Link(GAME, ROOT, lambda: (b"\x07" * 32, b"\x08" * 32))
    assert hp.zone_test(link, white, black, det.locked).submerged == frozenset()
    omni2 = pos("to-move W\npiece B K j1 G\npiece B DS e3 G\npiece W K j10 G\npiece W SU e6 S\n")
    white2 = Side.from_omniscient(omni2, "W")
    assert hp.zone_test(link, white2, black, det.locked).submerged == frozenset({(6, 5)})
    assert [op.piece.kind for op in white2.shown_to(det).pieces] == ["K", "SU"]


def test_malformed_zones_are_refused_with_a_reason_hq_10() -> None:
    """HQ-10: a zone with a square off the board or listed twice, or a serial listed twice, is
    refused with ValueError naming the value; the lock question carries zones, not pieces."""
    with pytest.raises(ValueError, match="malformed detectors"):
        codec.load_detectors([[[0, 1]], [], []])
    with pytest.raises(ValueError, match="listed twice"):
        codec.load_detectors([[[1, 1], [1, 1]], [], []])
    with pytest.raises(ValueError, match="listed twice"):
        codec.load_detectors([[], [], [4, 4]])
    from engine.visibility import Zones
    q = Question("lock", ((5, 5), "B", Zones(frozenset({(5, 5)}), frozenset(), frozenset({9})), (), ()), ())
    assert codec.load_question(wire(codec.dump_question(q))) == q


def test_a_hidden_holders_lock_goes_through_psi_and_takes_the_nearest_hq_11() -> None:
    """HQ-11, RUL-19, RUL-49: Black's Stealth Pawn on c3 (hidden from White) picks up
    Anti-Stealth; White's hidden stealthy Pawns stand on e7 (distance 4 from c3) and b9
    (distance 6). The lock search runs as PSI over the 300 cells in RUL-49 order from c3: the
    lock takes the e7 Pawn, which Black then sees (White's state holds no lock: its source is
    hidden from it), and no message White receives names c3 or
    any cell of Black's list (h is not disclosed)."""
    omni = pos("piece B K j1 G\npiece B SHP c3 G moved\narticle ASH c3\npiece W K j10 G\n"
               "piece W RP e7 G SH moved\npiece W RP b9 G SH moved\n")
    sides = {s: Side.from_omniscient(omni, s) for s in "BW"}
    assert 2 not in sides["W"].state.pieces and {4, 5}.isdisjoint(sides["B"].state.pieces)
    net = Net(1)
    for text in ("MV:K(1,10)->(2,10)", "PU:SHP(3,3)^ASH"):
        action = api.parse_action(text)
        omni = api.apply_action(omni, action)
        hp.play(net, sides, action)
        for s in "BW":
            assert known_diff(sides[s].state, omni, s) == ""
    assert net.psi["lock"] == 1 and net.hits["lock"] == 1 and net.compared >= 1
    assert net.plain_asked.get("lock", 0) == 0 and net.plain_asked["lock_in"] == 1
    assert set(sides["B"].state.locks.values()) == {4}
    assert sides["W"].state.locks == {}          # the source is hidden from White (docs/hidden.md §1)
    assert sides["B"].state.pieces[4].square == (7, 5) and 5 not in sides["B"].state.pieces
    lock_ex = next(ex for ex in net.exchanges if getattr(ex[0], "question", None) is not None
                   and ex[0].question.kind == "lock")
    asker = lock_ex[0]
    assert asker.psi.size == 300 and asker.cells[0][:2] == (3, 3)
    assert asker.record().query.size == 300 and len(asker.record().steps) == 299
    assert net.leaks == []
    audit(asker.record(), lock_ex[2], asker.reveal(), lock_ex[3], lock_ex[1].reveal())


def test_a_viewer_that_shrinks_its_zone_is_caught_by_the_audit_hq_10() -> None:
    """HQ-10, RUL-37, 00/T34: Black answers the zone test with its Destroyer's zone less e6, so
    White's Sub on e6 is not shown (the lie works during play); the audit, with Black's true
    zone from the opened roots, names the responder's set."""
    omni = pos("to-move W\npiece B K j1 G\npiece B DS e3 G\npiece W K j10 G\npiece W SU e6 S\n")
    black, white = Side.from_omniscient(omni, "B"), Side.from_omniscient(omni, "W")
    za = hp.ZoneAsker(GAME, 3, white, ROOT["W"], ROOT["B"], (b"\x01" * 32, b"\x02" * 32))
    true_zone = hp.zone_responder_cells(black)
    lie = tuple(c for c in true_zone if c[:2] != (6, 5))
    from net.psi import PsiResponder
    zr = hp.ZoneResponder(GAME, 3, black, "W", ROOT["B"], (b"\x03" * 32, b"\x04" * 32))
    size, z_size = hp.zone_sizes(black.state)
    zr.psi = PsiResponder(za.rec.ctx, "set", size, lie, z_size, ROOT["B"], b"\x03" * 32, b"\x04" * 32)
    hp.drive(hp.Link(GAME, ROOT, lambda: None), za, zr, za.start())
    assert [op.piece.kind for op in white.shown_to(za.detectors(frozenset())).pieces] == ["K"]
    with pytest.raises(PsiAuditError) as err:
        audit(za.record(), hp.zone_asker_cells(white), za.reveal(), true_zone, zr.reveal())
    assert err.value.check == "responder-set"


def test_an_owner_that_probes_the_viewers_zone_is_caught_by_the_audit_hq_10() -> None:
    """HQ-10, RUL-37: White puts squares of no piece of its own into its zone-test list (to map
    Black's detectors); the audit, with White's true hiding squares from its opened roots,
    names the asker's values."""
    omni = pos("to-move W\npiece B K j1 G\npiece B DS e3 G\npiece W K j10 G\npiece W SU e8 S\n")
    black, white = Side.from_omniscient(omni, "B"), Side.from_omniscient(omni, "W")
    za = hp.ZoneAsker(GAME, 4, white, ROOT["W"], ROOT["B"], (b"\x01" * 32, b"\x02" * 32))
    from net.psi import PsiAsker
    truth = hp.zone_asker_cells(white)
    assert truth == ((8, 5, "zone-U"),)
    probe = truth + ((3, 3, "zone-U"), (3, 7, "zone-U"))
    za.psi = PsiAsker(za.rec.ctx, "set", probe, za.psi.size, ROOT["W"], ROOT["B"], b"\x01" * 32, b"\x02" * 32)
    za.cells = probe
    zr = hp.ZoneResponder(GAME, 4, black, "W", ROOT["B"], (b"\x03" * 32, b"\x04" * 32))
    hp.drive(hp.Link(GAME, ROOT, lambda: None), za, zr, za.start())
    assert set(za.found) == {(3, 3, "zone-U"), (3, 7, "zone-U")}      # the probe worked in play
    with pytest.raises(PsiAuditError) as err:
        audit(za.record(), truth, za.reveal(), hp.zone_responder_cells(black), zr.reveal())
    assert err.value.check == "asker-blinding"
