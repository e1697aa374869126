"""Lockstep play: each action is validated by the receiver's engine and applied by both.

The mover validates its action locally, sends it and applies it when the receiver's signed
``ActionResult`` says ok (stop-and-wait, so a rejected action changes nothing on either side).
When the side to move changes (a turn ends) or the game ends, both sides send ``EndTurn``
with their state hash and compare; a mismatch stops the game with a diagnosis.
A peer's action is only accepted once the peer's hash for the previous turn has arrived.
Undo (non-competitive games only) is a request the other side approves. A request that
cannot be honoured when it arrives (it crossed an action of ours already on its way, or an
undo request of ours) is answered "no" with the reason, and changes nothing on either side.
Endings without capture (issue 10 item 1, RUL-53): a resignation or an accepted draw offer,
each during its sender's own turn, and a signed claim (the other side abandoned the game, ran
out of the agreed move time, or sent more than ``MAX_REFUSED_ACTIONS`` refused actions in one
turn) end the game with a ``result`` that both transcripts record.
"""
from __future__ import annotations

import enum
from collections import deque
from types import ModuleType
from typing import Any, Callable

from net.errors import ProtocolError
from net.messages import (Action, ActionResult, Claim, DesyncReport, DrawAnswer, DrawOffer, EndTurn, Message, Resign,
                          UndoAnswer, UndoRequest)
from net.outputs import Event, Output, Send, Stop


MAX_REFUSED_ACTIONS = 5   # refused actions a side may send in one turn; one more loses the game
COLOUR_NAMES = ("white", "black")


def _other(colour: str) -> str:
    return COLOUR_NAMES[1 - COLOUR_NAMES.index(colour)]


class PlayState(enum.Enum):
    PLAYING = "playing"
    AWAIT_RESULT = "waiting for the peer to apply our action"
    FINISHED = "game over"
    BROKEN = "stopped"


class Lockstep:
    """The play machine for one side; ``colour`` is ours, ``options`` the agreed options."""

    def __init__(self, engine: ModuleType, options: Any, colour: str, game_id: bytes,
                 move_time_limit: int = 0) -> None:
        self.engine, self.colour, self.game_id = engine, colour, game_id
        self.options = options
        self.move_time_limit = move_time_limit   # seconds per action of the side to move; 0 = none
        self.result: dict[str, Any] | None = None  # an ending without capture: outcome, ending, detail
        self.draw_offer: tuple[str, int] | None = None   # (who offered, turn of the offer)
        self.refused = {"us": 0, "peer": 0}   # refused actions in the current turn, by whose action
        self.peer_actions = 0     # the peer's action messages fed (accepted or refused): resets its clock
        self.peer_seen = 0        # the peer's game messages fed in all (set by Match)
        self.own_seen = 0         # ours (set by Match)
        self.own_fault: tuple[int, str] | None = None   # (seq, reason): a message of ours the rules forbid (N-6)
        self.state_value = engine.new_game(options)
        self.state = PlayState.PLAYING
        self.history: list[str] = []          # applied actions, notation
        self.turns: list[int] = []            # turn number before each applied action
        self.turn = 0
        self.my_hashes: dict[int, str] = {}
        self.peer_hashes: dict[int, str] = {}
        self.pending: tuple[int, Any, str] | None = None   # (index, new state, text) of our action
        self.undo_asked: tuple[str, int] | None = None     # (who, index)
        self._refusing: deque[int] = deque()  # peer requests we answer "no" at once, not yet answered
        self.rejections = 0
        self._validated: tuple[int, str, Any] | None = None

    @property
    def index(self) -> int:
        """Number of actions applied."""
        return len(self.history)

    def my_move(self) -> bool:
        """True if we may act now."""
        return (self.state is PlayState.PLAYING and self.undo_asked is None and self.own_fault is None
                and self.engine.side_to_move(self.state_value) == self.colour
                and self.engine.outcome(self.state_value) is None)

    # ---- commands ----

    def act(self, text: str, legal: bool = False) -> Send:
        """Our action in notation. :raises RuntimeError: not our move. :raises engine RuleError/NotationError.

        ``legal``: the driver took ``text`` from ``engine.legal_actions`` (the bot; a UI's list of
        the selected piece's actions), so only its notation is checked here; its new state is
        computed once it is sent, while the peer checks it (issue 10 item 6: one engine check on
        the critical path, the receiver's). Otherwise it is checked (and its state kept) here."""
        if not self.my_move():
            raise RuntimeError("not our move")
        if legal:
            self.engine.parse_action(text)
            self._validated = None
        else:
            new = self.engine.apply_action(self.state_value, self.engine.parse_action(text))  # validate only
            self._validated = (self.index, text, new)
        return Send(Action(self.index, text))

    def request_undo(self) -> Send:
        """Ask to take back the last action. :raises RuntimeError/RuleError: nothing to undo or competitive."""
        if (self.state is not PlayState.PLAYING or self.undo_asked is not None or not self.history
                or self.engine.outcome(self.state_value) is not None):
            raise RuntimeError("nothing to undo now")
        self.engine.undo(self.state_value)  # raises RuleError in competitive games
        return Send(UndoRequest(self.index))

    def answer_undo(self, accept: bool, reason: str = "") -> Send:
        """Approve or reject the peer's undo request (``reason``: why not, shown to the peer)."""
        if self.undo_asked is None or self.undo_asked[0] != "peer":
            raise RuntimeError("no undo request to answer")
        if not accept:
            reason = (reason or "the other player declined")[:256]
        return Send(UndoAnswer(self.undo_asked[1], accept, "" if accept else reason))

    def resign(self) -> Send:
        """Resign (RUL-53: during our own turn). :raises RuntimeError: not our turn, or an action in flight."""
        if not self.my_move():
            raise RuntimeError("RUL-53: a player may resign only during its own turn (and not while its "
                               "action awaits the other side's answer)")
        return Send(Resign(self.turn, self.index))

    def offer_draw(self) -> Send:
        """Offer a draw (RUL-53: during our own turn). :raises RuntimeError: not our turn or already offered."""
        if not self.my_move():
            raise RuntimeError("RUL-53: a draw may be offered only during one's own turn")
        if self.draw_offer is not None:
            raise RuntimeError("a draw offer is already standing")
        return Send(DrawOffer(self.turn))

    def answer_draw(self, accept: bool) -> Send:
        """Accept (RUL-53: during our turn after the offer) or decline the peer's standing draw offer."""
        if self.draw_offer is None or self.draw_offer[0] != "peer":
            raise RuntimeError("no draw offer to answer")
        if accept and not (self.my_move() and self.turn == self.draw_offer[1] + 1):
            raise RuntimeError("RUL-53: a draw offer is accepted during one's next turn after it was made")
        return Send(DrawAnswer(self.draw_offer[1], accept))

    def claim(self, kind: str, detail: str) -> Send:
        """Claim the game: ``abandoned`` (the peer left and did not come back in time) or ``time``
        (the peer, to move, exceeded the agreed move time). ``refused-actions`` is claimed by the
        machine itself. :raises RuntimeError: the game is over, or a time claim that does not apply."""
        if self.state not in (PlayState.PLAYING, PlayState.AWAIT_RESULT) or self.result is not None:
            raise RuntimeError("the game is over: nothing to claim")
        if kind == "time" and (not self.move_time_limit or self.engine.side_to_move(self.state_value) == self.colour):
            raise RuntimeError("a time claim needs an agreed move time limit and the other side to move")
        return Send(Claim(kind, self.turn, self.index, self.peer_seen, detail[:256]))

    def peer_clock(self) -> int | None:
        """The agreed seconds the peer has for its next action, if its clock runs now (else None)."""
        if (not self.move_time_limit or self.state is not PlayState.PLAYING or self.undo_asked is not None
                or self.engine.side_to_move(self.state_value) == self.colour
                or self.engine.outcome(self.state_value) is not None):
            return None
        return self.move_time_limit

    # ---- feeding ----

    def feed(self, own: bool, msg: Message, secrets: dict[str, Any] | None = None) -> list[Output]:
        """Apply one logged message (ours if ``own``)."""
        if self.result is not None:
            return self._after_result(own, msg)
        if self.state in (PlayState.BROKEN, PlayState.FINISHED) and not isinstance(msg, (EndTurn, DesyncReport)):
            return [] if own else [Stop(f"{msg.TAG!r} after the game ended")]
        if self.own_fault is not None:
            # we sent a message the rules forbid (N-6): only the peer's breach claim follows
            return self._claim(False, msg) if not own and isinstance(msg, Claim) and msg.kind == "breach" else []
        handler = _TRANSITIONS.get((own, type(msg)))
        if handler is None:
            return self._fault(f"unexpected {msg.TAG!r} during play", own, msg)
        try:
            return handler(self, msg)
        except ProtocolError as exc:
            return self._fault(str(exc), own, msg)

    def _fault(self, reason: str, own: bool, msg: Message) -> list[Output]:
        """A signed message the play rules forbid, found by a check on the public record alone (the
        turn, the action count, the standing offer or undo request, the agreed options), which the
        other side and a third party repeat from the signed transcript (docs/rulings.md N-6): the
        peer's loses it the game (our signed ``claim{breach}`` names the message); ours is kept
        (``own_fault``) so that we accept that claim, and we act no more."""
        if own:
            self.own_fault = (self.own_seen - 1, reason)
            return [Event("own-fault", {"seq": self.own_seen - 1, "reason": reason})]
        seq = self.peer_seen - 1
        detail = f"{reason[:180]} ({msg.TAG!r}), proven by signed message #{seq}"
        return [Send(Claim("breach", self.turn, self.index, self.peer_seen, detail[:256]))]

    def _own_action(self, msg: Action) -> list[Output]:
        cached = self._validated
        if cached is not None and cached[:2] == (msg.index, msg.text):
            new = cached[2]
        else:
            try:
                new = self.engine.apply_action(self.state_value, self.engine.parse_action(msg.text))
            except (self.engine.RuleError, self.engine.NotationError):
                new = None   # sent unchecked (``act(legal=True)``) but refused here: the peer refuses it too
        self._validated = None
        self.pending = (msg.index, new, msg.text)
        self.state = PlayState.AWAIT_RESULT
        return []

    def _peer_action(self, msg: Action) -> list[Output]:
        if msg.index != self.index:
            raise ProtocolError(f"action numbered {msg.index}, expected {self.index} (stale or skipped)")
        if self.state is not PlayState.PLAYING:
            raise ProtocolError("peer acted while our action awaits its result")
        if self.turn > 0 and (self.turn - 1) not in self.peer_hashes:
            raise ProtocolError(f"peer acted before sending its state hash for turn {self.turn - 1}")
        self.peer_actions += 1
        new, reject = self._try(msg.text)
        if reject is not None:
            self.rejections += 1
            self.refused["peer"] += 1
            rule, reason = reject
            refused: list[Output] = [Send(ActionResult(msg.index, False, rule, reason)),
                                     Event("rejected", {"by": "us", "text": msg.text, "rule": rule, "reason": reason})]
            if self.refused["peer"] > MAX_REFUSED_ACTIONS:
                refused.append(Send(Claim("refused-actions", self.turn, self.index, self.peer_seen,
                                          f"{self.refused['peer']} refused actions in one turn (limit "
                                          f"{MAX_REFUSED_ACTIONS}); the last: {rule}: {reason}"[:256])))
            return refused
        out: list[Output] = [Send(ActionResult(msg.index, True, "", ""))]
        return out + self._apply(new, msg.text, mine=False)

    def _peer_result(self, msg: ActionResult) -> list[Output]:
        if self.pending is None or msg.index != self.pending[0]:
            raise ProtocolError(f"result for action {msg.index}, which we did not send or already settled")
        _, new, text = self.pending
        self.pending, self.state = None, PlayState.PLAYING
        if not msg.ok:
            self.refused["us"] += 1
            return [Event("rejected", {"by": "peer", "text": text, "rule": msg.rule, "reason": msg.reason})]
        if new is None:
            return self._break(f"the peer applied our action {text!r}, which our engine refuses (desync)")
        return self._apply(new, text, mine=True)

    def _own_end_turn(self, msg: EndTurn) -> list[Output]:
        return self._compare(msg.turn)

    def _peer_end_turn(self, msg: EndTurn) -> list[Output]:
        if msg.turn in self.peer_hashes or msg.turn >= self.turn:
            raise ProtocolError(f"unexpected state hash for turn {msg.turn}")
        self.peer_hashes[msg.turn] = msg.state_hash
        return self._compare(msg.turn)

    def _peer_desync(self, msg: DesyncReport) -> list[Output]:
        self.state = PlayState.BROKEN
        return [Stop(f"desync at turn {msg.turn}: the peer reports hash {msg.state_hash[:16]}…: {msg.detail}")]

    def _own_desync(self, msg: DesyncReport) -> list[Output]:
        self.state = PlayState.BROKEN
        return [Stop(f"desync at turn {msg.turn}: {msg.detail}")]

    def _undo_request(self, own: bool, msg: UndoRequest) -> list[Output]:
        if own:
            if self.undo_asked is not None or msg.index != self.index or self.state is not PlayState.PLAYING:
                raise ProtocolError("undo request out of turn")
            self.undo_asked = ("us", msg.index)
            return []
        if (self.undo_asked is not None and self.undo_asked[0] == "peer") or msg.index in self._refusing:
            raise ProtocolError(f"a second undo request ({msg.index}) before we answered the first")
        why = self._cannot_undo(msg.index)
        if why is None:
            try:
                self.engine.undo(self.state_value)
            except Exception as exc:   # e.g. 02/D24 in a competitive game
                why = str(exc)[:256]
        if why is not None:   # answered "no" at once; nothing changes on either side
            self._refusing.append(msg.index)
            return [Send(UndoAnswer(msg.index, False, why)), Event("undo-refused", {"index": msg.index, "reason": why})]
        self.undo_asked = ("peer", msg.index)
        return [Event("undo-request", {"index": msg.index})]

    def _cannot_undo(self, index: int) -> str | None:
        """Why the peer's undo request ``index`` cannot be honoured now (None if it can).

        An honest peer asks between messages, so its request can cross what we already sent:
        our next action (it is their request's "not your move" case) or our own undo request.
        """
        if self.state is PlayState.AWAIT_RESULT and self.pending is not None:
            return (f"the other side had already acted (its action {self.pending[0]} crossed the undo request); "
                    "nothing was undone")
        if self.undo_asked is not None:   # ours: both asked at once
            return "the other side had asked for an undo at the same time; nothing was undone"
        if index != self.index:
            return (f"the request was for {index} actions but the other side has applied {self.index}; "
                    "nothing was undone")
        if self.engine.outcome(self.state_value) is not None:
            return "the game is over; nothing was undone"
        return None

    def _undo_answer(self, own: bool, msg: UndoAnswer) -> list[Output]:
        if own and self._refusing and self._refusing[0] == msg.index and not msg.accept:
            self._refusing.popleft()   # our automatic "no" (the driver heard "undo-refused")
            return []
        asker = "peer" if own else "us"
        if self.undo_asked != (asker, msg.index):
            raise ProtocolError("undo answer without a matching request")
        if msg.accept and msg.index != self.index:
            raise ProtocolError(f"undo of action {msg.index} approved, but {self.index} actions are applied")
        self.undo_asked = None
        if not msg.accept:
            return [Event("undo-answer", {"accept": False, "reason": msg.reason})]
        self.state_value = self.engine.undo(self.state_value)
        self.history.pop()
        self.turn = self.turns.pop()
        for table in (self.my_hashes, self.peer_hashes):
            for t in [t for t in table if t >= self.turn]:
                del table[t]
        return [Event("undo-answer", {"accept": True, "index": self.index})]

    # ---- endings (RUL-53, issue 10 item 1) ----

    def _resign(self, own: bool, msg: Resign) -> list[Output]:
        mover = self.colour if own else _other(self.colour)
        if own:
            self._check_own_turn(msg.turn, "resignation")
        else:
            self._check_own_turn_of_peer(msg.turn, "resignation")
        if msg.index != self.index:
            raise ProtocolError(f"resignation with {msg.index} actions applied, we have {self.index}")
        return self._end(_other(mover), "resignation", f"{mover} resigned (RUL-53)", own)

    def _draw_offer(self, own: bool, msg: DrawOffer) -> list[Output]:
        (self._check_own_turn if own else self._check_own_turn_of_peer)(msg.turn, "draw offer")
        if self.draw_offer is not None:
            raise ProtocolError("a draw offer while another one stands")
        if own:
            self.draw_offer = ("us", msg.turn)
            return []
        self.draw_offer = ("peer", msg.turn)
        return [Event("draw-offer", {"turn": msg.turn})]

    def _draw_answer(self, own: bool, msg: DrawAnswer) -> list[Output]:
        offerer = "peer" if own else "us"
        if self.draw_offer != (offerer, msg.turn):
            raise ProtocolError(f"draw answer for turn {msg.turn} without a standing offer")
        if msg.accept:
            answerer = self.colour if own else _other(self.colour)
            if (self.turn != msg.turn + 1 or self.engine.side_to_move(self.state_value) != answerer
                    or (not own and self.state is not PlayState.PLAYING)):
                raise ProtocolError("draw accepted outside the answerer's next turn (RUL-53)")
            return self._end("draw", "draw", f"draw agreed: {_other(answerer)} offered in turn {msg.turn + 1}, "
                                              f"{answerer} accepted (RUL-53)", own)
        self.draw_offer = None
        return [Event("draw-declined", {"by": "us" if own else "peer", "turn": msg.turn})]

    def _claim(self, own: bool, msg: Claim) -> list[Output]:
        claimant = self.colour if own else _other(self.colour)
        loser = _other(claimant)
        if msg.kind == "breach":
            if not own and (self.own_fault is None or self.own_fault[0] != msg.seen - 1):
                # N-6: our record shows no forbidden message there; a stop, not a counter-claim
                return self._break(f"unfounded breach claim: our message #{msg.seen - 1} breaks no rule by our "
                                   f"record ({msg.detail})")
            return self._end(claimant, "breach", f"{loser} lost by breach: {msg.detail}", own)
        if own:
            problem = self._unfounded_own(msg)
            if problem is not None:
                raise ProtocolError(f"unfounded {msg.kind} claim: {problem}")
        else:
            problem = self._unfounded(msg)
            if problem is not None and msg.kind == "time" and self.move_time_limit:
                # "not our move": the claim may have crossed our action that ended our move, a race
                # the signed record cannot tell from a lie: a stop, not a breach (N-6)
                return self._break(f"unfounded time claim: {problem}")
            if problem is not None:
                raise ProtocolError(f"unfounded {msg.kind} claim: {problem}")
        what = {"abandoned": f"{loser} abandoned the game",
                "time": f"{loser} exceeded the move time limit ({self.move_time_limit} s)",
                "refused-actions": f"{loser} sent more than {MAX_REFUSED_ACTIONS} refused actions in one turn"}
        return self._end(claimant, msg.kind, f"{what[msg.kind]}; {claimant} claimed the win: {msg.detail}", own)

    def _unfounded(self, msg: Claim) -> str | None:
        """Why the peer's claim against us does not hold by our own record (None if it holds)."""
        if msg.kind == "refused-actions":
            if self.refused["us"] <= MAX_REFUSED_ACTIONS or msg.turn != self.turn:
                return (f"we have {self.refused['us']} refused actions in turn {self.turn} "
                        f"(the limit is {MAX_REFUSED_ACTIONS})")
        elif msg.kind == "time":
            if not self.move_time_limit:
                return "no move time limit was agreed"
            if self.engine.side_to_move(self.state_value) != self.colour:
                return "it was not our move"
        return None   # abandonment: we were away; the claimant's signature is the record

    def _unfounded_own(self, msg: Claim) -> str | None:
        """``_unfounded`` seen from the claimant: why the peer will refuse our claim (None if it holds)."""
        if msg.kind == "refused-actions":
            if self.refused["peer"] <= MAX_REFUSED_ACTIONS or msg.turn != self.turn:
                return (f"the peer has {self.refused['peer']} refused actions in turn {self.turn} "
                        f"(the limit is {MAX_REFUSED_ACTIONS})")
        elif msg.kind == "time":
            if not self.move_time_limit:
                return "no move time limit was agreed"
            if self.engine.side_to_move(self.state_value) == self.colour:
                return "it was not our move"
        return None

    def _after_result(self, own: bool, msg: Message) -> list[Output]:
        """A message after an ending without capture: it crossed the end, so it changes nothing;
        except a claim of the peer crossing our own (both claimed while cut off from each other):
        neither side left for good, so the game is drawn (docs/rulings.md)."""
        assert self.result is not None
        if (not own and isinstance(msg, Claim) and self.result["ending"] in ("abandoned", "time")
                and self.result["outcome"] == self.colour and msg.kind in ("abandoned", "time")):
            return self._end("draw", "crossed-claims", "both sides claimed the game while cut off from "
                                                        "each other; drawn (docs/rulings.md)", False, force=True)
        return []

    def _check_own_turn(self, turn: int, what: str) -> None:
        """``_check_own_turn_of_peer`` for our own message: the check the peer makes of it."""
        if (self.state is not PlayState.PLAYING or turn != self.turn
                or self.engine.side_to_move(self.state_value) != self.colour):
            raise ProtocolError(f"{what} outside the sender's own turn (RUL-53)")

    def _check_own_turn_of_peer(self, turn: int, what: str) -> None:
        if (self.state is not PlayState.PLAYING or turn != self.turn
                or self.engine.side_to_move(self.state_value) == self.colour):
            raise ProtocolError(f"{what} outside the sender's own turn (RUL-53)")

    def _end(self, outcome: str, ending: str, detail: str, own: bool, force: bool = False) -> list[Output]:
        """End the game without capture (``own``: by our message); our own action still awaiting
        its result is dropped (the other side did not apply it: its answer would precede this
        message)."""
        if self.result is not None and not force:
            return []
        self.result = {"outcome": outcome, "ending": ending, "detail": detail, "ours": own}
        self.pending, self.state, self.draw_offer = None, PlayState.FINISHED, None
        h = self.engine.state_hash(self.state_value)
        return [Event("game-over", {"outcome": outcome, "ending": ending, "detail": detail, "state_hash": h})]

    # ---- helpers ----

    def _try(self, text: str) -> tuple[Any, tuple[str, str] | None]:
        """(new state, None), or (None, (rule, reason)) if the peer's action is illegal."""
        eng = self.engine
        if eng.side_to_move(self.state_value) == self.colour:
            return None, ("net/turn", "not your move")
        try:
            return eng.apply_action(self.state_value, eng.parse_action(text)), None
        except eng.NotationError as exc:
            return None, ("notation", str(exc)[:256])
        except eng.RuleError as exc:
            return None, (str(getattr(exc, "rule", "?"))[:32], str(exc)[:256])

    def _apply(self, new: Any, text: str, mine: bool) -> list[Output]:
        eng = self.engine
        before = eng.side_to_move(self.state_value)
        self.state_value = new
        self.history.append(text)
        self.turns.append(self.turn)
        out: list[Output] = [Event("applied", {"index": self.index, "text": text, "mine": mine})]
        if eng.side_to_move(new) != before or eng.outcome(new) is not None:
            h = eng.state_hash(new)
            self.my_hashes[self.turn] = h
            out.append(Send(EndTurn(self.turn, self.index, h, None)))
            self.turn += 1
            self.refused = {"us": 0, "peer": 0}
            if self.draw_offer is not None and self.turn > self.draw_offer[1] + 1:
                out.append(Event("draw-offer-lapsed", {"by": self.draw_offer[0], "turn": self.draw_offer[1]}))
                self.draw_offer = None
        return out

    def _compare(self, turn: int) -> list[Output]:
        mine, theirs = self.my_hashes.get(turn), self.peer_hashes.get(turn)
        if mine is None or theirs is None:
            return []
        if mine != theirs:
            detail = self.diagnose(theirs)
            self.state = PlayState.BROKEN
            return [Send(DesyncReport(turn, mine, detail[:512]))]
        if self.engine.outcome(self.state_value) is not None and turn == self.turn - 1:
            self.state = PlayState.FINISHED
            return [Event("game-over", {"outcome": self.engine.outcome(self.state_value), "state_hash": mine})]
        return [Event("turn-ok", {"turn": turn, "state_hash": mine})]

    def diagnose(self, peer_hash: str) -> str:
        """Explain a hash mismatch: replay the signed actions and name the first differing part."""
        eng = self.engine
        replay = eng.new_game(self.options)
        for text in self.history:
            replay = eng.apply_action(replay, eng.parse_action(text))
        if eng.state_hash(replay) != eng.state_hash(self.state_value):
            return "our state differs from a replay of the transcript: " + eng.state_diff(replay, self.state_value)
        return (f"our state equals a replay of the signed transcript (hash {eng.state_hash(replay)[:16]}…); "
                f"the peer's state (hash {peer_hash[:16]}…) diverged")

    def _break(self, reason: str) -> list[Output]:
        self.state = PlayState.BROKEN
        return [Stop(reason)]


_TRANSITIONS: dict[tuple[bool, type], Callable[[Lockstep, Any], list[Output]]] = {
    (True, Action): Lockstep._own_action,
    (False, Action): Lockstep._peer_action,
    (True, ActionResult): lambda m, msg: [],
    (False, ActionResult): Lockstep._peer_result,
    (True, EndTurn): Lockstep._own_end_turn,
    (False, EndTurn): Lockstep._peer_end_turn,
    (True, DesyncReport): Lockstep._own_desync,
    (False, DesyncReport): Lockstep._peer_desync,
    (True, UndoRequest): lambda m, msg: m._undo_request(True, msg),
    (False, UndoRequest): lambda m, msg: m._undo_request(False, msg),
    (True, UndoAnswer): lambda m, msg: m._undo_answer(True, msg),
    (False, UndoAnswer): lambda m, msg: m._undo_answer(False, msg),
    (True, Resign): lambda m, msg: m._resign(True, msg),
    (False, Resign): lambda m, msg: m._resign(False, msg),
    (True, DrawOffer): lambda m, msg: m._draw_offer(True, msg),
    (False, DrawOffer): lambda m, msg: m._draw_offer(False, msg),
    (True, DrawAnswer): lambda m, msg: m._draw_answer(True, msg),
    (False, DrawAnswer): lambda m, msg: m._draw_answer(False, msg),
    (True, Claim): lambda m, msg: m._claim(True, msg),
    (False, Claim): lambda m, msg: m._claim(False, msg),
}
