"""The end-of-game audit of hidden play (issue 8 item 5; docs/protocol.md "The audit").

When both sides have opened their secrets (``audit-open``: the salt seed behind every root and
commitment, and each hidden action's text), each side checks the other from the transcript it
holds: it re-runs an *honest* ``HiddenLockstep`` of the peer (the peer's colour, the agreed
start, the peer's seed and actions), feeds it every message the peer received from us, and
checks that each hidden-play message the peer signed (questions, answers, events, acks, shown:
their roots, public hashes, commitments, openings and contents) is exactly what the honest
machine sends there. A hidden action the rules forbid fails the honest engine with its
``RuleError``. Then the whole game is replayed by the omniscient engine, and the final state each
side holds must be what that side may know of it (``known_key``).

The verdict names the event, the action number and turn, what was claimed and the peer's signed
message (its chain seq) that shows it false.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, fields
from typing import Any

from engine.errors import RuleError
from engine.partial import known_diff, known_key
from net import hidden_engine as he
from net.commitments import Context, SeededSalts, commit_action
from net.hidden_wire import HIDDEN_PLAY as _PLAIN_PLAY, AuditOpen, HiddenEvent, HiddenQuery
from net.hidden_wire_psi import HiddenPsi, psi_diff
from net.messages import Claim, DrawAnswer, DrawOffer, Message, UndoRequest
from net.outputs import Send, Stop

_CROSSING = (UndoRequest, DrawOffer, DrawAnswer)   # not UndoAnswer: the asker waits for it
_BLOBS = ("question", "answer", "cons", "det")
#: every message of the per-event exchange (the PSI steps too: the honest re-run reproduces them)
HIDDEN_PLAY = _PLAIN_PLAY + (HiddenPsi,)
#: the messages that may start an action (they carry its sealed text)
_FIRST = (HiddenQuery, HiddenEvent, HiddenPsi)


@dataclass
class Verdict:
    """``ok`` and the report ("audit passed: ..." or the first false claim)."""

    ok: bool
    report: str
    peer_actions: dict[int, str] = field(default_factory=dict)   # index -> text of the peer's actions
    checked: int = 0                                              # peer messages compared
    omni: Any = None                                              # the omniscient final state (passed)


class _Fail(Exception):
    pass


def audit_peer(m: Any) -> Verdict:
    """Audit the peer of ``HiddenLockstep`` ``m`` (both ``audit-open`` fed); the honest machine is
    ``m.honest_class`` (``HiddenLockstep`` itself, also for a test build of a lying machine)."""
    try:
        return _audit(m)
    except _Fail as exc:
        return Verdict(False, str(exc))


def _audit(m: Any) -> Verdict:
    opened: AuditOpen = m.opens["peer"]
    peer_colour = "black" if m.colour == "white" else "white"
    them = m.them
    salts = SeededSalts(opened.seed)
    # the peer's actions in the order of its events: public ones by their text, hidden ones opened
    hidden = deque((i, t) for i, t in opened.actions)
    texts: deque[str] = deque()
    actions: dict[int, str] = {}
    for own, seq, msg in m.transcript:
        if own or not isinstance(msg, HiddenEvent) or (not msg.text and msg.commit is None):
            continue
        if msg.commit is None:
            texts.append(msg.text)
            actions[msg.index] = msg.text
            continue
        if not hidden:
            raise _Fail(f"the peer's hidden action {msg.index} (its 'event' seq {seq}) was not opened at the audit")
        i, t = hidden.popleft()
        c, _ = commit_action(Context(m.game_id, them, i), i, t, salts)
        if i != msg.index or c != msg.commit:
            raise _Fail(f"action {msg.index}: the peer's commitment (its 'event' seq {seq}) does not open to its "
                        f"audit's action {i} {t!r}")
        texts.append(t)
        actions[i] = t
    if hidden:
        raise _Fail(f"the peer opened {len(hidden)} hidden actions it never committed to")
    honest = m.honest_class(m.engine, m.options, peer_colour, m.game_id, m.move_time_limit, seed=opened.seed,
                            n_slots=m.n_slots, audit_seconds=m.audit_seconds, psi=m.psi_on)
    honest.psi_auditor = m        # its PSI matches read from our own records (net.psi.PsiAsker.use_oracle)
    pending: deque[Message] = deque()
    checked = 0

    def take(outs: list[Any], where: str) -> None:
        for o in outs:
            if isinstance(o, Send) and isinstance(o.message, HIDDEN_PLAY):
                pending.append(o.message)
            elif isinstance(o, Stop):
                raise _Fail(f"{where}: an honest peer stops there: {o.reason}")

    # Our commands that may cross the peer's next action on the wire (an undo request, a draw
    # offer or answer; not an undo answer, which the asker waits for) are fed to the honest peer only when it must have read them: before our
    # next message, or before its next message that is not the start of an action of its own.
    deferred: deque[Message] = deque()

    def flush() -> None:
        while deferred:
            d = deferred.popleft()
            honest.peer_seen += 1
            take(honest.feed(False, d), f"{_where(honest, d, -1)} (our {d.TAG!r})")

    for own, seq, msg in m.transcript:
        if isinstance(msg, AuditOpen) or (isinstance(msg, Claim) and msg.kind == "audit"):
            continue
        if own and isinstance(msg, _CROSSING):
            deferred.append(msg)
            continue
        if own or not (isinstance(msg, _FIRST) and msg.seal is not None):
            flush()
        where = _where(honest, msg, seq)
        if own:
            honest.peer_seen += 1
            take(honest.feed(False, msg), f"{where} (our {msg.TAG!r})")
            continue
        if isinstance(msg, HIDDEN_PLAY) and pending:
            want = pending.popleft()
            diff = _diff(want, msg)
            if diff:
                raise _Fail(f"{where}: the peer's signed {msg.TAG!r} (seq {seq}) is not what an honest machine "
                            f"sends there: {diff}")
            checked += 1
            take(honest.feed(True, want), where)
        elif isinstance(msg, _FIRST) and msg.seal is not None:
            if not texts:
                raise _Fail(f"{where}: the peer started an action that its audit does not name")
            text = texts.popleft()
            try:
                send = honest.act(text)
            except (RuleError, m.engine.NotationError) as exc:
                rule = getattr(exc, "rule", "notation")
                raise _Fail(f"{where}: the peer's action {honest.index} {text!r} (its {msg.TAG!r} seq {seq}) is "
                            f"illegal: {rule}: {exc}") from None
            except RuntimeError as exc:
                raise _Fail(f"{where}: the peer acted (seq {seq}) when it could not: {exc}") from None
            diff = _diff(send.message, msg)
            if diff:
                raise _Fail(f"{where}: the peer's signed {msg.TAG!r} (seq {seq}) for its action {text!r} is not what "
                            f"an honest machine sends: {diff}")
            checked += 1
            take(honest.feed(True, send.message, send.secrets), where)
        elif isinstance(msg, HIDDEN_PLAY):
            raise _Fail(f"{where}: the peer sent {msg.TAG!r} (seq {seq}) where an honest machine sends nothing")
        else:
            take(honest.feed(True, msg), where)
    # the omniscient replay of the whole game
    history = list(m.history)
    for i, t in actions.items():
        if i < len(history) and history[i] == "?":
            history[i] = t
    eng = m.engine
    omni = m.start
    for i, text in enumerate(history):
        try:
            omni = eng.apply_action(omni, eng.parse_action(text))
        except (RuleError, eng.NotationError) as exc:
            raise _Fail(f"the omniscient replay refuses action {i} {text!r}: {exc}") from None
    for who, side, machine in (("our", m.me, m), ("the peer's", them, honest)):
        if known_key(machine.side.state, side) != known_key(omni, side):
            raise _Fail(f"{who} final state is not what that side may know of the omniscient replay: "
                        f"{known_diff(machine.side.state, omni, side)}")
    return Verdict(True, f"audit passed: {checked} of the peer's hidden-play messages and {len(history)} actions "
                         f"checked; both final states agree with the omniscient replay", actions, checked, omni)


def _where(honest: Any, msg: Message, seq: int) -> str:
    return f"event {getattr(msg, 'ev', honest.ev)}, action {honest.index}, turn {honest.turn}"


def _diff(want: Message, got: Message) -> str:
    """'' if the messages say the same; else the first differing field."""
    if type(want) is not type(got):
        return f"{got.TAG!r} where {want.TAG!r} was due"
    for f in fields(want):   # type: ignore[arg-type]
        a, b = getattr(want, f.name), getattr(got, f.name)
        if f.name == "msgs" and isinstance(want, HiddenPsi) and a != b:
            return psi_diff(want, got)
        if a != b and f.name in _BLOBS:    # canonical msgpack of the plain values: show them
            a, b = he.plain(a), he.plain(b)
        if a != b:
            return f"{f.name} differs (claimed {_short(b)}, honest {_short(a)})"
    return ""


def _short(v: Any) -> str:
    text = v.hex() if isinstance(v, bytes) else repr(v)
    return text[:120] + ("…" if len(text) > 120 else "")
