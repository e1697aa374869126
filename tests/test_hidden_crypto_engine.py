"""The crypto layer on real engine values: a hidden Sub's path meets a hidden enemy Sub.

00/HQ-1 (path of a hidden mover, PSI mode first), 00/HQ-16 (the revealed piece opened against the
root), RUL-18 (who is hidden: the engine's own ``hidden_from``), RUL-40 (slot = serial),
RUL-37 (the audit opens everything and recomputes the exchange).
"""
from __future__ import annotations

import hashlib

import pytest

from engine.position import parse_square
from engine.state import to_dict
from engine.visibility import hidden_from
from engine_helpers import pos
from net.commitments import Context, RandomSalts, commit_turn, verify_leaf, verify_turn
from net.frames import pack
from net.hidden_messages import LeafOpen, PsiStep, TurnOpen, decode_hidden, encode_hidden
from net.psi import (PsiAsker, PsiAuditError, PsiContext, PsiResponder, audit_exchange,
                     new_secrets)

GAME = hashlib.sha256(b"engine game").digest()
N_SLOTS = 64
#: White's Sub on e10 S and Black's Subs on e6 S and h3 S: out of each other's detection range 3
POSITION = ("to-move W\npiece B K j1 G\npiece B SU e6 S\npiece B SU h3 S\npiece W K j10 G\n"
            "piece W SU e10 S\n")


def _cell(square, level="S"):
    return (*parse_square(square), level)


def _wire(msg):
    """Through the codec, as the peer receives it."""
    return decode_hidden(encode_hidden(msg))


def _exchange(state, black_cells):
    """White asks about its Sub's path e9..e5; Black answers from ``black_cells``."""
    rows = to_dict(state)["pieces"]
    black = commit_turn(Context(GAME, "B", state.ply), {r[0]: r for r in rows if r[2] == "B"},
                        N_SLOTS, RandomSalts())
    white = commit_turn(Context(GAME, "W", state.ply), {r[0]: r for r in rows if r[2] == "W"},
                        N_SLOTS, RandomSalts())
    path = [_cell(sq) for sq in ("e9", "e8", "e7", "e6", "e5")]
    ctx = PsiContext(GAME, state.ply, 1, "HQ-1", "W")
    asker = PsiAsker(ctx, "first", path, 10, white.root, black.root, *new_secrets())
    resp = PsiResponder(ctx, "first", 10, black_cells, N_SLOTS, black.root, *new_secrets())
    received, steps, replies = [], [], []
    q = _wire(asker.query())
    reply = _wire(resp.on_query(q))
    received.append(reply)
    out = asker.on_reply(reply, N_SLOTS)
    while isinstance(out, PsiStep):
        steps.append(_wire(out))
        replies.append(_wire(resp.on_step(steps[-1])))
        received.append(replies[-1])
        out = asker.on_step_reply(replies[-1])
    result = _wire(out)
    found = resp.on_result(result)
    return black, path, ctx, asker, resp, (q, reply, steps, replies, result), found, received


def _true_black_cells(state, opened_rows):
    """The audit's view: Black's pieces (from the opened root) hidden from White (RUL-18)."""
    hidden = hidden_from(state, "W")
    return [(r[3], r[4], r[5]) for r in opened_rows if r is not None and r[0] in hidden]


def test_hq1_hidden_sub_path_stops_at_the_hidden_enemy_sub_which_is_opened_in_full():
    """00/HQ-1: the path e9, e8, e7, e6, e5 meets Black's hidden Sub at e6 (position 3); White
    learns that and nothing about h3; Black opens serial 2 and White checks it against the root."""
    state = pos(POSITION)
    assert hidden_from(state, "W") == {2, 3} and hidden_from(state, "B") == {5}
    black_cells = [state.pieces[s].cell for s in sorted(hidden_from(state, "W"))]
    black, path, ctx, asker, _, _, found, received = _exchange(state, black_cells)
    assert asker.first == 3 and found == [_cell("e6")]
    (sid,) = state.at(*parse_square("e6"), "S")
    opening = _wire(LeafOpen.of(black.open(sid)))
    row = verify_leaf(Context(GAME, "B", state.ply), N_SLOTS, black.root, opening.opening(GAME))
    assert row == [2, "SU", "B", 6, 5, "S", "", [], 0, False, None, []]
    # nothing White received before the opening names a Black cell in clear
    sent = b"".join(encode_hidden(m) for m in received)
    for cell in black_cells:
        assert pack(list(cell)) not in sent


def test_rul37_audit_recomputes_the_exchange_from_the_opened_root():
    """RUL-37: Black's whole turn is opened, its hidden cells re-derived with the engine, and the
    exchange recomputed: it passes."""
    state = pos(POSITION)
    black_cells = [state.pieces[s].cell for s in sorted(hidden_from(state, "W"))]
    black, path, ctx, asker, resp, (q, reply, steps, replies, result), _, _ = _exchange(state, black_cells)
    opened = verify_turn(Context(GAME, "B", state.ply), N_SLOTS, black.root,
                         _wire(TurnOpen.of(black)).openings(GAME))
    audit_exchange(ctx, q, reply, steps, replies, result, path, asker.reveal(),
                   _true_black_cells(state, opened), resp.reveal())


def test_hq1_black_that_hides_its_sub_from_the_set_is_caught_by_the_audit():
    """Issue 8 lying peer "answers nothing there when its hidden piece is there": Black leaves
    its e6 Sub out; White's Sub would sail through; the audit names the responder's set."""
    state = pos(POSITION)
    black, path, ctx, asker, resp, (q, reply, steps, replies, result), found, _ = _exchange(
        state, [_cell("h3")])
    assert asker.first is None and found == []
    opened = verify_turn(Context(GAME, "B", state.ply), N_SLOTS, black.root,
                         TurnOpen.of(black).openings(GAME))
    with pytest.raises(PsiAuditError) as err:
        audit_exchange(ctx, q, reply, steps, replies, result, path, asker.reveal(),
                       _true_black_cells(state, opened), resp.reveal())
    assert err.value.check == "responder-set" and "(6, 5, 'S')" in str(err.value)
