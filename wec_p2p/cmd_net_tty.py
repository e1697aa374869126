"""``wec host`` / ``wec join`` without ``--bot``: a person plays over WiFi in a plain terminal.

The terminal is one more front end of ``net.bridge.NetBridge``: lines typed on stdin become
commands, events are printed as lines. A thread reads stdin and puts each line into the
bridge's own event queue, so the main loop waits on one queue and never polls. Type ``help``.
"""
from __future__ import annotations

import argparse
import logging
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable, TextIO

from net import frontend as fe
from net.bridge import BridgeConfig, NetBridge
from net.discovery import DiscoveryError, HostPortError, parse_host_port
from net.licence import LicenceError
from net.session import NetConfig

HELP = """commands:
  y / n               answer the question shown (pairing code, rule change, undo, draw)
  gov NAME            choose your government (secret until both have chosen)
  request OPT=VALUE   ask for a rule change (e.g. request ply_limit=60)
  finish              Finish WiFi Setup (the game starts when both have finished)
  legal               list the legal actions, numbered
  N | ACTION | end    play legal action number N, an action in notation, or end the turn
  undo | resign | draw    ask to take back the last action, resign, offer a draw
  quit                leave (an unfinished game resumes next time)"""


@dataclass(frozen=True)
class _Line:
    """One line typed on stdin (None: stdin closed)."""

    text: str | None


def play_in_terminal(args: argparse.Namespace, make_config: Callable[[], NetConfig],
                     stdin: TextIO = sys.stdin, out: TextIO = sys.stdout) -> int:
    """Run one interactive session; 0 when the game finished, 1 otherwise, 2 for licence problems."""
    logging.getLogger("asyncio").setLevel(logging.ERROR)   # its TLS shutdown chatter is not for players
    try:
        cfg = make_config()
    except LicenceError as exc:
        print(f"wec: {exc}", file=sys.stderr)
        return 2
    hosting = not hasattr(args, "peer")
    bridge = NetBridge(BridgeConfig(cfg, interfaces=[args.interface] if args.interface else None,
                                    port=args.port if hosting else 0,
                                    discovery=not (hosting and args.no_discovery), hint_after=args.timeout))
    term = _Terminal(args, bridge, out, hosting)
    try:
        bridge.start()
    except (DiscoveryError, OSError) as exc:
        print(f"wec: {exc}", file=sys.stderr)
        return 2
    threading.Thread(target=_read_lines, args=(stdin, bridge), name="wec-stdin", daemon=True).start()
    try:
        term.begin()
        while term.code is None:
            item = bridge.events.get()
            if isinstance(item, _Line):
                term.line(item.text)
            else:
                term.event(item)
    except KeyboardInterrupt:
        term.code = 1
    finally:
        bridge.close()
    return term.code


def _read_lines(stdin: TextIO, bridge: NetBridge) -> None:
    for text in stdin:
        bridge.events.put(_Line(text.strip()))
    bridge.events.put(_Line(None))


class _Terminal:
    """Prints events and turns typed lines into bridge commands."""

    def __init__(self, args: argparse.Namespace, bridge: NetBridge, out: TextIO, hosting: bool) -> None:
        self.args, self.bridge, self.out, self.hosting = args, bridge, out, hosting
        self.code: int | None = None
        self.questions: list[tuple[str, Any]] = []     # oldest first: ("pair"|"rule"|"undo"|"draw", detail)
        self.joined = False
        self.colour: str | None = None
        self.turn: fe.YourTurn | None = None
        self.setup_sent = False
        self.setup_shown: tuple[Any, ...] | None = None

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def begin(self) -> None:
        if self.hosting:
            self.bridge.post(fe.Host())
            return
        try:
            parse_host_port(self.args.peer)
        except HostPortError:
            self.say(f"looking for {self.args.peer!r} on the local network…")
            return
        self._join(self.args.peer)

    # ---- typed lines ----

    def line(self, text: str | None) -> None:
        if text is None:   # stdin closed: nobody can answer any more
            self.bridge.post(fe.Quit())
            self.code = 1
            return
        word, _, rest = text.partition(" ")
        word = word.lower()
        if not word:
            return
        if word in ("y", "yes", "n", "no"):
            self._answer(word.startswith("y"))
        elif word == "help":
            self.say(HELP)
        elif word == "quit":
            self.bridge.post(fe.Quit())
            self.code = 1
        elif word == "request":
            option, sep, value = rest.partition("=")
            if not sep:
                self.say("usage: request OPTION=VALUE")
                return
            self.bridge.post(fe.RequestRuleChange(option.strip(), parse_value(value.strip())))
        elif word == "gov":
            self.bridge.post(fe.ChooseGovernment(rest.strip()))
        elif word == "finish":
            self.bridge.post(fe.FinishSetup())
        elif word == "legal":
            legal = self.turn.legal if self.turn else ()
            self.say("\n".join(f"  {i:>3} {t}" for i, t in enumerate(legal, 1)) or "not your move")
        elif word == "undo":
            self.bridge.post(fe.RequestUndo())
        elif word == "resign":
            self.bridge.post(fe.Resign())
        elif word == "draw":
            self.bridge.post(fe.OfferDraw())
        elif word == "end":
            self._act(self.turn.end_turn if self.turn and self.turn.end_turn else "END")
        elif word.isdigit():
            legal = self.turn.legal if self.turn else ()
            if not 1 <= int(word) <= len(legal):
                self.say(f"no legal action number {word} (type legal)")
                return
            self._act(legal[int(word) - 1])
        else:
            self._act(text)

    def _act(self, text: str) -> None:
        self.turn = None
        self.bridge.post(fe.Act(text))

    def _answer(self, yes: bool) -> None:
        if not self.questions:
            self.say("no question is waiting for an answer")
            return
        kind, detail = self.questions.pop(0)
        command = {"pair": lambda: fe.ConfirmCode(yes), "rule": lambda: fe.AnswerRuleChange(detail, yes),
                   "undo": lambda: fe.AnswerUndo(yes), "draw": lambda: fe.AnswerDraw(yes)}[kind]()
        self.bridge.post(command)
        if self.questions:
            self.say(self.questions[0][1] if isinstance(self.questions[0][1], str) else "answer y or n")

    def _ask(self, kind: str, detail: Any, prompt: str) -> None:
        self.questions.append((kind, detail))
        self.say(f"{prompt} [y/n]")

    def _join(self, target: str) -> None:
        self.joined = True
        self.bridge.post(fe.Join(target))

    # ---- events ----

    def event(self, e: Any) -> None:
        handler = getattr(self, "_on_" + type(e).__name__, None)
        if handler is not None:
            handler(e)

    def _on_PeersChanged(self, e: fe.PeersChanged) -> None:
        if self.hosting or self.joined:
            return
        wanted = self.args.peer.lower()
        for peer in e.peers:
            if peer.hosting and (peer.name.lower() == wanted or (len(wanted) >= 8 and peer.fingerprint.startswith(wanted))):
                self.say(f"found {peer.name!r} ({peer.short_fp}) at {peer.address}")
                self._join(self.args.peer)   # the bridge decides whom the name means (names are claims)
                return

    def _on_NothingFound(self, e: fe.NothingFound) -> None:
        self.say("\n".join(e.diagnosis.lines()))
        if not self.hosting and not self.joined:
            self.say(f"wec: no game named {self.args.peer!r} answered; give the other laptop's host:port")
            self.code = 1

    def _on_Hosting(self, e: fe.Hosting) -> None:
        me = self.bridge.net
        where = ", ".join(f"{a}:{e.port}" for a in e.addresses) or f"port {e.port}"
        self.say(f"hosting as {me.name!r} ({me.identity.fingerprint[:16]}) on port {e.port}; the other laptop "
                 f"can join {where}")

    def _on_PairingCode(self, e: fe.PairingCode) -> None:
        if self.args.auto_confirm:
            self.say(f"pairing code {e.code} with {e.peer_name!r}: accepted (--auto-confirm)")
            self.bridge.post(fe.ConfirmCode(True))
            return
        self._ask("pair", None, f"first contact with {e.peer_name!r}. Does the other screen show {e.code}?")

    def _on_PeerRemembered(self, e: fe.PeerRemembered) -> None:
        self.say(f"paired with {e.name!r} ({e.fingerprint[:16]}): it will not be asked again")

    def _on_PairingFailed(self, e: fe.PairingFailed) -> None:
        self.questions = [q for q in self.questions if q[0] != "pair"]
        self.say(f"wec: pairing failed: {e.reason}")
        if not self.hosting:
            self.code = 1

    def _on_IdentityWarning(self, e: fe.IdentityWarning) -> None:
        self.say(f"wec: {e.message}\n  to forget the old identity: {e.forget}")
        self.code = 1

    def _on_Problem(self, e: fe.Problem) -> None:
        self.say(f"wec: {e.message}")
        self.code = 1

    def _on_Connected(self, e: fe.Connected) -> None:
        self.say(f"connected to {e.peer[:16]} as {e.role}")

    def _on_ConnectionLost(self, e: fe.ConnectionLost) -> None:
        self.say(f"connection lost — waiting for the other laptop ({e.reason})")

    def _on_Resumed(self, e: fe.Resumed) -> None:
        self.say("the other laptop is back: the game resumes")

    def _on_SetupChanged(self, e: fe.SetupChanged) -> None:
        if not self.setup_sent:
            self.setup_sent = True
            self.bridge.post(fe.ChooseColour(self.args.colour))
            if self.args.gov:
                self.bridge.post(fe.ChooseGovernment(self.args.gov))
            for text in self.args.request:
                option, _, value = text.partition("=")
                self.bridge.post(fe.RequestRuleChange(option, parse_value(value)))
            if not self.args.gov:
                self.say("choose your government with: gov NAME (secret until both have chosen)")
        shown = (e.ready, e.finished, e.options)
        if shown != self.setup_shown:
            self.setup_shown = shown
            changed = ", ".join(f"{k}={v}" for k, v in e.options) or "the standard game"
            state = "ready: type finish to start" if e.ready else "setting up"
            self.say(f"setup: {changed}; {state}" + (f" (finished: {', '.join(e.finished)})" if e.finished else ""))

    def _on_ColourToss(self, e: fe.ColourToss) -> None:
        how = {None: "as asked", "me": "we won the toss", "peer": "the other side won the toss"}[e.toss_winner]
        self.say(f"colours: you play {e.mine} ({how})")

    def _on_RuleChangeRequested(self, e: fe.RuleChangeRequested) -> None:
        changes = ", ".join(f"{k}={v}" for k, v in e.changes)
        if set(dict(e.changes)) & set(self.args.reject):
            self.say(f"the other player asks {changes}: rejected (--reject)")
            self.bridge.post(fe.AnswerRuleChange(e.rid, False, "rejected by the other player"))
            return
        self._ask("rule", e.rid, f"the other player asks {changes}: approve?")

    def _on_RuleChangeAnswered(self, e: fe.RuleChangeAnswered) -> None:
        changes = ", ".join(f"{k}={v}" for k, v in e.changes)
        who = "you" if e.by == "me" else "the other player"
        self.say(f"rule change {changes}: {'approved' if e.accepted else 'rejected'} by {who}"
                 + (f" ({e.reason})" if e.reason and e.by == "peer" else ""))

    def _on_RulesAgreed(self, e: fe.RulesAgreed) -> None:
        self.say("rules agreed: " + (", ".join(f"{k}={v}" for k, v in e.changed) or "the standard game"))

    def _on_GameStarted(self, e: fe.GameStarted) -> None:
        self.colour = e.colour
        self.say(f"game {e.game_id[:16]} started: you play {e.colour}; black moves first")

    def _on_YourTurn(self, e: fe.YourTurn) -> None:
        self.turn = e
        self.say(f"your move: {len(e.legal)} legal actions (type legal, a number, an action"
                 + (", or end)" if e.end_turn else ")"))

    def _on_Waiting(self, e: fe.Waiting) -> None:
        self.say(f"waiting for {e.side}… ({e.why})")

    def _on_PeerActed(self, e: fe.PeerActed) -> None:
        other = "black" if self.colour == "white" else "white"
        self.say(f"{other}: {e.text}")

    def _on_MyActionApplied(self, e: fe.MyActionApplied) -> None:
        self.say(f"you: {e.text}")

    def _on_ActionRefused(self, e: fe.ActionRefused) -> None:
        self.say(f"refused {e.text}: {e.rule}: {e.reason}")

    def _on_CommandRefused(self, e: fe.CommandRefused) -> None:
        self.say(f"refused: {e.reason}")

    def _on_UndoRequested(self, e: fe.UndoRequested) -> None:
        self._ask("undo", None, "the other player asks to take back the last action: allow?")

    def _on_UndoAnswered(self, e: fe.UndoAnswered) -> None:
        whose = "your" if e.asked_by == "me" else "the other player's"
        self.say(f"{whose} undo request was {'accepted' if e.accepted else 'declined'}"
                 + (f" ({e.reason})" if e.reason else ""))

    def _on_DrawOffered(self, e: fe.DrawOffered) -> None:
        self._ask("draw", None, "the other player offers a draw: accept? (a yes is sent when your next turn begins)")

    def _on_DrawDeclined(self, e: fe.DrawDeclined) -> None:
        self.say(f"the draw offer was declined by {'you' if e.by == 'me' else 'the other player'}")

    def _on_DrawLapsed(self, e: fe.DrawLapsed) -> None:
        self.questions = [q for q in self.questions if q[0] != "draw"]
        self.say("the draw offer ran out unanswered")

    def _on_GameOver(self, e: fe.GameOver) -> None:
        self.say(f"game over: {e.result} ({e.reason})")

    def _on_SessionEnded(self, e: fe.SessionEnded) -> None:
        self.say(f"RESULT status={e.status} outcome={e.result} transcript={e.transcript}")
        if e.reason:
            self.say(f"wec: {e.reason}")
        self.code = 0 if e.status == "finished" else 1


def parse_value(text: str) -> Any:
    """An option value typed by the player: true/false, an integer, or the text itself."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    return int(text) if text.lstrip("-").isdigit() else text
