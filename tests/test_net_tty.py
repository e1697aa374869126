"""Two people at two terminals: ``wec host`` / ``wec join`` without ``--bot`` (issue 9, 04/U59-U61).

Two real ``wec`` processes over 127.0.0.1, driven only by lines typed on their stdin, as two
players would: both show the same pairing code, one rule change approved and one rejected,
12 turns, an undo request declined, game over on both.
"""
from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from netns import NetnsPair
from test_net_cli import LAUNCH, REPO, activated

WAIT = 120.0   # generous: the machine is shared; nothing here measures time


class Term:
    """One ``wec`` process: lines out through a queue, lines in through stdin."""

    def __init__(self, vendor: Ed25519PrivateKey, env: dict[str, str], *args: str,
                 pair: NetnsPair | None = None, ns: str = "") -> None:
        pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
        argv = [sys.executable, "-c", LAUNCH, pub, *args]
        kw: dict[str, Any] = dict(env=env, cwd=REPO, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.proc = pair.run(ns, argv, **kw) if pair is not None else subprocess.Popen(argv, **kw)
        self.lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.out: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next(self, timeout: float = WAIT) -> str | None:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no line in time; the last ones:\n" + "\n".join(self.out[-30:])) from None
        if line is not None:
            self.out.append(line)
        return line

    def expect(self, pattern: str) -> re.Match[str]:
        while True:
            line = self.next()
            assert line is not None, "process ended:\n" + "\n".join(self.out[-30:])
            m = re.search(pattern, line)
            if m:
                return m

    def type(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)
        self.reader.join(30)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


def test_two_people_play_at_two_terminals(tmp_path: Path) -> None:
    """04/U59: the same code is confirmed on both terminals; 04/U61: ply_limit=12 approved and
    tank_range=8 rejected by typing y / n; 12 turns typed on both; an undo declined; game over."""
    vendor = Ed25519PrivateKey.generate()
    host = Term(vendor, activated(tmp_path, "a", vendor), "host", "--interface", "127.0.0.1", "--no-discovery",
                "--name", "Alice", "--gov", "theocracy")
    guest: Term | None = None
    try:
        port = host.expect(r"on port (\d+)").group(1)
        guest = Term(vendor, activated(tmp_path, "b", vendor), "join", f"127.0.0.1:{port}", "--interface",
                     "127.0.0.1", *GUEST)
        _play_typed_game(host, guest)
    finally:
        host.stop()
        if guest is not None:
            guest.stop()


@pytest.mark.netns
def test_two_people_play_at_two_terminals_across_two_namespaces(netns_pair: NetnsPair, tmp_path: Path) -> None:
    """04/U59 across a real link: "Alice" is found by name over mDNS, then the same typed game."""
    pair = netns_pair
    vendor = Ed25519PrivateKey.generate()
    host = Term(vendor, activated(tmp_path, "a", vendor), "host", "--interface", pair.addr_a, "--name", "Alice",
                "--gov", "theocracy", pair=pair, ns=pair.ns_a)
    guest: Term | None = None
    try:
        port = host.expect(r"on port (\d+)").group(1)
        guest = Term(vendor, activated(tmp_path, "b", vendor), "join", "Alice", "--interface", pair.addr_b, *GUEST,
                     pair=pair, ns=pair.ns_b)
        assert guest.expect(r"^found 'Alice' \((\w+)\) at (\S+)$").group(2) == f"{pair.addr_a}:{port}"
        _play_typed_game(host, guest)
    finally:
        host.stop()
        if guest is not None:
            guest.stop()


@pytest.mark.netns
def test_a_lonely_terminal_says_why_nothing_is_found(netns_pair: NetnsPair, tmp_path: Path) -> None:
    """Issue 9 item 2 (04/U59): in a namespace with nobody else, ``wec join NAME`` gives up with
    this laptop's only address and the likely reasons, and exit code 1."""
    pair = netns_pair
    vendor = Ed25519PrivateKey.generate()
    term = Term(vendor, activated(tmp_path, "b", vendor), "join", "Nobody", "--interface", pair.addr_b,
                "--timeout", "1", pair=pair, ns=pair.ns_b)
    try:
        term.expect(rf"^No other game found\. This laptop's addresses: {re.escape(pair.addr_b)}$")
        causes = [term.expect(r"^- ([^:]+):").group(1) for _ in range(4)]
        assert causes == ["the WiFi blocks multicast (mDNS), as hotel, guest and cafe networks often do",
                          "the two laptops are on different networks", "client isolation",
                          "a firewall drops mDNS (UDP 5353) or the game port"]
        term.expect(r"^wec: no game named 'Nobody' answered; give the other laptop's host:port$")
        assert term.proc.wait(WAIT) == 1
    finally:
        term.stop()


GUEST = ("--name", "Bob", "--colour", "black", "--gov", "democracy", "--request", "ply_limit=12",
         "--request", "tank_range=8")


def _play_typed_game(host: Term, guest: Term) -> None:
    """Pair, negotiate and play the whole game by typing, as two players would."""
    codes = [t.expect(r"Does the other screen show (.+)\? \[y/n\]$").group(1) for t in (host, guest)]
    assert codes[0] == codes[1]
    host.type("y")
    guest.type("y")
    host.expect(r"^the other player asks ply_limit=12: approve\? \[y/n\]")
    host.type("y")
    host.expect(r"^the other player asks tank_range=8: approve\? \[y/n\]")
    host.type("n")
    guest.expect(r"^rule change tank_range=8: rejected by the other player")
    for t in (host, guest):
        t.expect(r"^setup: ply_limit=12; ready: type finish to start")
        t.type("finish")
    for t in (host, guest):
        agreed = t.expect(r"^rules agreed: (.*)$").group(1)
        assert agreed == "gov_black=democracy, gov_white=theocracy, ply_limit=12"   # tank_range stays 7
    assert host.expect(r"^game \w+ started: you play (\w+)").group(1) == "white"
    assert guest.expect(r"^game \w+ started: you play (\w+)").group(1) == "black"
    by_colour = {"white": host, "black": guest}
    in_turn = {"white": 0, "black": 0}
    turns = {"white": 0, "black": 0}
    undo = False
    over: dict[str, str] = {}
    while len(over) < 2:
        for colour, t in by_colour.items():
            if colour in over:
                continue
            try:
                line = t.lines.get(timeout=0.05)
            except queue.Empty:
                continue
            assert line is not None, "process ended:\n" + "\n".join(t.out[-30:])
            t.out.append(line)
            assert not line.startswith("refused"), line
            if m := re.match(r"^game over: (.*)$", line):
                over[colour] = m.group(1)
            elif line.startswith("your move"):
                if in_turn[colour] == 0:
                    turns[colour] += 1
                if colour == "black" and turns[colour] == 3 and in_turn[colour] == 1 and not undo:
                    undo = True
                    t.type("undo")
                    by_colour["white"].expect(r"^the other player asks to take back the last action: allow\? \[y/n\]$")
                    by_colour["white"].type("n")
                    t.expect(r"^your undo request was declined \(the other player declined\)$")
                    continue
                if in_turn[colour] >= 1 and line.endswith("or end)"):
                    t.type("end")
                    in_turn[colour] = 0
                else:
                    t.type("1")
                    in_turn[colour] += 1
    assert undo
    assert over == {"white": "draw (ply limit 12 (RUL-53))", "black": "draw (ply limit 12 (RUL-53))"}
    for t in (host, guest):
        t.expect(r"^RESULT status=finished outcome=draw transcript=\S+\.finished\.wal$")
        assert t.proc.wait(WAIT) == 0
        assert len([line for line in t.out if line in ("you: END", "white: END", "black: END")]) == 12
    assert "the other player's undo request was declined" in "\n".join(host.out)
