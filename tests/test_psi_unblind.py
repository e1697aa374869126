"""The asker's matching by unblinding its returned values (net/psi.py ``Blinder.unblind``,
``unblinds``; issue 10 item 6): ``y^(1/a)`` looked up among the responder's ``z`` instead of
every ``z`` raised to ``a``. Nothing sent changes; the asker learns the same matches.

00/HQ-10 (the zone test: the responder's set padded to 100 squares per zone), 00/HQ-1 (a
hidden mover's path, mode first), 00/HQ-12 (mode count), RUL-37 (the audit).
"""
from __future__ import annotations

import hashlib
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from net.hidden_messages import PsiReply, PsiStep, PsiStepReply
from net.psi import (P, SMALL_ORDER, Blinder, PsiAsker, PsiContext, PsiError, PsiResponder,
                     audit_exchange, cell_u, on_curve, unblinds)
from test_psi import _run as psi_run

GAME = hashlib.sha256(b"psi unblind game").digest()
ROOT_A, ROOT_B = hashlib.sha256(b"root A").digest(), hashlib.sha256(b"root B").digest()


def _x25519(k: bytes, u: bytes) -> bytes:
    return X25519PrivateKey.from_private_bytes(k).exchange(X25519PublicKey.from_public_bytes(u))


def test_on_curve_is_eulers_criterion():
    """u^3 + 486662 u^2 + u a square mod p (Euler's criterion with pow) exactly when on_curve."""
    rng = random.Random(3)
    for _ in range(300):
        u = rng.randrange(P)
        rhs = (u ** 3 + 486662 * u * u + u) % P
        assert on_curve(u) == (pow(rhs, (P - 1) // 2, P) != P - 1)
    assert on_curve(0)                     # (0, 0) is the curve's point of order 2


def test_unblind_inverts_the_blinding_on_curve_and_twist_with_the_real_library():
    """For hashed cells on the curve and on the twist and random scalars a, b, computed by
    ``cryptography``: unblind_a(X25519(a, X25519(b, u))) == X25519(b, u). Both inverse forms
    occur (one operation and two)."""
    rng = random.Random(11)
    ctx = PsiContext(GAME, 4, 7, "HQ-10", "W")
    seen_curve, lengths = set(), set()
    for i in range(120):
        u = cell_u(ctx, (i // 10 % 10, i % 10, "GAS"[i % 3]))
        a, b = rng.randbytes(32), rng.randbytes(32)
        ba = _x25519(a, _x25519(b, u))
        blinder = Blinder(a)
        assert blinder.unblind(ba) == _x25519(b, u)
        seen_curve.add(on_curve(int.from_bytes(u, "little")))
        lengths.update(len(chain) for chain in blinder._inverse.values())
    assert seen_curve == {True, False} and lengths == {1, 2}


@pytest.mark.parametrize("u", sorted(SMALL_ORDER))
def test_unblind_refuses_small_order_points(u):
    with pytest.raises(PsiError, match="small order"):
        Blinder(bytes(range(32))).unblind(u.to_bytes(32, "little"))
    with pytest.raises(PsiError, match="not reduced"):
        Blinder(bytes(range(32))).unblind((P + 1).to_bytes(32, "little"))


def _run(mode, a_cells, b_cells, size, z_size, seed=1):
    """One zone-test-sized exchange to the end (tests/test_psi.py ``_run``), checked by the audit."""
    ctx, asker, resp, (q, reply, steps, replies, out), _ = psi_run(mode, a_cells, b_cells, size=size,
                                                                    z_size=z_size, hq="HQ-10", seed=seed)
    audit_exchange(ctx, q, reply, steps, replies, out, a_cells, asker.reveal(), b_cells, resp.reveal())
    return asker, resp, out


ZONE = [(r, c, "zone-U") for r in range(2, 9) for c in range(1, 8)]        # range 3 around d5
MINE = [(4, 4, "zone-U"), (0, 9, "zone-U"), (8, 1, "zone-U"), (9, 9, "zone-U")]


def test_hq10_zone_test_sized_as_in_play_unblinds_and_finds_exactly_the_squares_in_the_zone():
    """00/HQ-10: 12 asker squares against a zone padded to 100: the asker unblinds its 12 values
    (unblinds(12, 100)) and finds the two of its squares inside the zone, as the sets say; the
    responder opens those; the exchange passes the audit."""
    assert unblinds(12, 100) and not unblinds(300, 32)
    asker, resp, result = _run("set", MINE, ZONE, 12, 100)
    assert asker._z_pos is not None and asker.z_list == []
    assert sorted(asker.matched) == [0, 2]
    assert sorted(resp.on_result(result)) == [(4, 4, "zone-U"), (8, 1, "zone-U")]


def test_hq1_first_and_hq12_count_give_the_same_answers_by_either_method():
    """00/HQ-1, 00/HQ-12: the same exchange (same secrets, same messages) run with the set
    large enough to unblind and with ``unblinds`` forced off: the same first hit, count, hits."""
    import net.psi as psi
    path = [(1, 4, "zone-U"), (4, 4, "zone-U"), (5, 5, "zone-U"), (9, 0, "zone-U")]
    outs = []
    for force_old in (False, True):
        saved = psi.UNBLIND_COST
        psi.UNBLIND_COST = 1e9 if force_old else saved
        try:
            first, _, r1 = _run("first", path, ZONE, 10, 100)
            count, _, r2 = _run("count", path, ZONE, 10, 100)
            assert (first._z_pos is None) == force_old
        finally:
            psi.UNBLIND_COST = saved
        outs.append((first.first, r1, count.count, r2))
    assert outs[0] == outs[1]
    assert outs[0][0] == 1 and outs[0][2] == 2


def test_a_responder_that_makes_padding_match_changes_nothing_and_the_audit_names_it():
    """A lying responder answers an asker's padding position with a value of its own set (the
    asker-blinded z[0]). The unblinding asker does not test padding: its result is the honest one
    (its one square, in the zone); the audit (RUL-37) names the responder's y as not x^b."""
    from net.psi import PsiAuditError
    ctx = PsiContext(GAME, 9, 4, "HQ-10", "B")
    rng = random.Random(2)
    a_secret, b_secret = (rng.randbytes(32), rng.randbytes(32)), (rng.randbytes(32), rng.randbytes(32))
    asker = PsiAsker(ctx, "set", MINE[:1], 12, ROOT_A, ROOT_B, *a_secret)
    resp = PsiResponder(ctx, "set", 12, ZONE, 100, ROOT_B, *b_secret)
    q = asker.query()
    reply = resp.on_query(q)
    y = list(reply.y)
    y[5] = Blinder(a_secret[0]).blind(reply.z[0])
    lie = PsiReply(reply.qid, reply.root, reply.z, y)
    result = asker.on_reply(lie, 100)
    assert asker.matched == [0] and result.count == 1
    with pytest.raises(PsiAuditError) as err:
        audit_exchange(ctx, q, lie, [], [], result, MINE[:1], asker.reveal(), ZONE, resp.reveal())
    assert err.value.check == "responder-blinding"


def test_a_small_order_value_in_the_responders_set_is_refused_by_the_unblinding_asker():
    ctx = PsiContext(GAME, 9, 4, "HQ-10", "B")
    rng = random.Random(4)
    asker = PsiAsker(ctx, "set", MINE, 12, ROOT_A, ROOT_B, rng.randbytes(32), rng.randbytes(32))
    reply = PsiResponder(ctx, "set", 12, ZONE, 100, ROOT_B, rng.randbytes(32),
                         rng.randbytes(32)).on_query(asker.query())
    z = sorted(reply.z[1:] + [(1).to_bytes(32, "little")])
    with pytest.raises(PsiError, match="small order"):
        asker.on_reply(PsiReply(reply.qid, reply.root, z, reply.y), 100)


def test_step_replies_are_unblinded_one_at_a_time():
    """Mode first with the unblinding asker: each psi-step-reply is tested as it comes; a step
    reply at a position after the first hit is never sent (padding follows)."""
    ctx = PsiContext(GAME, 9, 4, "HQ-1", "B")
    rng = random.Random(8)
    path = [(0, 0, "zone-U"), (2, 2, "zone-U"), (3, 3, "zone-U")]
    asker = PsiAsker(ctx, "first", path, 10, ROOT_A, ROOT_B, rng.randbytes(32), rng.randbytes(32))
    resp = PsiResponder(ctx, "first", 10, ZONE, 100, ROOT_B, rng.randbytes(32), rng.randbytes(32))
    out = asker.on_reply(resp.on_query(asker.query()), 100)
    assert asker.first is None and isinstance(out, PsiStep)
    out = asker.on_step_reply(resp.on_step(out))
    assert asker.first == 1
    with pytest.raises(PsiError, match="out of order"):
        asker.on_step_reply(PsiStepReply(4, 5, resp.z[0]))
