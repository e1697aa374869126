"""Network play sessions: pairing on first contact, then a signed, logged, resumable game.

Async core (one asyncio loop); the machines (pairing, setup, lockstep) do no I/O. A
``Driver`` (bot or UI adapter) chooses our commands; it must not block the loop.
``Host`` listens and serves one game; ``Guest`` joins; either returns an ``Outcome``.
A dropped link gives ``status="disconnected"``; reconnecting the same two identities
resumes from the write-ahead log, resending exactly the messages the peer lacks. A peer that
stays away longer than ``NetConfig.abandon_after`` lets the present side claim the game
(``claim_abandoned``); a peer that exceeds the agreed move time is claimed against on the
link (issue 10 item 1). An ending by our own message (a claim, a resignation) keeps our log the
active one until the peer's receipt (``got``), so a peer that left before reading it gets it
from the resume when it returns (``GameConnection._finish``, docs/rulings.md N-6).
"""
from __future__ import annotations

import asyncio
import logging
import os
import ssl
import time
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, Awaitable, Callable, Protocol

from net import certs as certs_mod
from net.aio import raise_if, reap
from net.chain import ChainReader, ChainWriter, Verified, derive_chain_id
from net.errors import (EquivocationError, IdentityChanged, NetError, NotPaired, PairingFailed, PeerTimeout,
                        ProtocolError)
from net.frames import pack
from net.identity import Identity, fingerprint
from net.keys import check_public_key
from net.licence import LicenceError
from net.match import Match
from net.lockstep import PlayState
from net.messages import (PROTOCOL_VERSION, Action, Colour, GovCommit, Got, Hello, Message, Signed, UndoAnswer,
                          UndoRequest)
from net.outputs import Event, Output, Send, Stop
from net.pairing import Pairing, PairState
from net.peers import KnownPeer, PeerStore
from net.saves import SaveError, entry_record, load_save, verify_transcript, write_packed_save, write_save
from net.toss import fresh
from net.transport import Link, OurLicenceRefused, PeerRefused, PeerStopped, Timeouts, accept_tls, connect, listen
from net.wal import Entry, Header, Wal, WalDamaged, WalError, read

log = logging.getLogger("wec.net")
MAX_REFUSED = 8   # refused driver commands in a row before the driver is left to wait


class Driver(Protocol):
    """Chooses our moves. ``decide`` returns the next command's ``Send`` (built with the
    match's commands) or None to wait; ``on_event`` hears what happened. Neither may block.

    A driver whose commands come from elsewhere (a person, through ``net.bridge``) also has
    ``async async_wait()``, which returns when it may have a command: the connection then asks
    ``decide`` again without waiting for the peer's next message. The connection tells every
    driver ``link-up`` (``resumed``, ``peer`` fingerprint, ``role``, the new ``match``, which the
    log is about to be replayed into) once a connection's hello is done, and ``link-lost``
    (``reason``) when a connection drops."""

    def decide(self, match: Match) -> Send | None: ...

    def on_event(self, event: Event) -> None: ...


@dataclass
class NetConfig:
    """One installation's settings for network play."""

    identity: Identity
    data_dir: Path
    engine: ModuleType
    name: str = "wec"
    timeouts: Timeouts = field(default_factory=Timeouts)
    licence_token: bytes | None = None
    licence_check: Callable[[bytes, bytes], object] | None = None
    confirm: Callable[[str, str], Awaitable[bool]] | None = None
    wal_sync: bool = True
    new_game: bool = False
    abandon_after: float = 120.0   # seconds a disconnected peer has to come back before we claim; 0 = never
    save_interval: float = 0.5     # at most one autosave written per this many seconds (0 = every turn)
    audit_seconds: int | None = None   # the audit's time limit to open (None: net.hidden_play.AUDIT_SECONDS)
    # per game: (what the peer's clock is running for, when it started); kept across reconnections
    clock_marks: dict[bytes, tuple[Any, float]] = field(default_factory=dict, repr=False)

    @cached_property
    def certs(self) -> certs_mod.CertPair:
        return certs_mod.make_cert(self.identity)

    @property
    def games_dir(self) -> Path:
        path = Path(self.data_dir) / "games"
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        return path

    def active_wal(self, peer_pub: bytes) -> Path:
        """Log of the unfinished game with this peer (at most one)."""
        return self.games_dir / f"active-{fingerprint(peer_pub)[:16]}.wal"


@dataclass
class Outcome:
    """How a connection ended. ``status``: finished, stopped, disconnected, refused or paired.

    ``licence``: when the game was refused over a licence (issue 5, DESIGN §5), the
    ``LicenceError`` code, whichever side's token it was (``reason`` says which).
    """

    status: str
    reason: str = ""
    outcome: str | None = None
    state_hash: str | None = None
    game_id: bytes | None = None
    transcript: Path | None = None
    match: Match | None = field(default=None, repr=False)
    licence: str | None = None
    resumed: bool = False   # this connection got through hello and replay (the game was in play on it)

    @property
    def in_play(self) -> bool:
        """The game had started and is not over (a disconnection leaves something to claim)."""
        return self.match is not None and self.match.play is not None and not self.match.over


# ---------------------------------------------------------------------------------------------
# Playing one connection
# ---------------------------------------------------------------------------------------------

class GameConnection:
    """Runs the game protocol over one authenticated link (hello, resume, play)."""

    def __init__(self, cfg: NetConfig, driver: Driver, link: Link, role: str, peer_pub: bytes) -> None:
        self.cfg, self.driver, self.link, self.role, self.peer_pub = cfg, driver, link, role, peer_pub
        self.me = cfg.identity.public_bytes
        self.wal: Wal | None = None
        self.header: Header | None = None
        self.entries: list[Entry] = []
        self._packed: list[bytes] = []   # pack(entry_record(e)) of each entry, for cheap saves
        self.match: Match | None = None
        self.writer: ChainWriter | None = None
        self.reader: ChainReader | None = None
        self.replaying = False
        self._pending_entries: list[Entry] = []
        self._saving: asyncio.Future[None] | None = None
        self._save_due: tuple[int, str] | None = None   # (entries, state hash) of the turn to save next
        self._saved_at = float("-inf")                  # loop time of the last save written
        self._save_now = asyncio.Event()                # the connection ends: write the due save at once
        self._fresh_wal = False   # the log was created by this connection (no game before it)
        self._recv_task: asyncio.Task[Message] | None = None   # a read kept across driver wake-ups
        self._wake_task: asyncio.Task[None] | None = None      # the driver's async_wait, kept across reads
        self._timed_out = False
        self.resumed = False
        self.cleared = False   # our game ended by our message was finished at hello: the peer held none

    async def run(self) -> Outcome:
        """Play until the game ends, stops, or the link drops."""
        outcome = await self._run_guarded()
        outcome.resumed = self.resumed
        return outcome

    async def _run_guarded(self) -> Outcome:
        try:
            return await self._run()
        except EquivocationError as exc:
            self._evidence(exc)
            return await self._end("stopped", str(exc))
        except OurLicenceRefused as exc:
            self._discard_fresh_wal()
            outcome = await self._end("refused", str(exc), tell=False)
            outcome.licence = exc.code
            return outcome
        except PeerStopped as exc:
            return await self._peer_stopped(exc)
        except PeerRefused as exc:
            return await self._end("refused" if self.match is None else "disconnected", str(exc), tell=False)
        except ProtocolError as exc:
            return await self._end("disconnected", f"dropped: {exc}")
        except PeerTimeout as exc:
            return await self._end("disconnected", f"dropped: {exc}")
        except ssl.SSLError as exc:
            reason = (f"the other side refused our certificate: it does not know this installation "
                      f"(pair again after it removes its old pin) [{exc.reason}]") if self.match is None else str(exc)
            return await self._end("refused" if self.match is None else "disconnected", reason, tell=False)
        except (ConnectionError, OSError, asyncio.IncompleteReadError) as exc:
            return await self._end("disconnected", f"connection lost: {exc}", tell=False)
        except NetError as exc:
            return await self._end("refused", str(exc))
        except WalError as exc:   # our log or its rebuild cannot go on: say why, change nothing more
            return await self._end("refused", f"cannot resume the game: {exc}")
        finally:
            # Everything below runs even when our task is cancelled meanwhile; that cancellation
            # is raised again at the end, never swallowed (a cancelled join would play on).
            cancelled = await self._stop_recv(reraise=False)
            if not self.link.closed:   # cancelled (the player quit): drop the link, the log keeps the game
                self.link.closed = True
                self.link.writer.transport.abort()
            if self._saving is not None:
                self._save_now.set()
                try:
                    await self._saving
                except asyncio.CancelledError:
                    cancelled = True
                except Exception as exc:
                    log.error("autosave failed: %s", exc)
            if self.wal is not None:
                self.wal.close()
            raise_if(cancelled)

    async def _run(self) -> Outcome:
        peer_hello = await self._hello()
        if isinstance(peer_hello, Outcome):
            return peer_hello
        await self._replay_and_resend(peer_hello)
        match = self.match
        assert match is not None and self.reader is not None  # set by _replay_and_resend
        while not match.over:
            await self._drive()
            if match.over:
                break
            msg = await self._recv_or_claim()
            if msg is None:   # a driver wake-up (net.bridge), or the peer's move time ran out and we claimed
                continue
            if not isinstance(msg, Signed):
                raise ProtocolError(f"unexpected {msg.TAG!r} frame during the game")
            verified = self.reader.check(msg)
            if verified is None:
                log.info("%s: ignored a replayed copy of an earlier message", self.link.label)
                continue
            self._log(Entry("in", msg))
            self.reader.accept(verified)
            await self._handle(match.feed(False, verified.message))
            assert self.wal is not None
            self.wal.flush_behind()
        return await self._finish()

    async def _recv_or_wake(self, timeout: float | None = None) -> Message | None:
        """The peer's next message; or None as soon as the driver's ``async_wait`` returns, or
        ``timeout`` seconds pass (then ``self._timed_out`` is True).

        The read is kept (not cancelled) across wake-ups, so no frame is ever cut in half."""
        self._timed_out = False
        wait = getattr(self.driver, "async_wait", None)
        play = self.match.play if self.match is not None else None
        idle = getattr(play, "idle_step", None)
        if wait is None and timeout is None and idle is None:
            return await self._next()
        if self._recv_task is None:
            self._recv_task = asyncio.ensure_future(self.link.recv())
        if wait is not None and self._wake_task is None:
            # kept across the peer's messages too (not a new task cancelled after each of them)
            self._wake_task = asyncio.ensure_future(wait())
        if idle is not None:
            await self._idle(idle)
        await asyncio.wait({self._recv_task} | ({self._wake_task} if self._wake_task else set()), timeout=timeout,
                           return_when=asyncio.FIRST_COMPLETED)
        woken = self._wake_task is not None and self._wake_task.done()
        if woken:
            assert self._wake_task is not None
            if not self._wake_task.cancelled():
                self._wake_task.exception()   # a failed wait is only a wake-up (as before)
            self._wake_task = None
        if not self._recv_task.done():
            self._timed_out = not woken
            return None
        task, self._recv_task = self._recv_task, None
        return task.result()

    async def _idle(self, step: Callable[[], bool]) -> None:
        """Run the machine's work ahead (``idle_step``: the next zone tests' blindings), a short
        chunk at a time, while neither the peer's next frame nor the driver has come: the loop
        reads the socket between chunks, so an incoming message waits for one chunk at most
        (well under a millisecond) and what is left resumes at the next wait."""
        wake, recv = self._wake_task, self._recv_task
        assert recv is not None
        while not recv.done() and not (wake is not None and wake.done()) and not self.link.pending() and step():
            await asyncio.sleep(0)

    async def _next(self) -> Message:
        """The peer's next message: the kept read's if there is one (``_replay_and_resend``)."""
        task, self._recv_task = self._recv_task, None
        if task is not None:
            return await task
        return await self.link.recv()

    async def _stop_recv(self, reraise: bool = True) -> bool:
        """Cancel the kept read and wake-up wait (the connection is ending). A cancellation of our own task that
        arrives meanwhile is raised again (``reraise``) or returned (True), never swallowed."""
        task, self._recv_task = self._recv_task, None
        wake, self._wake_task = self._wake_task, None
        cancelled = await reap(task, wake)
        if reraise:
            raise_if(cancelled)
        return cancelled

    # ---- hello and resume ----

    async def _hello(self) -> Hello | Outcome:
        path = self.cfg.active_wal(self.peer_pub)
        if self.cfg.new_game and path.exists():
            os.replace(path, path.with_suffix(f".abandoned-{int(time.time())}"))
        mine: tuple[Header, list[Entry]] | None = None
        problem: str | None = None   # why our unfinished game with this peer cannot resume now
        if path.exists():
            try:
                header, entries, _ = read(path)
            except WalDamaged as exc:   # issue 10 item 4: kept aside, rebuilt from the save (+ the peer)
                header, entries, problem = self._rebuild_damaged(path, exc)
            except WalError as exc:
                header, entries = None, []
                problem = (f"our log of the unfinished game with this peer is unreadable ({exc}); "
                           "start with --new-game to set it aside")
            if header is not None:
                problem = self._resume_problem(header, entries)
                mine = (header, entries)
        nonce = fresh()
        sent = sum(1 for e in mine[1] if e.direction == "out") if mine else 0
        recv = len(mine[1]) - sent if mine else 0
        hello = Hello(PROTOCOL_VERSION, "play", self.cfg.name[:64], self.cfg.licence_token, nonce,
                      mine[0].chain_id if mine else None, sent, recv)
        if self.role == "guest":
            await self.link.send(hello)
        peer = await self.link.recv_hello()
        if not isinstance(peer, Hello):
            raise ProtocolError(f"expected hello, got {peer.TAG!r}")
        if peer.v != PROTOCOL_VERSION:
            return await self._end("refused", f"version mismatch: peer speaks protocol v{peer.v}, "
                                              f"we speak v{PROTOCOL_VERSION}")
        if peer.mode != "play":
            return await self._end("refused", f"peer asked for {peer.mode!r} on a pinned connection")
        licence = self._check_licence(peer)  # the host checks before its hello: a refused guest gets no game
        if licence:
            return await self._refuse_licence(*licence)
        if problem:   # issue 4 item 3: only the same two identities, in the same roles, resume a game
            return await self._end("refused", problem)
        if mine is not None and peer.chain is None and _ended_by_us(self.cfg, *mine):
            # Our log waits for the peer's receipt of our ending (N-6), but the peer holds no
            # unfinished game: it recorded the end (its receipt was lost) or set the game aside.
            # Nothing is left to deliver: the log is finished; a host goes on with a new game.
            final = _close_log(self.cfg, self.peer_pub, mine[0].chain_id, "finished")
            log.warning("%s: the peer holds no unfinished game: our ended game %s is finished (%s)",
                        self.link.label, mine[0].chain_id.hex()[:12], final.name)
            mine, self.cleared = None, True
            if self.role == "guest":   # our hello named that game: the host refuses it; ``join`` connects again
                return await self._end("refused", f"game {final.name[:12]} had ended by our message and the "
                                                  "host holds no unfinished game: our log of it is finished "
                                                  "now; connecting again for a new game")
            hello = Hello(PROTOCOL_VERSION, "play", self.cfg.name[:64], self.cfg.licence_token, nonce, None, 0, 0)
        if self.role == "host":
            await self.link.send(hello)
        ours = mine[0].chain_id if mine else None
        if ours is None and peer.chain is not None and any(self.cfg.games_dir.glob(f"{peer.chain.hex()[:16]}.*.wal")):
            return await self._end("refused", f"game {peer.chain.hex()[:12]} is over here (our log of it is "
                                              "closed): nothing of it is left to resume")
        if ours != peer.chain:
            other = self._game_with_another_peer(peer.chain) if ours is None and peer.chain else None
            if other is not None and peer.chain is not None:
                return await self._end("refused", f"cannot resume game {peer.chain.hex()[:12]}: it was played "
                                                  f"with another identity ({fingerprint(other)[:16]}), not with "
                                                  f"this peer ({fingerprint(self.peer_pub)[:16]})")
            return await self._end("refused", "the two sides have different unfinished games "
                                              f"(ours {ours.hex()[:12] if ours else 'none'}, "
                                              f"theirs {peer.chain.hex()[:12] if peer.chain else 'none'}); "
                                              "start with --new-game on both to abandon them")
        if mine is None:
            host_pub, guest_pub = (self.me, self.peer_pub) if self.role == "host" else (self.peer_pub, self.me)
            host_n, guest_n = (nonce, peer.nonce) if self.role == "host" else (peer.nonce, nonce)
            header = Header(derive_chain_id(host_pub, guest_pub, host_n, guest_n), self.role, self.me, self.peer_pub)
            self.wal = Wal.create(path, header, sync=self.cfg.wal_sync)
            self._fresh_wal = True
            mine = (header, [])
        else:
            self.wal, _, _ = Wal.open(path, sync=self.cfg.wal_sync)
        self.header, self.entries, self._packed = mine[0], [], []
        self._pending_entries = mine[1]
        return peer

    def _rebuild_damaged(self, path: Path, exc: WalDamaged) -> tuple[Header | None, list[Entry], str | None]:
        """A damaged log (issue 10 item 4): set it aside untouched, and start a new log from the
        longest intact start of the game we hold: the save (or its backup), or the entries before
        the damage. The peer gives back the rest of our messages and resends its own on resume."""
        aside = path.with_name(f"{path.name}.damaged-{int(time.time() * 1000)}")
        os.replace(path, aside)      # never truncated or rewritten: kept as it is, for inspection
        base: tuple[Header, list[Entry]] | None = None
        source = ""
        for save in (path.with_suffix(".save"), path.with_suffix(".save.bak")):
            try:
                header, entries, _ = load_save(save)
                verify_transcript(header, entries)
            except (SaveError, NetError, OSError, ValueError):
                continue
            base, source = (header, entries), f"the save {save.name}"
            break
        if exc.header is not None and (base is None or (len(exc.entries) > len(base[1])
                                                        and base[0] == exc.header)):
            try:
                verify_transcript(exc.header, exc.entries)
                base, source = (exc.header, exc.entries), "the intact entries before the damage"
            except NetError:
                pass
        if base is None:
            return None, [], (f"{exc}; the log was kept aside as {aside.name} and there is no save to resume "
                              "from: start with --new-game")
        Wal.create(path, base[0], sync=self.cfg.wal_sync, entries=base[1]).close()
        reason = (f"{exc}: the damaged log was kept aside, untouched, as {aside.name}; the game resumes from "
                  f"{source} ({len(base[1])} entries) and the peer's copy of the rest")
        log.error("%s: %s", self.link.label, reason)
        self.driver.on_event(Event("log-damaged", {"reason": reason, "kept": str(aside)}))
        return base[0], base[1], None

    def _resume_problem(self, header: Header, entries: list[Entry]) -> str | None:
        """Why the unfinished game in our log cannot resume on this connection, or None.

        A game resumes only between the two identities that started it and in the same roles;
        the colours were decided in the signed setup for those roles, so they stay the same too.
        """
        game = f"cannot resume game {header.chain_id.hex()[:12]}"
        if header.me != self.me:
            return (f"{game}: it was started by another identity of this installation "
                    f"({fingerprint(header.me)[:16]}), not the current one ({fingerprint(self.me)[:16]}); "
                    "start with --new-game to set it aside")
        if header.peer != self.peer_pub:
            return (f"{game}: it was played with another identity ({fingerprint(header.peer)[:16]}), "
                    f"not with this peer ({fingerprint(self.peer_pub)[:16]}); start with --new-game to set it aside")
        if header.role != self.role:
            roles = {header.role: header.me, ("guest" if header.role == "host" else "host"): header.peer}
            colours = _logged_colours(self.cfg.engine, header, entries) or {}
            played = ", ".join(f"{fingerprint(roles[r])[:16]} as {r}" + (f" ({colours[r]})" if r in colours else "")
                               for r in ("host", "guest"))
            return (f"{game}: the roles differ from the saved game ({played}); a game resumes only with the "
                    "same roles and colours: let the same laptop host again, or start with --new-game on both "
                    "to abandon it")
        return None

    def _game_with_another_peer(self, chain_id: bytes) -> bytes | None:
        """The identity of the peer of our unfinished game ``chain_id``, if it is not this peer."""
        for path in self.cfg.games_dir.glob("active-*.wal"):
            try:
                header, _, _ = read(path)
            except (WalError, OSError):
                continue
            if header.chain_id == chain_id and header.peer != self.peer_pub:
                return header.peer
        return None

    def _check_licence(self, peer: Hello) -> tuple[str, str] | None:
        """Issue 5 / DESIGN §5: the peer's token, checked offline against its identity key.

        Returns ``(code, detail)`` when refused: ``not_activated`` if it sent none, else the
        ``LicenceError`` code (``bad_signature``, ``unknown_vendor_key``, ``wrong_device``...).
        """
        if self.cfg.licence_check is None:
            return None
        if peer.licence is None:
            return ("not_activated", "no licence token was sent: network play needs an activated "
                                     "installation on both ends (`wec activate KEY`)")
        try:
            self.cfg.licence_check(peer.licence, self.peer_pub)
        except LicenceError as exc:
            return exc.code, exc.detail.removeprefix("peer licence refused: ")
        except Exception as exc:  # anything else the checker raises refuses the game too
            return "invalid", str(exc)
        return None

    async def _refuse_licence(self, code: str, detail: str) -> Outcome:
        """Refuse the game over the peer's licence: log why, tell the peer (``licence-refused``)."""
        reason = f"peer licence refused ({code}): {detail}; no game was started"
        log.warning("%s: refused: %s", self.link.label, reason)
        await self.link.refuse_licence(code, detail)
        return Outcome("refused", reason, match=self.match, licence=code)

    def _discard_fresh_wal(self) -> None:
        """Our licence was refused at hello: the peer opened no log for this chain, so the one
        this connection opened (holding at most our own setup messages) is removed; otherwise
        the next, licensed, connection would be refused as a different unfinished game."""
        if not self._fresh_wal or self.wal is None or any(e.direction == "in" for e in self.entries):
            return
        self.wal.close()
        self.wal.path.unlink(missing_ok=True)
        self.wal.path.with_suffix(".save").unlink(missing_ok=True)

    async def _replay_and_resend(self, peer: Hello) -> None:
        header = self.header
        assert header is not None  # set by _hello
        self.match = Match(self.cfg.engine, header.chain_id, self.role, self.cfg.audit_seconds)
        self.driver.on_event(Event("link-up", {"resumed": bool(self._pending_entries), "match": self.match,
                                               "peer": fingerprint(self.peer_pub), "role": self.role}))
        self.writer = ChainWriter(self.cfg.identity, header.chain_id)
        self.reader = ChainReader(self.peer_pub, header.chain_id)
        own_reader = ChainReader(self.me, header.chain_id)
        expected: deque[Send] = deque()
        self.replaying = True
        # A long rebuild (hidden play re-runs every PSI exchange of the game) must not look like a
        # dead link to the peer: a kept read answers its pings meanwhile (and keeps its first
        # message for later), and we yield to it after every entry.
        if self._recv_task is None:
            self._recv_task = asyncio.ensure_future(self.link.recv())
        try:
            await self._replay_entries(own_reader, expected)
        except BaseException:
            await self._stop_recv()
            raise
        self.replaying = False
        self.resumed = True
        # Each side first gives back the peer's own messages that the peer lost (a power loss
        # took its log's tail, or its log was damaged and rebuilt from a save: we hold every
        # message it sent us), then resends ours that it lacks. Sent by a task while we read,
        # so two sides with much to send never both wait on full buffers.
        theirs = [e.signed for e in self.entries if e.direction == "in"]
        outgoing = [e.signed for e in self.entries if e.direction == "out"]
        sending = asyncio.ensure_future(self._send_all(theirs[peer.sent:] + outgoing[peer.recv:]))
        try:
            if peer.recv > self.writer.seq:
                await self._recover_own(peer.recv - self.writer.seq, own_reader, expected)
            await sending
        finally:
            if not sending.done():
                sending.cancel()
        if self.match.stopped:
            return
        if self.match.over:   # ended while the peer was away (our claim): take what it sent meanwhile
            await self._collect_missing(peer.sent)
            return
        for send in expected:  # replies computed but never logged (crash between receive and reply)
            await self._issue(send)

    async def _replay_entries(self, own_reader: ChainReader, expected: deque[Send]) -> None:
        """Feed our log's entries to the new match (the rebuild); replies it computes go to ``expected``."""
        assert self.match is not None and self.writer is not None and self.reader is not None
        for entry in self._pending_entries:
            await asyncio.sleep(0)   # the kept read answers the peer's pings
            if entry.direction == "out":
                verified = own_reader.check(entry.signed)
                if verified is None:
                    raise WalError("log repeats one of our messages")
                own_reader.accept(verified)
                self.writer.advance(entry.signed)
                if expected and expected[0].message == verified.message:
                    expected.popleft()
                outs = self.match.feed(True, verified.message, entry.secrets)
            else:
                verified = self.reader.check(entry.signed)
                if verified is None:
                    raise WalError("log repeats one of the peer's messages")
                self.reader.accept(verified)
                outs = self.match.feed(False, verified.message)
            self.entries.append(entry)
            self._packed.append(pack(entry_record(entry)))
            expected.extend(o for o in outs if isinstance(o, Send))

    async def _send_all(self, frames: list[Signed]) -> None:
        for signed in frames:
            await self.link.send(signed)

    async def _recover_own(self, count: int, own_reader: ChainReader, expected: deque[Send]) -> None:
        """Take back the ``count`` messages of ours that the peer holds but our log lost, and
        rebuild our machines with them in the order we had processed them.

        The peer sends them first; each must carry our own valid signature and continue our own
        chain, so the peer cannot forge or alter one. They are logged again as they were, and
        our chain goes on after them, so no number is ever signed twice. Order: a recovered
        message that our machine computes as a reply is fed as soon as that reply is due; a
        command of ours (an action, an undo request or answer) as soon as our machine allows
        it; otherwise the peer's next message came before it, and is read and fed first.
        """
        assert self.match is not None and self.writer is not None and self.reader is not None
        recovered: deque[Verified] = deque()
        for _ in range(count):
            msg = await self._next()
            verified = own_reader.check(msg) if isinstance(msg, Signed) else None
            if verified is None:
                raise ProtocolError("the peer did not give back our own signed messages it holds")
            own_reader.accept(verified)
            recovered.append(verified)
        log.warning("%s: %d of our messages were missing from our log (lost in a crash, or the log was "
                    "damaged); recovered them from the peer's copy", self.link.label, count)
        self.driver.on_event(Event("recovered", {"ours": count}))
        while recovered:
            head = recovered[0]
            due = bool(expected) and expected[0].message == head.message
            if expected and not due:
                raise WalError(f"cannot rebuild the game: our recovered message {head.seq} is not the reply "
                               "our machine computes there")
            if due or self._allowed_now(head.message):
                if due:
                    expected.popleft()
                recovered.popleft()
                self._log(Entry("out", head.signed))
                self.writer.advance(head.signed)
                expected.extend(o for o in self.match.feed(True, head.message) if isinstance(o, Send))
                continue
            msg = await self._next()
            if not isinstance(msg, Signed):
                raise ProtocolError(f"unexpected {msg.TAG!r} frame while resuming")
            verified = self.reader.check(msg)
            if verified is None:
                continue
            self._log(Entry("in", msg))
            self.reader.accept(verified)
            expected.extend(o for o in self.match.feed(False, verified.message) if isinstance(o, Send))
            if self.match.stopped:
                raise ProtocolError(f"cannot rebuild the game: {self.match.stopped}")

    def _allowed_now(self, msg: Message) -> bool:
        """Could our driver have issued ``msg`` now (in play)? Setup messages: in their order."""
        assert self.match is not None
        play = self.match.play
        if play is None:
            if isinstance(msg, (Colour, GovCommit)):   # their secrets were never sent: not recoverable
                raise WalError(f"our {msg.TAG!r} message was lost with the secret behind its commitment "
                               "(the damaged part of the log); start with --new-game")
            return True
        fits = getattr(play, "own_command_fits", None)
        if fits is not None and fits(msg):   # hidden play: our action's first message
            return True
        if isinstance(msg, Action):
            return play.my_move() and msg.index == play.index
        if isinstance(msg, UndoRequest):
            return play.state is PlayState.PLAYING and play.undo_asked is None and msg.index == play.index
        if isinstance(msg, UndoAnswer):
            return play.undo_asked == ("peer", msg.index)
        return False

    async def _collect_missing(self, peer_sent: int) -> None:
        """Read, log and feed the peer's messages we lack (it resends them after hello): they
        crossed the end of the game, except a claim of its own crossing ours (lockstep decides)."""
        assert self.reader is not None and self.match is not None
        while self.reader.seq < peer_sent:
            msg = await self._next()
            if not isinstance(msg, Signed):
                raise ProtocolError(f"unexpected {msg.TAG!r} frame during resume")
            verified = self.reader.check(msg)
            if verified is None:
                continue
            self._log(Entry("in", msg))
            self.reader.accept(verified)
            await self._handle(self.match.feed(False, verified.message))

    async def _recv_or_claim(self) -> Message | None:
        """The next message; or, when the peer is to move under an agreed move time limit and
        its time runs out first, our signed time claim (then None). The clock runs from the
        moment the peer got the move or sent its last action, and survives a reconnection."""
        play, header = self.match.play if self.match else None, self.header
        limit = play.peer_clock() if play is not None else None
        if play is None or limit is None or header is None:
            return await self._recv_or_wake()
        loop = asyncio.get_running_loop()
        key = (play.index, play.turn, play.peer_actions, getattr(play, "auditing", False))
        mark = self.cfg.clock_marks.get(header.chain_id)
        if mark is None or mark[0] != key:
            mark = (key, loop.time())
            self.cfg.clock_marks[header.chain_id] = mark
        msg = await self._recv_or_wake(max(0.0, mark[1] + limit - loop.time()))
        if msg is not None or not self._timed_out:
            return msg
        await self._stop_recv()
        kind = getattr(play, "clock_kind", "time")
        what = "open its secrets for the audit" if kind == "audit" else "act"
        log.warning("%s: the peer did not %s within the agreed %d s: claiming the game", self.link.label, what, limit)
        await self._issue(play.claim(kind, f"no {'openings' if kind == 'audit' else 'action'} within {limit} s"))
        return None

    # ---- the loop's helpers ----

    async def _drive(self) -> None:
        """Issue the driver's commands until it waits. A refused command (invalid option, not our
        move, an undo in a competitive game...) is reported to the driver, which is then asked
        again: it may still have a move to make, and nothing else would wake it up (the peer is
        waiting for us). After ``MAX_REFUSED`` refusals in a row it is left to wait."""
        match = self.match
        assert match is not None
        refused = 0
        while not match.over:
            try:
                send = self.driver.decide(match)
            except (ValueError, RuntimeError) as exc:
                log.warning("%s: command refused: %s", self.link.label, exc)
                self.driver.on_event(Event("command-refused", {"reason": str(exc)}))
                refused += 1
                if refused >= MAX_REFUSED:
                    return
                continue
            if send is None:
                return
            refused = 0
            await self._issue(send)

    async def _issue(self, send: Send) -> None:
        """Sign, log (written; fsynced behind unless the peer could not give it back), send, then
        apply our message (so computing our action's new state overlaps the peer's check)."""
        assert self.writer is not None and self.match is not None
        signed = self.writer.sign(send.message)
        self._log(Entry("out", signed, send.secrets))
        self.writer.advance(signed)
        lost: BaseException | None = None
        try:
            await self.link.send(signed)
        except (ConnectionError, OSError, PeerTimeout) as exc:
            # Logged, so it is ours whatever the link does: applied all the same. A message that ends
            # the game (a claim, a resignation) is then recorded at once; the log stays active and
            # the resume delivers it (``_finish``). Anything else ends the connection as before.
            lost = exc
        await self._handle(self.match.feed(True, send.message, send.secrets))
        assert self.wal is not None
        self.wal.flush_behind()
        if lost is not None and not self.match.over:
            raise lost

    async def _handle(self, outs: list[Output]) -> None:
        for out in outs:
            if isinstance(out, Send):
                await self._issue(out)
            elif isinstance(out, Event):
                if out.kind in ("turn-ok", "game-over"):
                    await self._autosave()
                self.driver.on_event(out)
            elif isinstance(out, Stop):
                log.warning("%s: game stopped: %s", self.link.label, out.reason)

    def _log(self, entry: Entry) -> None:
        """Write ``entry`` before it is sent or applied (a killed process keeps it). Ours are made
        durable at once only where the peer could not give them back: with secrets (never sent)
        or during the setup; the rest is fsynced behind, off the critical path."""
        assert self.wal is not None
        durable = entry.direction == "out" and (entry.secrets is not None or self.match is None
                                                or self.match.play is None)
        self._packed.append(self.wal.append(entry, durable))
        self.entries.append(entry)

    async def _autosave(self) -> None:
        """Save the game after a turn: atomically, in a worker thread, one save at a time.

        At once if the last save is older than ``NetConfig.save_interval``, else when that
        interval has passed, with the latest turn then (the turns in between are in the log,
        and the peer holds our messages). Players take longer than that over a turn, so every
        turn of theirs is saved; two bots end turns faster than a save is written and fsynced,
        and saving each of them kept a thread and the disk busy under every action (issue 10
        item 6). The end of the connection writes the due save without waiting."""
        assert self.header is not None and self.match is not None and self.match.play is not None
        self._save_due = (len(self._packed), _hash_of(self.cfg.engine, self.match.play))
        if self._saving is None or self._saving.done():
            if self._saving is not None and self._saving.exception() is not None:
                log.error("autosave failed: %s", self._saving.exception())
            self._saving = asyncio.ensure_future(self._save_loop())

    async def _save_loop(self) -> None:
        loop = asyncio.get_running_loop()
        path = self.cfg.active_wal(self.peer_pub).with_suffix(".save")
        while self._save_due is not None:
            wait = self._saved_at + self.cfg.save_interval - loop.time()
            if wait > 0 and not self._save_now.is_set():
                try:
                    async with asyncio.timeout(wait):
                        await self._save_now.wait()
                except TimeoutError:
                    pass
            (count, h), self._save_due = self._save_due, None
            snapshot = self._packed[:count]   # the log only grows: its first entries are that turn's
            await asyncio.to_thread(write_packed_save, path, self.header, snapshot, h)  # type: ignore[arg-type]
            self._saved_at = loop.time()

    async def _peer_stopped(self, exc: PeerStopped) -> Outcome:
        """The peer stopped the game (its ``stopped`` message; it caught a lie, a forbidden
        message or equivocation, and will not resume): the game ends here too, stopped, its log
        kept as ``<id>.stopped.wal`` with the peer's reason; nothing is left to wait for."""
        match = self.match
        if match is None or self.header is None:
            return await self._end("refused", str(exc), tell=False)
        if match.stopped is None:
            match.stopped = str(exc)
        log.warning("%s: stopped: %s", self.link.label, match.stopped)
        return await self._finish(tell=False)

    async def _finish(self, tell: bool = True) -> Outcome:
        """The game is over: the log becomes ``<id>.finished.wal`` or ``<id>.stopped.wal``, the
        link closes (telling the peer why we stopped, if ``tell``).

        An ending by our own signed message (a claim, a resignation, a draw acceptance) is
        recorded at once, but the log stays the active one for this peer until the peer's receipt
        (``got``) shows its transcript holds that message (docs/rulings.md N-6, like
        ``claim_abandoned``): a peer that left, or whose link dropped, before reading it gets it
        when the two meet again, from the resume, and both transcripts record the result. The
        side that reads such an ending sends that receipt once its own log is finished."""
        match = self.match
        assert match is not None and self.header is not None
        status = "finished" if match.finished else "stopped"
        play = match.play
        ending = play.result if play is not None else None
        # a stopped game awaits no receipt: its own ending (a resignation the audit then failed) is void
        ours = tell and match.finished and ending is not None and bool(ending["ours"])
        if ours:
            cancelled = await reap(self._wake_task)   # the kept read, if any, is the receipt's first read
            self._wake_task = None
            raise_if(cancelled)
        else:
            await self._stop_recv()
        if self._saving is not None:
            self._save_now.set()
            await self._saving
        if self.wal is not None:
            self.wal.close()
        final = self.cfg.active_wal(self.peer_pub)
        if not ours:
            final = self._close_log(status)
        elif await self._receipt():
            final = self._close_log(status)
        else:
            log.warning("%s: the peer has not acknowledged our %s: the game stays in our active log, and is "
                        "delivered when the peer returns", self.link.label, ending["ending"])   # type: ignore[index]
        h = _hash_of(self.cfg.engine, play) if play else None
        out = self.cfg.engine.outcome(play.state_value) if play else None
        if ending is not None:   # resignation, agreed draw or a claim (RUL-53, issue 10 item 1)
            out = ending["outcome"]
        if ours:
            await self.link.close()
        elif tell:
            if ending is not None:   # the peer's message ended it, and our finished log holds it: say so
                try:
                    assert self.reader is not None
                    await self.link.send(Got(self.reader.seq))
                except Exception:
                    pass
            await self._drain_and_close(None if match.finished else match.stopped)
        else:
            await self.link.close()
        return Outcome(status, match.stopped or (ending["detail"] if ending else ""), out, h, match.game_id,
                       final, match)

    def _close_log(self, status: str) -> Path:
        """Move the active log (and its saves) to ``<id>.<status>.wal``; returns the new path."""
        assert self.header is not None
        return _close_log(self.cfg, self.peer_pub, self.header.chain_id, status)

    async def _receipt(self) -> bool:
        """Wait for the peer's ``got`` covering all our messages (the ending is the last), reading and
        dropping what crossed the end (an action it sent before it read ours: if our log stays
        active, the resume gives it back). True also when the peer stopped the game (it will not
        resume it: nothing is left to deliver). False when the link ends first, or the peer is
        silent for ``Timeouts.dead``."""
        assert self.writer is not None
        try:
            async with asyncio.timeout(self.cfg.timeouts.dead):
                while True:
                    msg = await self._next()
                    if isinstance(msg, Got):
                        return msg.n >= self.writer.seq
        except PeerStopped as exc:
            log.warning("%s: %s", self.link.label, exc)
            return True
        except Exception:
            return False

    async def _drain_and_close(self, reason: str | None) -> None:
        # The game is over on our side (not by our message), so we have read everything the peer
        # sends; our last message may still be on its way. The guest closes first (everything it
        # needed has arrived); the host waits for that close, so that closing never resets a
        # connection whose last message is unread. (If both waited, every game would end with both
        # sides idle for Timeouts.shutdown.) After an ending by the peer's message we close at once:
        # the peer was waiting for our receipt, sent just before (``_finish``, issue 10 item 1).
        play = self.match.play if self.match is not None else None
        wait = reason is None and self.role == "host" and (play is None or play.result is None)
        if wait:
            try:
                async with asyncio.timeout(self.cfg.timeouts.shutdown):
                    while await self.link.reader.read(65536):
                        pass
            except Exception:
                pass
        await self.link.close(reason, stopped=True)   # a reason: we stopped the game

    async def _end(self, status: str, reason: str, tell: bool = True) -> Outcome:
        log.warning("%s: %s: %s", self.link.label, status, reason)
        if status == "disconnected":
            self.driver.on_event(Event("link-lost", {"reason": reason}))
        await self.link.close(reason if tell else None, stopped=status == "stopped")
        return Outcome(status, reason, match=self.match)

    def _evidence(self, exc: EquivocationError) -> None:
        path = Path(self.cfg.data_dir) / "evidence"
        path.mkdir(exist_ok=True, mode=0o700)
        frames = [e.signed.payload for e in self.entries if e.direction == "in"]
        (path / f"equivocation-{int(time.time() * 1000)}.msgpack").write_bytes(
            pack(["wec-evidence", 1, self.peer_pub, str(exc), frames]))


def _hash_of(engine: ModuleType, play: Any) -> str:
    """The state hash a save or outcome records: after the audit of a hidden game the hash of the
    whole game's final state (equal on both sides), else the hash of our (partial) state."""
    return getattr(play, "final_hash", None) or engine.state_hash(play.state_value)


def claim_abandoned(cfg: NetConfig, peer_pub: bytes, detail: str) -> Outcome | None:
    """Claim the unfinished game with ``peer_pub``, which left and did not come back in time
    (issue 10 item 1): rebuild it from our log, sign a ``claim{abandoned}``, log it (fsync) and
    save. The log stays the active one for this peer, so when the peer returns the resume sends
    it the claim and both transcripts record the result. None if there is no game in play."""
    path = cfg.active_wal(peer_pub)
    try:
        header, entries, _ = read(path)
    except (WalError, OSError):
        return None
    if header.me != cfg.identity.public_bytes or header.peer != peer_pub:
        return None
    rebuilt = _rebuild(cfg, header, entries)
    if rebuilt is None:
        return None
    match, writer = rebuilt
    if match.play is None or match.over:
        return None
    send = match.play.claim("abandoned", detail)
    entry = Entry("out", writer.sign(send.message))
    wal, _, _ = Wal.open(path, sync=cfg.wal_sync)
    try:
        wal.append(entry)
    finally:
        wal.close()
    match.feed(True, send.message)
    h = _hash_of(cfg.engine, match.play)
    write_save(path.with_suffix(".save"), header, entries + [entry], h)
    result = match.play.result
    assert result is not None
    log.warning("claimed the game %s: %s", header.chain_id.hex()[:12], result["detail"])
    return Outcome("finished", result["detail"], result["outcome"], h, match.game_id, path, match)


def _rebuild(cfg: NetConfig, header: Header, entries: list[Entry]) -> tuple[Match, ChainWriter] | None:
    """The game of a log, rebuilt from its entries (None if an entry does not verify)."""
    match = Match(cfg.engine, header.chain_id, header.role, cfg.audit_seconds)
    writer = ChainWriter(cfg.identity, header.chain_id)
    readers = {"out": ChainReader(header.me, header.chain_id), "in": ChainReader(header.peer, header.chain_id)}
    for entry in entries:
        verified = readers[entry.direction].check(entry.signed)
        if verified is None:
            return None
        readers[entry.direction].accept(verified)
        if entry.direction == "out":
            writer.advance(entry.signed)
        match.feed(entry.direction == "out", verified.message, entry.secrets)
    return match, writer


def _ended_by_us(cfg: NetConfig, header: Header, entries: list[Entry]) -> bool:
    """Is the game of this log over by a message of ours (its log kept active for the peer's receipt)?"""
    try:
        rebuilt = _rebuild(cfg, header, entries)
    except (NetError, WalError, KeyError, ValueError):
        return False
    if rebuilt is None:
        return False
    play = rebuilt[0].play
    return play is not None and play.result is not None and bool(play.result["ours"])


def _close_log(cfg: NetConfig, peer_pub: bytes, chain_id: bytes, status: str) -> Path:
    """Move the active log with ``peer_pub`` and its saves to ``<id>.<status>.wal``; returns that path."""
    path = cfg.active_wal(peer_pub)
    final = cfg.games_dir / f"{chain_id.hex()[:16]}.{status}.wal"
    if path.exists():
        os.replace(path, final)
    save = path.with_suffix(".save")
    if save.exists():
        os.replace(save, final.with_suffix(".save"))
    save.with_suffix(".save.bak").unlink(missing_ok=True)
    return final


def _logged_colours(engine: ModuleType, header: Header, entries: list[Entry]) -> dict[str, str] | None:
    """The colours (role -> colour) decided in a logged setup, or None if not decided yet."""
    match = Match(engine, header.chain_id, header.role)
    readers = {"out": ChainReader(header.me, header.chain_id), "in": ChainReader(header.peer, header.chain_id)}
    try:
        for entry in entries:
            verified = readers[entry.direction].check(entry.signed)
            if verified is None:
                return None
            readers[entry.direction].accept(verified)
            match.feed(entry.direction == "out", verified.message, entry.secrets)
            if match.setup.colours:
                return dict(match.setup.colours)
    except (NetError, KeyError):
        return None
    return None


# ---------------------------------------------------------------------------------------------
# Pairing
# ---------------------------------------------------------------------------------------------

async def run_pairing(cfg: NetConfig, link: Link, role: str, peer_der: bytes | None) -> KnownPeer:
    """Run one pairing attempt on ``link`` and pin the peer. :raises PairingFailed: with the reason."""
    hello = Hello(PROTOCOL_VERSION, "pair", cfg.name[:64], None, fresh(), None, 0, 0)
    try:
        if role == "initiator":
            await link.send(hello)
        peer_hello = await link.recv_hello()
        if role == "responder":
            await link.send(hello)
    except (ProtocolError, ConnectionError, PeerTimeout, asyncio.IncompleteReadError) as exc:
        await link.close()
        raise PairingFailed(f"pairing failed: {exc}") from None
    if not isinstance(peer_hello, Hello) or peer_hello.mode != "pair" or peer_hello.v != PROTOCOL_VERSION:
        await link.close("version mismatch: expected a pairing hello for protocol v1")
        raise PairingFailed("peer did not answer the pairing hello (version mismatch?)")
    machine = Pairing(role, cfg.identity, cfg.certs.der, peer_der)
    outs = machine.start() if role == "initiator" else []
    confirm_task: asyncio.Task[bool] | None = None
    recv_task: asyncio.Task[Message] | None = None
    deadline = asyncio.get_running_loop().time() + cfg.timeouts.confirm
    try:
        while True:
            for out in outs:
                if isinstance(out, Send):
                    await link.send(out.message)
                elif isinstance(out, Stop):
                    raise PairingFailed(out.reason)
                elif out.kind == "pair-code":
                    confirm = cfg.confirm or _refuse
                    confirm_task = asyncio.ensure_future(confirm(out.data["code"], peer_hello.name))
                elif out.kind == "paired":
                    peer_pub, peer_cert = out.data["peer_pub"], out.data["peer_cert"]
                    check_public_key(peer_pub)
                    known = KnownPeer(fingerprint(peer_pub), peer_pub.hex(), certs_mod.der_to_pem(peer_cert),
                                      certs_mod.pin(peer_cert), peer_hello.name)
                    PeerStore(cfg.data_dir).add(known)
                    return known
            outs = []
            recv_task = recv_task or asyncio.ensure_future(link.recv())
            waiting = {t for t in (recv_task, confirm_task) if t is not None}
            left = deadline - asyncio.get_running_loop().time()
            done, _ = await asyncio.wait(waiting, timeout=max(0.0, left), return_when=asyncio.FIRST_COMPLETED)
            if not done:
                raise PairingFailed(f"pairing not confirmed within {cfg.timeouts.confirm:g} s: not paired")
            if confirm_task in done:
                outs += machine.answer(bool(confirm_task.result()))
                confirm_task = None
            if recv_task in done:
                msg = recv_task.result()
                recv_task = None
                outs += machine.receive(msg)
    except PeerRefused as exc:
        raise PairingFailed(f"the other side ended pairing: {exc}") from None
    except (ProtocolError, ConnectionError, PeerTimeout, asyncio.IncompleteReadError) as exc:
        raise PairingFailed(f"pairing failed: {exc}") from None
    finally:
        cancelled = await reap(confirm_task, recv_task)
        if machine.state is not PairState.PAIRED:
            await link.close("pairing not completed")
        else:
            await link.close()
        raise_if(cancelled)


async def _refuse(code: str, name: str) -> bool:
    return False


# ---------------------------------------------------------------------------------------------
# Guest and host
# ---------------------------------------------------------------------------------------------

async def join(cfg: NetConfig, driver: Driver, host: str, port: int, expected_fp: str | None = None) -> Outcome:
    """One connection attempt to ``host:port``: pair if the peer is new, then play.

    :raises IdentityChanged: a pinned peer presented another identity (never silently accepted).
    :raises PairingFailed: first contact not confirmed. :raises ConnectionError: no answer.
    """
    store = PeerStore(cfg.data_dir)
    address = f"{host}:{port}"
    known = store.get(expected_fp) if expected_fp else store.by_address(address)
    if expected_fp and known is None and store.by_prefix(expected_fp):
        known = store.by_prefix(expected_fp)[0]
    t = cfg.timeouts
    if known is None:
        link = await connect(host, port, certs_mod.client_context(None, None), t)
        peer_der = link.peer_der
        if peer_der is None:
            await link.close()
            raise ProtocolError("host sent no certificate")
        fp = certs_mod.peer_fingerprint(peer_der)
        if expected_fp and not fp.startswith(expected_fp.lower()):
            await link.close()
            raise IdentityChanged(f"{address} presented identity {fp[:16]}, not the advertised {expected_fp[:16]}: "
                                  "possible impostor; refused")
        if store.get(fp) is None:
            await run_pairing(cfg, link, "initiator", peer_der)
            PeerStore(cfg.data_dir).remember_address(fp, address)
        else:
            await link.close()
        known = PeerStore(cfg.data_dir).get(fp)
        assert known is not None  # pinned just now, or already
    try:
        link = await connect(host, port, certs_mod.client_context(cfg.certs, known.cert_pem), t)
    except ssl.SSLCertVerificationError:
        raise IdentityChanged(_changed(known, address)) from None
    if link.peer_der is None or certs_mod.pin(link.peer_der) != known.cert_pin:
        await link.close()
        raise IdentityChanged(_changed(known, address))
    PeerStore(cfg.data_dir).remember_address(known.fingerprint, address)
    connection = GameConnection(cfg, driver, link, "guest", bytes.fromhex(known.public_key))
    outcome = await connection.run()
    if connection.cleared and outcome.status == "refused":
        # our hello named a game ended by our message, which the host had recorded (its receipt was
        # lost): that log is finished now, and the next hello names no game (N-6)
        return await join(cfg, driver, host, port, expected_fp)
    return outcome


def _changed(known: KnownPeer, address: str) -> str:
    return (f"IDENTITY CHANGED: {address} did not present the pinned identity of {known.name!r} "
            f"({known.fingerprint[:16]}): possible impostor, refused. If that laptop was really reinstalled, "
            f"remove its pin (wec peers --forget {known.fingerprint[:16]}) and pair again.")


async def play_as_guest(cfg: NetConfig, driver: Driver, host: str, port: int, expected_fp: str | None = None,
                        attempts: int = 5, backoff: float = 0.5) -> Outcome:
    """Join and keep resuming after dropped links until the game is over (or attempts run out).

    Once a game is in play, a host that stays away is waited for up to ``cfg.abandon_after``
    seconds (counted from the disconnection, whatever the attempts), then the game is claimed
    (``claim_abandoned``)."""
    loop = asyncio.get_running_loop()
    outcome = Outcome("disconnected", "not connected")
    delay, answered, tries = backoff, False, 0
    absent_since: float | None = None
    peer_pub: bytes | None = None
    while True:
        try:
            outcome = await join(cfg, driver, host, port, expected_fp)
            answered = True
        except (ConnectionError, OSError) as exc:
            if not answered:
                raise ConnectionError(f"no answer from {host}:{port} ({exc}); is the other laptop hosting?") from None
            outcome = Outcome("disconnected", f"no answer from {host}:{port}: {exc}")
        if outcome.status != "disconnected":
            return outcome
        tries += 1
        if outcome.resumed:
            absent_since = loop.time() if outcome.in_play else None
            if outcome.match is not None and outcome.in_play:
                peer_pub = _peer_of(cfg, outcome.match)
        if absent_since is None or not cfg.abandon_after or peer_pub is None:
            if tries >= attempts:
                return outcome
            await asyncio.sleep(delay)
        else:
            left = absent_since + cfg.abandon_after - loop.time()
            if left <= 0:
                gone = f"no answer from the host for {cfg.abandon_after:g} s after the link dropped"
                return claim_abandoned(cfg, peer_pub, gone) or outcome
            await asyncio.sleep(min(delay, left))
        delay = min(delay * 2, 10.0)


def _peer_of(cfg: NetConfig, match: Match) -> bytes | None:
    """The peer of the game ``match`` (from the header of our active log for it)."""
    for path in cfg.games_dir.glob("active-*.wal"):
        try:
            header, _, _ = read(path)
        except (WalError, OSError):
            continue
        if header.chain_id == match.chain_id:
            return header.peer
    return None


class Host:
    """Listen for the guest: pair new devices, then play one game (resuming dropped links).

    Floods (issue 10 item 2): every connection runs its own TLS handshake and hello under its
    own deadlines, so none waits for another. Connections not yet authenticated (TCP accepted,
    TLS, hello, pairing) are capped in total (``Timeouts.max_unauthenticated``) and per remote
    address (``Timeouts.max_per_address``): over a cap the oldest is dropped, so a newcomer
    (the legitimate guest) always gets its handshake. A pinned peer other than the one in play
    is answered "busy" and never interrupts the running game.
    """

    def __init__(self, cfg: NetConfig, driver: Driver, interface: str = "0.0.0.0", port: int = 0) -> None:
        self.cfg, self.driver, self.interface, self.port = cfg, driver, interface, port
        self.server: asyncio.AbstractServer | None = None
        self.result: asyncio.Future[Outcome] | None = None
        self.connections: list[Outcome] = []
        self.dropped = 0                     # unauthenticated connections dropped over a cap
        self.busy: list[str] = []            # fingerprints answered "busy"
        self._pending: dict[asyncio.Transport, tuple[str, asyncio.Task[Any] | None]] = {}   # oldest first
        self._active: asyncio.Task[Any] | None = None
        self._in_play: bytes | None = None   # the peer of the game this host serves
        self.active_link: Link | None = None
        self._ctx: tuple[list[str], ssl.SSLContext] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._absent: tuple[bytes, float] | None = None   # the peer of the game in play that dropped, and when
        self._abandon: asyncio.Task[None] | None = None

    async def start(self) -> int:
        """Start listening; returns the port."""
        self.result = asyncio.get_running_loop().create_future()
        self.server = await listen(self.interface, self.port, self._serve, self._tasks)
        self.port = self.server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self.port

    async def wait(self, timeout: float | None = None) -> Outcome:
        """The outcome of the game (finished or stopped)."""
        assert self.result is not None
        async with asyncio.timeout(timeout):   # not wait_for: it may drop a cancellation (net.aio)
            return await asyncio.shield(self.result)

    @property
    def unauthenticated(self) -> int:
        """Connections held that are not authenticated yet."""
        return len(self._pending)

    async def close(self) -> None:
        """Stop listening and end every connection; safe to call twice."""
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        raise_if(await reap(*list(self._tasks)))

    def _admit(self, transport: asyncio.Transport, address: str) -> None:
        """Hold a new unauthenticated connection, dropping the oldest over either cap."""
        t = self.cfg.timeouts
        same = [tr for tr, (a, _) in self._pending.items() if a == address]
        if len(same) >= t.max_per_address:
            self._drop(same[0], f"more than {t.max_per_address} unauthenticated connections from {address}")
        if len(self._pending) >= t.max_unauthenticated:
            self._drop(next(iter(self._pending)), f"more than {t.max_unauthenticated} unauthenticated connections")
        self._pending[transport] = (address, asyncio.current_task())

    def _drop(self, transport: asyncio.Transport, why: str) -> None:
        address, task = self._pending.pop(transport, ("?", None))
        self.dropped += 1
        log.info("dropped the oldest unauthenticated connection (from %s): %s", address, why)
        transport.abort()
        if task is not None:
            task.cancel()   # its handshake or hello ends now, and its buffers with it

    async def _serve(self, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        self._admit(transport, str(peer[0]) if peer else "?")
        try:
            # Let the connections dropped by that admission end before this one allocates its TLS
            # buffers (256 KiB each): a burst of N connections accepted in one loop iteration then
            # never holds more than the caps' worth of buffers at once.
            await asyncio.sleep(0)
            await self._serve_admitted(transport, peer)
        finally:
            self._pending.pop(transport, None)

    async def _serve_admitted(self, transport: asyncio.Transport, peer: Any) -> None:
        store = PeerStore(self.cfg.data_dir)
        pems = store.pems()
        if self._ctx is None or self._ctx[0] != pems:  # rebuilt whenever the pins change
            self._ctx = (pems, certs_mod.server_context(self.cfg.certs, pems))
        try:
            link = await accept_tls(transport, self._ctx[1], self.cfg.timeouts)
        except ssl.SSLCertVerificationError as exc:
            log.warning("refused %s: its certificate is not pinned here (unknown device, or a pinned peer "
                        "with a CHANGED identity: possible impostor) [%s]", peer, exc.verify_message)
            return
        except (ssl.SSLError, asyncio.TimeoutError, OSError, ProtocolError, ConnectionError) as exc:
            # a connection we dropped over a cap is logged once, by _drop: a flood must not flood the log
            log.log(logging.WARNING if transport in self._pending else logging.DEBUG,
                    "refused %s: TLS handshake failed: %r", peer, exc)
            return
        if link.peer_der is None:   # first contact: unauthenticated until paired
            try:
                paired = await run_pairing(self.cfg, link, "responder", None)
                self.connections.append(Outcome("paired", paired.name))
            except PairingFailed as exc:
                log.warning("pairing with %s failed: %s", peer, exc)
                self.connections.append(Outcome("refused", str(exc)))
            return
        known = store.by_cert_pin(certs_mod.pin(link.peer_der))
        if known is None:
            await link.close("this certificate is not pinned here")
            return
        peer_pub = bytes.fromhex(known.public_key)
        playing = self._in_play is not None and not (self.result is not None and self.result.done())
        if playing and self._in_play != peer_pub:
            self.busy.append(known.fingerprint)
            log.warning("answered %s (%s) busy: a game with %s is in play", peer, known.fingerprint[:16],
                        fingerprint(self._in_play)[:16])  # type: ignore[arg-type]
            await link.refuse(f"busy: this host is playing a game with another device "
                              f"({fingerprint(self._in_play)[:16]}); try again when it is over")  # type: ignore[arg-type]
            return
        self._pending.pop(transport, None)   # authenticated: a pinned peer, the one in play (or none is)
        if self._active is not None and not self._active.done():
            # a new connection from the same peer replaces a half-dead one
            raise_if(await reap(self._active))
        self._active = asyncio.current_task()
        self.active_link = link
        claimed = self._in_play is None
        self._in_play = peer_pub
        if self._abandon is not None and self._absent is not None and self._absent[0] == peer_pub:
            self._abandon.cancel()   # the peer is back (the absence counts on if this connection fails)
            self._abandon = None
        try:
            outcome = await GameConnection(self.cfg, self.driver, link, "host", peer_pub).run()
        finally:
            await link.close()
        if claimed and outcome.match is None and not self.cfg.active_wal(peer_pub).exists():
            self._in_play = None   # no game was started or is unfinished with this peer
        self.connections.append(outcome)
        self._after_connection(outcome, peer_pub)

    def _after_connection(self, outcome: Outcome, peer_pub: bytes) -> None:
        """Record a game's end, or start counting a disconnected peer's absence (issue 10 item 1)."""
        if outcome.status in ("finished", "stopped") and self.result is not None and not self.result.done():
            self.result.set_result(outcome)
            return
        if outcome.status != "disconnected":
            return
        loop = asyncio.get_running_loop()
        if outcome.resumed and (self._absent is None or self._absent[0] == peer_pub):
            self._absent = (peer_pub, loop.time()) if outcome.in_play else None
        if (self._absent is not None and self._absent[0] == peer_pub and self._abandon is None
                and self.cfg.abandon_after and self.result is not None):
            task = asyncio.ensure_future(self._claim_later(peer_pub, self._absent[1] + self.cfg.abandon_after))
            self._abandon = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _claim_later(self, peer_pub: bytes, when: float) -> None:
        await asyncio.sleep(max(0.0, when - asyncio.get_running_loop().time()))
        if self._active is not None and not self._active.done():
            return   # a connection is in progress: it cancels us or counts on with the absence
        outcome = claim_abandoned(self.cfg, peer_pub, f"the guest did not come back within "
                                                      f"{self.cfg.abandon_after:g} s after the link dropped")
        self._abandon = None
        if outcome is not None:
            self.connections.append(outcome)
            if self.result is not None and not self.result.done():
                self.result.set_result(outcome)
