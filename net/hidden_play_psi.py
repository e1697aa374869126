"""The PSI exchanges inside hidden play (issue 8 item 4; HQ-1, HQ-2, HQ-10, HQ-11, HQ-12).

``PsiPlay`` is a mixin of ``net.hidden_play.HiddenLockstep``: the machine calls it at a few
narrow hooks, and it runs the state machines of ``net.hidden_psi`` over signed ``psi`` game
messages (``net.hidden_wire_psi``). With the network option ``hidden_psi`` on (the default,
negotiated like every option) an event goes (docs/protocol.md "PSI in play"):

1. R (the resolver) resolves the event; each remote question that ``goes_through_psi`` (the
   event's actor is hidden from the owner, ``use_psi``; a lock search always) is a
   ``QuestionAsker``: ``psi`` {psi-ask, psi-query}, then {psi-step} per ``psi-step-reply`` the
   owner's ``QuestionResponder`` returns; a follow-up the PSI calls for (``open_on`` of the cells
   found, ``lock_in`` of the lock's cell) is a plain ``hidden-query``. The other questions are
   plain as before. ``event`` carries R's lock targets only (empty zones).
2. R asks the mirrored zone test right after its event (``_psi_resolver_query``: its own hiding
   squares after the event need nothing of O's), so both tests run at once.
3. O (the owner) receives the consequences, then asks its zone test (``ZoneAsker``: ``psi``
   {psi-query}) and answers R's (``ZoneResponder``: {psi-reply}); R answers O's from its zones;
   O's ``Shown`` is what the squares found make it show. ``ack`` carries O's lock targets only.
4. With O's reply and the ack, R's ``Shown`` follows in ``shown``.

Every blinding scalar and padding seed is derived from the side's per-game salt secret
(``psi_secret``), so a machine rebuilt from its log after a crash sends the same bytes, and the
audit's honest re-run of the peer (``net.hidden_audit``, with the secret the peer opens)
reproduces every PSI message the peer signed, byte for byte: a responder that left a piece out
of its set, an asker that probed other cells or used another scalar, is named there. With the
option off (``hidden_psi`` 0) the zones and cells travel in clear as before (bulk tests).
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import Any

from engine.partial import Zones
from engine.state import serialise
from net import hidden_engine as he
from net import hidden_psi as hp
from net import psi
from net.errors import ProtocolError
from net.hidden_messages import PsiQuery, PsiReply, PsiStep, PsiStepReply
from net.hidden_quiet import kept_tests, standing_query_holds
from net.hidden_wire import HiddenEvent, HiddenQuery
from net.hidden_wire_psi import ZONE_N, HiddenPsi, psi_envelope, psi_messages
from net.outputs import Output, Send

QID_EV = 1024            # qid = event * QID_EV + question number (ZONE_N: the zone test)
#: the question number of the owner's standing zone query sent in an event, for the next (P-14)
ZONE_PRE = ZONE_N - 1
#: the u-coordinates of small order on Curve25519 and its twist, reduced (X25519 of any scalar
#: gives zero on them, and the library refuses that): a standing query is checked against them
#: when it comes, so that answering it with our next event cannot fail then
_SMALL_ORDER = frozenset(u.to_bytes(32, "little") for u in (
    0, 1, psi.P - 1,
    325606250916557431795983626356110631294008115727848805560023387167927233504,
    39382357235489614581723060781553021112529911719440698176882885853963445705823))


def psi_secret(seed: bytes, game_id: bytes, asker: str, qid: int, role: str) -> tuple[bytes, bytes]:
    """(blinding scalar, padding seed) of one side in exchange ``qid`` asked by ``asker``: a PRF
    of the side's per-game salt secret (revealed only at the audit)."""
    k = hmac.digest(seed, b"wec/psi-secret/v1\x00" + game_id + asker.encode() + role.encode()
                    + qid.to_bytes(8, "big"), "sha512")
    return k[:32], k[32:]


@dataclass
class PsiEv:
    """The PSI state of one event on one side."""

    qa: Any = None               # resolver: the question exchange in progress
    follow: Any = None           # resolver: the exchange whose plain follow-up is asked
    qr: Any = None               # owner: the question exchange being answered
    follow_n: int | None = None  # owner: the question whose plain follow-up may come
    za: Any = None               # our zone test (as owner after the event; as resolver with our event)
    found: Any = None            # resolver: our zone test's result (also ``zone_found``), waiting for the ack
    received: bool = False       # owner: the resolver's event is received (its zone test may come)
    locked: frozenset[int] = frozenset()   # the lock targets our zone test's Detectors take
    zone_answered: bool = False  # we answered the peer's zone test of this event
    acked: bool = False          # owner: our ack is sent / resolver: the peer's ack came
    shown: Any = None            # resolver: the owner's Shown, accepted after our zone test
    gone: frozenset[int] = frozenset()
    pre: bool = False            # the owner's zone test is its standing query, answered with the event (P-14)
    pre_due: bool = False        # the owner's next standing query is due in this event (P-14)
    pre_sent: bool = False       # owner: it is sent / resolver: it came
    standing: Any = None         # resolver: the owner's standing query, answered once our query is sent
    locks: list[int] | None = None   # the owner's lock targets in its answer to the resolver's test (P-15)
    early: bool = False          # resolver: our shown is sent, on the owner's answer, before its ack (P-15)
    exchanges: list[str] = field(default_factory=list)


class PsiPlay:
    """Mixin of ``HiddenLockstep`` (see the module doc). Expects the machine's ``seed``,
    ``game_id``, ``me``, ``them``, ``side``, ``ev``, ``cur``, ``peer_root``, ``stats``,
    ``_stamp``, ``_peer_stamp``, ``_step``, ``_owner_event``, ``_owner_ack``, ``_resolver_shown``,
    ``_after_own_event``."""

    psi_on: bool = True
    #: P-10 on (as shipped); ``net.bench --compare`` turns it off in both peer processes to measure
    #: the event without it in the same run (both sides must agree, like the protocol version)
    quiet_moves: bool = True
    #: P-14 on (as shipped); ``net.bench --compare-standing`` turns it off in both peer processes
    #: (the owner then asks its zone test after every event, as before P-14)
    standing_queries: bool = True
    #: compute our next zone-test party's blindings right after our own send (``_psi_warm``);
    #: ``net.bench --compare-psi`` turns it off (with ``net.psi.UNBLIND_COST``) to measure main's way
    psi_warm: bool = True
    #: P-15 on (as shipped): the resolver's ``shown`` goes on the owner's zone answer, before its
    #: ack; ``net.bench --compare-early`` turns it off (the owner's answer names its lock targets
    #: either way, so the two sides need not agree)
    early_shown: bool = True
    #: (asker, qid) -> (PsiContext, this side's cells) of every exchange this side took part in
    #: (instrumentation for the leak tests: what must never appear in clear in its messages)
    psi_cells: dict[tuple[str, int], tuple[Any, tuple[Any, ...]]]

    def _psi_init(self, psi: bool) -> None:
        self.psi_on = bool(psi)
        self.psi_cells = {}
        #: (asker, qid) -> (z, cell_of) of every exchange this side answered as responder: what
        #: the audit's re-run of the peer's asker reads its matches from (``PsiAsker.use_oracle``)
        self.psi_resp: dict[tuple[str, int], tuple[list[bytes], list[Any]]] = {}
        #: set on the audit's honest re-run of the peer (``net.hidden_audit``): the auditing machine
        self.psi_auditor: Any = None
        #: public bounds of the zone test's sizes (docs/rulings.md P-8), from the agreed start
        self.zone_caps = hp.zone_caps(self.start)                      # type: ignore[attr-defined]
        self.zone_tags = hp.zones_in_play(self.start.options)          # type: ignore[attr-defined]
        self.psi_kinds: dict[str, int] = {}   # PSI questions asked by kind (first, lock...)
        #: ((qid, our state's bytes), ZoneResponder) built ahead by ``_warm_responder``
        self._warm_zr: tuple[tuple[int, bytes], hp.ZoneResponder] | None = None
        #: ``idle_step``'s work: (next event, our state's bytes) and its generator
        self._idle_key: tuple[int, bytes] | None = None
        self._idle_gen: Any = None
        for k in ("psi_questions", "psi_follow_ups", "zone_tests", "psi_messages", "quiet_events",
                  "kept_zone_tests", "standing_answered", "early_shown"):
            self.stats[k] = 0   # type: ignore[attr-defined]
        #: our last zone test's result (the squares found, by zone): what a quiet Move keeps
        #: (net.hidden_quiet, docs/rulings.md P-10); None before the first and after an undo
        self.zone_found: tuple[frozenset[Any], frozenset[Any]] | None = None
        #: P-14 (docs/rulings.md): as owner, our standing zone query (a ``ZoneAsker`` sent at the
        #: end of our part of the last event, for the resolver's next); as resolver, the owner's
        #: (its ``PsiQuery``), which we answer with our next event. None when none stands.
        self.pre_ask: hp.ZoneAsker | None = None
        self.pre_peer: PsiQuery | None = None

    def _pe(self, cur: Any) -> PsiEv:
        if cur.psi is None:
            cur.psi = PsiEv()
        return cur.psi

    def _secret(self, asker: str, qid: int, role: str) -> tuple[bytes, bytes]:
        return psi_secret(self.seed, self.game_id, asker, qid, role)   # type: ignore[attr-defined]

    def _peer_root_bytes(self) -> bytes:
        pr = self.peer_root                                            # type: ignore[attr-defined]
        return pr[1] if pr is not None else bytes(32)

    def _env(self, n: int, msgs: list[Any], seal: bytes | None = None, stamp: Any = None,
             locks: list[int] | None = None) -> HiddenPsi:
        self.stats["psi_messages"] += 1                                # type: ignore[attr-defined]
        return psi_envelope(self.ev, n, seal, msgs, stamp or self._stamp(), locks)  # type: ignore[attr-defined]

    def _keep(self, asker: str, x: Any) -> None:
        key = (asker, x.rec.ctx.qid)
        self.psi_cells[key] = (x.rec.ctx, x.cells)
        if isinstance(x, hp._ResponderBase):
            self.psi_resp[key] = (x.psi.z, x.psi.cell_of)
        elif self.psi_auditor is not None:
            kept = self.psi_auditor.psi_resp.get(key)
            if kept is not None:
                x.psi.use_oracle(*kept)

    # ---- hooks the machine calls ----

    def _psi_warm(self, msg: Any) -> None:
        """Our message ``msg`` was just sent (``feed`` of our own message): compute the blindings
        of our next zone-test party now (``net.psi.warm``), while the peer works and the message
        travels, instead of when the peer's next message needs them (issue 10 item 6):

        * resolver, after our zone-test query (sent with our ``event``; after the ``event`` itself
          when P-10 / P-13 keeps our test): our ``ZoneResponder`` for the owner's zone test, which
          the owner's ``psi{psi-query}`` comes for (100 squares per zone, padded);
        * owner, after our zone-test query: our ``ZoneResponder`` for the resolver's test, whose
          query came with the event.
        Skipped where P-10 keeps that test. What is sent is the same byte for byte (only our own
        points, a pure function of the scalar); a state that changed meanwhile only misses."""
        cur = self.cur                                                 # type: ignore[attr-defined]
        if not self.psi_warm or not self.psi_on or not self.zone_tags or cur is None:
            return
        qid = self.ev * QID_EV + ZONE_N                                # type: ignore[attr-defined]
        root = self._peer_root_bytes()
        pe = cur.psi
        if cur.role == "resolver":
            # after our event when no query of ours follows it, else after that query
            ours = (isinstance(msg, HiddenPsi) and msg.n == ZONE_N and pe is not None and pe.za is not None
                    and not pe.zone_answered)
            answered = pe is not None and pe.pre   # P-14: we answered the owner's standing query
            if not cur.keep_o and not answered and ((isinstance(msg, HiddenEvent) and cur.keep_r) or ours):
                self._warm_responder(qid, root)
        elif (isinstance(msg, HiddenPsi) and msg.n == ZONE_N and pe is not None and pe.za is not None
              and not pe.zone_answered and not cur.keep_r):
            self._warm_responder(qid, root)

    def idle_step(self) -> bool:
        """One short chunk of work ahead while we wait (the session calls it between reads when
        nothing has come in; issue 10 item 6): the X25519 blindings of our two parties in the
        next event's zone tests (``net.psi.warm_points``), our ``ZoneResponder``'s set (the zone
        squares of our current state and the padding to its public size: the costly part, 200
        operations in standard play) and our ``ZoneAsker``'s values. What is sent later is the
        same byte for byte (a value is a pure function of scalar and point, and a point not
        warmed is computed when it is needed); a state that changes meanwhile is warmed anew,
        points already done skipped. False: nothing (more) to do now."""
        if not self.psi_warm or not self.psi_on or not self.zone_tags or self.ended:   # type: ignore[attr-defined]
            return False
        ev = self.ev if self.cur is None else self.ev + 1              # type: ignore[attr-defined]
        key = (ev, serialise(self.side.state))                         # type: ignore[attr-defined]
        if self._idle_key != key:
            self._idle_key, self._idle_gen = key, self._idle_jobs(ev)
        if self._idle_gen is None:
            return False
        try:
            if next(self._idle_gen, StopIteration) is not StopIteration:
                return True
        except Exception:   # noqa: BLE001  (speculative, as ``psi.warm``: the real run reports any error)
            pass
        self._idle_gen = None
        return False

    def _idle_jobs(self, ev: int) -> Any:
        """``idle_step``'s generator: the points of our parties for the state as it is now, then
        for the next ply (an End Turn event's tests run under the new ply, which their values'
        context includes), each our asker's few values before our responder's 200. With a
        standing query (P-14), as resolver: first our answer to it (its values, our set), and our
        answer to a fresh query after (an event that voids it); as owner: our next standing
        query's values too. Its number is known before it comes (``ev`` x 1024 + 1022)."""
        qid = ev * QID_EV + ZONE_N
        state = self.side.state                                        # type: ignore[attr-defined]
        size, z_size = hp.capped_zone_sizes(state, self.zone_caps)
        tags = self.zone_tags
        mover = state.side_to_move == self.me                          # type: ignore[attr-defined]
        pre = self.pre_peer if mover else None
        cur = self.cur                                                 # type: ignore[attr-defined]
        standing = pre.qid if pre is not None else None
        if mover and pre is None and cur is not None and cur.psi is not None and cur.psi.pre_due:
            standing = self.ev * QID_EV + ZONE_PRE   # type: ignore[attr-defined]  # the owner's next, on its way
        askers = [qid] if mover else [qid, ev * QID_EV + ZONE_PRE]
        rcells = sorted(set(c for c in hp.zone_responder_cells(self.side) if c[2] in tags))  # type: ignore[attr-defined]
        acells = [c for c in hp.zone_asker_cells(self.side) if c[2] in tags][:size]  # type: ignore[attr-defined]
        if pre is not None:
            yield
            yield from psi.warm_points(self._secret(self.them, pre.qid, "responder")[0], pre.x)  # type: ignore[attr-defined]
        plies = [(state.ply, standing if standing is not None else qid), (state.ply + 1, qid)]
        if standing is not None:
            plies.append((state.ply, qid))
        for n, (ply, r_qid) in enumerate(plies):
            if n < 2:
                for a_qid in askers:
                    a_scalar, a_seed = self._secret(self.me, a_qid, "asker")   # type: ignore[attr-defined]
                    actx = psi.PsiContext(self.game_id, ply, a_qid, hp.ZONE_HQ, self.me)  # type: ignore[attr-defined]
                    a_us = ([psi.cell_u(actx, c) for c in acells]
                            + [psi.pad_u(actx, a_seed, "asker", i) for i in range(len(acells), size)])
                    yield
                    yield from psi.warm_points(a_scalar, a_us)
            r_scalar, r_seed = self._secret(self.them, r_qid, "responder")   # type: ignore[attr-defined]
            rctx = psi.PsiContext(self.game_id, ply, r_qid, hp.ZONE_HQ, self.them)  # type: ignore[attr-defined]
            r_us = ([psi.cell_u(rctx, c) for c in rcells]
                    + [psi.pad_u(rctx, r_seed, "responder", j) for j in range(max(0, z_size - len(rcells)))])
            yield
            yield from psi.warm_points(r_scalar, r_us)

    def _psi_resolver_query(self) -> list[Output]:
        """Resolver, right after our ``event`` is sent: our own zone test's query, unless P-10 /
        P-13 keeps its result. It needs only our hiding squares after the event, so it travels
        with the event instead of after the owner's ack; the owner answers it at once. Then, in a
        ``psi`` message of its own (``_psi_standing_answer``, computed once the query is sent, so
        the owner answers while we compute it), our answer to the owner's standing query (P-14),
        unless the event keeps the owner's test or changed what that query lists (then the owner
        asks anew after the event). Sequence (docs/protocol.md "PSI in play"): ``event``, our
        query, our answer -> the owner's answer and ``ack`` -> ``shown``."""
        cur = self.cur                                                 # type: ignore[attr-defined]
        if not self.psi_on or not self.zone_tags or cur is None or cur.role != "resolver" or cur.res is None:
            return []
        pe = self._pe(cur)
        if pe.za is not None or pe.found is not None or pe.zone_answered:
            return []
        pre = self.pre_peer
        if pre is not None and not cur.pre_ok:
            self.pre_peer = pre = None        # the owner's pieces, the ply or the serials changed
        if pre is not None and not cur.keep_o:
            self.pre_peer = None
            pe.pre, pe.standing = True, pre
        pe.pre_due = self.pre_peer is None and self._continues(self.me)   # type: ignore[attr-defined]
        if cur.keep_r:
            return self._psi_standing_answer()
        rn, root, phash = self._stamp()                                # type: ignore[attr-defined]
        return [Send(self._env(ZONE_N, self._zone_asker_start(pe, root), None, (rn, root, phash)))]

    def _psi_standing_answer(self) -> list[Output]:
        """Resolver, right after our zone query is sent (or our event, when P-10 keeps our test):
        our answer to the owner's standing query, from our zones after the event (P-14)."""
        cur = self.cur                                                 # type: ignore[attr-defined]
        pe = None if cur is None else cur.psi
        if pe is None or pe.standing is None:
            return []
        pre, pe.standing = pe.standing, None
        rn, root, phash = self._stamp()                                # type: ignore[attr-defined]
        zr = self._answering_responder(pre.qid, root)
        self._keep(self.them, zr)                                      # type: ignore[attr-defined]
        pe.zone_answered = True
        self.stats["standing_answered"] += 1                           # type: ignore[attr-defined]
        return [Send(self._env(ZONE_N, zr.on_message(pre), None, (rn, root, phash)))]

    def _continues(self, resolver: str) -> bool:
        """After the event: the game goes on and ``resolver`` resolves the next event too (its
        turn goes on, or a start phase began it), so the owner's standing query is due (P-14)."""
        s = self.side.state                                            # type: ignore[attr-defined]
        return self.standing_queries and s.result is None and s.side_to_move == resolver

    def _standing(self, pe: PsiEv, root: bytes) -> list[Any]:
        """Owner: our next standing zone query (P-14) when it is due and not yet sent in this
        event: the ``psi-query`` of a ``ZoneAsker`` of our state now (after the consequences),
        numbered ``ev * QID_EV + ZONE_PRE``, bound to ``root``; it rides in our first zone-test
        message after the event (our answer to the resolver's test, else alone before our ack)."""
        if not pe.pre_due or pe.pre_sent:
            return []
        pe.pre_sent = True
        qid = self.ev * QID_EV + ZONE_PRE                              # type: ignore[attr-defined]
        za = self._zone_asker(qid, root)
        self._keep(self.me, za)                                        # type: ignore[attr-defined]
        self.pre_ask = za
        return za.start()

    def _standing_alone(self, pe: PsiEv) -> list[Output]:
        """Owner, just before our ack: the standing query if it is still due (in a ``psi``
        message of its own, with the stamp the ack carries)."""
        if not pe.pre_due or pe.pre_sent:
            return []
        rn, root, phash = self._stamp()                                # type: ignore[attr-defined]
        return [Send(self._env(ZONE_N, self._standing(pe, root), None, (rn, root, phash)))]

    def _take_standing(self, cur: Any, inner: list[Any]) -> list[Any]:
        """Resolver: take the owner's standing query out of a zone-test message of the owner's
        (P-14), checked now (number, kind, public size, points), so that answering it with our
        next event cannot fail; the other PSI messages are returned."""
        pre = [m for m in inner if isinstance(m, PsiQuery) and m.qid == self.ev * QID_EV + ZONE_PRE]  # type: ignore[attr-defined]
        if not pre:
            return inner
        pe = self._pe(cur)
        q = pre[0]
        if len(pre) > 1 or not pe.pre_due or pe.pre_sent:
            raise ProtocolError(f"a standing zone query (psi-query {q.qid}) where none is due (docs/rulings.md P-14)")
        size = hp.capped_zone_sizes(self.side.state, self.zone_caps)[0]   # type: ignore[attr-defined]
        if q.hq != hp.ZONE_HQ or q.mode != "set" or q.size != size or len(q.x) != size:
            raise ProtocolError(f"the standing zone query psi-query {q.qid} is not a {hp.ZONE_HQ} set query "
                                f"of the public size {size} (docs/rulings.md P-8, P-14)")
        for i, x in enumerate(q.x):
            if len(x) != 32 or int.from_bytes(x, "little") >= psi.P or x in _SMALL_ORDER:
                raise ProtocolError(f"the standing zone query psi-query {q.qid}: x[{i}] is no usable u-coordinate")
        pe.pre_sent = True
        self.pre_peer = q
        return [m for m in inner if m is not q]

    def _psi_standing_check(self, cur: Any) -> None:
        """Resolver, before our ``shown``: the owner's standing query, when due, came (P-14)."""
        pe = cur.psi
        if pe is not None and pe.pre_due and not pe.pre_sent:
            raise ProtocolError("the owner ended its part of the event without its standing zone query for our "
                                "next action (docs/rulings.md P-14)")

    def _warm_responder(self, qid: int, root: bytes) -> None:
        """Build our ``ZoneResponder`` for exchange ``qid`` now (``_psi_warm``). It is kept
        with our whole state's bytes: the zone answer takes it if our state is still the same
        (a pure function of it, the exchange and our secret; the reply's root is set then),
        else builds its own from the values warmed. A build overridden by a subclass (a test's
        lying peer) is only warmed, never kept."""
        box: list[hp.ZoneResponder] = []
        self._warm_zr = None
        if psi.warm(lambda: box.append(self._zone_responder(qid, root))) \
                and type(self)._zone_responder is PsiPlay._zone_responder:
            self._warm_zr = ((qid, serialise(self.side.state)), box[0])   # type: ignore[attr-defined]

    def _answering_responder(self, qid: int, root: bytes) -> hp.ZoneResponder:
        """Our ``ZoneResponder`` for the peer's zone test ``qid``: the one built ahead when our
        state has not changed since (``_warm_responder``), else a new one."""
        warmed, self._warm_zr = self._warm_zr, None
        if warmed is not None and warmed[0] == (qid, serialise(self.side.state)):   # type: ignore[attr-defined]
            zr = warmed[1]
            zr.psi.root = root
            zr.psi.blinder.settle()
            return zr
        return self._zone_responder(qid, root)

    def _psi_disclosed(self, det: Zones) -> Zones:
        """The ``Detectors`` an ``event`` or ``ack`` carries: with PSI only the lock targets."""
        return Zones(frozenset(), frozenset(), det.locked) if self.psi_on else det

    def _psi_question(self, cur: Any, q: Any, sealed: bytes | None) -> HiddenPsi | None:
        """Resolver: question ``q`` (number ``cur.asked_n``) through PSI, or None (plain)."""
        if not self.psi_on or not hp.goes_through_psi(q, hp.use_psi(self.side, cur.action)):  # type: ignore[attr-defined]
            return None
        n = cur.asked_n
        if n >= ZONE_PRE:
            raise ProtocolError(f"an event asks more than {ZONE_PRE} questions")
        rn, root, phash = self._stamp()                                # type: ignore[attr-defined]
        qa = hp.QuestionAsker(self.game_id, self.ev * QID_EV + n, self.me, self.side.state, q,  # type: ignore[attr-defined]
                              root, self._peer_root_bytes(), self._secret(self.me, self.ev * QID_EV + n, "asker"),  # type: ignore[attr-defined]
                              self.side.exposed)                               # type: ignore[attr-defined]
        pe = self._pe(cur)
        pe.qa, pe.follow = qa, None
        self.psi_kinds[q.kind] = self.psi_kinds.get(q.kind, 0) + 1
        self._keep(self.me, qa)                                        # type: ignore[attr-defined]
        return self._env(n, qa.start(), sealed, (rn, root, phash))

    def _psi_complete(self, cur: Any, answer: Any) -> Any:
        """Resolver: the answer of a plain follow-up turned into the PSI question's answer."""
        pe = cur.psi
        if pe is None or pe.follow is None:
            return answer
        qa, pe.follow = pe.follow, None
        return qa.complete(answer)

    def _psi_follow_up(self, cur: Any, n: int) -> bool:
        """Owner: whether ``hidden-query`` ``n`` is the plain follow-up of PSI question ``n``."""
        pe = cur.psi
        if pe is None or pe.follow_n != n or pe.qr is not None:
            return False
        pe.follow_n = None
        return True

    def _quiet(self, cur: Any, before: Any, action: Any, c: Any, actor_side: str) -> None:
        """Decide (both sides alike, from public data: net.hidden_quiet) which of event ``cur``'s
        two zone tests keep their last results instead of running (P-10): ``keep_o`` the
        owner's, ``keep_r`` the resolver's; ``quiet`` both."""
        ko, kr = (kept_tests(before, actor_side, action, c)
                  if self.psi_on and self.zone_tags and self.zone_found is not None and action is not None
                  else (False, False))
        cur.public_quiet = ko and kr
        cur.pre_ok = self.psi_on and bool(self.zone_tags) and standing_query_holds(before, c)
        cur.keep_o, cur.keep_r = ko and self.quiet_moves, kr and self.quiet_moves
        cur.quiet = cur.keep_o and cur.keep_r
        if cur.quiet:
            self.stats["quiet_events"] += 1                            # type: ignore[attr-defined]
        self.stats["kept_zone_tests"] += cur.keep_o + cur.keep_r       # type: ignore[attr-defined]

    def _psi_zone_tested(self, cur: Any, tag: str, whose: str, kept: bool) -> None:
        """An ``ack`` (``shown``) may come only after the owner's (resolver's) zone test of the
        event, which we answered, unless that test keeps its result (P-10) or no zone is in play."""
        if not self.psi_on or not self.zone_tags or kept:
            return
        if cur.psi is None or not cur.psi.zone_answered:
            raise ProtocolError(f"{tag!r} before {whose} zone test of event {cur.index} (HQ-10), which this "
                                "event needs (docs/rulings.md P-10)")

    def _kept_zones(self, locked: frozenset[int]) -> Zones:
        assert self.zone_found is not None
        return Zones(self.zone_found[0], self.zone_found[1], locked)

    def _psi_owner_show(self, cur: Any, det_r: Zones) -> list[Output] | None:
        """Owner, after ``receive``: start our zone test (None: PSI off, ack at once)."""
        if not self.psi_on:
            return None
        if det_r.submerged or det_r.stealth:
            raise ProtocolError("HQ-10: with PSI the resolver's zones never travel in clear (its event names squares)")
        if not self.zone_tags:     # P-8: no hiding reason a zone can neutralise in this game
            return None
        pe = self._pe(cur)
        pre = self.pre_ask
        if pre is not None and not cur.pre_ok:
            self.pre_ask = pre = None       # P-14: our pieces, the ply or the serials changed
        use = pre is not None and not cur.keep_o
        if use:
            self.pre_ask = None
        pe.pre_due = self.pre_ask is None and self._continues(self.them)
        if cur.keep_o:   # P-10: the resolver's zones did not change, our last zone test still holds
            pe.acked = True
            return self._standing_alone(pe) + self._owner_ack(cur, self._kept_zones(det_r.locked))  # type: ignore[attr-defined]
        pe.locked = det_r.locked
        if use:          # P-14: the resolver answers our standing query with its event
            assert pre is not None
            if type(self)._zone_asker is PsiPlay._zone_asker:   # (not a test's lying build of it)
                now = tuple(c for c in hp.zone_asker_cells(self.side) if c[2] in self.zone_tags)   # type: ignore[attr-defined]
                if pre.cells != now:   # cannot happen (P-14's void rule); our fault, not the peer's
                    return self._break("our standing zone query no longer lists our hiding squares "  # type: ignore[attr-defined]
                                       "(docs/rulings.md P-14): our own machine is inconsistent; the game stops")
            pe.za, pe.pre = pre, True
            if not cur.keep_r and self.psi_warm:   # our answer to its test: built while it computes its message
                self._warm_responder(self.ev * QID_EV + ZONE_N, self._stamp()[1])   # type: ignore[attr-defined]
            return []
        return [Send(self._zone_ask(pe))]

    def _psi_resolver_show(self, cur: Any, shown_o: Any, gone: frozenset[int], det_o: Zones) -> list[Output] | None:
        """Resolver, on the ack: start our zone test (None: PSI off, ``shown`` at once)."""
        if not self.psi_on:
            return None
        if det_o.submerged or det_o.stealth:
            raise ProtocolError("HQ-10: with PSI the owner's zones never travel in clear (its ack names squares)")
        if not self.zone_tags:     # P-8: no hiding reason a zone can neutralise in this game
            return None
        if cur.keep_r:   # P-10: our hiding squares did not move, our last zone test still holds
            return self._resolver_shown(cur, shown_o, gone, self._kept_zones(det_o.locked))  # type: ignore[attr-defined]
        pe = self._pe(cur)
        if pe.early:     # P-15: our shown went on the owner's answer; its ack finishes the event
            pe.acked = True
            return self._resolver_finish(cur, shown_o, gone)           # type: ignore[attr-defined]
        pe.acked, pe.shown, pe.gone, pe.locked = True, shown_o, gone, det_o.locked
        if pe.found is None:
            if not cur.keep_o:   # the owner answered our query (on its way before this ack) before it acked
                raise ProtocolError("'ack' before the owner's answer to our zone test (HQ-10), which came with "
                                    "our event")
            return []       # P-10 kept the owner's test: it acked first; its answer to our query follows
        return self._resolver_shown(cur, shown_o, gone, self._kept_zones(pe.locked))  # type: ignore[attr-defined]

    def _zone_ask(self, pe: PsiEv) -> HiddenPsi:
        rn, root, phash = self._stamp()                                # type: ignore[attr-defined]
        return self._env(ZONE_N, self._zone_asker_start(pe, root), None, (rn, root, phash))

    def _zone_asker_start(self, pe: PsiEv, root: bytes) -> list[Any]:
        """Our zone test of this event: its ``ZoneAsker`` and its query (bound to ``root``)."""
        qid = self.ev * QID_EV + ZONE_N                                # type: ignore[attr-defined]
        za = self._zone_asker(qid, root)
        pe.za = za
        self._keep(self.me, za)                                        # type: ignore[attr-defined]
        self.stats["zone_tests"] += 1                                  # type: ignore[attr-defined]
        return za.start()

    # ---- the PSI parties (a test build of a lying peer overrides them) ----

    def _zone_asker(self, qid: int, root: bytes) -> hp.ZoneAsker:
        return hp.ZoneAsker(self.game_id, qid, self.side, root, self._peer_root_bytes(),   # type: ignore[attr-defined]
                            self._secret(self.me, qid, "asker"), self.zone_caps)           # type: ignore[attr-defined]

    def _zone_responder(self, qid: int, root: bytes) -> hp.ZoneResponder:
        return hp.ZoneResponder(self.game_id, qid, self.side, self.them, root,            # type: ignore[attr-defined]
                                self._secret(self.them, qid, "responder"), self.zone_caps)  # type: ignore[attr-defined]

    def _question_responder(self, ask: Any, qid: int, root: bytes) -> hp.QuestionResponder:
        return hp.QuestionResponder(self.game_id, self.them, self.side.state, self.me, ask, root,  # type: ignore[attr-defined]
                                    self._secret(self.them, qid, "responder"), tight=True)   # type: ignore[attr-defined]

    # ---- the peer's psi messages ----

    def _peer_psi(self, msg: HiddenPsi, _s: Any) -> list[Output]:
        inner = psi_messages(msg)
        if not inner:
            raise ProtocolError("a psi message with no PSI step in it")
        cur = self.cur                                                 # type: ignore[attr-defined]
        ours = cur is not None and cur.role == "resolver" and msg.ev == self.ev   # type: ignore[attr-defined]
        if msg.locks is not None and not (ours and msg.n == ZONE_N and any(isinstance(m, PsiReply) for m in inner)):
            raise ProtocolError("lock targets in a psi message that is not the owner's answer to the resolver's "
                                "zone test (docs/rulings.md P-15)")
        if ours:
            return self._resolver_psi(cur, msg, inner)
        cur = self._owner_event(msg.ev)                                # type: ignore[attr-defined]
        return self._owner_psi(cur, msg, inner)

    def _check_phash(self, msg: HiddenPsi) -> None:
        if msg.phash != self._public_hash():                           # type: ignore[attr-defined]
            raise ProtocolError("the peer's public state differs from ours (public hash) in a PSI step")

    def _resolver_psi(self, cur: Any, msg: HiddenPsi, inner: list[Any]) -> list[Output]:
        pe = self._pe(cur)
        if msg.n == ZONE_N:
            if cur.res is None:
                raise ProtocolError("a zone test before our event")
            inner = self._take_standing(cur, inner)   # P-14: its standing query for our next event
            if not inner:   # alone, just before its ack, with the stamp the ack carries
                if pe.acked:
                    raise ProtocolError("the owner's standing zone query after its ack (docs/rulings.md P-14)")
                self._peer_stamp(msg, change=True)                     # type: ignore[attr-defined]
                self._check_phash(msg)
                return []
            if len(inner) == 1 and isinstance(inner[0], PsiQuery):   # the owner's zone test of our event
                if cur.keep_o:
                    raise ProtocolError("the owner's zone test of an event that keeps it (docs/rulings.md P-10)")
                if pe.pre:
                    raise ProtocolError("the owner's zone test of an event that answered its standing query "
                                        "(docs/rulings.md P-14)")
                if pe.acked:
                    raise ProtocolError("the owner's zone test after its ack (HQ-10)")
                # its first message after our event (its pieces changed with it)
                self._peer_stamp(msg, change=True)                     # type: ignore[attr-defined]
                self._check_phash(msg)
                return [Send(self._zone_answer(pe, inner))]
            if not cur.keep_o and not pe.zone_answered:
                raise ProtocolError("the owner's answer to our zone test before its own zone test (HQ-10)")
            if (msg.locks is None) != pe.acked:
                raise ProtocolError("the owner's answer to our zone test " + ("names lock targets after its ack"
                                    if pe.acked else "without its lock targets, before its ack") +
                                    " (docs/rulings.md P-15)")
            if msg.locks is not None and msg.locks != sorted(set(msg.locks)):
                raise ProtocolError("the owner's lock targets are not in ascending order without repeats "
                                    "(docs/rulings.md P-15)")
            self._peer_stamp(msg, change=False)   # type: ignore[attr-defined]  # after its query or its ack
            self._check_phash(msg)
            pe.found = self._zone_done(pe, inner)          # the owner's reply to the query we sent with our event
            if not pe.acked:
                return self._early_shown(cur, pe, msg.locks)
            return self._resolver_shown(cur, pe.shown, pe.gone, self._kept_zones(pe.locked))  # type: ignore[attr-defined]
        qa = pe.qa
        if qa is None or msg.n != cur.asked_n or len(inner) != 1 or not isinstance(inner[0], (PsiReply, PsiStepReply)):
            raise ProtocolError(f"psi message for question {msg.n} of event {msg.ev} out of place")
        self._peer_stamp(msg, change=False)                            # type: ignore[attr-defined]
        self._check_phash(msg)
        if isinstance(inner[0], PsiReply):
            if self.peer_root is not None and inner[0].root != self.peer_root[1]:   # type: ignore[attr-defined]
                raise ProtocolError(f"psi-reply {inner[0].qid} is not bound to the owner's root of its message")
            qa.psi.peer_root = msg.root
        out = qa.on_message(inner[0])
        if not qa.done:
            return [Send(self._env(msg.n, out))]
        pe.qa = None
        self.stats["psi_questions"] += 1                               # type: ignore[attr-defined]
        if qa.follow_up is not None:
            pe.follow = qa
            cur.question = qa.follow_up
            self.stats["psi_follow_ups"] += 1                          # type: ignore[attr-defined]
            self.stats["questions"] += 1                               # type: ignore[attr-defined]
            return [Send(HiddenQuery(self.ev, msg.n, he.dump_question(qa.follow_up), None, *self._stamp()))]  # type: ignore[attr-defined]
        cur.answers.append(qa.answer)
        self.stats["answers"] += 1                                     # type: ignore[attr-defined]
        return self._next_step(cur)

    def _early_shown(self, cur: Any, pe: PsiEv, locks: list[int]) -> list[Output]:
        """Resolver, on the owner's answer to our zone test before its ack (P-15): our ``shown``
        needs only that answer's result and the owner's lock targets, which the answer carries,
        so it goes now, while the owner's ack is on its way; the ack, checked to name the same
        targets, finishes the event. Not while the owner's standing query is still due (it may
        still come alone, just before the ack, and ``shown`` checks it came)."""
        pe.locks = locks
        if not self.early_shown or (pe.pre_due and not pe.pre_sent):
            return []                                  # ``shown`` follows the ack
        res = cur.res
        gone = self.side.gone(res.before, res.work, locks)              # type: ignore[attr-defined]
        pe.early = True
        self.stats["early_shown"] += 1                                 # type: ignore[attr-defined]
        return self._resolver_send_shown(cur, gone, self._kept_zones(frozenset(locks) - gone))  # type: ignore[attr-defined]

    def _next_step(self, cur: Any) -> list[Output]:
        from net.hidden_wire import HiddenEvent
        out = self._step(cur)                                          # type: ignore[attr-defined]
        if isinstance(out, HiddenEvent):
            self._after_own_event(cur, out)                            # type: ignore[attr-defined]
        else:
            self.stats["questions"] += 1                               # type: ignore[attr-defined]
        return [Send(out)]

    def _owner_psi(self, cur: Any, msg: HiddenPsi, inner: list[Any]) -> list[Output]:
        pe = self._pe(cur)
        first = inner[0]
        if msg.n == ZONE_N:
            if isinstance(first, PsiReply) and pe.za is not None and not pe.acked and len(inner) == 1:
                if not cur.keep_r and not pe.zone_answered:
                    raise ProtocolError("the resolver's answer to our zone test before its own zone test, "
                                        "which goes with its event (HQ-10)")
                self._peer_stamp(msg, change=False)                    # type: ignore[attr-defined]
                self._check_phash(msg)
                det = self._zone_done(pe, inner)
                pe.acked = True
                return self._standing_alone(pe) + self._owner_ack(cur, det)   # type: ignore[attr-defined]
            if isinstance(first, PsiQuery) and pe.received and cur.keep_r:
                raise ProtocolError("the resolver's zone test of an event that keeps it (docs/rulings.md P-10)")
            if isinstance(first, PsiQuery) and pe.received:   # the resolver's zone test, sent with its event
                self._peer_stamp(msg, change=False)                    # type: ignore[attr-defined]
                self._check_phash(msg)
                return [Send(self._zone_answer(pe, inner))]
            raise ProtocolError(f"zone-test message of event {msg.ev} out of place")
        if isinstance(first, hp.PsiAsk):
            if msg.n != cur.asked or pe.qr is not None or len(inner) != 2:
                raise ProtocolError(f"psi-ask for question {msg.n} of event {msg.ev}, expected {cur.asked}")
            ask = first
            qid = self.ev * QID_EV + msg.n                              # type: ignore[attr-defined]
            if ask.qid != qid:
                raise ProtocolError(f"psi-ask numbered {ask.qid}, question {msg.n} of event {msg.ev} is {qid}")
            self._peer_stamp(msg, change=False)   # type: ignore[attr-defined]  # R's pieces change with its event, not its questions
            self._check_phash(msg)
            rn, root, phash = self._stamp()                            # type: ignore[attr-defined]
            qr = self._question_responder(ask, qid, root)
            self._keep(self.them, qr)                                  # type: ignore[attr-defined]
            cur.asked += 1
            pe.qr, pe.follow_n = qr, msg.n
            out = qr.on_message(inner[1])
        elif isinstance(first, PsiStep) and len(inner) == 1:
            if pe.qr is None or msg.n != pe.follow_n:
                raise ProtocolError(f"psi-step for question {msg.n} of event {msg.ev} out of place")
            self._peer_stamp(msg, change=False)                        # type: ignore[attr-defined]
            self._check_phash(msg)
            rn, root, phash = self._stamp()                            # type: ignore[attr-defined]
            out = pe.qr.on_message(first)
        else:
            raise ProtocolError(f"psi message {first.TAG!r} for question {msg.n} of event {msg.ev} out of place")
        if pe.qr.done:
            pe.qr = None
        return [Send(self._env(msg.n, out, None, (rn, root, phash)))]

    def _zone_answer(self, pe: PsiEv, inner: list[Any]) -> HiddenPsi:
        q = inner[0]
        qid = self.ev * QID_EV + ZONE_N                                # type: ignore[attr-defined]
        if pe.zone_answered or len(inner) != 1 or not isinstance(q, PsiQuery) or q.qid != qid or q.hq != hp.ZONE_HQ:
            raise ProtocolError(f"the peer's zone test of event {self.ev} is out of place or misnumbered")  # type: ignore[attr-defined]
        pe.zone_answered = True
        rn, root, phash = self._stamp()                                # type: ignore[attr-defined]
        zr = self._answering_responder(qid, root)
        self._keep(self.them, zr)                                      # type: ignore[attr-defined]
        msgs = zr.on_message(q)
        locks = None
        if self.cur is not None and self.cur.role == "owner":          # type: ignore[attr-defined]
            msgs = msgs + self._standing(pe, root)   # P-14: our next standing query rides with it
            if not pe.acked:   # P-15: our lock targets, so that the resolver's shown need not wait for our ack
                locks = pe.locks = list(self.side.lock_targets())      # type: ignore[attr-defined]
        return self._env(ZONE_N, msgs, None, (rn, root, phash), locks)

    def _zone_done(self, pe: PsiEv, inner: list[Any]) -> Zones:
        za = pe.za
        if za is None or len(inner) != 1 or not isinstance(inner[0], PsiReply):
            raise ProtocolError("a zone-test reply out of place")
        za.psi.peer_root = self._peer_root_bytes()
        za.on_message(inner[0])
        if not za.done:
            raise ProtocolError("the zone test did not end with its reply")
        pe.za = None
        det = za.detectors(pe.locked)
        self.zone_found = (det.submerged, det.stealth)
        return det
