"""The real two-host game (DESIGN §6): one ``wec host`` in one network namespace, ``wec join``
in the other, joined by a veth pair; mDNS discovery by name, pairing, rule negotiation and
a full bot game. Needs root and iproute2 (the ``netns_pair`` fixture skips otherwise)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from netns import NetnsPair
from test_net_cli import LAUNCH, REPO, activated, verify_printed_transcript


@pytest.mark.netns
def test_full_game_between_two_namespaces_found_by_mdns(netns_pair: NetnsPair, tmp_path: Path) -> None:
    """04/U59–U61 across a real link: discover "Bob" by mDNS, pair, negotiate, play to the end."""
    pair = netns_pair
    for ns in (pair.ns_a, pair.ns_b):   # nothing but loopback and the veth: no route out of the pair
        routes = subprocess.run(["ip", "-n", ns, "route", "show", "default"], capture_output=True, text=True,
                                check=True).stdout
        assert routes.strip() == "", routes
    vendor = Ed25519PrivateKey.generate()
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    kw = dict(cwd=REPO, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    host = pair.run(pair.ns_a, [sys.executable, "-c", LAUNCH, pub, "host", "--bot", "random", "--seed", "1",
                                "--interface", pair.addr_a, "--name", "Bob", "--auto-confirm",
                                "--reject", "stun_range"], env=activated(tmp_path, "a", vendor), **kw)
    assert host.stdout is not None
    assert "on port" in host.stdout.readline()
    guest = pair.run(pair.ns_b, [sys.executable, "-c", LAUNCH, pub, "join", "Bob", "--bot", "random", "--seed", "2",
                                 "--interface", pair.addr_b, "--name", "Alice", "--auto-confirm",
                                 "--request", "tank_range=8", "--request", "stun_range=1",
                                 "--request", "hidden_psi=0"],   # a bulk game (P-6); the liars play PSI
                     env=activated(tmp_path, "b", vendor), **kw)
    g_out, g_err = guest.communicate(timeout=120)
    h_out, h_err = host.communicate(timeout=30)
    assert guest.returncode == 0, g_err
    assert host.returncode == 0, h_err
    assert f"found 'Bob'" in g_out and f"at {pair.addr_a}:" in g_out
    pattern = r"RESULT status=finished outcome=(\w+) hash=(\w+) game=(\w+)"
    g_res, h_res = re.search(pattern, g_out), re.search(pattern, h_out)
    assert g_res and h_res and g_res.groups() == h_res.groups()
    assert verify_printed_transcript(g_out) == verify_printed_transcript(h_out)   # both transcripts verify
    assert "'rid': 0, 'accept': True" in g_out and "'rid': 1, 'accept': False" in g_out


def _claims(transcript: str) -> list[tuple[str, str]]:
    """(direction, kind) of every signed claim or resignation in a transcript (verified first)."""
    from net.chain import ChainReader
    from net.messages import Claim, Resign
    from net.saves import verify_transcript
    from net.wal import read
    header, entries, _ = read(Path(transcript))
    verify_transcript(header, entries)
    readers = {"out": ChainReader(header.me, header.chain_id), "in": ChainReader(header.peer, header.chain_id)}
    found = []
    for e in entries:
        v = readers[e.direction].check(e.signed)
        assert v is not None
        readers[e.direction].accept(v)
        if isinstance(v.message, Claim):
            found.append((e.direction, v.message.kind))
        elif isinstance(v.message, Resign):
            found.append((e.direction, "resign"))
    return found


_RESULT = r"^RESULT status=(\w+) outcome=(\w+) hash=\w+ game=\w+ transcript=(\S+)$"


def _ns_wec(pair: NetnsPair, ns: str, pub: str, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return pair.run(ns, [sys.executable, "-c", LAUNCH, pub, *args], env=env, cwd=REPO, text=True,
                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_line(proc: subprocess.Popen[str], text: str) -> list[str]:
    """Read ``proc``'s output until a line containing ``text`` (the event the test waits for)."""
    assert proc.stdout is not None
    lines = []
    while True:
        line = proc.stdout.readline()
        assert line, "".join(lines) + (proc.stderr.read() if proc.stderr else "")
        lines.append(line)
        if text in line:
            return lines


@pytest.mark.netns
def test_quit_at_a_losing_moment_between_namespaces_gives_the_winner_a_recorded_win(
        netns_pair: NetnsPair, tmp_path: Path) -> None:
    """Issue 10 item 1 (RUL-53 ruling on abandonment) across a real link: the guest's process is
    killed (SIGKILL) mid-game; the host claims after --abandon-after and its transcript records
    the signed claim; the guest, started again, resumes, receives the claim and records the loss."""
    pair = netns_pair
    vendor = Ed25519PrivateKey.generate()
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    host_env, guest_env = activated(tmp_path, "a", vendor), activated(tmp_path, "b", vendor)
    host_args = ("host", "--bot", "random", "--seed", "1", "--interface", pair.addr_a, "--port", "41234",
                 "--no-discovery", "--auto-confirm", "--abandon-after", "2")
    guest_args = ("join", f"{pair.addr_a}:41234", "--bot", "random", "--seed", "2", "--colour", "black",
                  "--interface", pair.addr_b, "--auto-confirm", "--abandon-after", "0")
    host = _ns_wec(pair, pair.ns_a, pub, host_env, *host_args)
    _wait_line(host, "on port 41234")
    guest = _ns_wec(pair, pair.ns_b, pub, guest_env, *guest_args, "--bot-max-actions", "4")
    _wait_line(guest, "bot: stopped acting after 4 actions")
    guest.kill()   # the losing player quits: no goodbye, no resignation
    guest.wait(10)
    h_out, h_err = host.communicate(timeout=60)
    assert host.returncode == 0, h_err
    won = re.search(_RESULT, h_out, re.M)
    assert won and won.group(1, 2) == ("finished", "white"), h_out + h_err
    assert "black abandoned the game" in h_err
    assert _claims(won.group(3)) == [("out", "abandoned")]
    host = _ns_wec(pair, pair.ns_a, pub, host_env, *host_args)    # they meet again
    _wait_line(host, "on port 41234")
    guest = _ns_wec(pair, pair.ns_b, pub, guest_env, *guest_args)
    g_out, g_err = guest.communicate(timeout=60)
    h_out, h_err = host.communicate(timeout=60)
    lost = re.search(_RESULT, g_out, re.M)
    assert guest.returncode == 0 and lost and lost.group(1, 2) == ("finished", "white"), g_out + g_err
    assert _claims(lost.group(3)) == [("in", "abandoned")]
    again = re.search(_RESULT, h_out, re.M)
    assert again and again.group(1, 2) == ("finished", "white") and _claims(again.group(3)) == [("out", "abandoned")]


@pytest.mark.netns
def test_staller_between_namespaces_loses_on_the_negotiated_move_time_limit(
        netns_pair: NetnsPair, tmp_path: Path) -> None:
    """Issue 10 item 1: the host asks for move_time_limit=3 (the guest approves); the guest stops
    acting but stays connected; the host claims on time and both transcripts record it."""
    pair = netns_pair
    vendor = Ed25519PrivateKey.generate()
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    host = _ns_wec(pair, pair.ns_a, pub, activated(tmp_path, "a", vendor), "host", "--bot", "random",
                   "--interface", pair.addr_a, "--port", "41235", "--no-discovery", "--auto-confirm",
                   "--request", "move_time_limit=3")
    _wait_line(host, "on port 41235")
    guest = _ns_wec(pair, pair.ns_b, pub, activated(tmp_path, "b", vendor), "join", f"{pair.addr_a}:41235",
                    "--bot", "random", "--colour", "black", "--interface", pair.addr_b, "--auto-confirm",
                    "--bot-max-actions", "3")
    g_out, g_err = guest.communicate(timeout=90)
    h_out, h_err = host.communicate(timeout=30)
    g_res, h_res = re.search(_RESULT, g_out, re.M), re.search(_RESULT, h_out, re.M)
    assert g_res and h_res, g_out + g_err + h_out + h_err
    assert g_res.group(1, 2) == h_res.group(1, 2) == ("finished", "white")
    assert "black exceeded the move time limit (3 s)" in g_err
    assert _claims(h_res.group(3)) == [("out", "time")] and _claims(g_res.group(3)) == [("in", "time")]


@pytest.mark.netns
def test_signed_resignation_between_namespaces_RUL_53(netns_pair: NetnsPair, tmp_path: Path) -> None:
    """RUL-53 across a real link: the guest resigns in its own turn; both record white's win."""
    pair = netns_pair
    vendor = Ed25519PrivateKey.generate()
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    host = _ns_wec(pair, pair.ns_a, pub, activated(tmp_path, "a", vendor), "host", "--bot", "random",
                   "--interface", pair.addr_a, "--port", "41236", "--no-discovery", "--auto-confirm")
    _wait_line(host, "on port 41236")
    guest = _ns_wec(pair, pair.ns_b, pub, activated(tmp_path, "b", vendor), "join", f"{pair.addr_a}:41236",
                    "--bot", "random", "--colour", "black", "--interface", pair.addr_b, "--auto-confirm",
                    "--bot-resign-after", "5")
    g_out, g_err = guest.communicate(timeout=90)
    h_out, h_err = host.communicate(timeout=30)
    g_res, h_res = re.search(_RESULT, g_out, re.M), re.search(_RESULT, h_out, re.M)
    assert g_res and h_res, g_out + g_err + h_out + h_err
    assert g_res.group(1, 2) == h_res.group(1, 2) == ("finished", "white")
    assert "black resigned (RUL-53)" in h_err
    assert _claims(h_res.group(3)) == [("in", "resign")] and _claims(g_res.group(3)) == [("out", "resign")]


@pytest.mark.netns
def test_breach_between_namespaces_is_claimed_and_shown_to_the_offender_on_return_RUL_53(
        netns_pair: NetnsPair, tmp_path: Path) -> None:
    """RUL-53 with docs/rulings.md N-6 across a real link: the guest process signs a resignation out
    of turn, then reads nothing more (tests/breach_peer.py) and is killed. The host records the win
    by breach at once, its log (with its signed claim) kept active; started again, both resume: the
    guest receives the claim and records the same loss, and the host's log is finished."""
    pair = netns_pair
    vendor = Ed25519PrivateKey.generate()
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    host_env, guest_env = activated(tmp_path, "a", vendor), activated(tmp_path, "b", vendor)
    host_args = ("host", "--bot", "random", "--seed", "1", "--interface", pair.addr_a, "--port", "41237",
                 "--no-discovery", "--auto-confirm")
    guest_args = ("join", f"{pair.addr_a}:41237", "--bot", "random", "--seed", "2", "--colour", "black",
                  "--interface", pair.addr_b, "--auto-confirm", "--abandon-after", "0")
    host = _ns_wec(pair, pair.ns_a, pub, host_env, *host_args)
    _wait_line(host, "on port 41237")
    offender = pair.run(pair.ns_b, [sys.executable, "tests/breach_peer.py", pub, *guest_args], env=guest_env,
                        cwd=REPO, text=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    fault = re.search(r"own-fault #(\d+)", _wait_line(offender, "own-fault #")[-1])
    assert fault
    _wait_line(host, "game-over:")   # the host read the resignation and sent its claim
    offender.kill()                  # the offender never read it
    offender.wait(10)
    h_out, h_err = host.communicate(timeout=60)
    won = re.search(_RESULT, h_out, re.M)
    assert host.returncode == 0 and won and won.group(1, 2) == ("finished", "white"), h_out + h_err
    loss = f"black lost by breach: resignation outside the sender's own turn (RUL-53) ('resign'), " \
           f"proven by signed message #{fault.group(1)}"
    assert f"wec: {loss}" in h_err
    assert Path(won.group(3)).name.startswith("active-")   # kept until the offender has the claim
    assert _claims(won.group(3)) == [("in", "resign"), ("out", "breach")]
    host = _ns_wec(pair, pair.ns_a, pub, host_env, *host_args)    # they meet again
    _wait_line(host, "on port 41237")
    guest = _ns_wec(pair, pair.ns_b, pub, guest_env, *guest_args)
    g_out, g_err = guest.communicate(timeout=60)
    h_out, h_err = host.communicate(timeout=60)
    lost, again = re.search(_RESULT, g_out, re.M), re.search(_RESULT, h_out, re.M)
    assert guest.returncode == 0 and lost and lost.group(1, 2) == ("finished", "white"), g_out + g_err
    assert f"wec: {loss}" in g_err
    assert _claims(lost.group(3)) == [("out", "resign"), ("in", "breach")]
    assert again and again.group(1, 2) == ("finished", "white"), h_out + h_err
    assert again.group(3).endswith(".finished.wal") and lost.group(3).endswith(".finished.wal")
    assert _claims(again.group(3)) == [("in", "resign"), ("out", "breach")]
    for side in ("a", "b"):
        assert not list((tmp_path / side / "games").glob("active-*"))
