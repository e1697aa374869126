"""X25519 private set intersection for the questions whose plain form discloses the asker's
hidden pieces (issue 8 item 4; net/psi.py).

00/HQ-1 (a hidden mover's path), 00/HQ-10 (squares of hidden detectors), 00/HQ-11 (the square of a
hidden lock holder), 00/HQ-12 (a hidden traveller's cell), RUL-18, RUL-19, RUL-37 (the audit).
"""
from __future__ import annotations

import hashlib
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from net.errors import ProtocolError
from net.frames import pack
from net.hidden_messages import (PsiQuery, PsiReply, PsiResult, PsiStep, decode_hidden,
                                 encode_hidden)
from net.psi import (P, SMALL_ORDER, Blinder, PsiAsker, PsiAuditError, PsiContext, PsiError,
                     PsiResponder, audit_exchange, cell_u, pad_u)

GAME = hashlib.sha256(b"psi game").digest()
ROOT_A, ROOT_B = hashlib.sha256(b"root A").digest(), hashlib.sha256(b"root B").digest()


def _secrets(seed):
    rng = random.Random(seed)
    return rng.randbytes(32), rng.randbytes(32)


def _run(mode, a_cells, b_cells, *, size=10, z_size=16, hq="HQ-1", seed=1):
    """Run one exchange to the end; returns (asker, responder, messages, opened cells)."""
    ctx = PsiContext(GAME, 9, 4, hq, "B")
    asker = PsiAsker(ctx, mode, a_cells, size, ROOT_A, ROOT_B, *_secrets(seed))
    resp = PsiResponder(ctx, mode, size, b_cells, z_size, ROOT_B, *_secrets(seed + 1000))
    q = asker.query()
    reply = resp.on_query(q)
    out = asker.on_reply(reply, z_size)
    steps, replies = [], []
    while isinstance(out, PsiStep):
        steps.append(out)
        replies.append(resp.on_step(out))
        out = asker.on_step_reply(replies[-1])
    opened = resp.on_result(out) if mode != "count" else []
    return ctx, asker, resp, (q, reply, steps, replies, out), opened


# ---- the library facts the scheme rests on ------------------------------------------------------

def test_x25519_scalar_multiplication_commutes_with_the_real_library():
    """X25519(a, X25519(b, u)) == X25519(b, X25519(a, u)) for hashed cells (on the curve or its
    twist) and random scalars, computed by ``cryptography`` itself."""
    rng = random.Random(5)
    ctx = PsiContext(GAME, 1, 1, "HQ-1", "W")
    for i in range(60):
        u = cell_u(ctx, (i // 10, i % 10, "GAS"[i % 3]))
        a = X25519PrivateKey.from_private_bytes(rng.randbytes(32))
        b = X25519PrivateKey.from_private_bytes(rng.randbytes(32))
        ab = a.exchange(X25519PublicKey.from_public_bytes(b.exchange(X25519PublicKey.from_public_bytes(u))))
        ba = b.exchange(X25519PublicKey.from_public_bytes(a.exchange(X25519PublicKey.from_public_bytes(u))))
        assert ab == ba


@pytest.mark.parametrize("u", sorted(SMALL_ORDER))
def test_small_order_points_are_refused_by_the_library_and_by_us(u):
    """The library refuses the all-zero result; Blinder turns that into a PsiError."""
    raw = u.to_bytes(32, "little")
    with pytest.raises(ValueError):
        X25519PrivateKey.from_private_bytes(bytes(range(32))).exchange(X25519PublicKey.from_public_bytes(raw))
    with pytest.raises(PsiError, match="small order"):
        Blinder(bytes(range(32))).blind(raw)


def test_non_canonical_and_short_points_are_refused():
    b = Blinder(bytes(range(32)))
    with pytest.raises(PsiError, match="not reduced"):
        b.blind((P + 5).to_bytes(32, "little"))
    with pytest.raises(PsiError, match="32 bytes"):
        b.blind(b"\x09" * 31)


def test_cell_hashes_depend_on_the_exchange_and_are_never_small_order():
    """Values of one exchange cannot be linked to another's (per-question domain)."""
    c1, c2 = PsiContext(GAME, 9, 4, "HQ-1", "B"), PsiContext(GAME, 9, 5, "HQ-1", "B")
    cells = [(r, c, lv) for r in range(10) for c in range(10) for lv in "GAS"]
    us = {cell_u(c1, cell) for cell in cells}
    assert len(us) == 300
    assert not us & {cell_u(c2, cell) for cell in cells}
    assert all(int.from_bytes(u, "little") not in SMALL_ORDER for u in us)
    assert cell_u(c1, (3, 4, "G")) == cell_u(c1, (3, 4, "G"))


# ---- what each side learns ----------------------------------------------------------------------

PATH = [(2, 3, "S"), (3, 3, "S"), (4, 3, "S"), (5, 3, "S"), (6, 3, "S")]
B_HIDDEN = [(4, 3, "S"), (6, 3, "S"), (8, 8, "G"), (4, 3, "S")]   # two pieces share (4, 3, S)


def test_hq1_first_mode_gives_only_the_first_cell_on_the_path():
    """00/HQ-1: a hidden Sub's path meets hidden B pieces at positions 2 and 4; the asker learns
    position 2 only, and the responder opens exactly the cell there."""
    _, asker, resp, (q, reply, steps, _, result), opened = _run("first", PATH, B_HIDDEN)
    assert asker.first == 2 and asker.matched == [2]
    assert result.count == 1 and len(result.hits) == 1
    assert opened == [(4, 3, "S")]
    assert len(q.x) == 1 and len(steps) == 9          # padded to 10 positions, one at a time
    assert len(reply.z) == 16                         # padded set, duplicates removed


def test_hq1_after_the_hit_the_asker_sends_padding_not_its_path():
    """00/HQ-1: positions 3 and 4 (cells (5,3,S), (6,3,S)) are never sent blinded."""
    ctx, asker, _, (q, _, steps, _, _), _ = _run("first", PATH, B_HIDDEN)
    real = {asker.blinder.blind(cell_u(ctx, c)) for c in PATH[3:]}
    assert not real & {s.x for s in steps}
    assert steps[0].x == asker.blinder.blind(cell_u(ctx, PATH[1]))
    assert steps[2].x == asker.blinder.blind(pad_u(ctx, asker.pad_seed, "asker", 3))


def test_hq1_no_hit_gives_none_and_an_empty_result():
    _, asker, _, (_, _, _, _, result), opened = _run("first", PATH, [(0, 0, "G")])
    assert asker.first is None and result.hits == [] and result.count == 0 and opened == []


def test_hq10_set_mode_gives_exactly_the_detected_cells():
    """00/HQ-10: the asker's cells within detection range of its hidden Torpedo Launchers; the
    responder's Sub-level hidden pieces; the asker learns the intersection, the responder opens it."""
    detect = [(r, c, "S") for r in range(3, 6) for c in range(2, 5)]      # range 1 around d5
    subs = [(4, 4, "S"), (9, 9, "S"), (5, 2, "S")]
    _, asker, _, (q, _, steps, _, result), opened = _run("set", detect, subs, size=100, z_size=16,
                                                         hq="HQ-10")
    assert sorted(asker.matched) == [detect.index((4, 4, "S")), detect.index((5, 2, "S"))]
    assert sorted(opened) == [(4, 4, "S"), (5, 2, "S")]
    assert result.count == 2 and len(q.x) == 100 and steps == []


def test_hq12_count_mode_gives_only_the_number():
    """00/HQ-12: a Bike ride's crossed cells; the asker learns how many hold hidden B pieces,
    not which (the re-blinded values come back sorted, the result names no position)."""
    ride = [(1, 1, "G"), (1, 2, "G"), (1, 3, "G")]
    _, asker, _, (_, reply, _, _, result), _ = _run("count", ride, [(1, 3, "G"), (1, 1, "G")],
                                                    size=3, hq="HQ-12")
    assert result.count == 2 and result.hits == [] and asker.matched == []
    assert reply.y == sorted(reply.y)


def test_hq11_first_mode_over_the_rul49_order_names_the_nearest_stealthy_piece():
    """00/HQ-11: the asker lists cells in RUL-19/RUL-49 order from its hidden holder's square;
    two stealthy B pieces at distances 1 and 2: only the first is found."""
    order = [(5, 5, "G"), (4, 5, "G"), (5, 4, "G"), (3, 5, "G"), (5, 3, "G")]
    _, asker, _, _, opened = _run("first", order, [(3, 5, "G"), (5, 4, "G")], size=8, hq="HQ-11")
    assert asker.first == 2 and opened == [(5, 4, "G")]


# ---- the messages reveal nothing else ----------------------------------------------------------

def test_blinded_values_are_not_the_cells_hashes_and_sizes_do_not_depend_on_the_cells():
    """RUL-18: no message carries a cell, its hash or its u-coordinate; the padded sizes are the
    same for 1 or 5 cells on either side."""
    ctx, _, _, (q, reply, steps, replies, _), _ = _run("first", PATH, B_HIDDEN)
    sent = b"".join(encode_hidden(m) for m in [q, reply, *steps, *replies])
    cells = [(r, c, lv) for r in range(10) for c in range(10) for lv in "GAS"]
    for cell in cells:
        for needle in (cell_u(ctx, cell), hashlib.sha256(pack(list(cell))).digest()):
            assert needle not in sent
    short = _run("first", PATH[:1], B_HIDDEN[:1])[3]
    assert [len(short[0].x), len(short[1].z), len(short[2])] == [len(q.x), len(reply.z), len(steps)]


def test_psi_messages_round_trip_and_refuse_bad_fields():
    """Canonical msgpack both ways; a bad point size or mode is a ProtocolError naming the field."""
    _, _, _, (q, reply, steps, replies, result), _ = _run("first", PATH, B_HIDDEN)
    for m in [q, reply, steps[0], replies[0], result]:
        assert decode_hidden(encode_hidden(m)) == m
    fields = q.fields()
    fields["x"] = [b"\x01" * 31]
    with pytest.raises(ProtocolError, match="field 'x'"):
        decode_hidden(pack(["psi-query", fields]))
    fields = q.fields()
    fields["mode"] = "all"
    with pytest.raises(ProtocolError, match="field 'mode'"):
        decode_hidden(pack(["psi-query", fields]))


def test_seeded_secrets_give_identical_transcripts():
    a = _run("first", PATH, B_HIDDEN, seed=7)[3]
    b = _run("first", PATH, B_HIDDEN, seed=7)[3]
    c = _run("first", PATH, B_HIDDEN, seed=8)[3]
    assert a == b and a[0] != c[0]


# ---- binding and refusals during play ------------------------------------------------------------

def test_reply_bound_to_another_root_is_refused():
    """Issue 8 item 3: an answer from a set other than the committed one is refused at once."""
    ctx = PsiContext(GAME, 9, 4, "HQ-1", "B")
    asker = PsiAsker(ctx, "first", PATH, 10, ROOT_A, ROOT_B, *_secrets(1))
    resp = PsiResponder(ctx, "first", 10, B_HIDDEN, 16, hashlib.sha256(b"other").digest(), *_secrets(2))
    with pytest.raises(PsiError, match="committed root"):
        asker.on_reply(resp.on_query(asker.query()), 16)


def test_out_of_order_steps_wrong_question_and_small_order_x_are_refused():
    ctx = PsiContext(GAME, 9, 4, "HQ-1", "B")
    asker = PsiAsker(ctx, "first", PATH, 10, ROOT_A, ROOT_B, *_secrets(1))
    resp = PsiResponder(ctx, "first", 10, B_HIDDEN, 16, ROOT_B, *_secrets(2))
    q = asker.query()
    with pytest.raises(PsiError, match="expected exchange 4/HQ-1"):
        resp.on_query(PsiQuery(5, q.hq, q.mode, q.size, q.root, q.x))
    with pytest.raises(PsiError, match="small order"):
        PsiResponder(ctx, "first", 10, B_HIDDEN, 16, ROOT_B, *_secrets(2)).on_query(
            PsiQuery(4, "HQ-1", "first", 10, ROOT_A, [bytes(32)]))
    step = asker.on_reply(resp.on_query(q), 16)
    with pytest.raises(PsiError, match="out of order"):
        resp.on_step(PsiStep(4, 2, step.x))
    with pytest.raises(PsiError, match="before the exchange is complete"):
        resp.on_result(PsiResult(4, [], 0))


def test_hq11_responder_refuses_a_set_query_where_only_the_first_may_be_learnt():
    """00/HQ-11: asking in mode set (every stealthy piece at once) or over fewer cells than the
    item's public size is refused before anything is blinded."""
    ctx = PsiContext(GAME, 9, 4, "HQ-11", "B")
    for mode, size in (("set", 300), ("first", 50)):
        asker = PsiAsker(ctx, mode, [(5, 5, "G")], size, ROOT_A, ROOT_B, *_secrets(1))
        resp = PsiResponder(ctx, "first", 300, [(5, 4, "G")], 16, ROOT_B, *_secrets(2))
        with pytest.raises(PsiError, match="HQ-11 allows mode 'first' over 300 cells"):
            resp.on_query(asker.query())


def test_responder_refuses_a_result_that_names_padding():
    _, _, resp, _, _ = _run("set", PATH, [(2, 3, "S")])
    pad = next(j for j, c in enumerate(resp.cell_of) if c is None)
    with pytest.raises(PsiError, match="padding"):
        resp.on_result(PsiResult(4, [pad], 1))


def test_asker_refuses_an_unsorted_or_short_set():
    ctx = PsiContext(GAME, 9, 4, "HQ-1", "B")
    asker = PsiAsker(ctx, "first", PATH, 10, ROOT_A, ROOT_B, *_secrets(1))
    reply = PsiResponder(ctx, "first", 10, B_HIDDEN, 16, ROOT_B, *_secrets(2)).on_query(asker.query())
    with pytest.raises(PsiError, match="distinct and sorted"):
        asker.on_reply(PsiReply(4, ROOT_B, list(reversed(reply.z)), reply.y), 16)
    with pytest.raises(PsiError, match="a set of 16"):
        asker.on_reply(PsiReply(4, ROOT_B, reply.z[:15], reply.y), 16)


# ---- the audit (RUL-37: everything opened at the end) ---------------------------------------------

def _audit(run, a_cells, b_cells, *, result=None, reply=None):
    ctx, asker, resp, (q, rep, steps, replies, res), _ = run
    audit_exchange(ctx, q, reply or rep, steps, replies, result or res, a_cells, asker.reveal(),
                   b_cells, resp.reveal())


@pytest.mark.parametrize("mode", ["first", "set", "count"])
def test_rul37_honest_exchange_passes_the_audit(mode):
    cells = PATH if mode == "first" else PATH[:4]
    _audit(_run(mode, cells, B_HIDDEN), cells, B_HIDDEN)


def test_hq1_lying_responder_that_left_a_piece_out_is_caught():
    """Issue 8 "answers nothing there when its hidden piece is there": the set omitted (4,3,S)."""
    run = _run("first", PATH, [(6, 3, "S"), (8, 8, "G")])
    assert run[1].first == 4                         # the lie moved the stop further on
    with pytest.raises(PsiAuditError) as err:
        _audit(run, PATH, B_HIDDEN)
    assert err.value.check == "responder-set" and "(4, 3, 'S')" in str(err.value)


class _Prober(PsiAsker):
    """A cheating asker: it keeps sending its real path after the first hit."""

    def _x(self, i):
        u = cell_u(self.ctx, self.cells[i]) if i < len(self.cells) else pad_u(self.ctx, self.pad_seed, "asker", i)
        return self.blinder.blind(u)

    def _test(self, y):
        self.probed = getattr(self, "probed", 0) + (y in self.zs)
        if self.first is None and y in self.zs:
            self.first, self.count, self.matched, self._hit_y = self.i, 1, [self.i], [y]
        self.i += 1


def test_hq1_asker_that_probes_after_the_hit_is_caught():
    """00/HQ-1: an asker that keeps testing its real path after the first hit learns the second
    hidden piece at position 4, more than the rules reveal; the audit catches it at position 3."""
    ctx = PsiContext(GAME, 9, 4, "HQ-1", "B")
    asker = _Prober(ctx, "first", PATH, 10, ROOT_A, ROOT_B, *_secrets(1))
    resp = PsiResponder(ctx, "first", 10, B_HIDDEN, 16, ROOT_B, *_secrets(1001))
    q = asker.query()
    reply = resp.on_query(q)
    out = asker.on_reply(reply, 16)
    steps, replies = [], []
    while isinstance(out, PsiStep):
        steps.append(out)
        replies.append(resp.on_step(out))
        out = asker.on_step_reply(replies[-1])
    assert asker.probed == 2 and asker.first == 2
    with pytest.raises(PsiAuditError) as err:
        audit_exchange(ctx, q, reply, steps, replies, out, PATH, asker.reveal(), B_HIDDEN, resp.reveal())
    assert err.value.check == "probe" and "value 3" in str(err.value)


def test_asker_that_misreports_its_result_is_caught():
    run = _run("set", PATH[:4], B_HIDDEN)
    with pytest.raises(PsiAuditError) as err:
        _audit(run, PATH[:4], B_HIDDEN, result=PsiResult(4, [], 0))
    assert err.value.check == "result"


def test_responder_that_blinds_with_another_scalar_is_caught():
    run = _run("set", PATH[:4], B_HIDDEN)
    rep = run[3][1]
    forged = PsiReply(rep.qid, rep.root, rep.z, [Blinder(bytes(32)).blind(x) for x in run[3][0].x])
    with pytest.raises(PsiAuditError) as err:
        _audit(run, PATH[:4], B_HIDDEN, reply=forged)
    assert err.value.check == "responder-blinding"


def test_largest_psi_messages_fit_one_signed_frame():
    """The largest reply (a set of MAX_PSI_Z, every one of the 300 cells asked, HQ-11) leaves
    room for the signed envelope inside MAX_FRAME."""
    from net.frames import MAX_FRAME
    from net.hidden_messages import MAX_PSI_X, MAX_PSI_Z
    big = PsiReply(2**31, b"r" * 32, [bytes([i % 256, i // 256]) + bytes(30) for i in range(MAX_PSI_Z)],
                   [b"y" * 32] * MAX_PSI_X)
    body = encode_hidden(big)
    assert decode_hidden(body) == big
    assert len(body) + 512 < MAX_FRAME
