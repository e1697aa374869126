"""Salted commitments, the per-turn root and hidden actions (issue 8 item 2; net/commitments.py).

00/HQ-14 … 00/HQ-16 (hidden actions travel as commitments), RUL-18 (what is hidden), RUL-37 (the
history is opened at the end), anchors-reliability C2, C4, C5, C6.
"""
from __future__ import annotations

import dataclasses
import hashlib
import struct

import pytest

from net.commitments import (DUMMY, SALT_LEN, CommitmentError, Context, RandomSalts, SeededSalts,
                             commit_action, commit_turn, path_length, verify_action, verify_leaf)
from net.errors import ProtocolError
from net.frames import pack
from net.hidden_messages import ActionOpen, LeafOpen, decode_hidden, encode_hidden

GAME = hashlib.sha256(b"game one").digest()
CTX = Context(GAME, "W", 12)
SEEDED = SeededSalts(b"s" * 32)
#: two hidden White pieces as the engine's piece rows (sid, kind, side, row, col, level, ...)
SUB = [33, "SU", "W", 4, 5, "S", "", [], 0, False, None, []]
DES = [40, "DS", "W", 6, 2, "G", "", [7], 1, False, None, []]
ITEMS = {33: SUB, 40: DES}


def _turn(items=ITEMS, n=64, ctx=CTX, salts=SEEDED):
    return commit_turn(ctx, items, n, salts)


def _rfc6962_root(leaves):
    """Independent reference: RFC 6962 §2.1 MTH with our node prefix."""
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + _rfc6962_root(leaves[:k]) + _rfc6962_root(leaves[k:])).digest()


def _leaf(ctx, slot, salt, value):
    data = pack(value)
    return hashlib.sha256(b"\x00wec/leaf/v1" + ctx.game_id + ctx.side.encode() + struct.pack(">I", ctx.ply)
                          + struct.pack(">I", slot) + salt + struct.pack(">I", len(data)) + data).digest()


# ---- round trips ---------------------------------------------------------------------------------

def test_hq14_every_slot_opens_to_its_exact_value_and_padding_to_dummy():
    """00/HQ-14: each committed piece row opens exactly; every other slot is DUMMY (padding)."""
    tc = _turn()
    for slot in range(64):
        got = verify_leaf(CTX, 64, tc.root, tc.open(slot))
        assert got == (ITEMS[slot] if slot in ITEMS else DUMMY)
    assert verify_leaf(CTX, 64, tc.root, tc.open(33)) == [33, "SU", "W", 4, 5, "S", "", [], 0, False, None, []]


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 13, 28, 33, 64, 100])
def test_root_is_the_rfc6962_tree_over_the_documented_leaves(n):
    """anchors-reliability C6: the root equals an independent RFC 6962 computation over the
    leaf layout of docs/protocol.md (no duplicated odd leaf, leaf/node prefixes differ)."""
    items = {i: [i, "PN"] for i in range(0, n, 2)}
    tc = commit_turn(CTX, items, n, SEEDED)
    salts = SEEDED.salts(CTX, "leaf", n)
    leaves = [_leaf(CTX, i, salts[i], items.get(i)) for i in range(n)]
    top = _rfc6962_root(leaves)
    want = hashlib.sha256(b"\x02wec/root/v1" + CTX.encode() + struct.pack(">I", n) + top).digest()
    assert tc.root == want
    for slot in range(n):
        assert len(tc.open(slot).path) == path_length(slot, n)
        assert verify_leaf(CTX, n, tc.root, tc.open(slot)) == items.get(slot)


def test_rfc6962_odd_tree_is_not_the_duplicated_leaf_tree():
    """anchors-reliability C6 (Bitcoin CVE-2012-2459): 3 leaves never equal 4 with the last repeated."""
    three = commit_turn(CTX, {}, 3, SEEDED)
    leaves = list(three.levels[0])
    dup = hashlib.sha256(b"\x01" + hashlib.sha256(b"\x01" + leaves[0] + leaves[1]).digest()
                         + hashlib.sha256(b"\x01" + leaves[2] + leaves[2]).digest()).digest()
    assert three.levels[-1][0] != dup
    assert path_length(2, 3) == 1 and path_length(0, 3) == 2


def test_hq14_hidden_action_opens_exactly():
    """00/HQ-14: a hidden Sub's Move is committed as its notation text and opens to it."""
    commit, op = commit_action(CTX, 17, "MV:SU(5,6)S->(5,7)", SEEDED)
    assert len(commit) == 32 and len(op.salt) == SALT_LEN
    assert verify_action(CTX, 17, commit, op) == "MV:SU(5,6)S->(5,7)"
    again, _ = commit_action(CTX, 17, "MV:SU(5,6)S->(5,7)", SEEDED)
    assert again == commit                          # seeded salts: deterministic


# ---- every single tampering is refused, with the reason -------------------------------------

def _refused(check, op, *, root=None, ctx=CTX, n=64):
    tc = _turn()
    with pytest.raises(CommitmentError) as err:
        verify_leaf(ctx, n, tc.root if root is None else root, op)
    assert err.value.check == check, str(err.value)
    return str(err.value)


def test_changed_salt_is_refused():
    """00/HQ-1 "opened at once": a piece opened with another salt does not open the root."""
    op = _turn().open(33)
    msg = _refused("root", dataclasses.replace(op, salt=bytes(32)))
    assert "slot 33" in msg and "ply 12" in msg


def test_changed_value_is_refused():
    """Issue 8 lying peer "opens a commitment to another piece": the Sub moved to another cell."""
    op = _turn().open(33)
    moved = pack([33, "SU", "W", 4, 6, "S", "", [], 0, False, None, []])
    _refused("root", dataclasses.replace(op, value=moved))


def test_dummy_slot_cannot_be_opened_as_a_piece():
    """RUL-18: a padding slot cannot later be claimed to have held a hidden piece."""
    op = _turn().open(3)
    _refused("root", dataclasses.replace(op, value=pack(SUB)))


def test_non_canonical_value_is_refused_as_value():
    """A value that is not canonical msgpack is refused before any hashing (no ambiguity)."""
    op = _turn().open(33)
    _refused("value", dataclasses.replace(op, value=b"\xd9\x01a"))   # str8 for a 1-char string


def test_changed_path_sibling_is_refused():
    op = _turn().open(33)
    path = (bytes(32),) + op.path[1:]
    _refused("root", dataclasses.replace(op, path=path))


def test_short_or_long_path_is_refused_as_path():
    op = _turn().open(33)
    assert "needs 6" in _refused("path", dataclasses.replace(op, path=op.path[:-1]))
    _refused("path", dataclasses.replace(op, path=op.path + (bytes(32),)))


def test_changed_root_is_refused():
    op = _turn().open(40)
    _refused("root", op, root=hashlib.sha256(b"other").digest())


def test_changed_leaf_index_is_refused():
    """An opening moved to another slot (same path length) fails; one outside the tree is 'index'."""
    op = _turn().open(33)
    _refused("root", dataclasses.replace(op, slot=32))
    _refused("index", dataclasses.replace(op, slot=64))


def test_opening_of_another_ply_or_game_is_refused_as_domain():
    """anchors-reliability C4: a leaf replayed from ply 11, another game, or the other side."""
    old = commit_turn(Context(GAME, "W", 11), ITEMS, 64, SEEDED).open(33)
    assert "ply 11" in _refused("domain", old)
    other_game = commit_turn(Context(bytes(32), "W", 12), ITEMS, 64, SEEDED).open(33)
    _refused("domain", other_game)
    # relabelled to claim our context: the hash binds the context, so the root refuses it
    _refused("root", dataclasses.replace(old, ctx=CTX))


def test_mirror_attack_copied_root_never_opens_for_the_copier():
    """anchors-reliability C4: Black copies White's root; White's openings relabelled as Black's fail."""
    white = _turn()
    black_ctx = Context(GAME, "B", 12)
    op = dataclasses.replace(white.open(33), ctx=black_ctx)
    with pytest.raises(CommitmentError) as err:
        verify_leaf(black_ctx, 64, white.root, op)
    assert err.value.check == "root"


def test_wrong_salt_size_and_slot_count_are_format_and_domain():
    op = _turn().open(33)
    _refused("format", dataclasses.replace(op, salt=b"x" * 16))
    _refused("domain", dataclasses.replace(op, n_slots=65))


@pytest.mark.parametrize("field, value, check", [
    ("salt", bytes(32), "commitment"), ("value", pack("MV:SU(5,6)S->(6,6)"), "commitment"),
    ("index", 18, "index"), ("ctx", Context(GAME, "W", 13), "domain"), ("salt", b"1", "format"),
])
def test_hq14_tampered_hidden_action_is_refused(field, value, check):
    """00/HQ-14: every single change to a hidden action's opening is refused, naming the check."""
    commit, op = commit_action(CTX, 17, "MV:SU(5,6)S->(5,7)", SEEDED)
    with pytest.raises(CommitmentError) as err:
        verify_action(CTX, 17, commit, dataclasses.replace(op, **{field: value}))
    assert err.value.check == check
    assert "hidden action 17" in str(err.value)


def test_commit_refuses_bad_slots_and_oversized_values():
    with pytest.raises(CommitmentError, match="slot 64 outside"):
        commit_turn(CTX, {64: SUB}, 64, SEEDED)
    with pytest.raises(CommitmentError, match="MAX_VALUE"):
        commit_turn(CTX, {1: "x" * 5000}, 64, SEEDED)
    with pytest.raises(CommitmentError, match="side must be"):
        Context(GAME, "X", 1)


# ---- hiding: salts, padding, determinism ------------------------------------------------------

def test_salts_are_fresh_32_bytes_and_never_repeat():
    """anchors-reliability C5: 10^4 random salts, all 32 bytes, all distinct."""
    salts = RandomSalts().salts(CTX, "leaf", 10_000)
    assert {len(s) for s in salts} == {32}
    assert len(set(salts)) == 10_000


def test_equal_pieces_in_two_plies_give_unlinkable_leaves():
    """A piece that did not move commits to different leaves each ply (fresh salts)."""
    a = commit_turn(CTX, ITEMS, 64, RandomSalts())
    b = commit_turn(CTX, ITEMS, 64, RandomSalts())
    assert a.root != b.root
    assert not set(a.levels[0]) & set(b.levels[0])


def test_rul18_root_and_tree_shape_do_not_depend_on_how_many_pieces_are_hidden():
    """RUL-18: the tree has the same shape, and every leaf is a 32-byte hash, with 0, 2 or 28
    hidden pieces; what is public is only the fixed slot count."""
    shapes = set()
    for k in (0, 2, 28):
        tc = commit_turn(CTX, {s: [s, "PN"] for s in range(k)}, 64, RandomSalts())
        shapes.add(tuple(len(level) for level in tc.levels))
        assert all(len(h) == 32 for h in tc.levels[0])
    assert len(shapes) == 1


def test_seeded_salts_are_deterministic_and_seed_dependent():
    assert _turn().root == _turn().root
    assert _turn(salts=SeededSalts(b"t" * 32)).root != _turn().root


# ---- messages ------------------------------------------------------------------------------------

def test_hq1_leaf_open_message_round_trips_and_verifies():
    """00/HQ-1: the opening of a taken hidden piece travels as leaf-open and verifies on arrival."""
    tc = _turn()
    msg = LeafOpen.of(tc.open(40))
    body = encode_hidden(msg)
    back = decode_hidden(body)
    assert back == msg and encode_hidden(back) == body
    assert verify_leaf(CTX, 64, tc.root, back.opening(GAME)) == DES


def test_action_open_message_round_trips():
    commit, op = commit_action(CTX, 3, "PU:SU(5,6)S", SEEDED)
    back = decode_hidden(encode_hidden(ActionOpen.of(op)))
    assert verify_action(CTX, 3, commit, back.opening(GAME)) == "PU:SU(5,6)S"


def test_bad_leaf_open_fields_raise_protocol_error_naming_them():
    good = LeafOpen.of(_turn().open(40))
    for field, bad in (("salt", b"short"), ("path", [b"x"] * 3), ("slot", -1), ("side", "Q"),
                       ("path", [bytes(32)] * 11)):
        fields = good.fields()
        fields[field] = bad
        body = pack(["leaf-open", fields])
        with pytest.raises(ProtocolError, match=f"field '{field}'"):
            decode_hidden(body)
    with pytest.raises(ProtocolError, match="unknown hidden message type"):
        decode_hidden(pack(["nope", {}]))


# ---- the audit's whole-turn check ---------------------------------------------------------------

def test_rul37_verify_turn_returns_every_item_and_names_a_tampered_slot():
    """RUL-37: at the end every slot of every ply is opened; the whole turn checks at once."""
    from net.commitments import verify_turn
    tc = _turn()
    items = verify_turn(CTX, 64, tc.root, tc.open_all())
    assert items == [ITEMS.get(s) for s in range(64)]
    ops = tc.open_all()
    ops[40] = dataclasses.replace(ops[40], salt=bytes(32))
    with pytest.raises(CommitmentError) as err:
        verify_turn(CTX, 64, tc.root, ops)
    assert err.value.check == "root"
    with pytest.raises(CommitmentError) as err:
        verify_turn(CTX, 64, tc.root, tc.open_all()[:-1])
    assert err.value.check == "index"
    ops = tc.open_all()
    ops[5] = dataclasses.replace(ops[5], ctx=Context(GAME, "B", 12))
    with pytest.raises(CommitmentError) as err:
        verify_turn(CTX, 64, tc.root, ops)
    assert err.value.check == "domain" and "slot 5" in str(err.value)


def test_rul37_turn_open_message_round_trips_and_verifies_the_whole_turn():
    """RUL-37: the audit's turn-open carries every value and salt; the receiver rebuilds the root."""
    from net.commitments import verify_turn
    from net.hidden_messages import TurnOpen
    tc = _turn()
    msg = decode_hidden(encode_hidden(TurnOpen.of(tc)))
    assert verify_turn(CTX, 64, tc.root, msg.openings(GAME))[40] == DES
    swapped = dataclasses.replace(msg, values=[msg.values[40 if i == 33 else 33 if i == 40 else i]
                                               for i in range(64)])
    with pytest.raises(CommitmentError) as err:
        verify_turn(CTX, 64, tc.root, swapped.openings(GAME))
    assert err.value.check == "root"
    with pytest.raises(ProtocolError, match="64 values but 63 salts"):
        dataclasses.replace(msg, salts=msg.salts[:-1]).openings(GAME)
