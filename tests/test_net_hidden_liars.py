"""Lying peers are caught (issue 8 "What it must show": lying peers; items 3 and 5).

A test build of the peer (tests/hidden_liars.py: subclasses of the honest hidden-play machine)
plays the guest of a real game over TLS on 127.0.0.1 from the crowded skirmish position under the
"deep" option set (submerged Subs unseen at any range, stealthy primary pieces); it tells one lie
at its first chance and then resigns. The honest host must name the lie: the turn, the action,
the event, and the chain number of the liar's signed message, which its own log holds, signed.

* answers "nothing there" while its hidden piece is there (HQ-1, HQ-12): the audit's honest
  re-run of the liar gives another answer (HQ-17);
* opens, in an answer, a true commitment of another of its pieces: refused at once (item 3);
* moves a hidden piece out of its range, or through a blocking piece (03/M1.1, 03/M1.6):
  the audit opens the committed action and the engine refuses it (RUL-37, HQ-14);
* never opens its secrets at the end: the honest side claims the game when the audit's time
  limit runs out (item 5) and both logs hold the signed claim.

The same five between two ``wec`` processes in two network namespaces:
tests/test_net_netns_liars.py (with ``CAUGHT`` below).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import pytest

from hidden_games import Game, engine_from, play_game
from hidden_liars import LIARS
from net.audit_log import audit_log
from net.hidden_wire import HiddenAnswer, HiddenEvent, HiddenQuery
from net.hidden_wire_psi import HiddenPsi
from net.messages import Claim
from wal_helpers import own_messages, peer_messages


def lost_by_breach(status: str, reason: str, seq: int, log: Path) -> None:
    """RUL-53 (docs/rulings.md N-6): the liar's signed message ``seq`` loses it the game: the honest
    side's game is finished with the win, its claim names that message, and ``wec audit LOG``
    replaying the honest side's log finds the same fault."""
    assert status == "finished", reason
    assert re.match(r"(white|black) lost by breach: ", reason), reason
    assert reason.endswith(f", proven by signed message #{seq}"), reason
    claims = [m for m in own_messages(log) if isinstance(m, Claim)]
    assert [c.kind for c in claims] == ["breach"] and reason.endswith(claims[0].detail), claims
    audit = audit_log(engine_from("skirmish"), log)     # the liar games start from the skirmish
    assert "the game ended by breach" in audit.report and "does not find" not in audit.report, audit.report


def nothing_there_caught(status: str, reason: str, lie: dict[str, Any], log: Path, guest_log: Any) -> None:
    """HQ-1, HQ-12, HQ-17: the audit names event, action, turn and the signed answer (seq)."""
    m = re.search(r"audit failed: event (\d+), action (\d+), turn (\d+): the peer's signed 'hidden-answer' "
                  r"\(seq (\d+)\) is not what an honest machine sends there: answer differs", reason)
    assert m, reason
    ev, index, turn, seq = map(int, m.groups())
    assert (ev, index, turn) == (lie["ev"], lie["index"], lie["turn"])
    signed = peer_messages(log)[seq]
    assert isinstance(signed, HiddenAnswer) and (signed.ev, signed.n) == (lie["ev"], lie["n"])
    assert signed.opened == []
    lost_by_breach(status, reason, seq, log)


def other_piece_caught(status: str, reason: str, lie: dict[str, Any], log: Path, guest_log: Any) -> None:
    """Issue 8 item 3: refused at once, naming event, action, turn and the signed answer (seq)."""
    m = re.search(r"opens pieces its leaf openings do not \(event (\d+), action (\d+), turn (\d+); "
                  r"the peer's 'hidden-answer' message seq (\d+)\)", reason)
    assert m, reason
    ev, index, turn, seq = map(int, m.groups())
    assert (ev, index, turn) == (lie["ev"], lie["index"], lie["turn"])
    signed = peer_messages(log)[seq]
    assert isinstance(signed, HiddenAnswer) and signed.ev == lie["ev"] and signed.opened[0][0] == lie["opened"]
    lost_by_breach(status, reason, seq, log)


def illegal_move_caught(status: str, reason: str, lie: dict[str, Any], log: Path, guest_log: Any) -> None:
    """RUL-37, HQ-14, 03/M1.1: the opened action is refused by the engine at the audit, naming the
    turn, the rule and the signed message that began the event."""
    m = re.search(r"audit failed: event (\d+), action (\d+), turn (\d+): the peer's action \d+ '([^']+)' "
                  r"\(its '([\w-]+)' seq (\d+)\) is illegal: ([\w/.-]+)", reason)
    assert m, reason
    ev, index, turn = map(int, m.groups()[:3])
    text, tag, seq, rule = m.group(4), m.group(5), int(m.group(6)), m.group(7)
    assert (ev, index, turn, text, rule) == (lie["ev"], lie["index"], lie["turn"], lie["text"], lie["rule"])
    signed = peer_messages(log)[seq]
    # the event's first message carries the action sealed: a question (plain, or through PSI when
    # the hidden mover's question would disclose its path, HQ-1), or the event itself
    assert isinstance(signed, (HiddenQuery, HiddenPsi, HiddenEvent)) and signed.ev == lie["ev"] and signed.TAG == tag
    assert signed.seal is not None
    if isinstance(signed, HiddenEvent):
        assert signed.text == "" and signed.commit is not None      # it travelled as a commitment
    lost_by_breach(status, reason, seq, log)


def refuser_caught(status: str, reason: str, lie: dict[str, Any], log: Path, guest_log: Any) -> None:
    """Issue 8 item 5: the host claims after the audit's limit, wins, and both logs hold the claim."""
    assert status == "finished", reason
    assert "did not open its secrets for the audit within 2 s" in reason
    claims = [m for m in own_messages(log) if isinstance(m, Claim)]
    assert [(c.kind, c.turn) for c in claims] == [("audit", lie["turn"])]
    if guest_log is not None:
        assert [m.kind for m in peer_messages(Path(guest_log)).values() if isinstance(m, Claim)] == ["audit"]


CAUGHT: dict[str, Callable[..., None]] = {
    "nothing-there": nothing_there_caught, "other-piece": other_piece_caught,
    "illegal-range": illegal_move_caught, "illegal-blocked": illegal_move_caught, "refuser": refuser_caught}


def _lied(tmp: Path, name: str, role: str = "guest", **kw: Any) -> tuple[Game, dict[str, Any]]:
    """The first of a few seeded games in which the liar (playing ``role``) found its chance to lie."""
    for seed in range(8):
        game = play_game(tmp / f"{name}-{seed}", "deep", seed, "skirmish", actions=80,
                         machine={role: LIARS[name]}, **kw)
        liar = game.bots[role].liar
        assert liar is not None and type(liar) is LIARS[name]
        if liar.lie is not None:
            return game, liar.lie
    raise AssertionError(f"the {name} liar never had a chance in 8 games")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CAUGHT))
def test_a_lying_peer_is_caught_with_the_turn_and_signed_message_over_127_0_0_1(tmp_path: Path, name: str) -> None:
    """HQ-1, HQ-12, HQ-14, HQ-17, RUL-37 (see the module doc): the lie of ``name`` is caught by the
    honest host, which names the turn, the action, the event and the liar's signed message."""
    game, lie = _lied(tmp_path, name, audit_seconds=2)
    host, guest = game.outs["host"], game.outs["guest"]
    assert host.transcript is not None, (host.status, host.reason)
    CAUGHT[name](host.status, host.reason, lie, host.transcript, guest.transcript)
    if name in ("nothing-there", "illegal-range", "illegal-blocked"):
        # the liar's own audit finds its view false and names no message of the host's: it stops,
        # and its resignation before the audit awaits no receipt (docs/rulings.md N-6)
        assert guest.status == "stopped" and guest.reason.startswith("audit failed: "), guest.reason
        assert guest.transcript is not None and guest.transcript.name.endswith(".stopped.wal"), guest.transcript


@pytest.mark.slow
def test_a_lying_host_caught_in_play_loses_and_its_own_session_stops_on_the_claim(tmp_path: Path) -> None:
    """RUL-53 (docs/rulings.md N-6; issue 8 item 3, an answer opening another piece is refused at
    once): here the host lies. The honest guest catches it and wins by breach, its signed claim
    naming the host's signed lie. The lying host's own machine finds no fault in what it sent
    (its build lies on purpose), so it takes the claim for unfounded and its session ends stopped,
    no result of its own, its log kept as ``<id>.stopped.wal`` holding its lie and the claim. It
    does not wait for a resume: with ``abandon_after`` 1 s, a host that did would claim the game
    as abandoned (issue 10 item 1), the liar winning."""
    game, lie = _lied(tmp_path, "other-piece", role="host", audit_seconds=2, abandon_after=1.0)
    host, guest = game.outs["host"], game.outs["guest"]
    assert guest.transcript is not None, (guest.status, guest.reason)
    other_piece_caught(guest.status, guest.reason, lie, guest.transcript, None)   # the guest names the lie and wins
    assert guest.outcome == "black"
    # the winner got the liar's stopped before the connection ended: nothing left to deliver, its log
    # finished (a close with unread bytes could reset the link and lose that stopped, issue 10 item 1)
    assert guest.transcript.name.endswith(".finished.wal"), guest.transcript
    seq = int(re.search(r"message seq (\d+)\)", guest.reason).group(1))   # type: ignore[union-attr]
    assert host.status == "stopped", (host.status, host.reason)
    assert host.reason.startswith(f"unfounded breach claim: our message #{seq} breaks no rule by our record"), host.reason
    assert host.outcome is None
    assert host.transcript is not None and host.transcript.name.endswith(".stopped.wal"), host.transcript
    assert list(host.transcript.parent.glob("active-*.wal")) == []     # nothing is left to resume
    assert own_messages(host.transcript)[seq] == peer_messages(guest.transcript)[seq]   # its signed lie
    assert [m.kind for m in peer_messages(host.transcript).values() if isinstance(m, Claim)] == ["breach"]
