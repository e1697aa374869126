"""Unit tests of the codec, keys, certificates, log and protocol machines (no sockets needed).

The play machines run over the real engine (engine.api), never a stand-in."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from cryptography import x509

import engine.api as engine
from net import certs
from net.chain import ChainReader, ChainWriter
from net.errors import ProtocolError
from net.frames import pack, unpack_strict
from net.identity import load_or_create
from net.keys import SMALL_ORDER, WeakKeyError, check_public_key
from net.lockstep import Lockstep, PlayState
from net.messages import (GAME, Action, Claim, EndTurn, Hello, Message, PairReveal, UndoAnswer, decode_fields,
                          decode_link, encode_link)
from net.outputs import Event, Send, Stop
from net.pairing import PairState, Pairing, short_code
from net.wal import Entry, Header, Wal, read


def test_link_codec_round_trips_exact_bytes() -> None:
    msg = Hello(1, "play", "Bob", None, bytes(32), None, 3, 4)
    body = encode_link(msg)
    assert body == pack(["hello", {"v": 1, "mode": "play", "name": "Bob", "licence": None, "nonce": bytes(32),
                                   "chain": None, "sent": 3, "recv": 4}])
    assert decode_link(body) == msg


def test_reserved_hidden_piece_types_are_refused_in_v1() -> None:
    with pytest.raises(ProtocolError, match="reserved"):
        decode_fields(["commit-open", {}], GAME, "game")


@pytest.mark.parametrize("body, what", [
    (pack([1.5]), "no floats"), (b"\xd6\xff" + bytes(4), "undecodable"),  # float / timestamp ext
    (pack([[[[[[[[[[1]]]]]]]]]]), "MAX_DEPTH"),
])
def test_strict_decoder_refuses(body: bytes, what: str) -> None:
    with pytest.raises(ProtocolError, match=what):
        unpack_strict(body)


def test_weak_keys_are_refused() -> None:
    """anchors §1.12 / B10: all 8 small-order encodings and y >= p are invalid identity keys."""
    for raw in SMALL_ORDER:
        with pytest.raises(WeakKeyError):
            check_public_key(raw)
    with pytest.raises(WeakKeyError):
        check_public_key((2**255 - 19).to_bytes(32, "little"))


def test_identity_key_is_private_to_its_owner(tmp_path: Path) -> None:
    """DESIGN §4: the identity key file is created mode 0600 in a 0700 data dir, and reloads the same."""
    d = tmp_path / "fresh"
    first = load_or_create(d)
    assert (d / "identity.key").stat().st_mode & 0o777 == 0o600
    assert d.stat().st_mode & 0o777 == 0o700
    assert load_or_create(d).public_bytes == first.public_bytes


def test_certificate_is_deterministic_and_valid_for_any_clock(tmp_path: Path) -> None:
    ident = load_or_create(tmp_path)
    a, b = certs.make_cert(ident), certs.make_cert(ident)
    assert a.cert_pem == b.cert_pem
    cert = x509.load_pem_x509_certificate(a.cert_pem)
    assert cert.not_valid_before_utc.year == 2000 and cert.not_valid_after_utc.year == 9999
    assert certs.cert_public_key(a.der) == ident.public_bytes


def test_pairing_code_changes_with_every_input() -> None:
    """D3: the code depends on both certificates, both keys, both nonces and the version."""
    args = [b"cr", b"ci", b"i" * 32, b"r" * 32, b"n" * 32, b"m" * 32]
    base = short_code(*args)
    assert len(base) == 7 and base[3] == " "
    changed = {short_code(*(args[:k] + [args[k] + b"x"] + args[k + 1:])) for k in range(len(args))}
    changed.add(short_code(*args, version=2))
    assert base not in changed and len(changed) == 7


def test_pairing_wrong_reveal_aborts_and_one_sided_confirm_pins_nothing(tmp_path: Path) -> None:
    """D2 / D9: the reveal is checked against the commitment; both confirmations are needed."""
    i_id, r_id = load_or_create(tmp_path / "i"), load_or_create(tmp_path / "r")
    i_cert, r_cert = certs.make_cert(i_id).der, certs.make_cert(r_id).der
    ini, res = Pairing("initiator", i_id, i_cert, r_cert), Pairing("responder", r_id, r_cert)
    commit = ini.start()[0]
    nonce = res.receive(commit.message)[0]
    assert isinstance(nonce, Send) and res.state is PairState.R_NONCE_SENT
    assert isinstance(res.receive(PairReveal(os.urandom(32)))[0], Stop) and res.state is PairState.FAILED
    # honest run: codes equal; only the initiator confirms -> nobody is paired
    ini, res = Pairing("initiator", i_id, i_cert, r_cert), Pairing("responder", r_id, r_cert)
    nonce_out = res.receive(ini.start()[0].message)[0]
    reveal, shown = ini.receive(nonce_out.message)
    res.receive(reveal.message)
    assert ini.code == res.code == shown.data["code"]
    confirm = ini.answer(True)[0]
    assert res.receive(confirm.message) == [] and res.state is PairState.CONFIRMING
    refusal = res.answer(False)
    assert isinstance(refusal[-1], Stop) and isinstance(ini.receive(refusal[0].message)[0], Stop)
    assert PairState.PAIRED not in (ini.state, res.state)


def test_wal_cuts_a_torn_last_record(tmp_path: Path) -> None:
    ident = load_or_create(tmp_path)
    header = Header(bytes(32), "host", ident.public_bytes, bytes(32))
    wal = Wal.create(tmp_path / "g.wal", header)
    w = ChainWriter(ident, bytes(32))
    signed = w.sign(Action(0, "x"))
    wal.append(Entry("out", signed, {"salt": b"s"}))
    wal.close()
    with open(tmp_path / "g.wal", "ab") as f:
        f.write(b"\x00\x00\x01\x00garbage")
    wal, h, entries = Wal.open(tmp_path / "g.wal")
    wal.close()
    assert h == header and entries == [Entry("out", signed, {"salt": b"s"})]
    assert read(tmp_path / "g.wal")[1] == entries


def test_chain_reader_flags_equivocation(tmp_path: Path) -> None:
    ident = load_or_create(tmp_path)
    w, r = ChainWriter(ident, bytes(32)), ChainReader(ident.public_bytes, bytes(32))
    a = w.sign(Action(0, "a"))
    v = r.check(a)
    assert v is not None
    r.accept(v)
    assert r.check(a) is None  # duplicate
    with pytest.raises(ProtocolError, match="equivocation"):
        r.check(w.sign(Action(0, "b")))


MOVE = "MV:DO(1,2)->(2,2)"   # black's Dozer steps forward: legal in the standard set-up (black moves first)
GAME_ID = bytes(32)


def _pair_of_lockstep(**opts: object) -> tuple[Lockstep, Lockstep]:
    """Both sides' play machines over the real engine, black (to move first) and white."""
    options = engine.Options(**opts)  # type: ignore[arg-type]
    return Lockstep(engine, options, "black", GAME_ID), Lockstep(engine, options, "white", GAME_ID)


def _deliver(sender: Lockstep, receiver: Lockstep, msg: Message, drop: type | None = None) -> None:
    """Feed ``msg`` to its sender (own) and receiver, then every reply the same way, in order.

    Messages of type ``drop`` are fed to their sender only (never reach the other side)."""
    queue = [(sender, receiver, msg)]
    while queue:
        src, dst, m = queue.pop(0)
        queue += [(src, dst, o.message) for o in src.feed(True, m) if isinstance(o, Send)]
        if drop is not None and isinstance(m, drop):
            continue
        queue += [(dst, src, o.message) for o in dst.feed(False, m) if isinstance(o, Send)]


def test_desync_stops_with_a_diagnosis() -> None:
    """B9: a different state hash at end of turn stops the game and names the first differing part."""
    black, white = _pair_of_lockstep()
    _deliver(black, white, black.act(MOVE).message)
    _deliver(black, white, black.act("END").message, drop=EndTurn)   # black's real hash never arrives
    mine = engine.state_hash(white.state_value)
    assert white.history == black.history == [MOVE, "END"] and white.my_hashes == {0: mine}
    outs = white.feed(False, EndTurn(0, 2, "0" * 64, None))
    report = [o.message for o in outs if isinstance(o, Send)][0]
    assert white.state is PlayState.BROKEN
    assert (report.turn, report.state_hash) == (0, mine)
    assert report.detail == (f"our state equals a replay of the signed transcript (hash {mine[:16]}…); "
                             f"the peer's state (hash {'0' * 16}…) diverged")


def test_undo_needs_approval_and_is_refused_in_competitive_games() -> None:
    """04/U56, 02/D24: an undo is applied on both sides only once the other side approves it;
    in a competitive game it is refused before anything is sent."""
    black, white = _pair_of_lockstep()
    start = engine.state_hash(black.state_value)
    _deliver(black, white, black.act(MOVE).message)
    request = black.request_undo()
    _deliver(black, white, request.message)
    assert white.undo_asked == ("peer", 1) and black.index == white.index == 1   # nothing undone yet
    _deliver(white, black, white.answer_undo(True).message)
    assert black.index == white.index == 0 and black.undo_asked is None is white.undo_asked
    assert engine.state_hash(black.state_value) == engine.state_hash(white.state_value) == start

    black, white = _pair_of_lockstep(competitive=True)
    _deliver(black, white, black.act(MOVE).message)
    with pytest.raises(engine.RuleError, match="02/D24"):
        black.request_undo()
    assert black.index == white.index == 1 and black.undo_asked is None


def test_undo_requests_that_cross_are_both_answered_no() -> None:
    """04/U56: both sides ask for an undo at once (each request crosses the other's). Each side
    answers the other's "no" at once with the reason; both hear it, nothing is undone, and
    the side to move may act again."""
    black, white = _pair_of_lockstep()
    _deliver(black, white, black.act(MOVE).message)
    asks = {"black": black.request_undo().message, "white": white.request_undo().message}
    assert black.feed(True, asks["black"]) == [] == white.feed(True, asks["white"])
    answers = {}   # side -> its answer to the other side's request
    for me, name, other in ((black, "black", "white"), (white, "white", "black")):
        (answers[name],) = [o.message for o in me.feed(False, asks[other]) if isinstance(o, Send)]
        assert me.feed(True, answers[name]) == []
    reason = "the other side had asked for an undo at the same time; nothing was undone"
    assert answers["white"] == answers["black"] == UndoAnswer(1, False, reason)
    for me, other in ((black, "white"), (white, "black")):
        (event,) = me.feed(False, answers[other])
        assert (event.kind, event.data) == ("undo-answer", {"accept": False, "reason": reason})
    assert black.index == white.index == 1 and black.undo_asked is None is white.undo_asked
    assert engine.state_hash(black.state_value) == engine.state_hash(white.state_value)
    assert black.my_move()


@pytest.mark.parametrize("text, rule, reason", [
    ("MV:DO(1,2)->(5,5)", "03/M1.4", "03/M1.4: DO(1,2)->(5,5): not one of its destinations, or its path is blocked"),
    ("garbage", "notation", "expected 'MV:', 'FI:', 'PU:', 'EX:', 'RE:', 'DR:' or 'END' at 1 in 'garbage'"),
])
def test_illegal_action_changes_nothing(text: str, rule: str, reason: str) -> None:
    """B7 / DESIGN §3: the receiver refuses an illegal action naming the rule; no state changes."""
    black, white = _pair_of_lockstep()
    before = engine.state_hash(white.state_value)
    outs = white.feed(False, Action(0, text))
    result = [o.message for o in outs if isinstance(o, Send)][0]
    assert (result.index, result.ok, result.rule, result.reason) == (0, False, rule, reason)
    assert [o.data for o in outs if isinstance(o, Event)] == [
        {"by": "us", "text": text, "rule": rule, "reason": reason}]
    assert white.index == 0 and white.rejections == 1 and engine.state_hash(white.state_value) == before


def test_peer_action_out_of_turn_is_refused() -> None:
    """The receiver checks whose move it is before asking the engine (rule net/turn)."""
    black, white = _pair_of_lockstep()
    outs = black.feed(False, Action(0, MOVE))   # white claims black's first move
    result = [o.message for o in outs if isinstance(o, Send)][0]
    assert (result.ok, result.rule, result.reason) == (False, "net/turn", "not your move") and black.index == 0


def _after_blacks_turn(limit: int) -> Lockstep:
    """Black's machine (move time limit ``limit`` s) once its first turn ended: white to move."""
    options = engine.Options()
    black = Lockstep(engine, options, "black", GAME_ID, limit)
    white = Lockstep(engine, options, "white", GAME_ID, limit)
    _deliver(black, white, black.act(MOVE).message)
    _deliver(black, white, black.act("END").message)
    assert engine.side_to_move(black.state_value) == "white" and not black.my_move()
    return black


def test_a_time_claim_that_may_have_crossed_our_last_action_stops_and_is_no_breach() -> None:
    """docs/rulings.md N-4 with N-6: with a limit agreed, a time claim that reaches us after our move
    ended may have crossed our last action (a race, not a lie the signed record proves): the game
    stops, no claim{breach} is sent."""
    black = _after_blacks_turn(30)
    black.peer_seen = 9
    outs = black.feed(False, Claim("time", 0, 1, 3, "no action within 30 s"))
    assert [type(o) for o in outs] == [Stop] and "unfounded time claim: it was not our move" in outs[0].reason
    assert black.result is None and black.state is PlayState.BROKEN


def test_a_time_claim_with_no_limit_agreed_is_the_claimants_breach() -> None:
    """docs/rulings.md N-4 with N-6: with no limit agreed, any time claim is refused by the agreed
    options alone, which the signed record shows: our signed claim{breach} names the message (seq
    8, the 9th of the peer's we read), and feeding it to us records white's loss."""
    black = _after_blacks_turn(0)
    black.peer_seen = 9
    outs = black.feed(False, Claim("time", 0, 1, 3, "lies"))
    claims = [o.message for o in outs if isinstance(o, Send)]
    assert len(claims) == 1 and (claims[0].kind, claims[0].seen) == ("breach", 9)
    assert claims[0].detail.endswith("proven by signed message #8")
    black.feed(True, claims[0])
    assert black.result is not None and (black.result["outcome"], black.result["ending"]) == ("black", "breach")
    assert black.result["detail"].startswith("white lost by breach: unfounded time claim: no move time limit")
