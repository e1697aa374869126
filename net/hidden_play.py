"""Hidden play: the lockstep machine of a network game in which each side holds only its own truth.

``HiddenLockstep`` presents ``Lockstep``'s interface to the drivers (``state_value`` is our
*partial* state, ``my_move``, ``act``, ``index``, ``history``, the endings) but runs the
two-party protocol of docs/hidden.md and docs/protocol.md "Hidden play" instead of sending
actions in clear to an omniscient peer. Per event (an action, or a start phase):

1. the resolver (the side acting, or whose turn begins) resolves it on its own partial state,
   asking the owner of the pieces hidden from it: ``hidden-query`` / ``hidden-answer``; an
   answer's opened pieces are leaf openings checked at once against the owner's root;
2. ``event``: the public action's text or a hidden action's commitment, the consequences for
   the owner and the resolver's detectors;
3. ``ack``: the owner applied them; its lock targets, the pieces of its the resolver sees now
   (leaf openings), its detectors;
4. ``shown``: the lock targets the event took, the resolver's pieces the owner sees now.

Every such message carries the sender's commitment root over its own pieces (salted leaves,
salts from a per-game secret that only the audit reveals) and its public-state hash, which the
receiver compares with its own. At the end both sides open their secrets (``audit-open``) and
each checks the other by re-running an honest machine of it (``net.hidden_audit``).

The machine is deterministic given the messages fed and our own secrets (the salt seed, from
our ``finish``; each action's text, logged with its first message), so the write-ahead log
rebuilds it after a crash. Drive two machines in-process with ``net.hidden_pair``.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

from engine.partial import Shown, Side, without_locks_on
from engine.state import enemy, serialise
from net import hidden_engine as he
from net import hidden_psi as hp
from net.commitments import CommitmentError, Context, PreparedTurn, SeededSalts, TurnCommitment, commit_action, \
    commit_turn, prepare_turn, verify_leaf
from net.errors import ProtocolError
from net.frames import pack, unpack_strict
from net.hidden_audit import audit_peer
from net.hidden_play_psi import PsiPlay
from net.hidden_seal import seal, unseal
from net.hidden_wire import AuditOpen, HiddenAck, HiddenAnswer, HiddenEvent, HiddenQuery, HiddenShown, leaf, unleaf
from net.hidden_wire_psi import HiddenPsi
from net.lockstep import Lockstep, PlayState
from net.messages import Action, ActionResult, Claim, DesyncReport, EndTurn, Message, UndoAnswer, UndoRequest
from net.outputs import Event, Output, Send, Stop

N_SLOTS = 256            # leaves per root: every serial a game can reach (28 + reinforcements), padded
UNDO_DEPTH = 32          # actions an undo can go back (each keeps a snapshot of our side)
AUDIT_SECONDS = 60       # a side that has not opened its secrets this long after the end loses
SIDE_OF = {"white": "W", "black": "B"}


@dataclass
class Ev:
    """The event in progress: who resolves it, the action (None: a start phase), the answers."""

    role: str                       # "resolver" (us) or "owner"
    index: int                      # actions applied before it
    action: Any = None
    text: str = ""
    answers: list[Any] = field(default_factory=list)
    res: Any = None                 # he.Resolved once resolved (resolver)
    peer_text: str | None = None    # owner: the public text, or None for a hidden action
    start: bool = False             # a start phase
    question: Any = None            # resolver: the question last sent (its answer's kind)
    asked: int = 0                  # questions sent (resolver) / answered (owner)
    psi: Any = None                 # the PSI exchanges' state (net.hidden_play_psi.PsiEv)
    quiet: bool = False             # a quiet public Move: no zone test (net.hidden_quiet, P-10)
    keep_o: bool = False            # the owner's zone test keeps its last result (P-10)
    keep_r: bool = False            # the resolver's zone test keeps its last result (P-10)
    public_quiet: bool = False      # the same, whether or not the shortcut is on (``quiet_moves``)
    implied: int = 0                # resolver: answers not asked, implied by an earlier one (P-11)
    preview: Any = None             # resolver: the resolution ``act`` previewed (its event was the first message)
    pre_ok: bool = False            # the owner's standing zone query still holds after it (P-14)

    @property
    def asked_n(self) -> int:
        """Resolver: the number of the next question that travels (implied answers do not)."""
        return len(self.answers) - self.implied


class HiddenLockstep(PsiPlay, Lockstep):
    """One side of a network game over partial states (see the module doc)."""

    def __init__(self, engine: ModuleType, options: Any, colour: str, game_id: bytes, move_time_limit: int = 0,
                 seed: bytes | None = None, n_slots: int = N_SLOTS, audit_seconds: int = AUDIT_SECONDS,
                 psi: bool = True) -> None:
        super().__init__(engine, options, colour, game_id, move_time_limit)
        if not (isinstance(seed, bytes) and len(seed) == 32):
            raise ValueError("hidden play needs our 32-byte salt secret (from our finish message)")
        self.start = self.state_value                    # the agreed omniscient start (public)
        self.me, self.them = SIDE_OF[colour], enemy(SIDE_OF[colour])
        self.side = Side.from_omniscient(self.start, self.me)
        self.state_value = self.side.state
        self.seed, self.salts, self.n_slots = seed, SeededSalts(seed), n_slots
        self.audit_seconds = audit_seconds
        self.ev = 0                                      # events completed
        self.cur: Ev | None = None
        self.rn = -1                                     # our last root's number
        self._tc: TurnCommitment | None = None
        self._tc_key: Any = None
        self._tc_whole: bytes | None = None
        self._verified: tuple[Any, set[Any]] = (None, set())
        self._decoded: dict[bytes, tuple[Any, Any]] = {}   # a leaf value's bytes -> (value, Opening)
        self._tc_phash = ""
        self._phash_memo: tuple[bytes, str] | None = None   # (our state's bytes, its public hash)
        self._prepared: PreparedTurn | None = None       # our next root's salts and dummy leaves
        self.peer_root: tuple[int, bytes] | None = None
        self._peer_may_change = True
        self.own_hidden: list[tuple[int, str]] = []      # our hidden actions (index, text), for the audit
        self.peer_hidden: dict[int, bytes] = {}          # the peer's hidden actions' commitments, by index
        self.transcript: list[tuple[bool, int, Message]] = []   # (own, peer seq or -1, message) in play
        self.opens: dict[str, AuditOpen] = {}            # "us" / "peer"
        self.verdict: Any = None
        self.snapshots: dict[int, Any] = {}
        self.stats = {"questions": 0, "answers": 0, "opened": 0, "hidden_actions": 0, "peer_hidden": 0}
        self._cached: tuple[str, Any] | None = None
        self._mover = self.start.side_to_move          # the side whose turn it is
        self.ended = False                               # the game is over (the audit follows)
        self._psi_init(psi)                              # HQ-1/2/10/11/12 through PSI (net.hidden_play_psi)
        self._mine_this_turn: list[Any] = []             # our actions in our turn in progress
        self._snap()

    # ---- the interface ----

    def my_move(self) -> bool:
        return self.cur is None and self.state is PlayState.PLAYING and super().my_move()

    def act(self, text: str, legal: bool = False) -> Send:
        """Our action: resolved on our partial state (the first question, or the event).
        :raises RuntimeError: not our move. :raises RuleError / NotationError: illegal."""
        if not self.my_move():
            raise RuntimeError("not our move")
        action = self.engine.parse_action(text)
        cur = Ev("resolver", self.index, action, text)
        first = self._step(cur, preview=True)
        self._cached = (text, (cur, first))
        return Send(first)   # the text travels sealed to ourselves: our log and the peer's copy keep it

    @property
    def auditing(self) -> bool:
        """The game is over and the audit waits for the peer's openings."""
        return self.ended and self.state is PlayState.AWAIT_RESULT and "peer" not in self.opens

    def peer_clock(self) -> int | None:
        """The peer's clock: the agreed move time in its turn, the audit's limit after the end."""
        if self.auditing:
            return self.audit_seconds
        if self.cur is not None and self.cur.role == "resolver":
            return None
        return super().peer_clock()

    @property
    def clock_kind(self) -> str:
        """The claim a run-out peer clock makes: ``audit`` while we wait for its openings."""
        return "audit" if self.auditing else "time"

    def claim(self, kind: str, detail: str) -> Send:
        """As ``Lockstep.claim``; after the end, a peer that does not open its secrets (in time, or
        at all: it left) is claimed against with ``audit`` (issue 8 item 5)."""
        if self.auditing and kind in ("audit", "abandoned", "time"):
            return Send(Claim("audit", self.turn, self.index, self.peer_seen, detail[:256]))
        if kind == "audit":
            raise RuntimeError("an audit claim needs the game over and the peer's openings missing")
        return super().claim(kind, detail)

    @property
    def final_hash(self) -> str | None:
        """After an audit that passed: the hash of the whole game's final state (the omniscient
        replay), equal on both sides; else None."""
        v = self.verdict
        return self.engine.state_hash(v.omni) if v is not None and v.ok and v.omni is not None else None

    # ---- feeding ----

    def feed(self, own: bool, msg: Message, secrets: dict[str, Any] | None = None) -> list[Output]:
        if self.state is PlayState.BROKEN:
            return [] if own else [Stop(f"{msg.TAG!r} after the game stopped")]
        if self.state is PlayState.FINISHED and (isinstance(msg, AuditOpen) or
                                                 (isinstance(msg, Claim) and msg.kind == "audit")):
            return []   # crossed the end of the audit (e.g. openings that came after an audit claim)
        self.transcript.append((own, -1 if own else self.peer_seen - 1, msg))
        if isinstance(msg, Claim) and msg.kind == "breach":
            if own and self.verdict is not None and not self.verdict.ok:
                self.result = None   # N-6: the breach the audit found replaces the ending it audited
            return self._claim(own, msg)
        if self.own_fault is not None:
            return super().feed(own, msg, secrets)   # only the peer's breach claim follows (N-6)
        if isinstance(msg, _OMNISCIENT) and self.result is None and not self.ended:
            # N-6: forbidden by the tag alone, which any reader of the signed transcript sees
            return self._fault(f"{msg.TAG!r} belongs to omniscient lockstep, which network games do not "
                               "play (docs/rulings.md HN-1): actions travel as hidden-play events", own, msg)
        try:
            if isinstance(msg, AuditOpen):
                return self._audit_open(own, msg)
            if isinstance(msg, Claim) and msg.kind == "audit":
                return self._audit_claim(own, msg)
            if isinstance(msg, _OMNISCIENT):
                raise ProtocolError(f"{msg.TAG!r} belongs to omniscient lockstep, which network games do not "
                                    "play (docs/rulings.md HN-1): actions travel as hidden-play events")
            handler = _HIDDEN.get((own, type(msg)))
            if handler is not None:
                if self.result is not None or self.state is PlayState.FINISHED:
                    return [] if own else [Stop(f"{msg.TAG!r} after the game ended")]
                out = handler(self, msg, secrets)
                if own:
                    # our zone messages follow the event at once (our query, then our answer to the
                    # owner's standing query, P-14): the work ahead waits for the last of them
                    zone = (self._psi_resolver_query() if isinstance(msg, HiddenEvent)
                            else self._psi_standing_answer() if isinstance(msg, HiddenPsi) else [])
                    if zone:
                        return out + zone
                    self._prepare_root()
                    self._psi_warm(msg)
                return out
        except (ProtocolError, ValueError) as exc:
            return self._evidence(str(exc), own, msg)
        return super().feed(own, msg, secrets)

    # -- our event

    def _step(self, cur: Ev, preview: bool = False) -> Message:
        """Resolve ``cur`` with the answers so far: the next question, or (resolved) the event.
        ``preview``: only compute the message (``act``), change nothing."""
        res = he.resolve_step(self.side, cur.action, cur.answers)
        while isinstance(res, he.Question) and self._implied(cur, res):
            cur.answers.append(he.Answer((), ()))      # P-11: what the owner's last answer already says
            cur.implied += 1
            res = he.resolve_step(self.side, cur.action, cur.answers)
        first = cur.action is not None and not cur.answers   # our command's first message: sealed text
        sealed = seal(self.seed, self.game_id, self.ev, cur.index, cur.text) if first else None
        if isinstance(res, he.Question):
            cur.question = res
            via_psi = self._psi_question(cur, res, sealed)
            if via_psi is not None:
                return via_psi
            return HiddenQuery(self.ev, cur.asked_n, he.dump_question(res), sealed, *self._stamp())
        side = copy.copy(self.side) if preview else self.side
        if preview:
            side.state = res.work
            cur.preview = res
        else:
            self._adopt(cur, res)
        c = res.consequences
        text, commit = "", None
        if cur.action is not None:
            if c.action is not None:
                text = cur.text
            else:
                commit, _ = commit_action(Context(self.game_id, self.me, cur.index), cur.index, cur.text, self.salts)
        stamp = self._stamp(res.work)
        return HiddenEvent(self.ev, cur.index, text, commit, he.dump_consequences(c),
                           he.dump_detectors(self._psi_disclosed(side.detectors())), sealed, *stamp)

    def _adopt(self, cur: Ev, res: Any) -> None:
        """Our event ``cur`` resolved as ``res``: its result becomes our state."""
        cur.res = res
        self._quiet(cur, res.before, cur.action, res.consequences, self.me)
        self.side.adopt(res.work)
        self.state_value = self.side.state

    def _implied(self, cur: Ev, q: Any) -> bool:
        """P-11 (docs/rulings.md): a plain ``open_on`` whose answer the owner's plain ``first``
        answer just before it already gives: ``first`` said no absent piece of the owner stands on
        any of its cells, ``open_on`` asks about some of those cells with the same pieces
        excluded, and the owner's pieces do not change while we resolve. Its answer is empty, so
        it is not asked: one round trip less for a visible piece's Move (HQ-1). Both the question
        and the answer it follows are plain and signed, so the owner knows as much as we do."""
        prev = cur.question
        if (q.kind != "open_on" or prev is None or prev.kind != "first" or not cur.answers
                or cur.answers[-1].value is not None or q.exclude != prev.exclude):
            return False
        if self.psi_on and (hp.goes_through_psi(prev, hp.use_psi(self.side, cur.action))
                            or hp.goes_through_psi(q, hp.use_psi(self.side, cur.action))):
            return False
        return {tuple(c) for c in q.args[0]} <= {tuple(c) for c in prev.args[0]}

    def own_command_fits(self, msg: Message) -> bool:
        """Could ``msg`` be our next command now (a resume rebuilding our log from the peer's copy)?"""
        if isinstance(msg, (HiddenQuery, HiddenEvent, HiddenPsi)) and msg.seal is not None:
            return self.my_move() and msg.ev == self.ev
        return False

    def _own_first(self, msg: Any, secrets: dict[str, Any] | None) -> list[Output]:
        """Our action's first message (a command: it carries the action's text sealed to us), or a
        message our machine computed itself (nothing to do: it changed our state then)."""
        if self.cur is not None or msg.seal is None:
            return []
        if msg.ev != self.ev:
            return self._break(f"our logged action of event {msg.ev} does not fit event {self.ev}")
        text = unseal(self.seed, self.game_id, msg.ev, self.index, msg.seal)
        if not self.my_move():
            return self._break(f"our logged action {text!r} does not fit the game (not our move)")
        cached, self._cached = self._cached, None
        cur = cached[1][0] if cached is not None and cached[0] == text else \
            Ev("resolver", self.index, self.engine.parse_action(text), text)
        self.cur = cur
        self.state = PlayState.AWAIT_RESULT
        if isinstance(msg, (HiddenQuery, HiddenPsi)):
            self.stats["questions"] += 1
            if cur.question is None:    # rebuilt from the log: compute the question again
                again = self._step(cur)
                if again != msg:
                    return self._break("our own logged question differs from what our engine asks (replay mismatch)")
        if isinstance(msg, HiddenEvent):
            if cached is not None and cur.preview is not None and cached[1][1] == msg:
                self._adopt(cur, cur.preview)   # the event ``act`` resolved and we sent: not resolved again
            else:
                again = self._step(cur)
                if again != msg:
                    return self._break("our own logged event differs from what our engine resolves (replay mismatch)")
            self._after_own_event(cur, msg)
        return []

    def _after_own_event(self, cur: Ev, msg: HiddenEvent) -> None:
        if cur.action is not None and msg.commit is not None:
            self.own_hidden.append((cur.index, cur.text))
            self.stats["hidden_actions"] += 1

    def _peer_answer(self, msg: HiddenAnswer, _s: Any) -> list[Output]:
        cur = self._expect("resolver", msg.ev)
        if msg.n != cur.asked_n:
            raise ProtocolError(f"answer {msg.n} of event {msg.ev}, expected {cur.asked_n}")
        self._peer_stamp(msg, change=False)
        if msg.phash != self._public_hash():
            raise ProtocolError("the answerer's public state differs from ours (public hash)")
        assert cur.question is not None
        answer = he.load_answer(msg.answer, cur.question.kind)
        opened = self._check_leaves(msg.opened, msg.rn, msg.root, self.them)
        if sorted(map(pack, opened)) != sorted(pack(he.dump_opening(o)) for o in he.answer_openings(answer)):
            raise ProtocolError(f"answer {msg.n} of event {msg.ev} opens pieces its leaf openings do not")
        answer = self._psi_complete(cur, answer)   # a PSI question's plain follow-up
        cur.answers.append(answer)
        self.stats["answers"] += 1
        self.stats["opened"] += len(opened)
        out = self._step(cur)
        if isinstance(out, HiddenEvent):
            self._after_own_event(cur, out)
        else:
            self.stats["questions"] += 1
        return [Send(out)]

    def _peer_ack(self, msg: HiddenAck, _s: Any) -> list[Output]:
        cur = self._expect("resolver", msg.ev)
        if cur.res is None:
            raise ProtocolError(f"ack of event {msg.ev} before our event")
        self._psi_zone_tested(cur, "ack", "the owner's", cur.keep_o)
        self._peer_stamp(msg, change=True)
        if msg.phash != self._public_hash():
            raise ProtocolError("after our event the peer's public state differs from ours (public hash)")
        shown_o = self._check_openings(msg.shown, msg.rn, msg.root, self.them)
        det_o = he.load_detectors(msg.det)
        named = cur.psi.locks if cur.psi is not None else None   # in its zone answer (P-15)
        if named is not None and (list(msg.targets) != named or det_o.locked != frozenset(named)):
            raise ProtocolError("the owner's ack names other lock targets than its answer to our zone test "
                                "(docs/rulings.md P-15)")
        res = cur.res
        gone = self.side.gone(res.before, res.work, msg.targets)
        det_o = without_locks_on(det_o, gone)
        out = self._psi_resolver_show(cur, shown_o, gone, det_o)   # [] when the owner's zone answer is still due
        return self._resolver_shown(cur, shown_o, gone, det_o) if out is None else out

    def _resolver_shown(self, cur: Ev, shown_o: Shown, gone: frozenset[int], det_o: Any) -> list[Output]:
        """Step 3 done: our pieces the owner sees now (``det_o``: its zones, or what the PSI zone test
        found of them), the owner's we see; ``shown`` ends the event."""
        return self._resolver_send_shown(cur, gone, det_o) + self._resolver_finish(cur, shown_o, gone)

    def _resolver_send_shown(self, cur: Ev, gone: frozenset[int], det_o: Any) -> list[Output]:
        """Our ``shown``: our pieces the owner sees now. It needs the owner's lock targets and, with
        PSI, our zone test's result, not the owner's Shown: with both before the ack (P-15) it goes
        then, and the ack finishes the event (``_resolver_finish``)."""
        self._psi_standing_check(cur)
        shown_r = self.side.shown_to(det_o)
        stamp = self._stamp()
        return [Send(HiddenShown(self.ev, sorted(gone), self._leaves(shown_r), *stamp))]

    def _resolver_finish(self, cur: Ev, shown_o: Shown, gone: frozenset[int]) -> list[Output]:
        """Step 3 done: the owner's pieces we see now are ours to see; the event is done."""
        self.side.accept(shown_o)
        self.state_value = self.side.state
        # the owner's step 4 drops its locks on the ``gone`` pieces (RUL-19): those lock sources'
        # leaves change, so its next message may carry a new root; with nothing gone its pieces
        # stay as its ack committed them
        self._peer_may_change = bool(gone)
        return self._event_done(cur, mine=True)

    # -- the peer's event

    def _peer_query(self, msg: HiddenQuery, _s: Any) -> list[Output]:
        cur = self._owner_event(msg.ev)
        follow_up = self._psi_follow_up(cur, msg.n)   # the plain follow-up of a PSI question
        if msg.n != cur.asked and not follow_up:
            raise ProtocolError(f"question {msg.n} of event {msg.ev}, expected {cur.asked}")
        self._peer_stamp(msg, change=False)   # the resolver's pieces change with its event, not its questions
        if msg.phash != self._public_hash():
            raise ProtocolError("the resolver's public state differs from ours (public hash)")
        q = he.load_question(msg.question)
        answer = he.owner_answer(self.side.state, self.me, q)
        cur.asked += 0 if follow_up else 1
        stamp = self._stamp()
        leaves = [leaf(self._tc.open(op.piece.sid)) for op in he.answer_openings(answer)]  # type: ignore[union-attr]
        return [Send(HiddenAnswer(msg.ev, msg.n, he.dump_answer(answer), leaves, *stamp))]

    def _peer_event(self, msg: HiddenEvent, _s: Any) -> list[Output]:
        cur = self._owner_event(msg.ev)
        if msg.index != self.index:
            raise ProtocolError(f"event for action {msg.index}, we have applied {self.index}")
        start = not msg.text and msg.commit is None
        if start != cur.start:
            raise ProtocolError("a start phase where an action was due, or an action where the start phase was due")
        self._peer_stamp(msg, change=True)
        c = he.load_consequences(msg.cons)
        det_r = he.load_detectors(msg.det)
        if not start:
            self.peer_actions += 1
            if msg.commit is not None:
                self.peer_hidden[msg.index] = msg.commit
                self.stats["peer_hidden"] += 1
            cur.peer_text = msg.text or None
            action = self._peer_public_action(msg.text)
            if bool(msg.text) != (c.action is not None) or action != c.action:
                # the text in clear is the action its consequences record, or there is none
                raise ProtocolError("the event's action text is not the action its consequences record")
            self._quiet(cur, self.side.state, action, c, self.them)
        else:   # as the resolver decides for its start phase (``_adopt``): no test kept, P-14's rule alike
            self._quiet(cur, self.side.state, None, c, self.them)
        self.side.receive(c)
        self.state_value = self.side.state
        if msg.phash != self._public_hash():
            raise ProtocolError("after the peer's event our public state differs from the peer's (public hash)")
        self._pe(cur).received = True     # the resolver's zone test, sent with its event, may come now
        out = self._psi_owner_show(cur, det_r)   # [] when the resolver's zone message is due first (P-14)
        return self._owner_ack(cur, det_r) if out is None else out

    def _peer_public_action(self, text: str) -> Any:
        """The peer's public action (None: hidden, or text our engine does not read: then the
        event is not quiet, and a peer that skipped its zone tests for it is refused)."""
        if not text:
            return None
        try:
            return self.engine.parse_action(text)
        except Exception:   # noqa: BLE001 - any notation error: not a quiet Move
            return None

    def _owner_ack(self, cur: Ev, det_r: Any) -> list[Output]:
        """Step 2 done: our pieces the resolver sees now (``det_r``: its zones, or what the PSI zone
        test found of them), our lock targets and detectors: the ``ack``."""
        shown_o = self.side.shown_to(det_r)
        targets = list(self.side.lock_targets())
        det_o = self._psi_disclosed(self.side.detectors())
        stamp = self._stamp()
        out = HiddenAck(self.ev, targets, self._leaves(shown_o), he.dump_detectors(det_o), *stamp)
        return [Send(out)]

    def _peer_shown(self, msg: HiddenShown, _s: Any) -> list[Output]:
        cur = self._expect("owner", msg.ev)
        self._psi_zone_tested(cur, "shown", "the resolver's", cur.keep_r)
        self._peer_stamp(msg, change=False)
        if msg.phash != self._public_hash():
            raise ProtocolError("the resolver's public state differs from ours (public hash)")
        shown_r = self._check_openings(msg.shown, msg.rn, msg.root, self.them)
        self.side.end_locks_on(frozenset(msg.gone))
        self.side.accept(shown_r)
        self.state_value = self.side.state
        # the resolver's pieces stay as its ``shown`` committed them: its next root changes only
        # with its next event, or our ack of its next action (``_peer_stamp``)
        return self._event_done(cur, mine=False)

    # -- event bookkeeping

    def _event_done(self, cur: Ev, mine: bool) -> list[Output]:
        out = self._event_done_inner(cur, mine)
        self._own_turn_actions()
        return out

    def _own_turn_actions(self) -> None:
        """Our partial state keeps no transcript (docs/hidden.md H-5); the actions of our own turn
        in progress are ours, and our view shows them (RUL-1): put them back."""
        s = self.side.state
        want = tuple(self._mine_this_turn) if s.side_to_move == self.me and self.cur is None else s.actions
        if self.cur is None and s.actions != want:
            s.actions = want
            s.touch()

    def _event_done_inner(self, cur: Ev, mine: bool) -> list[Output]:
        """Event ``cur`` is complete on our side: record the action; a new turn begins when the
        side to move changed (its mover then resolves its start phase); the game may be over."""
        self.ev += 1
        self.cur = None
        self.state = PlayState.PLAYING
        out: list[Output] = []
        s = self.side.state
        if not cur.start and mine:
            self._mine_this_turn.append(cur.action)
        if not cur.start:
            text = cur.text if mine else (cur.peer_text if cur.peer_text is not None else "?")
            self.history.append(text)
            self.turns.append(self.turn)
            out.append(Event("applied", {"index": self.index, "text": text, "mine": mine,
                                         "hidden": not mine and cur.peer_text is None, "quiet": cur.quiet,
                                         "public_quiet": cur.public_quiet,
                                         "questions": cur.asked_n if mine else cur.asked}))
        if s.result is not None:
            return out + self._game_over()
        if not cur.start and s.side_to_move != self._mover:
            self._mover = s.side_to_move
            self._mine_this_turn = []
            self.pre_ask = self.pre_peer = None   # P-14: a standing query serves its turn only
            self.turn += 1
            self.refused = {"us": 0, "peer": 0}
            # the public hash: what both sides hold alike (each side's whole state is its own)
            out.append(Event("turn-ok", {"turn": self.turn - 1, "state_hash": self._public_hash()}))
            if self.draw_offer is not None and self.turn > self.draw_offer[1] + 1:
                out.append(Event("draw-offer-lapsed", {"by": self.draw_offer[0], "turn": self.draw_offer[1]}))
                self.draw_offer = None
            if s.side_to_move == self.me:   # our turn begins: we resolve our start phase
                start = Ev("resolver", self.index, None, "", start=True)
                self.cur, self.state = start, PlayState.AWAIT_RESULT
                first = self._step(start)
                if isinstance(first, HiddenQuery):
                    self.stats["questions"] += 1
                return out + [Send(first)]
            self.cur = Ev("owner", self.index, start=True)
            return out
        self._snap()
        return out

    def _owner_event(self, ev: int) -> Ev:
        if ev != self.ev:
            raise ProtocolError(f"message of event {ev}, we are at event {self.ev}")
        if self.cur is None:
            if self.side.state.side_to_move == self.me:
                raise ProtocolError("the peer resolved an action during our turn")
            if self.undo_asked is not None and self.undo_asked[0] == "peer":
                raise ProtocolError("the peer acted while its undo request awaits our answer")
            self.cur = Ev("owner", self.index)
        elif self.cur.role != "owner":
            raise ProtocolError(f"the peer sent a message of its own event {ev} while we resolve ours")
        return self.cur

    def _expect(self, role: str, ev: int) -> Ev:
        if self.cur is None or self.cur.role != role or ev != self.ev:
            raise ProtocolError(f"unexpected message for event {ev} (we are at event {self.ev}, "
                                f"{'idle' if self.cur is None else self.cur.role})")
        return self.cur

    def _game_over(self) -> list[Output]:
        """The game ended by the rules (capture): both open their secrets for the audit."""
        self.state, self.ended = PlayState.AWAIT_RESULT, True
        return [Event("audit-started", {})] + self._send_open()

    # ---- roots ----

    def _stamp(self, state: Any = None) -> tuple[int, bytes, str]:
        """(root number, root, public hash) over our current own pieces (recommitted when they changed)."""
        s = self.side.state if state is None else state
        whole = serialise(s)     # cached by the state while it does not change
        if whole == self._tc_whole and self._tc is not None:
            return self.rn, self._tc.root, self._tc_phash
        self._tc_whole, self._tc_phash = whole, self._public_hash(s)
        mine = {sid: he.leaf_value(s, sid) for sid, p in s.pieces.items() if p.side == self.me}
        if mine != self._tc_key:
            self.rn += 1
            self._tc = commit_turn(Context(self.game_id, self.me, self.rn), mine, self.n_slots, self.salts,
                                   self._prepared)
            self._tc_key = mine
        assert self._tc is not None
        return self.rn, self._tc.root, self._tc_phash

    def _public_hash(self, state: Any = None) -> str:
        """``public_hash`` of our state (or ``state``), computed once per state's bytes (the
        serialised bytes are cached by the state while it does not change, as for ``_stamp``)."""
        s = self.side.state if state is None else state
        whole = serialise(s)
        memo = self._phash_memo
        if memo is None or memo[0] != whole:
            memo = self._phash_memo = (whole, he.public_hash(s))
        return memo[1]

    def _prepare_root(self) -> None:
        """Compute our next root's salts and dummy leaves now: our own message was just sent
        (``net.session`` feeds it to us after sending), so this overlaps the peer's work instead
        of delaying our next event (issue 10 item 6). The root is the same either way."""
        ctx = Context(self.game_id, self.me, self.rn + 1)
        if self._prepared is None or self._prepared.ctx != ctx:
            self._prepared = prepare_turn(ctx, self.n_slots, self.salts)

    def _leaves(self, shown: Shown) -> list[list[Any]]:
        assert self._tc is not None
        return [leaf(self._tc.open(op.piece.sid)) for op in shown.pieces]

    def _peer_stamp(self, msg: Any, change: bool) -> None:
        """The peer's root may change only where its own pieces may: its event (its action applied),
        its first message after our event (it applied the consequences: its ack, or its zone test),
        its next message after our ``shown`` named pieces whose locks end (its step 4, RUL-19), and
        after an undo. Everywhere else (answers, ``shown``, PSI replies) it is bound to the root
        it last committed; a changed root there is refused as evidence."""
        prev = self.peer_root
        if prev is not None:
            if msg.rn < prev[0] or (msg.rn == prev[0] and msg.root != prev[1]):
                raise ProtocolError(f"the peer's root {msg.rn} contradicts its earlier root {prev[0]}")
            if msg.rn != prev[0] and not (change or self._peer_may_change):
                raise ProtocolError(f"the peer changed its root ({prev[0]} -> {msg.rn}) where its pieces cannot "
                                    "have changed")
        self.peer_root = (msg.rn, msg.root)
        self._peer_may_change = False

    def _check_leaves(self, raw: list[list[Any]], rn: int, root: bytes, side: str) -> list[Any]:
        """Verify leaf openings of the peer's root ``rn``; their values (plain openings), or a
        CommitmentError naming the check that failed."""
        return [v for v, _ in self._checked_openings(raw, rn, root, side)]

    def _check_openings(self, raw: list[list[Any]], rn: int, root: bytes, side: str) -> Shown:
        """As ``_check_leaves``, the pieces decoded: a ``Shown``."""
        return Shown(tuple(op for _, op in self._checked_openings(raw, rn, root, side)))

    def _checked_openings(self, raw: list[list[Any]], rn: int, root: bytes, side: str) -> list[tuple[Any, Any]]:
        """(value, Opening) of each leaf opening, each verified once per root. A value's bytes
        decode alike every time, so a piece the peer shows unchanged event after event is decoded
        once (``_decoded``); its leaf is still checked against every new root (issue 10 item 6)."""
        ctx = Context(self.game_id, side, rn)
        out = []
        if self._verified[0] != (rn, root):     # openings already checked against this very root
            self._verified = ((rn, root), set())
        seen = self._verified[1]
        for r in raw:
            key = (r[0], r[1], r[2], tuple(r[3]))
            if key in seen:
                out.append(self._decoded[r[1]])
                continue
            got = self._decoded.get(r[1]) if isinstance(r[1], bytes) else None
            value = verify_leaf(ctx, self.n_slots, root, unleaf(r, ctx, self.n_slots), decode=got is None)
            seen.add(key)
            if got is None:
                got = (value, he.load_opening(value))
                if len(self._decoded) > 4096:
                    self._decoded.clear()
                self._decoded[r[1]] = got
            op = got[1]
            if op.piece.sid != r[0] or op.piece.side != side:
                raise CommitmentError("value", f"slot {r[0]} opens piece {op.piece.sid} of side {op.piece.side}")
            out.append(got)
        return out

    # ---- endings and the audit ----

    def _end(self, outcome: str, ending: str, detail: str, own: bool, force: bool = False) -> list[Output]:
        out = super()._end(outcome, ending, detail, own, force)
        self.cur = None
        if ending in ("abandoned", "audit", "crossed-claims", "breach") or "us" in self.opens:
            return out
        # resignation, draw, time or refused actions: the game is over, the audit still runs
        self.state, self.ended = PlayState.AWAIT_RESULT, True
        # the result is told now ("audit-started"); "game-over" waits for the audit's verdict
        out = [Event("audit-started", o.data) if isinstance(o, Event) and o.kind == "game-over" else o for o in out]
        return out + self._send_open()

    def _send_open(self) -> list[Output]:
        if "us" in self.opens:
            return []
        return [Send(AuditOpen(self.seed, [[i, t] for i, t in self.own_hidden]))]

    def _audit_open(self, own: bool, msg: AuditOpen) -> list[Output]:
        who = "us" if own else "peer"
        if who in self.opens:
            return [] if own else self._break("the peer opened its secrets twice")
        if not self.ended:
            return [] if own else self._break("audit-open before the game ended")
        self.opens[who] = msg
        if len(self.opens) < 2:
            return []
        self.verdict = audit_peer(self)
        for i, t in self.verdict.peer_actions.items():
            if i < len(self.history) and self.history[i] == "?":
                self.history[i] = t
        self.state = PlayState.FINISHED
        out: list[Output] = [Event("audit", {"ok": self.verdict.ok, "report": self.verdict.report,
                                             "history": list(self.history)})]
        if not self.verdict.ok:
            # N-6: a signed message of the peer is false by the honest re-run of its own opened
            # secrets, which anyone holding our log repeats (``wec audit LOG``): it loses by breach.
            # A failure the report does not pin on a message of the peer's (our own final state, our
            # own action refused by the replay: what a liar's own audit finds) stops the game.
            found = _PEER_MESSAGE.search(self.verdict.report)
            if found is None:
                self.state = PlayState.BROKEN
                return out + [Stop(f"audit failed: {self.verdict.report}")]
            detail = f"audit failed: {self.verdict.report[:180]}, proven by signed message #{found.group(1)}"
            return out + [Send(Claim("breach", self.turn, self.index, self.peer_seen, detail[:256]))]
        h = self.final_hash or self.engine.state_hash(self.side.state)
        if self.result is not None:
            r = self.result
            return out + [Event("game-over", {"outcome": r["outcome"], "ending": r["ending"], "detail": r["detail"],
                                              "state_hash": h})]
        return out + [Event("game-over", {"outcome": self.side.state.result, "state_hash": h})]

    def _audit_claim(self, own: bool, msg: Claim) -> list[Output]:
        if not own and not self.ended:
            return self._break("unfounded audit claim: the game is not over")
        claimant = self.colour if own else _other(self.colour)
        loser = _other(claimant)
        self.result = None
        self.state = PlayState.PLAYING
        out = Lockstep._end(self, claimant, "audit", f"{loser} did not open its secrets for the audit within "
                                                     f"{self.audit_seconds} s; {claimant} claimed the win: "
                                                     f"{msg.detail}", own, force=True)
        return out

    # ---- undo (non-competitive games): per-index snapshots of our side ----

    def _snap(self) -> None:
        """Keep our side as it is now, idle with ``index`` actions applied (undo restores it)."""
        self._own_turn_actions()
        for old in [k for k in self.snapshots if k <= self.index - UNDO_DEPTH]:
            del self.snapshots[old]
        self.snapshots[self.index] = (_copy_side(self.side), self.turn, self._mover, list(self.own_hidden),
                                      dict(self.peer_hidden), list(self._mine_this_turn))

    def request_undo(self) -> Send:
        """Ask to take back the last action. :raises RuntimeError / RuleError (competitive, 02/D24)."""
        if (self.state is not PlayState.PLAYING or self.cur is not None or self.undo_asked is not None
                or not self.history or self.side.state.result is not None or self.index - 1 not in self.snapshots):
            raise RuntimeError("nothing to undo now")
        _check_undo(self.options)
        return Send(UndoRequest(self.index))

    def _undo_request(self, own: bool, msg: UndoRequest) -> list[Output]:
        if own:
            return super()._undo_request(own, msg)
        if (self.undo_asked is not None and self.undo_asked[0] == "peer") or msg.index in self._refusing:
            raise ProtocolError(f"a second undo request ({msg.index}) before we answered the first")
        why = self._cannot_undo(msg.index)
        if why is None:
            try:
                _check_undo(self.options)
            except self.engine.RuleError as exc:
                why = str(exc)[:256]
        if why is not None:
            self._refusing.append(msg.index)
            return [Send(UndoAnswer(msg.index, False, why)), Event("undo-refused", {"index": msg.index, "reason": why})]
        self.undo_asked = ("peer", msg.index)
        return [Event("undo-request", {"index": msg.index})]

    def _cannot_undo(self, index: int) -> str | None:
        if self.cur is not None and self.cur.role == "resolver":
            return (f"the other side had already acted (its action {self.index} crossed the undo request); "
                    "nothing was undone")
        if self.cur is not None:
            return "an event was being resolved; nothing was undone"
        if self.undo_asked is not None:
            return "the other side had asked for an undo at the same time; nothing was undone"
        if index != self.index:
            return (f"the request was for {index} actions but the other side has applied {self.index}; "
                    "nothing was undone")
        if self.side.state.result is not None:
            return "the game is over; nothing was undone"
        if index - 1 not in self.snapshots:
            return f"04/U31: a hidden game keeps the last {UNDO_DEPTH} actions for undo; nothing was undone"
        return None

    def _undo_answer(self, own: bool, msg: UndoAnswer) -> list[Output]:
        if own and self._refusing and self._refusing[0] == msg.index and not msg.accept:
            self._refusing.popleft()
            return []
        asker = "peer" if own else "us"
        if self.undo_asked != (asker, msg.index):
            raise ProtocolError("undo answer without a matching request")
        if msg.accept and msg.index != self.index:
            raise ProtocolError(f"undo of action {msg.index} approved, but {self.index} actions are applied")
        self.undo_asked = None
        if not msg.accept:
            return [Event("undo-answer", {"accept": False, "reason": msg.reason})]
        # both sides go back to their own snapshot before the last action (and its start phase)
        self.history.pop()
        self.turns.pop()
        side, turn, mover, hid, phid, mine = self.snapshots[self.index]
        self.side = _copy_side(side)
        self.state_value = self.side.state
        self.turn, self._mover = turn, mover
        self.own_hidden, self.peer_hidden, self._mine_this_turn = list(hid), dict(phid), list(mine)
        self._own_turn_actions()
        self.ev += 1                # the undo counts as an event: every root after it is new
        self.zone_found = None      # P-10: the next event runs its zone tests again (both sides)
        self.pre_ask = self.pre_peer = None   # P-14: and the owner's standing query is void
        self._peer_may_change = True
        for k in [k for k in self.snapshots if k > self.index]:
            del self.snapshots[k]
        return [Event("undo-answer", {"accept": True, "index": self.index})]

    def _evidence(self, reason: str, own: bool, msg: Message) -> list[Output]:
        """A hidden-play check failed on ``msg``. The peer's message loses it the game by breach
        (N-6: a false leaf opening, a root where none may change, a message out of its place in
        the exchange, a public rule broken), except a public-hash difference, which may be a bug
        of ours and stops the game with the signed message kept; so does a fault of our own."""
        seq = self.peer_seen - 1
        where = f"event {self.ev}, action {self.index}, turn {self.turn}"
        detail = f"{reason} ({where}; {'our' if own else 'the peer'}'s {msg.TAG!r} message" + \
                 ("" if own else f" seq {seq}") + ")"
        out: list[Output] = [Event("hidden-evidence", {"reason": reason, "where": where, "tag": msg.TAG,
                                                       "seq": None if own else seq})]
        if own or "(public hash)" in reason:
            self.state = PlayState.BROKEN
            return out + [Stop(detail)]
        tail = f" ({where}; the peer's {msg.TAG!r} message seq {seq}), proven by signed message #{seq}"
        return out + [Send(Claim("breach", self.turn, self.index, self.peer_seen, reason[:256 - len(tail)] + tail))]


HiddenLockstep.honest_class = HiddenLockstep   # what the audit re-runs of the peer (also under a liar subclass)


def _copy_side(side: Side) -> Side:
    """An independent copy of ``side`` (its methods change their state in place)."""
    state = side.state.clone()
    state.parent = None
    return Side(side.side, state, side.exposed, dict(side.asked), side.opened, side.over_opened)


def _check_undo(options: Any) -> None:
    """:raises RuleError: 02/D24, undo is locked in a competitive game."""
    if options.competitive:
        from engine.errors import RuleError
        raise RuleError("02/D24", "undo is locked in a competitive game")


def _other(colour: str) -> str:
    return "black" if colour == "white" else "white"


_OMNISCIENT = (Action, ActionResult, EndTurn, DesyncReport)

#: how ``net.hidden_audit`` names a signed message of the peer's that it found false
_PEER_MESSAGE = re.compile(r"\bthe peer\b.*?\((?:its '[\w-]+' )?seq (\d+)\)")

_HIDDEN: dict[tuple[bool, type], Callable[[HiddenLockstep, Any, Any], list[Output]]] = {
    (True, HiddenQuery): HiddenLockstep._own_first,
    (True, HiddenEvent): HiddenLockstep._own_first,
    (True, HiddenAnswer): lambda m, msg, s: [],
    (True, HiddenAck): lambda m, msg, s: [],
    (True, HiddenShown): lambda m, msg, s: [],
    (True, HiddenPsi): HiddenLockstep._own_first,
    (False, HiddenPsi): HiddenLockstep._peer_psi,
    (False, HiddenAnswer): HiddenLockstep._peer_answer,
    (False, HiddenAck): HiddenLockstep._peer_ack,
    (False, HiddenQuery): HiddenLockstep._peer_query,
    (False, HiddenEvent): HiddenLockstep._peer_event,
    (False, HiddenShown): HiddenLockstep._peer_shown,
}
