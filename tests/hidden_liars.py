"""Lying peers: test builds of the hidden-play machine (issue 8 "What it must show": lying peers).

Each is a subclass of the honest ``net.hidden_play.HiddenLockstep`` that tells one lie, once, at
the first chance, records where (``lie``: turn, action index, event, the message's tag and
numbers), and then asks its driver to resign (``wants_to_resign``) so the game ends and the
audit runs:

* ``NothingThere``: an owner answers "nothing there" (no index, no piece, no) when its hidden
  piece is there (HQ-1, HQ-12), opening nothing;
* ``OtherPiece``: an owner's answer opens the commitment (a true leaf of its root) of another of
  its pieces than the one the answer names;
* ``IllegalMove``: a resolver moves a hidden piece where the rules forbid (``mode`` "range": out of
  its range; "blocked": through or onto a blocking piece), committing to that move while sending
  the consequences of a legal one;
* ``Refuser``: never opens its secrets at the end of the game.

``install(name)`` makes ``net.match`` build the named liar (for a ``wec`` process started by
tests/liar_peer.py); in-process drivers swap the class of their own machine instead
(``ScanBot.machine_class``), so the other side stays honest.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from engine.actions import Move
from engine.errors import RuleError
from net import hidden_engine as he
from net.hidden_play import Ev, HiddenLockstep
from net.hidden_wire import HiddenAnswer, HiddenQuery, leaf
from net.outputs import Output, Send


class Liar(HiddenLockstep):
    """The honest machine plus a record of the one lie it tells."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.liar_init()

    def liar_init(self) -> None:
        self.lie: dict[str, Any] | None = None
        self.wants_to_resign = False

    def _told(self, tag: str, **where: Any) -> None:
        self.lie = {"turn": self.turn, "index": self.index, "ev": self.ev, "tag": tag, **where}
        self.wants_to_resign = True


def _answer_fields(a: Any) -> set[str]:
    return {f.name for f in dataclasses.fields(a)}


def _nothing(a: Any) -> Any:
    """The "nothing there" form of a positive answer: no, no index, no pieces; nothing opened."""
    v = a.value
    new: Any = False if isinstance(v, bool) else None if isinstance(v, int) else type(v)()
    kw: dict[str, Any] = {"value": new}
    for name in ("openings", "opened"):
        if name in _answer_fields(a):
            kw[name] = ()
    return dataclasses.replace(a, **kw)


_NOTHING_KINDS = {"first", "first_hidden", "open_on", "hidden_on", "any_on", "any_hidden"}


class NothingThere(Liar):
    """Answers "nothing there" once when its hidden piece is there (HQ-1, HQ-12)."""

    def feed(self, own: bool, msg: Any, secrets: Any = None) -> list[Output]:
        outs = super().feed(own, msg, secrets)
        if own or not isinstance(msg, HiddenQuery) or self.lie is not None:
            return outs
        q = he.load_question(msg.question)
        if q.kind not in _NOTHING_KINDS:
            return outs
        out = []
        for o in outs:
            if isinstance(o, Send) and isinstance(o.message, HiddenAnswer) and self.lie is None:
                a = he.load_answer(o.message.answer, q.kind)
                lie = _nothing(a) if _positive(a) else None  # only where something is there
                if lie is not None:
                    o = Send(dataclasses.replace(o.message, answer=he.dump_answer(lie), opened=[]), o.secrets)
                    self._told("hidden-answer", n=o.message.n, kind=q.kind, truth=_short(a.value))
            out.append(o)
        return out


def _positive(a: Any) -> bool:
    v = a.value
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return True
    return isinstance(v, (tuple, list)) and len(v) > 0


def _short(v: Any) -> str:
    return repr(v)[:60]


class OtherPiece(Liar):
    """Opens, in an answer, the leaf of another of its pieces than the one the answer names."""

    def feed(self, own: bool, msg: Any, secrets: Any = None) -> list[Output]:
        outs = super().feed(own, msg, secrets)
        if own or not isinstance(msg, HiddenQuery) or self.lie is not None:
            return outs
        out = []
        for o in outs:
            if isinstance(o, Send) and isinstance(o.message, HiddenAnswer) and o.message.opened and self.lie is None:
                named = o.message.opened[0][0]
                others = sorted(sid for sid, p in self.side.state.pieces.items()
                                if p.side == self.me and sid != named)
                if others:
                    forged = leaf(self._tc.open(others[0]))          # a true opening of our root
                    o = Send(dataclasses.replace(o.message, opened=[forged] + o.message.opened[1:]), o.secrets)
                    self._told("hidden-answer", n=o.message.n, named=named, opened=others[0])
            out.append(o)
        return out


class IllegalMove(Liar):
    """Moves a hidden piece where the rules forbid, once (``mode`` "range" or "blocked")."""

    mode = "range"

    def act(self, text: str, legal: bool = False) -> Send:
        if self.lie is None and self.my_move():
            bad = self._illegal()
            if bad is not None:
                good, bad_text, rule = bad
                cur = Ev("resolver", self.index, good, bad_text)
                first = self._step(cur, preview=True)
                self._cached = (bad_text, (cur, first))
                self._told("event", text=bad_text, legal=self.engine.format_action(good), rule=rule)
                return Send(first, secrets={"action": bad_text})
        return super().act(text, legal)

    def _illegal(self) -> tuple[Move, str, str] | None:
        """A legal Move of one of our pieces the peer cannot see, and an illegal Move of the same
        piece (with the rule the engine refuses it by) of the kind ``mode`` asks for."""
        state = self.side.state
        hidden = {sid for sid, p in state.pieces.items() if p.side == self.me and sid not in self.side.exposed}
        if not hidden:
            return None
        legal = self.engine.legal_actions(state)
        texts = {self.engine.format_action(a) for a in legal}
        for good in legal:
            if not isinstance(good, Move) or good.passenger is not None or good.doze:
                continue
            d = good.piece
            mover = next((p for p in state.pieces.values() if p.sid in hidden and
                          (p.row, p.col, p.level) == (d.row, d.col, d.level) and p.kind == d.kind), None)
            if mover is None:
                continue
            for r in range(1, 11):
                for c in range(1, 11):
                    bad = dataclasses.replace(good, row=r, col=c)
                    t = self.engine.format_action(bad)
                    if t in texts or (r, c) == (d.row, d.col):
                        continue
                    rule = _refused(self.engine, state, bad)
                    if rule is None:
                        continue
                    far = max(abs(r - d.row), abs(c - d.col))
                    line = r == d.row or c == d.col or abs(r - d.row) == abs(c - d.col)
                    blocked = line and _blocker_between(state, d.row, d.col, r, c, d.level)
                    if (self.mode == "blocked" and blocked) or (self.mode == "range" and not blocked and far >= 4):
                        return good, t, rule
        return None


def _refused(engine: Any, state: Any, action: Any) -> str | None:
    try:
        engine.apply_action(state, action)
    except RuleError as exc:
        return exc.rule
    except Exception:
        return None
    return None


def _blocker_between(state: Any, r0: int, c0: int, r1: int, c1: int, level: str) -> bool:
    dr, dc = (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)
    r, c = r0 + dr, c0 + dc
    while (r, c) != (r1, c1):
        if any((p.row, p.col, p.level) == (r, c, level) for p in state.pieces.values()):
            return True
        r, c = r + dr, c + dc
    return False


class IllegalThroughBlock(IllegalMove):
    mode = "blocked"


class Refuser(Liar):
    """Never opens its secrets for the audit."""

    def _send_open(self) -> list[Output]:
        if self.lie is None:
            self._told("audit-open")
        return []


LIARS = {"nothing-there": NothingThere, "other-piece": OtherPiece, "illegal-range": IllegalMove,
         "illegal-blocked": IllegalThroughBlock, "refuser": Refuser}


def install(name: str) -> type:
    """Make ``net.match`` build liar ``name`` for this process's games."""
    import net.match
    cls = LIARS[name]
    net.match.HiddenLockstep = cls     # type: ignore[attr-defined, misc]
    return cls
