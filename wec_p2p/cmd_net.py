"""``wec host`` / ``wec join PEER``: network play from the command line (bots, tests, demos).

The host listens (``--interface``, ``--port``) and advertises itself over mDNS; the guest
finds it by name or fingerprint prefix (or takes ``host:port``), pairs on first contact
(the short code is confirmed on both ends: y/n on stdin, or ``--auto-confirm``), then
the two negotiate and play with ``--bot random``, or, without ``--bot``, a person plays at the
terminal (``wec_p2p.cmd_net_tty``). Exit code 0 when the game finished,
1 when it stopped or the connection failed, 2 for usage or licence problems: this
installation has no valid token (checked before listening or connecting), or either side
refused the other's licence at hello (issue 5, DESIGN §5; both sides say why).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

import engine.api as engine
from engine.visibility import hidden_from
from net import vendor_key
from net.bot import BotDriver
from net.discovery import AsyncDiscovery, DiscoveryError, HostPortError, PeerInfo, parse_host_port
from net.errors import NetError
from net.identity import Identity, load_or_create
from net.licence import LicenceError, verify_peer_token, verify_token
from net.licence_client import this_machine
from net.match import Match
from net.outputs import Event, Send
from net.peer_names import listing, resolve
from net.peers import PeerStore
from net.session import Host, NetConfig, Outcome, play_as_guest
from net.transport import Timeouts
from wec_p2p.cmd_net_tty import play_in_terminal
from wec_p2p.paths import data_dir


def register(subparsers: Any) -> None:
    """Add ``host`` and ``join``."""
    p = subparsers.add_parser("host", help="host a WiFi game and wait for the other laptop")
    _common(p)
    p.set_defaults(func=cmd_host)
    p = subparsers.add_parser("join", help="join a WiFi game: PEER is a name, fingerprint prefix or host:port")
    p.add_argument("peer", metavar="PEER")
    _common(p)
    p.set_defaults(func=cmd_join)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot", choices=["random", "greedy", "search"],
                   help="play with a bot, without a screen (default: you play at this terminal): "
                        "random (seeded random actions), greedy or search (the computer "
                        "opponent, from our own view only)")
    p.add_argument("--think", type=float, default=1.0, metavar="SECONDS",
                   help="greedy/search thinking time per turn (default 1 s)")
    p.add_argument("--seed", type=int, default=0, help="bot random seed")
    p.add_argument("--colour", choices=["white", "black"], default="white", help="colour to ask for")
    p.add_argument("--gov", help="our government type (secret until both have chosen)")
    p.add_argument("--request", action="append", default=[], metavar="OPTION=VALUE",
                   help="ask the other side for a rule change (repeatable)")
    p.add_argument("--reject", action="append", default=[], metavar="OPTION",
                   help="reject requests that change this option (default: approve all)")
    p.add_argument("--interface", metavar="ADDR", help="local IPv4 address to use (listen / mDNS)")
    p.add_argument("--port", type=int, default=0, help="TCP port to listen on (host; 0 = any)")
    p.add_argument("--name", help="name shown to the other player")
    p.add_argument("--auto-confirm", action="store_true", help="accept the pairing code without asking")
    p.add_argument("--new-game", action="store_true", help="abandon an unfinished game with this peer")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to find/answer the peer")
    p.add_argument("--name-wait", type=float, default=1.5, metavar="SECONDS",
                   help="join: after a first answer to a name not pinned here, listen this long for other "
                        "devices answering the same name (default 1.5)")
    p.add_argument("--no-discovery", action="store_true", help="host: do not advertise over mDNS")
    p.add_argument("--show-turns", action="store_true",
                   help="print each turn's history line once both sides agree on its state hash")
    p.add_argument("--abandon-after", type=float, default=120.0, metavar="SECONDS",
                   help="claim the game when the other side drops out and does not come back within "
                        "SECONDS (default 120; 0 = wait for ever)")
    p.add_argument("--bot-max-actions", type=int, metavar="N",
                   help="the bot stops acting after N actions but stays connected (tests, demos)")
    p.add_argument("--bot-resign-after", type=int, metavar="N",
                   help="the bot resigns in its first own turn after N actions (RUL-53; tests, demos)")


def cmd_host(args: argparse.Namespace) -> int:
    """Run ``wec host``."""
    return _run(args, _host(args))


def cmd_join(args: argparse.Namespace) -> int:
    """Run ``wec join``."""
    return _run(args, _join(args))


def _run(args: argparse.Namespace, coro: Any) -> int:
    logging.basicConfig(level=logging.WARNING, format="wec: %(message)s")
    if args.bot is None:   # a person at this terminal, through net.bridge
        coro.close()
        return play_in_terminal(args, lambda: _config(args)[0])
    try:
        outcome: Outcome = asyncio.run(coro)
    except (NetError, DiscoveryError, HostPortError, LicenceError, ConnectionError, OSError) as exc:
        print(f"wec: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, (LicenceError, HostPortError)) else 1
    print(f"RESULT status={outcome.status} outcome={outcome.outcome} hash={outcome.state_hash} "
          f"game={outcome.game_id.hex() if outcome.game_id else None} transcript={outcome.transcript}")
    if outcome.reason:
        print(f"wec: {outcome.reason}", file=sys.stderr)
    if outcome.licence:
        return 2
    return 0 if outcome.status == "finished" else 1


def _own_token(directory: Path, identity: Identity) -> bytes | None:
    """This installation's licence token, checked offline before any network play (issue 5, DESIGN §5).

    :raises LicenceError: not activated, or the stored token is not valid here (one clear line).
    """
    token_path = directory / "licence.token"
    if not token_path.exists():
        raise LicenceError("not_activated", "network play needs an activated installation: run `wec activate KEY`")
    token = token_path.read_bytes()
    try:
        verify_token(token, identity.public_bytes, vendor_public_key=vendor_key.VENDOR_PUBLIC_KEY,
                     machine=this_machine(identity.public_bytes))
    except LicenceError as exc:
        if exc.code in ("wrong_machine", "not_machine_bound"):   # the detail says what to do (issue 10 item 5)
            raise LicenceError(exc.code, f"this installation's licence is not valid here: {exc.detail}") from None
        raise LicenceError(exc.code, f"this installation's licence is not valid: {exc.detail}; "
                           "network play needs a valid licence (`wec activate KEY`)") from None
    return token


def _config(args: argparse.Namespace) -> tuple[NetConfig, BotDriver]:
    directory = data_dir()
    identity = load_or_create(directory)
    token = _own_token(directory, identity)

    def check_peer(peer_token: bytes, peer_pub: bytes) -> object:
        return verify_peer_token(peer_token, peer_pub, vendor_public_key=vendor_key.VENDOR_PUBLIC_KEY)

    cfg = NetConfig(identity=identity, data_dir=directory, engine=engine, name=args.name or f"wec-{identity.fingerprint[:6]}",
                    timeouts=Timeouts(confirm=120.0), licence_token=token, licence_check=check_peer,
                    confirm=_auto_yes if args.auto_confirm else _ask, new_game=args.new_game,
                    abandon_after=max(0.0, args.abandon_after))
    requests = [_parse_request(r) for r in args.request]
    reject = set(args.reject)
    bot = _PrintingBot(engine, seed=args.seed, colour=args.colour, gov=args.gov, requests=requests,
                       approve=lambda changes: not (reject & set(changes)), show_turns=args.show_turns,
                       max_actions=args.bot_max_actions, resign_after=args.bot_resign_after,
                       level=None if args.bot == "random" else args.bot, seconds=args.think)
    return cfg, bot


async def _host(args: argparse.Namespace) -> Outcome:
    cfg, bot = _config(args)
    host = Host(cfg, bot, args.interface or "0.0.0.0", args.port)
    port = await host.start()
    print(f"hosting as {cfg.name!r} ({cfg.identity.fingerprint[:16]}) on port {port}", flush=True)
    disc = None
    if not args.no_discovery:
        disc = AsyncDiscovery(cfg.name, cfg.identity.fingerprint, port=port, status="hosting",
                              interfaces=[args.interface] if args.interface else None)
        await disc.async_start()
        print(f"advertised over mDNS on {', '.join(disc.me.addresses) or 'no interface'} "
              f"as {disc.me.instance!r}", flush=True)
    try:
        return await host.wait(None)
    finally:
        if disc is not None:
            await disc.async_close()
        await host.close()


async def _join(args: argparse.Namespace) -> Outcome:
    cfg, bot = _config(args)
    expected = None
    try:
        host, port = parse_host_port(args.peer)
    except HostPortError:
        host, port, expected = await _discover(cfg, args)
    return await play_as_guest(cfg, bot, host, port, expected_fp=expected, attempts=5)


async def _discover(cfg: NetConfig, args: argparse.Namespace) -> tuple[str, int, str]:
    """Find PEER by name or fingerprint prefix (issue 10 item 3: names are claims, not identities).

    A name pinned here joins only that identity (another one using the name is refused with a
    warning). A name not pinned is listened for ``--name-wait`` more seconds after the first
    answer; as soon as a second identity answers it, both are listed with fingerprints and the
    player chooses (a script, with no terminal on stdin, is refused)."""
    disc = AsyncDiscovery(cfg.name, cfg.identity.fingerprint, status="joining",
                          interfaces=[args.interface] if args.interface else None)
    await disc.async_start()
    pins = PeerStore(cfg.data_dir).all()
    warned: set[str] = set()
    try:
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + args.timeout
        first: float | None = None
        while True:
            now = loop.time()
            final = now >= deadline or (first is not None and now >= first + args.name_wait)
            found = resolve(args.peer, list(disc.peers.values()), pins, final)
            for warning in found.warnings:
                if warning not in warned:
                    warned.add(warning)
                    print(f"wec: {warning}", file=sys.stderr, flush=True)
            if found.first_contact and first is None:
                first = now
            if found.peer is not None:
                peer = found.peer
                print(f"found {peer.name!r} ({peer.fingerprint[:16]}) at {peer.host}:{peer.port} "
                      f"after {(loop.time() - start) * 1e3:.0f} ms of browsing", flush=True)
                return peer.host, peer.port, peer.fingerprint
            if found.choices:   # several identities answer: the player chooses now (a script is refused)
                peer = await _choose(args.peer, found.choices)
                return peer.host, peer.port, peer.fingerprint
            if found.refused:
                raise NetError(found.refused)
            if now >= deadline:
                break
            await asyncio.sleep(0.005)
    finally:
        await disc.async_close()
    raise ConnectionError(f"no peer named or with fingerprint {args.peer!r} answered within {args.timeout:g} s "
                          "(is `wec host` running on this network? if multicast is blocked, give host:port)")


async def _choose(wanted: str, choices: list[PeerInfo]) -> PeerInfo:
    """Several identities answer ``wanted``: ask which one (a script is refused)."""
    text = f"several devices answer {wanted!r}:\n{listing(choices)}"
    if not sys.stdin.isatty():
        raise NetError(f"{text}\nrefused: compare the fingerprints with the other screen and join by "
                       f"fingerprint, e.g. `wec join {choices[0].fingerprint[:16]}`")
    print(text, flush=True)
    answer = (await asyncio.to_thread(input, f"join which one? [1-{len(choices)}, empty = none] ")).strip()
    if not answer.isdigit() or not 1 <= int(answer) <= len(choices):
        raise NetError(f"no device chosen among those answering {wanted!r}; nothing joined")
    return choices[int(answer) - 1]


def _parse_request(text: str) -> dict[str, Any]:
    name, sep, value = text.partition("=")
    if not sep:
        raise HostPortError(f"--request {text!r}: expected OPTION=VALUE")
    low = value.lower()
    parsed: Any = True if low == "true" else False if low == "false" else int(value) if value.lstrip("-").isdigit() else value
    return {name: parsed}


async def _auto_yes(code: str, name: str) -> bool:
    print(f"pairing code {code} with {name!r}: accepted (--auto-confirm)", flush=True)
    return True


async def _ask(code: str, name: str) -> bool:
    prompt = f"First contact with {name!r}. Does the other screen show {code}? [y/n] "
    answer = await asyncio.to_thread(input, prompt)
    return answer.strip().lower() in ("y", "yes")


class _PrintingBot(BotDriver):
    """The bot, printing the setup, the end of the game and (``show_turns``) every agreed turn."""

    def __init__(self, *args: Any, show_turns: bool = False, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.show_turns = show_turns
        self.match: Match | None = None
        self._last_mover: str | None = None
        self._turn_actions: list[str] = []
        self._stalled = False

    def decide(self, match: Match) -> Send | None:
        self.match = match
        play = match.play
        if self.resigns_now(play):
            print(f"bot: resigning after {self.actions} actions (--bot-resign-after)", flush=True)
        send = super().decide(match)
        if (send is None and play is not None and play.my_move() and self.max_actions is not None
                and self.actions >= self.max_actions and not self._stalled):
            self._stalled = True
            print(f"bot: stopped acting after {self.actions} actions (--bot-max-actions)", flush=True)
        return send

    def on_event(self, event: Event) -> None:
        super().on_event(event)
        if event.kind in ("rule-answer", "colours", "governments", "game-over", "rejected", "command-refused",
                          "draw-offer", "draw-declined"):
            print(f"{event.kind}: {event.data}", flush=True)
        elif event.kind == "audit":   # issue 8 item 5: the end-of-game audit of the peer, and the full history
            print(f"audit: {'passed' if event.data['ok'] else 'FAILED'}: {event.data['report']}", flush=True)
            print(f"history: {json.dumps(list(event.data.get('history', [])))}", flush=True)
        elif event.kind == "started":
            print(f"started: game {event.data['game_id'].hex()[:16]}, colours {event.data['colours']}", flush=True)
            print(f"options: {_changed_options(event.data['options'])}", flush=True)
        elif event.kind == "applied" and self.match is not None:
            mine = self.match.colour
            self._last_mover = mine if event.data["mine"] else ("black" if mine == "white" else "white")
            self._turn_actions.append(event.data["text"])
        if self.show_turns and event.kind in ("turn-ok", "game-over"):
            self._print_turn(event)

    def _print_turn(self, event: Event) -> None:
        play = self.match.play if self.match is not None else None
        if play is None:
            return
        state = play.state_value
        if event.kind == "turn-ok" and state.history:
            line = state.history[-1]
        elif event.kind == "turn-ok":   # hidden play: our partial state keeps no history (docs/hidden.md
            line = "; ".join(self._turn_actions)   # H-5); the turn's actions as applied here, "?" for unseen ones
        else:  # the game ended inside a turn: no history line yet, show its actions
            line = "; ".join(self._turn_actions) + " (game over)"
        self._turn_actions = []
        unseen = {viewer: len(hidden_from(state, viewer[0].upper())) for viewer in ("white", "black")}
        turn = event.data.get("turn", play.turn - 1)
        print(f"turn {turn + 1:>3} {self._last_mover or '?':<5} {line}  "
              f"[hidden from white {unseen['white']}, from black {unseen['black']}; "
              f"public hash {event.data['state_hash'][:12]} on both]", flush=True)


def _changed_options(options: Any) -> str:
    """The agreed options that differ from the standard game, as ``name=value``."""
    agreed, standard = options.to_dict(), engine.Options().to_dict()
    changed = [f"{k}={v}" for k, v in agreed.items() if standard.get(k) != v]
    return ", ".join(changed) or "the standard game"
