"""Seeded network games of hidden play, checked end to end (issue 8 "What it must show").

Two installations play over real TLS on 127.0.0.1 (``net.session``: pairing, negotiation of the
option set, the hidden-play machine, the audit), each driven in-process by a ``ScanBot`` that
records what its laptop holds: its engine state after every action, and the bytes of its log at
a few moments during play. ``check`` then takes the finished game apart:

* equivalence: the omniscient engine, replaying the full history the audit opened from the
  agreed start, ends in a state of which each side's final partial state is exactly what that
  side may know (``known_key``, RUL-18); both audits passed;
* leaks (tests/leak_scan.py): each side's states, every message in its log and save (both
  directions, its secrets too), and ``strings`` of its log taken during play;
* what was exercised: question kinds (HQ items), hidden actions, openings, shown pieces, the
  hiding reasons and moving parts of the rules (submerged, stealthy, locks, trips, homing).

``start="skirmish"`` plays from tests/test_partial.py's crowded middle board (submerged Subs,
stealthy pieces, Destroyers, transport): both installations run an engine module whose
``new_game`` sets that position up with the negotiated options (``engine_from``).
Used by tests/test_net_hidden_equiv.py (a short marked-slow run) and tests/run_hidden_games.py
(the full 100-game report).
"""
from __future__ import annotations

import asyncio
import random
import re
import time
import types
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import engine.api as api
from engine.actions import Fire
from engine.partial import known_diff, known_key
from engine.position import parse_position
from net.bot import BotDriver
from net.hidden_wire import AuditOpen, HiddenAck, HiddenAnswer, HiddenEvent, HiddenQuery, HiddenShown
from net.match import Match
from net.outputs import Event, Send
from net.session import Host, Outcome, play_as_guest
from net.wal import read

from leak_scan import Report, Timeline, scan_entries, scan_state, scan_text, split_gaps
from net_helpers import make_cfg

#: the option sets of tests/test_partial.py (every hiding reason and HQ item in play)
from test_partial import OPTION_SETS, SKIRMISH  # noqa: E402

#: question kinds (engine.asking remote kinds, and the older answerer names) -> the HQ items
HQ_OF = {
    "first": "HQ-1 HQ-4 HQ-8 HQ-12", "first_hidden": "HQ-1 HQ-4 HQ-8 HQ-12",
    "routes": "HQ-2", "any_route_clear": "HQ-2",
    "open_on": "HQ-1 HQ-3..HQ-8", "hidden_on": "HQ-1 HQ-3..HQ-8",
    "any_on": "HQ-12 HQ-13", "any_hidden": "HQ-12 HQ-13",
    "hit_outcomes": "HQ-4..HQ-8",
    "lock": "HQ-11", "lock_target": "HQ-11",
    "homing": "HQ-9", "homing_step": "HQ-9",
    "land": "HQ-3", "nudge_outcome": "HQ-3",
}

_ENGINES: dict[str, types.ModuleType] = {}


def engine_from_state(start: Any) -> types.ModuleType:
    """The engine module whose new game is ``start`` (the standard start or the skirmish)."""
    for name in ("skirmish",):
        mod = engine_from(name)
        if api.state_hash(mod.new_game(start.options)) == api.state_hash(start):
            return mod
    return api


def engine_from(start: str) -> types.ModuleType:
    """``engine.api``, or a copy of it whose ``new_game(options)`` sets up the skirmish position
    (or ``start`` itself, a position in engine.position's format)."""
    if start == "standard":
        return api
    if start not in _ENGINES:
        mod = types.ModuleType(f"engine_{len(_ENGINES)}")
        mod.__dict__.update({k: v for k, v in vars(api).items() if not k.startswith("__")})
        text = {"skirmish": SKIRMISH}.get(start, start)
        mod.new_game = lambda options=None: parse_position(text, options or api.Options())  # type: ignore[attr-defined]
        _ENGINES[start] = mod
    return _ENGINES[start]


class ScanBot(BotDriver):
    """A seeded random player that fires half the time a Fire is legal (as tests/test_partial.py),
    resigns in its first own turn after ``resign_after`` actions of the game, and records its
    laptop's state after every action and its log's bytes every ``snap_every`` actions."""

    def __init__(self, engine: types.ModuleType, seed: int, colour: str, games_dir: Path,
                 resign_after: int, snap_every: int = 25, requests: list[dict[str, Any]] | None = None) -> None:
        super().__init__(engine, seed=seed, colour=colour, requests=requests)
        self.games_dir, self.resign_after, self.snap_every = games_dir, resign_after, snap_every
        self.match: Match | None = None
        self.states: dict[int, Any] = {}
        self.snaps: list[tuple[int, bytes]] = []
        self.resigned = False
        self.on_started: Callable[[Match], None] | None = None
        self.machine_class: type | None = None     # a test build of the machine (a lying peer)
        self.liar: Any = None                      # that machine, once built

    def on_event(self, event: Event) -> None:
        super().on_event(event)
        if event.kind == "link-up":
            self.match = event.data.get("match")
        elif event.kind == "started" and self.match is not None and self.machine_class is not None:
            play = self.match.play
            if play is not None and type(play) is not self.machine_class:
                play.__class__ = self.machine_class       # the same machine, its lying subclass
                play.liar_init()
                self.liar = play

    def decide(self, match: Match) -> Send | None:
        self.match = match
        play = match.play
        if play is None:
            return super().decide(match)
        if play.cur is None and play.index not in self.states and play.state.name == "PLAYING":
            self.states[play.index] = play.state_value.clone()
            if play.index % self.snap_every == 0:
                self._snap(play.index)
        if play.undo_asked is not None and play.undo_asked[0] == "peer":
            return play.answer_undo(self.approve_undo)
        if not play.my_move():
            return None
        if play.index >= self.resign_after or getattr(play, "wants_to_resign", False):
            if not self.resigned:
                self.resigned = True
                self._snap(play.index)
                return play.resign()
            return None
        legal = self.engine.legal_actions(play.state_value)
        fires = [a for a in legal if isinstance(a, Fire)]
        action = self.rng.choice(fires if fires and self.rng.random() < 0.5 else legal)
        self.actions += 1
        return play.act(self.engine.format_action(action), legal=True)

    def _snap(self, index: int) -> None:
        for wal in self.games_dir.glob("active-*.wal"):
            self.snaps.append((index, wal.read_bytes()))


@dataclass
class Game:
    """One finished game: its seed and options, both sides' outcomes and bots."""

    name: str
    seed: int
    start: str
    outs: dict[str, Any]
    bots: dict[str, ScanBot]
    seconds: float
    tmp: Path


async def _tls(tmp: Path, engine: types.ModuleType, bots: dict[str, ScanBot], **kw: Any) -> dict[str, Any]:
    hc, gc = make_cfg(tmp, "host", engine, **kw), make_cfg(tmp, "guest", engine, **kw)
    bots["host"].games_dir, bots["guest"].games_dir = hc.games_dir, gc.games_dir
    host = Host(hc, bots["host"], "127.0.0.1", 0)
    port = await host.start()
    try:
        guest_out = await play_as_guest(gc, bots["guest"], "127.0.0.1", port, attempts=5, backoff=0.05)
        try:
            host_out = await host.wait(30)
        except asyncio.TimeoutError:
            host_out = Outcome("timeout", "the host's session did not end within 30 s of the guest's")
    finally:
        await host.close()
    return {"host": host_out, "guest": guest_out}


def play_game(tmp: Path, name: str, seed: int, start: str = "standard", actions: int = 60,
              timeout: float = 300.0, machine: dict[str, type] | None = None, **kw: Any) -> Game:
    """One seeded game over TLS on 127.0.0.1 under option set ``name``; the host plays white."""
    engine = engine_from(start)
    opts = dict(OPTION_SETS[name])
    bots = {"host": ScanBot(engine, seed * 2 + 1, "white", tmp, actions),
            "guest": ScanBot(engine, seed * 2 + 2, "black", tmp, actions, requests=[opts] if opts else None)}
    for role, cls in (machine or {}).items():
        bots[role].machine_class = cls
    t0 = time.perf_counter()
    outs = asyncio.run(asyncio.wait_for(_tls(tmp, engine, bots, **kw), timeout))
    return Game(name, seed, start, outs, bots, time.perf_counter() - t0, tmp)


# -- checking a finished game ---------------------------------------------------------------

@dataclass
class Checked:
    """What one game showed."""

    ok: bool
    problems: list[str]
    actions: int
    hidden_actions: int
    questions: Counter
    exercised: Counter
    leaks: list[Any]
    gaps: Counter
    allowed: Counter
    piece_plies: int
    values: int
    seconds: float
    audit_seconds: list[float] = field(default_factory=list)


def check(game: Game) -> Checked:
    """Equivalence, audits, leaks and what was exercised, for one finished in-process game."""
    problems = [f"{role}: {out.status}: {out.reason}" for role, out in game.outs.items() if out.status != "finished"]
    plays = {role: out.match.play for role, out in game.outs.items() if out.match is not None}
    return check_plays(plays, {r: b.states for r, b in game.bots.items()},
                       {r: o.transcript for r, o in game.outs.items()},
                       {r: o.state_hash for r, o in game.outs.items()},
                       {r: b.snaps for r, b in game.bots.items()}, game.seconds, problems)


def check_plays(plays: dict[str, Any], states: dict[str, dict[int, Any]], transcripts: dict[str, Any],
                hashes: dict[str, Any], snaps: dict[str, list[tuple[int, bytes]]], seconds: float,
                problems: list[str]) -> Checked:
    """The checks of ``check`` from each side's machine (live, or rebuilt from its log), the
    states its driver sampled, its log, its outcome hash and the log bytes taken during play."""
    for role in ("host", "guest"):
        play = plays.get(role)
        if play is None:
            problems.append(f"{role}: no game")
        elif play.verdict is None or not play.verdict.ok:
            problems.append(f"{role}: audit {'missing' if play.verdict is None else play.verdict.report}")
    if len(plays) < 2 or problems:
        return Checked(False, problems, 0, 0, Counter(), Counter(), [], Counter(), Counter(), 0, 0, seconds)
    host, guest = plays["host"], plays["guest"]
    if host.history != guest.history or "?" in host.history:
        problems.append("the two histories differ after the audit")
    tl = Timeline(host.start, host.history)
    if api.state_hash(host.start) != api.state_hash(guest.start):
        problems.append("the two starts differ")
    omni = tl.states[-1]
    for role, play in plays.items():
        if known_key(play.state_value, play.me) != known_key(omni, play.me):
            problems.append(f"{role}: final state is not what it may know: {known_diff(play.state_value, omni, play.me)}")
        for index, st in sorted(states.get(role, {}).items()):
            if index <= tl.end and known_key(st, play.me) != known_key(tl.states[index], play.me):
                problems.append(f"{role}: state after {index} actions differs: "
                                f"{known_diff(st, tl.states[index], play.me)}")
                break
    if hashes["host"] != hashes["guest"]:
        problems.append("the outcome hashes differ")
    rebuilt = Counter()
    if states:      # live machines: each side's log must rebuild the same machine (item 6: resume from one's own data)
        from wal_helpers import replay_log
        for role, play in plays.items():
            rebuilt_match = replay_log(Path(transcripts[role]), engine_from_state(play.start))
            again = rebuilt_match.play
            same = (again is not None and again.verdict is not None and again.verdict.ok
                    and known_key(again.state_value, play.me) == known_key(play.state_value, play.me))
            rebuilt["log rebuilds the machine" if same else "log rebuild FAILED"] += 1
            if not same:
                problems.append(f"rebuild: {role}'s log does not rebuild its machine: "
                                f"{rebuilt_match.stopped or (again.verdict if again else None)}")
    rep = Report("both")
    questions: Counter = Counter()
    hidden_actions = 0
    for role, play in plays.items():
        side = play.me
        r = Report(side)
        for index, st in sorted(states.get(role, {}).items()):
            r.add(scan_state(tl, side, min(index, tl.end), st, f"{role}@{index}"))
        r.add(scan_state(tl, side, tl.end, play.state_value, f"{role}@end"))
        transcript = Path(transcripts[role])
        _, entries, _ = read(transcript)
        r.add(scan_entries(tl, side, entries, "log"))
        save = transcript.with_suffix(".save")
        if save.exists():
            from net.saves import load_save
            r.add(scan_entries(tl, side, load_save(save)[1], "save"))
        for index, data in snaps.get(role, []):
            r.add(scan_text(tl, side, data, min(index, tl.end), "log text"))
        r.add(scan_text(tl, side, _before_audit(entries), tl.end, "log text"))
        rep.add(r)
        for own, _, msg in play.transcript:
            if own and isinstance(msg, HiddenQuery):
                questions[_kind(msg)] += 1
            if own and isinstance(msg, HiddenEvent) and msg.commit is not None:
                hidden_actions += 1
    leaks, gaps = split_gaps(rep.leaks)
    for f in leaks[:5]:
        problems.append(f"leak: {f}")
    exercised = _exercised(tl, plays) + rebuilt
    return Checked(not problems, problems, tl.end, hidden_actions, questions, exercised, leaks, gaps,
                   rep.allowed, rep.piece_plies, rep.values, seconds)


# -- games between two ``wec`` processes -------------------------------------------------------

LAUNCHER = Path(__file__).with_name("liar_peer.py")
RESULT_RE = re.compile(r"^RESULT status=(\w+) outcome=(\w+) hash=(\w+) game=(\w+) transcript=(\S+)$", re.M)


@dataclass
class WecGame:
    """A game between two ``wec`` processes: what each printed, and where its log is."""

    name: str
    seed: int
    start: str
    out: dict[str, str]
    err: dict[str, str]
    codes: dict[str, int]
    seconds: float

    def result(self, role: str) -> re.Match[str] | None:
        return RESULT_RE.search(self.out[role])

    def lie(self) -> dict[str, Any] | None:
        import json
        m = re.search(r"^LIE (.*)$", self.out["guest"], re.M)
        return json.loads(m.group(1)) if m else None


def _request_args(opts: dict[str, Any]) -> list[str]:
    out = []
    for k, v in opts.items():
        out += ["--request", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    return out


def play_wec_game(tmp: Path, name: str, seed: int, start: str = "standard", resign_after: int = 30,
                  liar: str = "honest", audit_seconds: int = 0, pair: Any = None, port: int = 0,
                  timeout: float = 240.0, guest_abandon_after: float | None = None) -> WecGame:
    """``wec host`` (white, honest) and ``wec join`` (black, maybe a liar) as two processes over TLS,
    on 127.0.0.1 or (``pair``) across two network namespaces; bot games of option set ``name``.
    ``guest_abandon_after``: the guest's ``--abandon-after`` (a host that stops the game at a lie
    leaves the guest waiting that long for it to come back; the product's default is 120 s)."""
    import subprocess
    import sys

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from test_net_cli import REPO, activated
    tmp.mkdir(parents=True, exist_ok=True)
    vendor = Ed25519PrivateKey.generate()
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    env = {"host": activated(tmp, "host", vendor), "guest": activated(tmp, "guest", vendor)}
    addr = {"host": pair.addr_a, "guest": pair.addr_b} if pair else {"host": "127.0.0.1", "guest": "127.0.0.1"}
    kw: dict[str, Any] = dict(cwd=REPO, text=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)

    def start_proc(role: str, who: str, args: list[str]) -> Any:
        argv = [sys.executable, str(LAUNCHER), pub, who, start, str(audit_seconds), *args]
        if pair is not None:
            return pair.run(pair.ns_a if role == "host" else pair.ns_b, argv, env=env[role], **kw)
        return subprocess.Popen(argv, env=env[role], **kw)

    t0 = time.perf_counter()
    host = start_proc("host", "honest", ["host", "--bot", "random", "--seed", str(seed * 2 + 1), "--interface",
                                         addr["host"], "--port", str(port), "--no-discovery", "--auto-confirm",
                                         "--colour", "white", "--bot-resign-after", str(resign_after)])
    procs = [host]
    try:
        first = host.stdout.readline()
        m = re.search(r"on port (\d+)", first)
        if not m:
            host.kill()
            raise AssertionError(f"the host did not start: {first}{host.stderr.read()}")
        guest = start_proc("guest", liar, ["join", f"{addr['host']}:{m.group(1)}", "--bot", "random", "--seed",
                                           str(seed * 2 + 2), "--colour", "black", "--interface", addr["guest"],
                                           "--auto-confirm", *_request_args(OPTION_SETS[name]),
                                           *(() if guest_abandon_after is None
                                             else ("--abandon-after", str(guest_abandon_after)))])
        procs.append(guest)
        g_out, g_err = guest.communicate(timeout=timeout)
        h_out, h_err = host.communicate(timeout=timeout)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)
    return WecGame(name, seed, start, {"host": first + h_out, "guest": g_out}, {"host": h_err, "guest": g_err},
                   {"host": host.returncode, "guest": guest.returncode}, time.perf_counter() - t0)


def check_wec(game: WecGame) -> Checked:
    """``check`` for a game of two processes: each side's machine rebuilt from its own log. Where
    the rebuild fails (``replay mismatch``), the checks that need no machine: the outcome hashes
    equal the omniscient replay's of the history the log holds, and the leak scan of the logs."""
    from wal_helpers import history_from_log, replay_log
    problems, plays, transcripts, hashes = [], {}, {}, {}
    for role in ("host", "guest"):
        m = game.result(role)
        if m is None or m.group(1) != "finished":
            problems.append(f"{role}: {m.group(1) if m else 'no result'}: {game.err[role][-400:]}")
            continue
        transcripts[role], hashes[role] = m.group(5), m.group(3)
        plays[role] = replay_log(Path(m.group(5)), engine_from(game.start)).play
    if problems:
        return check_plays(plays, {}, transcripts, hashes, {}, game.seconds, problems)
    if all(p is not None and p.verdict is not None for p in plays.values()):
        return check_plays(plays, {}, transcripts, hashes, {}, game.seconds, problems)
    # the rebuild from the log failed: check what the logs and the printed results show
    engine = engine_from(game.start)
    hist = {role: history_from_log(Path(transcripts[role])) for role in transcripts}
    if hist["host"] != hist["guest"]:
        problems.append("the two logs hold different histories")
    tl = Timeline(engine.new_game(_options(game.name)), hist["host"])
    if not hashes["host"] == hashes["guest"] == api.state_hash(tl.states[-1]):
        problems.append("the outcome hashes differ from the omniscient replay's")
    rep = Report("both")
    for role, side in (("host", "W"), ("guest", "B")):
        _, entries, _ = read(Path(transcripts[role]))
        rep.add(scan_entries(tl, side, entries, "log"))
        rep.add(scan_text(tl, side, _before_audit(entries), tl.end, "log text"))
    leaks, gaps = split_gaps(rep.leaks)
    problems += [f"leak: {f}" for f in leaks[:5]]
    rebuilt = [r for r, p in plays.items() if p is None or p.verdict is None]
    ch = Checked(not problems, problems, tl.end, 0, Counter(), Counter({f"log rebuild failed ({r})": 1 for r in rebuilt}),
                 leaks, gaps, rep.allowed, rep.piece_plies, rep.values, game.seconds)
    return ch


def _options(name: str) -> Any:
    return api.Options(**OPTION_SETS[name])


def _before_audit(entries: list[Any]) -> bytes:
    """The bytes the log held before the first audit opening: its records, as the file packs them."""
    from net.frames import pack
    from net.saves import entry_record
    from leak_scan import _decode_entries
    out = []
    for (direction, msg, _), e in zip(_decode_entries(entries), entries):
        if isinstance(msg, AuditOpen):
            break
        out.append(pack(entry_record(e)))
    return b"".join(out)


def _kind(msg: HiddenQuery) -> str:
    from net import hidden_engine as he
    try:
        return he.load_question(msg.question).kind
    except Exception:
        return "?"


def _exercised(tl: Timeline, plays: dict[str, Any]) -> Counter:
    """Hiding reasons and moving parts of the rules met in the omniscient replay, and the
    openings and shown pieces that travelled."""
    c: Counter = Counter()
    for t, st in enumerate(tl.states):
        for side in "BW":
            for sid in tl.hidden(t, side):
                p = st.pieces.get(sid)
                if p is None:
                    continue
                c["hidden piece-plies"] += 1
                c["hidden submerged" if p.level == "S" else "hidden stealthy"] += 1
        c["lock-plies"] += len(st.locks)
        c["trip-plies"] += sum(1 for p in st.pieces.values() if p.trip is not None)
        c["homing projectile-plies"] += sum(1 for p in st.projectiles if p.target)
    for text in tl.texts:
        head = text.split("(")[0]
        if head.startswith("RE") or text.startswith("RF"):
            c["reinforcements"] += 1
        if text.startswith("FI:"):
            c[f"fire {text[3:5]}"] += 1
        if ",DO>" in text:
            c["nudges"] += 1
    for play in plays.values():
        for own, _, msg in play.transcript:
            if own:
                continue
            if isinstance(msg, HiddenAnswer):
                c["openings received"] += len(msg.opened)
            elif isinstance(msg, (HiddenAck, HiddenShown)):
                c["shown received"] += len(msg.shown)
                if isinstance(msg, HiddenShown):
                    c["lock targets gone"] += len(msg.gone)
    return c


def summarize(results: list[tuple[Game, Checked]]) -> str:
    """The report of a run of games."""
    lines = []
    ok = sum(ch.ok for _, ch in results)
    agree = sum(not [p for p in ch.problems if not p.startswith(("leak:", "rebuild:"))] for _, ch in results)
    lines.append(f"games: {len(results)}, passed (equivalence + both audits + no leak): {ok}; equivalence and "
                 f"both audits: {agree}; without a leak: {sum(not ch.leaks for _, ch in results)}; both logs rebuild "
                 f"the machines: {sum(not any(p.startswith('rebuild:') for p in ch.problems) for _, ch in results)}")
    q: Counter = Counter()
    ex: Counter = Counter()
    gaps: Counter = Counter()
    allowed: Counter = Counter()
    for _, ch in results:
        q.update(ch.questions)
        ex.update(ch.exercised)
        gaps.update(ch.gaps)
        allowed.update(ch.allowed)
    lines.append(f"actions: {sum(ch.actions for _, ch in results)}, hidden actions (commitments): "
                 f"{sum(ch.hidden_actions for _, ch in results)}")
    lines.append("questions by kind (HQ items): " + ", ".join(
        f"{k} [{HQ_OF.get(k, '?')}] {v}" for k, v in sorted(q.items())))
    lines.append("exercised: " + ", ".join(f"{k} {v}" for k, v in sorted(ex.items())))
    lines.append(f"leak scanner: {sum(ch.piece_plies for _, ch in results)} hidden enemy piece-plies checked in "
                 f"states, {sum(ch.values for _, ch in results)} logged messages/saves scanned; leaks "
                 f"{sum(len(ch.leaks) for _, ch in results)}; allowed openings {dict(allowed)}; known gaps "
                 f"{dict(gaps)}")
    places: Counter = Counter()
    for _, ch in results:
        places.update(_place(f) for f in ch.leaks)
    if places:
        lines.append("leaks by place: " + ", ".join(f"{k} {v}" for k, v in places.most_common(6)))
    secs = sorted(ch.seconds for _, ch in results)
    if secs:
        lines.append(f"time per game: median {secs[len(secs) // 2]:.1f} s, max {secs[-1]:.1f} s, "
                     f"total {sum(secs):.0f} s")
    for g, ch in results:
        if not ch.ok:
            lines.append(f"FAILED {g.name} seed {g.seed} {g.start}: " + "; ".join(ch.problems[:3]))
    return "\n".join(lines)


def failed(name: str, seed: int, start: str, why: str) -> tuple[Any, Checked]:
    """A game that could not be played or checked, as a failed result."""
    game = WecGame(name, seed, start, {}, {}, {}, 0.0)
    return game, Checked(False, [why], 0, 0, Counter(), Counter(), [], Counter(), Counter(), 0, 0, 0.0)


def _place(f: Any) -> str:
    """Where a leak is, less the entry numbers and indices: "log hidden-query.question<pickle>.work"."""
    where = f.where.split(" ", 1)[-1] if " " in f.where else f.where
    return f"{f.artifact} {re.sub(r'#[0-9]+/', '', where).split('[')[0]}"


def plan(n: int, first_seed: int = 0) -> list[tuple[str, int, str]]:
    """``n`` (option set, seed, start) triples cycling over every option set and both starts."""
    combos = [(name, start) for start in ("skirmish", "standard") for name in OPTION_SETS]
    return [(combos[i % len(combos)][0], first_seed + i, combos[i % len(combos)][1]) for i in range(n)]


def rng_for(seed: int) -> random.Random:
    return random.Random(seed)
