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

The same four over two network namespaces with two ``wec`` processes: tests/test_net_netns.py.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from hidden_games import Game, play_game
from hidden_liars import LIARS
from net.hidden_wire import HiddenAnswer, HiddenEvent, HiddenQuery
from net.messages import Claim
from wal_helpers import own_messages, peer_messages


def _lied(tmp: Path, name: str, **kw: Any) -> tuple[Game, dict[str, Any]]:
    """The first of a few seeded games in which the liar found its chance to lie."""
    for seed in range(8):
        game = play_game(tmp / f"{name}-{seed}", "deep", seed, "skirmish", actions=80,
                         machine={"guest": LIARS[name]}, **kw)
        liar = game.bots["guest"].liar
        assert liar is not None and type(liar) is LIARS[name]
        if liar.lie is not None:
            return game, liar.lie
    raise AssertionError(f"the {name} liar never had a chance in 8 games")


def _host_log(game: Game) -> Path:
    out = game.outs["host"]
    assert out.transcript is not None, (out.status, out.reason)
    return out.transcript


@pytest.mark.slow
def test_an_answer_nothing_there_over_a_hidden_piece_is_caught_by_the_audit_hq_1(tmp_path: Path) -> None:
    """HQ-1, HQ-12, HQ-17: the guest answers "nothing there" where its hidden piece stands; play
    goes on (the host cannot tell), the guest resigns, and the host's audit names the event,
    the action, the turn and the signed answer (its chain number), which its log holds."""
    game, lie = _lied(tmp_path, "nothing-there")
    host = game.outs["host"]
    assert host.status == "stopped"
    m = re.search(r"audit failed: event (\d+), action (\d+), turn (\d+): the peer's signed 'hidden-answer' "
                  r"\(seq (\d+)\) is not what an honest machine sends there: answer differs", host.reason)
    assert m, host.reason
    ev, index, turn, seq = map(int, m.groups())
    assert (ev, index, turn) == (lie["ev"], lie["index"], lie["turn"])
    signed = peer_messages(_host_log(game))[seq]
    assert isinstance(signed, HiddenAnswer) and (signed.ev, signed.n) == (lie["ev"], lie["n"])
    assert signed.opened == []


@pytest.mark.slow
def test_an_answer_opening_another_piece_is_refused_at_once_hq_1(tmp_path: Path) -> None:
    """HQ-1 (the piece is opened "in full"), issue 8 item 3: the guest's answer opens the leaf
    of another of its pieces; the host checks the openings against the answer at once and stops,
    naming the event, action, turn and the signed message."""
    game, lie = _lied(tmp_path, "other-piece")
    host = game.outs["host"]
    assert host.status == "stopped"
    m = re.search(r"opens pieces its leaf openings do not \(event (\d+), action (\d+), turn (\d+); "
                  r"the peer's 'hidden-answer' message seq (\d+)\)", host.reason)
    assert m, host.reason
    ev, index, turn, seq = map(int, m.groups())
    assert (ev, index, turn) == (lie["ev"], lie["index"], lie["turn"])
    signed = peer_messages(_host_log(game))[seq]
    assert isinstance(signed, HiddenAnswer) and signed.ev == lie["ev"] and signed.opened[0][0] == lie["opened"]


@pytest.mark.slow
@pytest.mark.parametrize("name,rule", [("illegal-range", None), ("illegal-blocked", None)])
def test_an_illegal_hidden_move_is_caught_by_the_audit_rul_37(tmp_path: Path, name: str, rule: Any) -> None:
    """RUL-37, HQ-14, 03/M1.1: the guest commits to a Move of a hidden piece out of its range
    (or through a blocking piece) and sends the consequences of a legal one; at the audit the
    opened action is refused by the engine, naming the turn, the rule and the signed message."""
    game, lie = _lied(tmp_path, name)
    host = game.outs["host"]
    assert host.status == "stopped"
    m = re.search(r"audit failed: event (\d+), action (\d+), turn (\d+): the peer's action \d+ '([^']+)' "
                  r"\(its '([\w-]+)' seq (\d+)\) is illegal: ([\w/.-]+)", host.reason)
    assert m, host.reason
    ev, index, turn = map(int, m.groups()[:3])
    text, tag, seq, rule = m.group(4), m.group(5), int(m.group(6)), m.group(7)
    assert (ev, index, turn, text, rule) == (lie["ev"], lie["index"], lie["turn"], lie["text"], lie["rule"])
    signed = peer_messages(_host_log(game))[seq]
    assert isinstance(signed, (HiddenQuery, HiddenEvent)) and signed.ev == lie["ev"] and signed.TAG == tag
    if isinstance(signed, HiddenEvent):
        assert signed.text == "" and signed.commit is not None      # it travelled as a commitment


@pytest.mark.slow
def test_a_peer_that_never_opens_loses_on_the_audit_time_limit(tmp_path: Path) -> None:
    """Issue 8 item 5: the guest never opens its secrets; after the audit's time limit (2 s here)
    the host claims the game; the host wins, and both logs hold the signed claim naming the turn."""
    game, lie = _lied(tmp_path, "refuser", audit_seconds=2)
    host, guest = game.outs["host"], game.outs["guest"]
    assert host.status == "finished" and host.outcome == "white", host.reason
    assert "did not open its secrets for the audit within 2 s" in host.reason
    claims = [m for m in own_messages(_host_log(game)) if isinstance(m, Claim)]
    assert [(c.kind, c.turn) for c in claims] == [("audit", lie["turn"])]
    if guest.transcript is not None:
        assert [m.kind for m in peer_messages(guest.transcript).values() if isinstance(m, Claim)] == ["audit"]
