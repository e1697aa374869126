"""A hidden-play machine rebuilt from its log after a crash at any point sends what it would have
sent (issue 10 item 6: "no equivocation possible after kill -9 at any point"; HQ-17).

``net.session`` writes each entry before it sends or applies it, so a process killed after
``k`` entries comes back with exactly those ``k``: it feeds them to a new machine
(``_replay_entries``), and the replies the machine computes and finds no logged copy of are sent
when the game resumes. Here, in seeded games played by two machines in one process
(``net.hidden_pair``, the zone tests through PSI, both at once), every side's log is cut at
every entry: the rebuilt machine's pending replies must be the very messages the side sent next
(same bytes: the PSI blinding comes from the per-game salt), never a different or reordered one,
which the peer could hold as an equivocation.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

import engine.api as api
from engine.state import serialise
from hidden_games import engine_from
from net.hidden_pair import HiddenPair
from net.hidden_play import HiddenLockstep
from net.outputs import Send
from test_partial import OPTION_SETS, seeded_action

GAME_ID = hashlib.sha256(b"wec/hidden-pair").digest()      # HiddenPair's defaults
SEEDS = {"white": hashlib.sha256(b"seed white").digest(), "black": hashlib.sha256(b"seed black").digest()}


class _Logged(HiddenLockstep):
    """A machine that keeps what it is fed, in order: its log (``net.session`` writes each entry
    before it is fed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple[bool, Any, Any]] = []

    def feed(self, own: bool, message: Any, secrets: Any = None) -> Any:
        self.log.append((own, message, secrets))
        return super().feed(own, message, secrets)


def _play(start: str, options: api.Options, seed: int, actions: int) -> HiddenPair:
    eng = engine_from(start)
    pair = HiddenPair(eng, options, machine=_Logged)
    omni = eng.new_game(options)
    rng = random.Random(seed)
    for _ in range(actions):
        if omni.result is not None:
            break
        action = seeded_action(rng, api.legal_actions(omni))
        omni = api.apply_action(omni, action)
        pair.act(api.format_action(action), legal=True)
    assert pair.stops == []
    return pair


def _cuts_that_differ(pair: HiddenPair, start: str, options: api.Options) -> list[str]:
    """Each side's log cut after every entry: where the rebuilt machine's pending replies are not
    the side's next own messages. One machine fed entry by entry is each prefix's rebuild."""
    problems = []
    for colour, played in pair.machines.items():
        rebuilt = HiddenLockstep(engine_from(start), options, colour, GAME_ID, seed=SEEDS[colour])
        pending: list[Any] = []
        for k, (own, message, secrets) in enumerate(played.log):
            sent_next = [m for o, m, _ in played.log[k:] if o]
            if pending != sent_next[:len(pending)]:
                problems.append(f"{colour} cut after {k} entries: would send "
                                f"{[m.TAG for m in pending]}, sent {[m.TAG for m in sent_next[:len(pending)]]}")
            if own and pending and pending[0] == message:
                pending.pop(0)
            pending.extend(o.message for o in rebuilt.feed(own, message, secrets) if isinstance(o, Send))
        if serialise(rebuilt.state_value) != serialise(played.state_value):
            problems.append(f"{colour}: the rebuilt state differs from the played one")
    return problems


@pytest.mark.parametrize("start,name,seed", [("standard", "standard", 3), ("skirmish", "no-reveals", 5)])
def test_a_machine_rebuilt_from_its_log_cut_anywhere_sends_what_it_sent_hq_17(start: str, name: str,
                                                                             seed: int) -> None:
    """HQ-17, issue 10 item 6: 30 seeded actions, zone tests through PSI; every side's log cut at
    every entry (several hundred cuts) rebuilds a machine whose pending replies are the side's
    next messages exactly, and whose state is the side's state at the end."""
    options = api.Options(**OPTION_SETS[name])
    pair = _play(start, options, seed, 30)
    kinds = {m.TAG for _, m in pair.wire}
    assert {"event", "ack", "shown", "psi"} <= kinds           # the zone tests ran, in PSI
    assert sum(len(m.log) for m in pair.machines.values()) > 300
    assert _cuts_that_differ(pair, start, options) == []


def test_a_rebuild_that_reorders_its_zone_test_is_caught_by_the_cut_check_hq_17(monkeypatch: pytest.MonkeyPatch) -> None:
    """HQ-17: the check above can fail. A rebuilt resolver that would ask its zone test only
    after the owner's ack (the order before 2026-12-03), while the played one asked it with its
    event, is reported at the cuts between its event and that query."""
    options = api.Options()
    pair = _play("standard", options, 3, 12)
    monkeypatch.setattr(HiddenLockstep, "_psi_resolver_query", lambda self: [])
    problems = _cuts_that_differ(pair, "standard", options)
    assert problems and problems[0].startswith("white cut after ")
    assert "would send ['claim'], sent ['shown']" in problems[0]
