"""The order of the two zone tests run at once (docs/protocol.md "PSI in play", HQ-10; issue 10
item 6): the resolver's query goes with its event, the owner sends its own query before its
answer to the resolver's, and each side's answer to the other's test comes after its own query.
A machine that sends them in another order is refused at the first message out of place, the
message named as evidence, and loses by breach (RUL-53, docs/rulings.md N-6); the honest side
never accepts an answer it could not yet have been sent.

The position and moves are tests/test_net_quiet.py's. Each lying machine lies at its first
chance: White's first event, the start of its turn after Black's ``END``, where both zone tests
run (Black's Queen moved; White's Sub d5 stands submerged).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from net.hidden_play import HiddenLockstep
from net.hidden_wire import HiddenEvent
from net.hidden_wire_psi import ZONE_N, HiddenPsi
from net.outputs import Send
from test_net_quiet import ARTICLES, OPENING, _play, assert_caught

PICK_UP_STEALTH = OPENING + ["PU:RP(10,8)^SH"]


def _whites_event(per: list[list[str]]) -> list[str]:
    """The messages from White's first event on (the last action's messages hold Black's END)."""
    last = per[-1]
    return last[last.index("w:event"):]


class _OwnerAnswersBeforeItsQuery(HiddenLockstep):
    """Black, the owner: holds back its own zone-test query (its reply to the resolver's event)
    and sends it after its answer to the resolver's query."""

    held: list[Any] | None = None

    def feed(self, own: bool, msg: Any, secrets: Any = None) -> Any:
        out = super().feed(own, msg, secrets)
        if not own and isinstance(msg, HiddenEvent):
            self.held = [o for o in out if isinstance(o, Send) and isinstance(o.message, HiddenPsi)]
            out = [o for o in out if o not in self.held]
        return out

    def _owner_psi(self, cur: Any, msg: Any, inner: list[Any]) -> Any:
        out = super()._owner_psi(cur, msg, inner)
        if self.held:
            out, self.held = out + self.held, None
        return out


class _ResolverAnswersBeforeItsQuery(HiddenLockstep):
    """White, the resolver: sends its zone-test query only after its answer to the owner's."""

    held: list[Any] | None = None

    def _psi_resolver_query(self) -> Any:
        self.held = super()._psi_resolver_query()
        return []

    def _resolver_psi(self, cur: Any, msg: Any, inner: list[Any]) -> Any:
        out = super()._resolver_psi(cur, msg, inner)
        if self.held:
            out, self.held = out + self.held, None
        return out


def test_an_owner_that_answers_the_resolvers_zone_test_before_its_own_query_loses_hq_10() -> None:
    """HQ-10, RUL-53: Black answers White's query first: White refuses that answer (Black's own
    query was due first) and claims."""
    pair, _omni, per = _play(PICK_UP_STEALTH, position=ARTICLES, black=_OwnerAnswersBeforeItsQuery)
    # Black's late query crosses White's claim and is never answered
    assert _whites_event(per) == ["w:event", "w:psi/zone", "b:psi/zone", "b:psi/zone", "w:claim"]
    assert_caught(pair, "white", "the owner's answer to our zone test before its own zone test", "psi")


def test_a_resolver_that_answers_the_owners_zone_test_before_its_own_query_loses_hq_10() -> None:
    """HQ-10, RUL-53: White sends its event without its query and answers Black's query first:
    Black refuses that answer (White's query goes with its event) and claims."""
    pair, _omni, per = _play(PICK_UP_STEALTH, position=ARTICLES, white=_ResolverAnswersBeforeItsQuery)
    # White's late query crosses Black's claim
    assert _whites_event(per) == ["w:event", "b:psi/zone", "w:psi/zone", "w:psi/zone", "b:claim"]
    assert_caught(pair, "black", "the resolver's answer to our zone test before its own zone test", "psi")


def test_an_empty_psi_message_is_a_breach_not_a_crash_hq_10() -> None:
    """HQ-10, RUL-53: White's zone-test query arrives with no PSI step in it (its list emptied
    on the way): Black refuses it with the reason, claims, and no exception escapes."""
    pair, _omni, _per = _play(OPENING, position=ARTICLES)

    def empty(sender: str, m: Any) -> Any:
        if sender == "white" and isinstance(m, HiddenPsi) and m.n == ZONE_N:
            return dataclasses.replace(m, msgs=[])
        return m

    pair.tap = empty
    pair.act("PU:RP(10,8)^SH")
    assert pair.caught and pair.caught[0][0] == "black"
    assert "a psi message with no PSI step in it" in pair.caught[0][1]
