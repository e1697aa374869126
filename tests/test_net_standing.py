"""The owner's standing zone query (docs/rulings.md P-14, docs/protocol.md "PSI in play", HQ-10;
issue 10 item 6): at the end of its part of an event the owner sends its zone-test query for the
resolver's next event, and the resolver answers it right after that event, so the owner learns
which of its hidden pieces the resolver now sees without asking after the event: a zone-tested
event is ``event`` (+ the resolver's zone message) -> the owner's zone answer and ``ack`` ->
``shown``, three messages in sequence instead of five. An event that changes the owner's pieces,
the ply or the serials voids the standing query (the owner asks anew).

Asserted on the signed messages two real machines exchange (net.hidden_pair), from the hand-laid
position of tests/test_net_quiet.py, and over a seeded random game against the rule itself
(an event's consequences); every lying machine is refused at its first message out of place,
that message named as the only evidence (RUL-53, docs/rulings.md N-6).
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import engine.api as engine
from net import hidden_engine as he
from net.hidden_messages import PsiQuery, PsiReply
from net.hidden_pair import HiddenPair
from net.hidden_play import HiddenLockstep
from net.hidden_play_psi import QID_EV, ZONE_PRE
from net.hidden_quiet import standing_query_holds
from net.hidden_wire import HiddenEvent
from net.hidden_wire_psi import ZONE_N, HiddenPsi, psi_envelope, psi_messages
from net.outputs import Send
from test_net_quiet import ARTICLES, OPENING, _agrees, _play, assert_caught

PICK_UP_STEALTH = OPENING + ["PU:RP(10,8)^SH"]


def _zone_kinds(wire: list[tuple[str, Any]]) -> list[tuple[str, list[tuple[str, int]]]]:
    """(sender, [(PSI message type, qid % QID_EV)]) of each zone-test message."""
    return [(c[0], [(type(x).__name__, x.qid % QID_EV) for x in psi_messages(m)])
            for c, m in wire if isinstance(m, HiddenPsi) and m.n == ZONE_N]


def test_the_owners_standing_query_is_answered_with_the_next_event_hq_10() -> None:
    """HQ-10, P-14: in White's start phase (both zone tests asked after the event) Black's answer
    to White's test carries Black's standing query for White's next event; White's pick-up of
    the Stealth article answers it right after the event and its own query; Black's answer
    to White's query carries Black's next standing query. Six messages, three steps in
    sequence; both views are the omniscient engine's (Black no longer sees the Pawn)."""
    pair, omni, per = _play(PICK_UP_STEALTH, position=ARTICLES)
    assert pair.stops == []
    start = _zone_kinds(pair.wire[len(pair.wire) - len(per[-1]) - len(per[-2]):])
    pick_up = _zone_kinds(pair.wire[-len(per[-1]):])
    # White's start phase, asked after its event as before
    assert ("b", [("PsiReply", ZONE_N), ("PsiQuery", ZONE_PRE)]) in start
    assert per[-1] == ["w:event", "w:psi/zone", "w:psi/zone", "b:psi/zone", "b:ack", "w:shown"]
    assert pick_up == [("w", [("PsiQuery", ZONE_N)]), ("w", [("PsiReply", ZONE_PRE)]),
                       ("b", [("PsiReply", ZONE_N), ("PsiQuery", ZONE_PRE)])]
    ev = next(m.ev for c, m in pair.wire[-len(per[-1]):] if isinstance(m, HiddenEvent))
    answered = [x for x in psi_messages(pair.wire[-4][1]) if isinstance(x, PsiReply)][0]
    assert answered.qid == (ev - 1) * QID_EV + ZONE_PRE     # the query sent in the start phase
    white, black = pair.machines["white"], pair.machines["black"]
    assert white.stats["standing_answered"] == 1
    assert black.pre_ask is not None and white.pre_peer is not None   # the next one stands
    _agrees(pair, omni)


def test_an_event_that_changes_the_owners_pieces_voids_the_standing_query_hq_10() -> None:
    """P-14, HQ-10, RUL-18: a seeded random game (Fires half the time): in every event whose
    consequences change a piece of the owner's (``yours``), or the ply, the owner asks its zone
    test anew after the event and no standing query is answered; standing queries are answered
    in events of the turn they were sent in, each at most once, each the owner's last one."""
    options = engine.Options()
    pair = HiddenPair(engine, options)
    rng = random.Random(3)
    omni = engine.new_game(options)
    for _ in range(60):
        if pair.mover is None or pair.stops:
            break
        legal = engine.legal_actions(pair.machines[pair.mover].state_value)
        fires = [a for a in legal if isinstance(a, engine.Fire)]
        action = rng.choice(fires if fires and rng.random() < 0.5 else legal)
        pair.act(engine.format_action(action), legal=True)
        omni = engine.apply_action(omni, action)
    assert pair.stops == []
    sent: dict[int, int] = {}          # standing qid -> the ply it was sent in
    answered: list[int] = []
    voided = used = 0
    ply = None
    event_cons: dict[int, Any] = {}
    for c, m in pair.wire:
        if isinstance(m, HiddenEvent):
            cons = he.load_consequences(m.cons)
            event_cons[m.ev] = (c, cons, ply)
            ply = cons.ply
        if not (isinstance(m, HiddenPsi) and m.n == ZONE_N):
            continue
        for x in psi_messages(m):
            if isinstance(x, PsiQuery) and x.qid % QID_EV == ZONE_PRE:
                sent[x.qid] = event_cons[m.ev][1].ply
            if isinstance(x, PsiReply) and x.qid % QID_EV == ZONE_PRE:
                resolver, cons, before_ply = event_cons[m.ev]
                assert c == resolver and not cons.yours and cons.ply == before_ply
                assert x.qid in sent and x.qid not in answered and sent[x.qid] == cons.ply
                assert x.qid == max(q for q in sent if q < m.ev * QID_EV)   # the owner's last one
                answered.append(x.qid)
                used += 1
            if isinstance(x, PsiQuery) and x.qid % QID_EV == ZONE_N and x.qid // QID_EV in event_cons:
                resolver, cons, before_ply = event_cons[x.qid // QID_EV]
                if c != resolver and (cons.yours or cons.ply != before_ply):
                    voided += 1      # the owner asks anew after an event that changed its pieces
    assert used > 5 and voided > 0
    assert sum(m.stats["standing_answered"] for m in pair.machines.values()) == used


def test_standing_query_holds_only_while_the_owners_pieces_ply_and_serials_stay_p_14() -> None:
    """P-14: the rule both sides apply to an event's public consequences, on White's first
    pick-up (which changes nothing of Black's): it holds; with one of Black's pieces changed, a
    new ply, a new serial or a result, it does not."""
    pair, _omni, _per = _play(OPENING, position=ARTICLES)
    white = pair.machines["white"]
    before = white.state_value.clone()
    c = None
    for cm, m in pair.wire[::-1]:
        if isinstance(m, HiddenEvent) and cm == "white":
            c = he.load_consequences(m.cons)
            break
    assert c is not None
    c = dataclasses.replace(c, ply=before.ply, next_sid=before.next_sid, result=None, fresh_turn=False, yours=())
    assert standing_query_holds(before, c)
    black_piece = next(s for s, p in before.pieces.items() if p.side != "W")
    assert not standing_query_holds(before, dataclasses.replace(c, yours=((black_piece, None),)))
    assert not standing_query_holds(before, dataclasses.replace(c, ply=before.ply + 1))
    assert not standing_query_holds(before, dataclasses.replace(c, next_sid=before.next_sid + 1))
    assert not standing_query_holds(before, dataclasses.replace(c, result="W"))
    assert not standing_query_holds(before, dataclasses.replace(c, fresh_turn=True))


class _OwnerWithoutStanding(HiddenLockstep):
    """Black, the owner: never sends its standing query (hoping to ask later, after the event)."""

    def _standing(self, pe: Any, root: bytes) -> Any:
        return []

    def _standing_alone(self, pe: Any) -> Any:
        return []


class _ResolverIgnoresStanding(HiddenLockstep):
    """White, the resolver: drops Black's standing query and answers none with its event."""

    def _psi_resolver_query(self) -> Any:
        self.pre_peer = None
        return super()._psi_resolver_query()


class _OwnerAsksAnew(HiddenLockstep):
    """Black, the owner: its standing query answered, it still asks its zone test after the event
    (a second look at the resolver's zones, under a fresh scalar)."""

    def _psi_owner_show(self, cur: Any, det_r: Any) -> Any:
        out = super()._psi_owner_show(cur, det_r)
        if out == [] and cur.psi is not None and cur.psi.pre:
            rn, root, phash = self._stamp()
            za = self._zone_asker(self.ev * QID_EV + ZONE_N, root)
            return [Send(self._env(ZONE_N, za.start(), None, (rn, root, phash)))]
        return out


def test_an_owner_that_sends_no_standing_query_loses_p_14() -> None:
    """P-14, RUL-53: Black ends its part of White's start phase without the standing query that
    White's next action is due to answer: White refuses Black's ack and claims."""
    pair, _omni, _per = _play(OPENING + ["MV:K(10,10)->(9,10)"], position=ARTICLES, black=_OwnerWithoutStanding)
    assert_caught(pair, "white", "without its standing zone query", "ack")


def test_a_resolver_that_answers_no_standing_query_gets_no_ack_p_14() -> None:
    """P-14, RUL-53: White sends its pick-up's query but withholds its answer to Black's standing
    query (which the pick-up leaves standing: nothing of Black's changed), hoping Black asks
    after the event. Black answers White's query and waits for that answer: no ack, so White
    learns neither Black's lock targets nor the pieces it sees. White, expecting a fresh query,
    takes Black's answer for one out of place and claims a breach; by Black's record (the signed
    transcript) that claim is unfounded, and Black stops the game with it (docs/rulings.md N-6)."""
    pair, _omni, per = _play(PICK_UP_STEALTH, position=ARTICLES, white=_ResolverIgnoresStanding)
    assert per[-1] == ["w:event", "w:psi/zone", "b:psi/zone", "w:claim"]
    black = pair.machines["black"]
    assert black.cur is not None and black.cur.psi.pre and not black.cur.psi.acked
    assert [c for c, _ in pair.caught] == ["white", "black"]
    assert pair.caught[1][1].startswith("unfounded breach claim: our message #")


def test_an_owner_that_asks_anew_after_its_standing_query_was_answered_loses_p_14() -> None:
    """P-14, HQ-10, RUL-53: Black's standing query answered with White's pick-up, Black still sends
    a fresh zone-test query: White refuses it (one test per event) and claims."""
    pair, _omni, _per = _play(PICK_UP_STEALTH, position=ARTICLES, black=_OwnerAsksAnew)
    assert_caught(pair, "white", "the owner's zone test of an event that answered its standing query", "psi")


def test_a_standing_query_with_a_point_of_small_order_is_refused_when_it_comes_p_14() -> None:
    """P-14, RUL-53: Black's standing query arrives (in its answer to White's start-phase test)
    with a value of small order (u = 0, which no X25519 scalar blinds): White refuses it at once,
    naming the value, instead of failing later on its own event."""
    def tamper(sender: str, m: Any) -> Any:
        if sender != "black" or not isinstance(m, HiddenPsi) or m.n != ZONE_N:
            return m
        inner = psi_messages(m)
        if not any(isinstance(x, PsiQuery) and x.qid % QID_EV == ZONE_PRE for x in inner):
            return m
        bad = [dataclasses.replace(x, x=[bytes(32)] + x.x[1:])
               if isinstance(x, PsiQuery) and x.qid % QID_EV == ZONE_PRE else x for x in inner]
        return psi_envelope(m.ev, m.n, m.seal, bad, (m.rn, m.root, m.phash), m.locks)

    pair, _omni, _per = _play(OPENING[:-1], position=ARTICLES)
    pair.tap = tamper
    pair.act(OPENING[-1])      # Black's END: White's start phase, whose end brings the standing query
    assert pair.caught and pair.caught[0][0] == "white"
    assert "x[0] is no usable u-coordinate" in pair.caught[0][1]


def test_an_owner_whose_own_standing_query_went_stale_stops_without_blaming_the_resolver_p_14() -> None:
    """P-14: Black's standing query must list its hiding squares as they are when White's
    event answers it (the void rule guarantees it). Were Black's own record of it wrong (here
    made so by hand), Black stops the game naming its own machine, and claims no breach of
    White's."""
    pair, _omni, _per = _play(PICK_UP_STEALTH[:-1], position=ARTICLES)
    black = pair.machines["black"]
    assert black.pre_ask is not None
    black.pre_ask.cells = black.pre_ask.cells[1:] + (("x", 0, "zone-S"),)
    pair.act(PICK_UP_STEALTH[-1])
    assert pair.stops[0] == ("black", "our standing zone query no longer lists our hiding squares "
                                      "(docs/rulings.md P-14): our own machine is inconsistent; the game stops")
    assert {c for c, _ in pair.stops} == {"black"}
    assert not any(m.TAG == "claim" for _, m in pair.wire)
