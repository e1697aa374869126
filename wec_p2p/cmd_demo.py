"""``wec demo``: the whole product on one machine, over 127.0.0.1 only (DESIGN §6).

In a temporary directory: a throwaway vendor key, the reference licence endpoint
(``wec licence-server serve``) with a fresh sqlite file and one 2-seat key, two
installations (``WEC_DATA_DIR`` each) that activate against it, then ``wec host`` and
``wec join`` as two processes (``wec_p2p.demo_peer``) that find each other over mDNS on
127.0.0.1, pair (auto-confirm), negotiate (two requests approved, one rejected), settle
colours and play a bot game of hidden play (issue 8: each laptop holds only what its player may
see; hidden actions travel as commitments) to its end, then both run the audit. The summary
checks both final state hashes against an omniscient replay of the audited history, both
signed transcripts and both audits, counts the enemy piece-plies each side never saw, and
checks that neither log names an enemy hidden action before the audit opened it. Exit code 0
when every check passed, 1 otherwise. ``--keep DIR`` keeps both peers' data directories.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

LOOPBACK = "127.0.0.1"
RESULT_RE = re.compile(r"RESULT status=(\w+) outcome=(\w+) hash=(\w+) game=(\w+) transcript=(\S+)")
CODE_RE = re.compile(r"pairing code (\d{3} \d{3})")
#: Alice asks all three; Bob approves the first and the last, rejects the second. Submerged Subs
#: unseen at any range bring submerged pieces into hiding next to the stealthy AAAs (RUL-18)
REQUESTS = ("tank_range=8", "stun_range=1", "submerged_detect_range=0")
FOUND_RE = re.compile(r"found '(.*)' \((\w+)\) at (\S+) after (\d+) ms")


class DemoFailed(Exception):
    """A step of the demo failed; the message says which and why."""


def register(subparsers: Any) -> None:
    """Add ``wec demo``."""
    p = subparsers.add_parser("demo", help="two peers on this machine: mDNS, licence, pairing, a full bot game",
                              description="Run the whole network game on this machine over 127.0.0.1: "
                                          "a local licence endpoint, two installations, discovery, pairing, "
                                          "negotiation and a complete bot game. Needs no root and no internet.")
    p.add_argument("--seed", type=int, default=6,
                   help="seed of the host's bot (the guest uses seed+1); with the default, Subs dive and hide "
                        "whichever side wins the coin toss")
    p.add_argument("--bot", choices=("random", "greedy", "search"), default="random",
                   help="level of both peers' bots (default random: the fastest demo)")
    p.add_argument("--think", type=float, default=1.0, metavar="SECONDS",
                   help="greedy/search thinking time per turn")
    p.add_argument("--timeout", type=float, default=120.0, help="give up after this many seconds")
    p.add_argument("--keep", type=Path, metavar="DIR", default=None,
                   help="run in DIR (new or empty) and keep it: both peers' data directories (bob/, alice/: "
                        "identities, logs, saves), the endpoint's sqlite file and the peers' stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the demo; 0 if the game finished and every check passed."""
    if args.keep is not None:
        root = args.keep.resolve()
        if root.exists() and (not root.is_dir() or any(root.iterdir())):
            print(f"wec demo: --keep {args.keep}: not an empty directory (nothing was run)", file=sys.stderr)
            return 2
        root.mkdir(parents=True, exist_ok=True)
    else:
        root = Path(tempfile.mkdtemp(prefix="wec-demo-"))
    demo = _Demo(root, args.seed, args.timeout, args.bot, args.think)
    try:
        demo.run()
        return 0
    except DemoFailed as exc:
        demo.say("demo", f"FAILED: {exc}")
        return 1
    finally:
        demo.stop()
        if args.keep is not None:
            demo.say("demo", f"kept {root}: data directories {root / 'bob'} and {root / 'alice'}")
        else:
            shutil.rmtree(root, ignore_errors=True)
            demo.say("demo", "endpoint stopped, temporary directory removed")


@dataclass
class _Proc:
    """A child process whose stdout lines arrive on the demo's queue; stderr goes to a file."""

    label: str
    proc: subprocess.Popen[str]
    err: IO[str]
    lines: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)    # when each line arrived (monotonic)
    done: bool = False


class _Demo:
    def __init__(self, root: Path, seed: int, timeout: float, bot: str = "random",
                 think: float = 1.0) -> None:
        self.root, self.seed = root, seed
        self.bot = ["--bot", bot, "--think", str(think)]
        self.t0 = time.monotonic()
        self.deadline = self.t0 + timeout
        self.events: queue.Queue[tuple[_Proc, str | None]] = queue.Queue()
        self.procs: list[_Proc] = []

    def say(self, who: str, text: str) -> None:
        print(f"{time.monotonic() - self.t0:6.2f}s  {who:<10} {text}", flush=True)

    # ---- the steps ----

    def run(self) -> None:
        self.say("demo", f"two installations on this machine, talking over {LOOPBACK} only; work dir {self.root}")
        pem, pub = self._vendor_key()
        endpoint = self._endpoint(pem)
        key = self._add_key()
        dirs = {name: self._installation(name) for name in ("bob", "alice")}
        host = self._peer("Bob/host", dirs["bob"][0], pub, key, endpoint, [
            "host", *self.bot, "--seed", str(self.seed), "--interface", LOOPBACK, "--name", "Bob",
            "--auto-confirm", "--colour", "white", "--reject", "stun_range", "--show-turns"])
        self._until(host, lambda line: line.startswith("advertised over mDNS"))
        guest = self._peer("Alice/join", dirs["alice"][0], pub, key, endpoint, [
            "join", dirs["bob"][1][:16], *self.bot, "--seed", str(self.seed + 1), "--interface", LOOPBACK,
            "--name", "Alice", "--auto-confirm", "--colour", "white", "--timeout", "10",
            *(arg for request in REQUESTS for arg in ("--request", request))])
        self._until_exit([host, guest])
        self._summary(host, guest, endpoint)

    def _vendor_key(self) -> tuple[Path, str]:
        key = Ed25519PrivateKey.generate()
        pem = self.root / "vendor.key"
        fd = os.open(pem, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
        pub = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
        self.say("vendor", f"throwaway vendor key {pub[:16]}… (this demo only; the built-in key is not used)")
        return pem, pub

    def _endpoint(self, pem: Path) -> str:
        proc = self._spawn("endpoint", [sys.executable, "-m", "wec_p2p.cli", "licence-server", "serve",
                                        "--db", str(self.root / "licences.sqlite"), "--vendor-key", str(pem),
                                        "--host", LOOPBACK, "--port", "0"], os.environ.copy())
        line = self._until(proc, lambda text: text.startswith("listening on "), echo=False)
        url = line.removeprefix("listening on ")
        self.say("endpoint", f"licence server listening on {url} (fresh sqlite file)")
        return url

    def _add_key(self) -> str:
        done = subprocess.run([sys.executable, "-m", "wec_p2p.cli", "licence-server", "add-key", "--db",
                               str(self.root / "licences.sqlite"), "--seats", "2"],
                              capture_output=True, text=True, timeout=30)
        if done.returncode != 0:
            raise DemoFailed(f"`wec licence-server add-key` failed: {done.stderr.strip()}")
        key = done.stdout.strip()
        self.say("endpoint", f"issued licence key {key} (2 seats)")
        return key

    def _installation(self, name: str) -> tuple[Path, str]:
        from net.identity import load_or_create

        directory = self.root / name
        directory.mkdir(mode=0o700)
        return directory, load_or_create(directory).fingerprint

    def _peer(self, label: str, directory: Path, pub: str, key: str, endpoint: str, argv: list[str]) -> _Proc:
        env = {**os.environ, "WEC_DATA_DIR": str(directory), "PYTHONUNBUFFERED": "1"}
        proc = self._spawn(label, [sys.executable, "-m", "wec_p2p.demo_peer"], env, stdin=True)
        assert proc.proc.stdin is not None
        proc.proc.stdin.write(json.dumps({"vendor_public_key": pub, "licence_key": key,
                                          "endpoint": endpoint, "argv": argv}) + "\n")
        proc.proc.stdin.close()
        return proc

    def _summary(self, host: _Proc, guest: _Proc, endpoint: str) -> None:
        from net.saves import load_save, verify_transcript
        from net.wal import read

        for p in (host, guest):
            if p.proc.returncode != 0:
                raise DemoFailed(f"{p.label} exited with status {p.proc.returncode}: {self._stderr_tail(p)}")
        h, g = _result(host), _result(guest)
        found = _search(FOUND_RE, guest)
        codes = {_search(CODE_RE, p).group(1) for p in (host, guest)}
        if len(codes) != 1:
            raise DemoFailed(f"the two sides showed different pairing codes {sorted(codes)}")
        counts = []
        for p, res in ((host, h), (guest, g)):
            header, entries, _ = read(Path(res["transcript"]))
            summary = verify_transcript(header, entries)
            _, saved, saved_hash = load_save(Path(res["transcript"]).with_suffix(".save"))
            if saved_hash != res["hash"] or len(saved) != len(entries):
                raise DemoFailed(f"{p.label}: the save does not match the transcript")
            counts.append((summary.ours, summary.theirs))
        if counts[0] != counts[1][::-1]:
            raise DemoFailed(f"the transcripts hold different messages: host {counts[0]}, guest {counts[1]}")
        if h["hash"] != g["hash"] or h["game"] != g["game"] or h["outcome"] != g["outcome"]:
            raise DemoFailed(f"the two sides disagree: host {h}, guest {g}")
        colours = ast.literal_eval(_search(re.compile(r"^colours: (.*)$"), host).group(1))
        answers = [ast.literal_eval(line.removeprefix("rule-answer: ")) for line in guest.lines
                   if line.startswith("rule-answer: ")]
        turns = sum(1 for line in host.lines if line.startswith("turn "))
        hidden = self._hidden_play(host, guest, h, g, colours["colours"])
        winner = {"white": "white wins", "black": "black wins", "draw": "a draw"}[h["outcome"]]
        names = {"host": "Bob", "guest": "Alice"}
        toss = f"coin toss won by {names[colours['toss_winner']]}" if colours.get("toss_winner") else "no clash"
        print("\nSUMMARY")
        for name, text in (
            ("discovery", f"Alice found Bob ({found.group(2)}) over mDNS at {found.group(3)} "
                          f"{found.group(4)} ms after she started browsing"),
            ("pairing", f"code {codes.pop()} shown on both sides, confirmed (auto); each pinned the other"),
            ("requests", "Alice asked " + _and(
                [f"{REQUESTS[a['rid']]} (Bob {'approved' if a['accept'] else 'rejected'})" for a in answers])
                + "; Bob's bot refuses changes to stun_range"),
            ("options", _search(re.compile(r"^options: (.*)$"), host).group(1)),
            ("colours", f"both asked for white, {toss}: Bob {colours['colours']['host']}, "
                        f"Alice {colours['colours']['guest']}"),
            ("result", f"{winner} after {turns} turns (game {h['game'][:16]})"),
            ("hashes", f"Bob {h['hash'][:16]}… Alice {g['hash'][:16]}… EQUAL, and equal to the omniscient "
                       "replay of the audited history"),
            *hidden,
            ("transcripts", f"both verified: Bob sent {counts[0][0]} and received {counts[0][1]} signed "
                            f"messages, Alice the mirror image; chains and signatures intact"),
            ("licence", f"both installations activated online against {endpoint}"),
            ("time", f"{time.monotonic() - self.t0:.1f} s for the whole demo"),
        ):
            print(f"  {name:<12} {text}", flush=True)

    def _hidden_play(self, host: _Proc, guest: _Proc, h: dict[str, str], g: dict[str, str],
                     colours: dict[str, str]) -> list[tuple[str, str]]:
        """The summary lines of hidden play: audits, captures, what each side never saw, the log
        check, timings. :raises DemoFailed: an audit failed, or a check does not hold."""
        import engine.api as api

        names = {"host": "Bob", "guest": "Alice"}
        audits, history = {}, None
        for role, p in (("host", host), ("guest", guest)):
            line = _search(re.compile(r"^audit: (passed|FAILED): (.*)$"), p)
            if line.group(1) != "passed":
                raise DemoFailed(f"{p.label}: the audit failed: {line.group(2)}")
            audits[role] = line.group(2)
            mine = json.loads(_search(re.compile(r"^history: (.*)$"), p).group(1))
            if history is not None and mine != history:
                raise DemoFailed("the two audited histories differ")
            history = mine
        assert history is not None
        options = _options(_search(re.compile(r"^options: (.*)$"), host).group(1))
        facts = replay_facts(api.new_game(options), history)
        if facts.final_hash != h["hash"]:
            raise DemoFailed(f"the omniscient replay of the audited history ends in {facts.final_hash[:16]}…, "
                             f"not in the peers' {h['hash'][:16]}…")
        side_of = {role: "W" if colours[role] == "white" else "B" for role in ("host", "guest")}
        unseen, clean, commitments = [], [], 0
        for role, res in (("host", h), ("guest", g)):
            side, other = side_of[role], names["guest" if role == "host" else "host"]
            n = facts.unseen[side]
            unseen.append(f"{names[role]} never saw {n['plies']} of {other}'s piece-plies "
                          f"({n['submerged']} submerged, {n['stealthy']} stealthy; {n['never']} pieces never seen "
                          "at all) until the audit")
            hidden_texts = check_log(Path(res["transcript"]), history)
            commitments += hidden_texts
            clean.append(f"{names[role]}'s log names none of {other}'s {hidden_texts} hidden actions before the audit")
        if not any(facts.unseen[s]["submerged"] for s in "BW"):
            unseen.append("no Sub dived in this game (the bots choose; another --seed may)")
        last_turn = max((t for p in (host, guest) for t, line in zip(p.times, p.lines) if line.startswith("turn ")),
                        default=self.t0)
        verdict = max(t for p in (host, guest) for t, line in zip(p.times, p.lines) if line.startswith("audit: "))
        started = min(t for p in (host, guest) for t, line in zip(p.times, p.lines) if line.startswith("started: "))
        return [
            ("hidden play", f"{commitments} actions travelled as commitments; "
                            f"{facts.captures['W'] + facts.captures['B']} captures (White lost "
                            f"{facts.captures['W']}, Black {facts.captures['B']})"),
            ("unseen", "; ".join(unseen)),
            ("audit", "passed on both sides: " + "; ".join(
                f"{names[r]} {_audit_short(audits[r], names['guest' if r == 'host' else 'host'])}" for r in audits)),
            ("logs", "; ".join(clean)),
            ("timings", f"game {last_turn - started:.1f} s ({len(history)} actions), audit verdicts "
                        f"{max(0.0, verdict - last_turn):.1f} s after the last turn line"),
        ]

    # ---- processes ----

    def _spawn(self, label: str, argv: list[str], env: dict[str, str], stdin: bool = False) -> _Proc:
        err = open(self.root / f"{label.replace('/', '-')}.stderr", "w")
        popen = subprocess.Popen(argv, env=env, text=True, stdout=subprocess.PIPE, stderr=err,
                                 stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
        proc = _Proc(label, popen, err)
        self.procs.append(proc)
        threading.Thread(target=self._read, args=(proc,), name=f"demo-{label}", daemon=True).start()
        return proc

    def _read(self, proc: _Proc) -> None:
        assert proc.proc.stdout is not None
        for line in proc.proc.stdout:
            self.events.put((proc, line.rstrip("\n")))
        self.events.put((proc, None))

    def _next(self) -> tuple[_Proc, str | None]:
        left = self.deadline - time.monotonic()
        try:
            return self.events.get(timeout=max(0.0, left))
        except queue.Empty:
            raise DemoFailed("timed out (see the lines above)") from None

    def _handle(self, proc: _Proc, line: str | None, echo: bool = True) -> None:
        if line is None:
            proc.done = True
            proc.proc.wait()
            return
        proc.lines.append(line)
        proc.times.append(time.monotonic())
        if echo and not line.startswith(("RESULT ", "history: ")):
            self.say(proc.label, line)

    def _until(self, proc: _Proc, wanted: Any, echo: bool = True) -> str:
        """Echo lines until ``proc`` prints a line for which ``wanted(line)`` holds."""
        while True:
            who, line = self._next()
            self._handle(who, line, echo)
            if who is proc and line is not None and wanted(line):
                return line
            if who.done:
                raise DemoFailed(f"{who.label} exited with status {who.proc.returncode}: {self._stderr_tail(who)}")

    def _until_exit(self, procs: list[_Proc]) -> None:
        while not all(p.done for p in procs):
            who, line = self._next()
            self._handle(who, line)

    def _stderr_tail(self, proc: _Proc) -> str:
        proc.err.flush()
        text = (self.root / f"{proc.label.replace('/', '-')}.stderr").read_text().strip()
        return text[-1500:] or "(nothing on stderr)"

    def stop(self) -> None:
        """Stop every child we started (the endpoint with SIGTERM), wait for them, close files."""
        for p in self.procs:
            if p.proc.poll() is None:
                p.proc.terminate()
        for p in self.procs:
            try:
                p.proc.wait(5)
            except subprocess.TimeoutExpired:
                p.proc.kill()
                p.proc.wait(5)
            if p.proc.stdout is not None:
                p.proc.stdout.close()
            p.err.close()


def _audit_short(report: str, peer: str) -> str:
    """ "checked 322 of Alice's signed hidden-play messages, 112 actions replayed" from a verdict."""
    m = re.search(r"(\d+) of the peer's hidden-play messages and (\d+) actions", report)
    if not m:
        return report
    return f"checked {m.group(1)} of {peer}'s signed hidden-play messages, replayed {m.group(2)} actions omnisciently"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _options(text: str) -> Any:
    """The agreed options from a peer's ``options:`` line (``name=value, ...``)."""
    import engine.api as api

    changes: dict[str, Any] = {}
    if text != "the standard game":
        for item in text.split(", "):
            name, _, value = item.partition("=")
            changes[name] = True if value == "True" else False if value == "False" else \
                int(value) if value.lstrip("-").isdigit() else value
    return api.Options(**changes)


@dataclass
class ReplayFacts:
    """What the omniscient replay of a finished game shows."""

    final_hash: str
    captures: dict[str, int]                 # pieces each side lost
    unseen: dict[str, dict[str, int]]        # per viewer: enemy piece-plies hidden from it, by reason


def replay_facts(start: Any, history: list[str]) -> ReplayFacts:
    """Replay ``history`` omnisciently from ``start``: captures, and, for each side, the enemy
    piece-plies the rules hid from it (RUL-18), submerged or stealthy, and the enemy pieces it
    never saw at all."""
    import engine.api as api
    from engine.visibility import hidden_from

    states = [start]
    for text in history:
        states.append(api.apply_action(states[-1], api.parse_action(text)))
    captures = {"W": 0, "B": 0}
    for a, b in zip(states, states[1:]):
        for sid in set(a.pieces) - set(b.pieces):
            captures[a.pieces[sid].side] += 1
    unseen = {}
    for viewer in "BW":
        plies = sub = 0
        seen: set[int] = set()
        present: set[int] = set()
        for st in states:
            hid = hidden_from(st, viewer)
            for sid, p in st.pieces.items():
                if p.side == viewer:
                    continue
                present.add(sid)
                if sid in hid:
                    plies += 1
                    sub += p.level == "S"
                else:
                    seen.add(sid)
        unseen[viewer] = {"plies": plies, "submerged": sub, "stealthy": plies - sub, "never": len(present - seen)}
    return ReplayFacts(api.state_hash(states[-1]), captures, unseen)


def check_log(path: Path, history: list[str]) -> int:
    """The enemy's actions that reached this side only as commitments (issue 8 item 2): none of
    their texts may be in this side's log before the audit opened them. Returns how many there
    were. :raises DemoFailed: one is there."""
    from net.chain import ChainReader
    from net.frames import pack
    from net.hidden_wire import AuditOpen, HiddenEvent
    from net.saves import entry_record
    from net.wal import read

    header, entries, _ = read(path)
    readers = {"out": ChainReader(header.me, header.chain_id), "in": ChainReader(header.peer, header.chain_id)}
    parts: list[bytes] = []
    hidden: set[int] = set()
    for e in entries:
        verified = readers[e.direction].check(e.signed)
        if verified is None:
            continue
        readers[e.direction].accept(verified)
        msg = verified.message
        if isinstance(msg, AuditOpen):
            break
        parts.append(pack(entry_record(e)))
        if e.direction == "in" and isinstance(msg, HiddenEvent) and msg.commit is not None:
            hidden.add(msg.index)
    before = b"".join(parts)
    texts = {history[i] for i in hidden if i < len(history)}
    public = {history[i] for i in range(len(history)) if i not in hidden}
    for text in sorted(texts - public):
        if text.encode() in before:
            raise DemoFailed(f"{path.name}: the enemy's hidden action {text!r} is in the log before the audit")
    return len(hidden)


def _result(proc: _Proc) -> dict[str, str]:
    match = _search(RESULT_RE, proc)
    status, outcome, state_hash, game, transcript = match.groups()
    if status != "finished":
        raise DemoFailed(f"{proc.label}: the game ended with status {status}")
    return {"outcome": outcome, "hash": state_hash, "game": game, "transcript": transcript}


def _search(pattern: re.Pattern[str], proc: _Proc) -> re.Match[str]:
    for line in proc.lines:
        match = pattern.search(line)
        if match:
            return match
    raise DemoFailed(f"{proc.label} never printed a line matching {pattern.pattern!r}")
