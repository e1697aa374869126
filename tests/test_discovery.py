"""Discovery over real mDNS: on 127.0.0.1, and between two network namespaces (04/U58-U59)."""
from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from net.discovery import (
    SERVICE_TYPE, AsyncDiscovery, Discovery, DiscoveryError, EventKind, HostPortError, MalformedRecord,
    PeerEvent, PeerInfo, format_txt, parse_host_port, parse_txt, woke_from_sleep,
)
from net.bench_discovery import measure
from net.identity import load_or_create
from netns import NetnsPair
from wec_p2p.cmd_net_peers import FALLBACK_HINT, format_listing

LOOPBACK = ["127.0.0.1"]
WAIT = 30.0   # a hang guard only: each wait returns as soon as its condition holds (issue 10 item 7)
WEC = str(Path(sys.executable).with_name("wec"))


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Every test must stop the threads it started (discovery loop threads included)."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 10.0   # threads end at once; a busy machine may take a while to run them
    while (extra := [t for t in threading.enumerate() if t not in before and t.is_alive()]) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    assert extra == []


def _fp() -> str:
    return secrets.token_hex(32)


def _mine(events: list[PeerEvent], fingerprints: set[str]) -> list[PeerEvent]:
    """Peer events about our own test peers (other test runs may share 127.0.0.1)."""
    return [e for e in events if e.kind is not EventKind.ME and e.peer.fingerprint in fingerprints]


def _by_fp(peers: dict[str, PeerInfo], fingerprint: str) -> list[PeerInfo]:
    return [p for p in peers.values() if p.fingerprint == fingerprint]


# --- two games on loopback -------------------------------------------------------------


def test_two_games_list_each_other_under_peers_and_themselves_under_me() -> None:
    """04/U59: each device lists the other under PEERS and itself under ME, within a few seconds."""
    fa, fb = _fp(), _fp()
    with Discovery("Alice", fa, port=4000, interfaces=LOOPBACK) as a, \
            Discovery("Bob", fb, port=4001, status="hosting", interfaces=LOOPBACK) as b:
        assert a.wait_for(lambda p: len(_by_fp(p, fb)) == 1, WAIT)
        assert b.wait_for(lambda p: len(_by_fp(p, fa)) == 1, WAIT)
        assert b.me == PeerInfo("Bob", 1, fb, "hosting", "127.0.0.1", 4001, b.me.instance, ("127.0.0.1",))
        assert a.me == PeerInfo("Alice", 1, fa, "idle", "127.0.0.1", 4000, a.me.instance, ("127.0.0.1",))
        assert a.peers[b.me.instance] == b.me
        assert b.peers[a.me.instance] == a.me
        assert _by_fp(a.peers, fa) == [] and _by_fp(b.peers, fb) == []   # ME is never a PEER
        assert _mine(a.drain_events(), {fb}) == [PeerEvent(EventKind.ADDED, b.me)]


def test_status_update_reaches_the_other_game() -> None:
    """04/U59: the PEERS list is live: a new status and port show up on the other device."""
    fa, fb = _fp(), _fp()
    with Discovery("Alice", fa, interfaces=LOOPBACK) as a, Discovery("Bob", fb, interfaces=LOOPBACK) as b:
        assert a.wait_for(lambda p: len(_by_fp(p, fb)) == 1, WAIT)
        a.drain_events()
        b.update_status("playing", port=41000)
        assert a.wait_for(lambda p: [(x.status, x.port) for x in _by_fp(p, fb)] == [("playing", 41000)], WAIT)
        assert _mine(a.drain_events(), {fb}) == [PeerEvent(EventKind.UPDATED, b.me)]
        assert b.me.status == "playing" and b.me.port == 41000
        assert [e.kind for e in b.drain_events()][-1] is EventKind.ME


def test_a_game_that_closes_disappears_from_peers() -> None:
    """04/U59: a device that leaves is removed from PEERS (mDNS goodbye), close() twice is safe."""
    fa, fb = _fp(), _fp()
    with Discovery("Alice", fa, interfaces=LOOPBACK) as a:
        b = Discovery("Bob", fb, interfaces=LOOPBACK).start()
        try:
            assert a.wait_for(lambda p: len(_by_fp(p, fb)) == 1, WAIT)
            gone = b.me
        finally:
            b.close()
            b.close()
        assert a.wait_for(lambda p: _by_fp(p, fb) == [], WAIT)
        assert _mine(a.drain_events(), {fb}) == [PeerEvent(EventKind.ADDED, gone), PeerEvent(EventKind.REMOVED, gone)]


def test_rescan_keeps_present_peers_listed_on_both_sides() -> None:
    """04/U59: touching Discover again (a restart) does not make PEERS flicker on either device."""
    fa, fb = _fp(), _fp()
    with Discovery("Alice", fa, interfaces=LOOPBACK) as a, Discovery("Bob", fb, interfaces=LOOPBACK) as b:
        assert a.wait_for(lambda p: len(_by_fp(p, fb)) == 1, WAIT)
        assert b.wait_for(lambda p: len(_by_fp(p, fa)) == 1, WAIT)
        a.drain_events(), b.drain_events()
        a.rescan()
        time.sleep(2.0)   # past the goodbye's 1 s expiry on Bob's side
        assert [p.name for p in _by_fp(a.peers, fb)] == ["Bob"]
        assert [p.name for p in _by_fp(b.peers, fa)] == ["Alice"]
        assert _mine(a.drain_events(), {fb}) == []
        assert _mine(b.drain_events(), {fa}) == []


def test_rescan_drops_a_peer_that_went_silent() -> None:
    """04/U59: after a restart, a peer that no longer answers leaves PEERS (confirm_timeout)."""
    asyncio.run(_silent_peer())


async def _silent_peer() -> None:
    fp = secrets.token_hex(32)
    silent = _raw_info(f"silent-{secrets.token_hex(3)}", {**GOOD, b"fp": fp.encode()})
    me = AsyncDiscovery("Alice", _fp(), interfaces=LOOPBACK, confirm_timeout=0.5)
    async with AsyncZeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only) as other:
        await me.async_start()
        try:
            await (await other.async_register_service(silent, cooperating_responders=True))  # announced
            assert await _until(lambda: len(_by_fp(me.peers, fp)) == 1, WAIT)
            other.zeroconf.registry.async_remove(silent)   # stops answering, sends no goodbye
            await me.async_rescan()
            assert len(_by_fp(me.peers, fp)) == 1          # kept through the restart for now...
            assert await _until(lambda: _by_fp(me.peers, fp) == [], WAIT)   # ...then dropped
            assert [e.kind for e in _drain(me) if e.peer.fingerprint == fp] == [EventKind.ADDED, EventKind.REMOVED]
        finally:
            await me.async_close()


def test_missing_interface_is_refused_and_nothing_leaks() -> None:
    """04/U58: discovery runs only on interfaces that exist; a wrong --interface is reported."""
    d = Discovery("Alice", _fp(), interfaces=["10.254.254.254"])
    with pytest.raises(DiscoveryError, match="10.254.254.254"):
        d.start()
    d.close()


def test_own_fields_are_checked_before_anything_is_sent() -> None:
    """04/U59: we never advertise a record that peers would ignore."""
    with pytest.raises(MalformedRecord, match="display name"):
        Discovery(" Alice", _fp(), interfaces=LOOPBACK)
    with pytest.raises(MalformedRecord, match="fingerprint"):
        Discovery("Alice", "ABC", interfaces=LOOPBACK)
    with pytest.raises(ValueError, match="port"):
        Discovery("Alice", _fp(), port=70000, interfaces=LOOPBACK)
    with Discovery("Alice", _fp(), interfaces=LOOPBACK) as d:
        with pytest.raises(MalformedRecord, match="status"):
            d.update_status("Hosting!")
        assert d.me.status == "idle"


# --- hostile advertisements --------------------------------------------------------------

GOOD: dict[bytes, bytes | None] = {b"txtvers": b"1", b"v": b"1", b"fp": b"c" * 64, b"st": b"idle", b"nm": b"Carol"}
BAD_RECORDS: dict[str, tuple[dict[bytes, bytes | None], str]] = {
    "no-fp": ({k: v for k, v in GOOD.items() if k != b"fp"}, "missing TXT key 'fp'"),
    "short-fp": ({**GOOD, b"fp": b"c" * 63}, "bad fingerprint"),
    "upper-fp": ({**GOOD, b"fp": b"C" * 64}, "bad fingerprint"),
    "latin1-name": ({**GOOD, b"nm": b"Caf\xe9"}, "TXT key 'nm' is not UTF-8"),
    "bell-name": ({**GOOD, b"nm": b"Carol\x07"}, "control characters"),
    "long-name": ({**GOOD, b"nm": b"C" * 41}, "bad display name"),
    "version-0": ({**GOOD, b"v": b"0"}, "bad protocol version"),
    "version-word": ({**GOOD, b"v": b"one"}, "bad protocol version"),
    "status-caps": ({**GOOD, b"st": b"IDLE"}, "bad status"),
    "txtvers-2": ({**GOOD, b"txtvers": b"2"}, "unsupported txtvers"),
    "dup-key": ({**GOOD, b"FP": b"d" * 64}, "duplicate TXT key 'fp'"),
    "no-value": ({**GOOD, b"st": None}, "missing TXT key 'st'"),
}


@pytest.mark.parametrize("label", sorted(BAD_RECORDS))
def test_parse_txt_names_the_bad_field(label: str) -> None:
    """04/U59: a malformed advertisement is rejected with the field named, never a crash."""
    properties, reason = BAD_RECORDS[label]
    with pytest.raises(MalformedRecord, match=reason):
        parse_txt(properties)


def test_txt_round_trip() -> None:
    """04/U59: what we advertise is exactly what a peer parses."""
    fp = _fp()
    assert parse_txt(format_txt("Žofia's laptop", 7, fp, "hosting")) == ("Žofia's laptop", 7, fp, "hosting")


def test_malformed_advertisements_are_ignored_with_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    """04/U59: hostile TXT records on the LAN are logged and ignored; a peer turning bad is removed."""
    caplog.set_level(logging.WARNING, logger="net.discovery")
    asyncio.run(_hostile_lan(caplog))


async def _hostile_lan(caplog: pytest.LogCaptureFixture) -> None:
    tag = secrets.token_hex(3)
    good_fp = secrets.token_hex(32)
    good = {**GOOD, b"fp": good_fp.encode()}
    infos = {label: _raw_info(f"bad-{label}-{tag}", props) for label, (props, _) in BAD_RECORDS.items()}
    good_info = _raw_info(f"good-{tag}", good)
    me = AsyncDiscovery("Alice", _fp(), interfaces=LOOPBACK)
    async with AsyncZeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only) as evil:
        await me.async_start()
        try:
            for info in [*infos.values(), good_info]:
                await evil.async_register_service(info, cooperating_responders=True)
            assert await _until(lambda: len(_by_fp(me.peers, good_fp)) == 1, WAIT)
            assert await _until(lambda: all(any(i.name in m for m in caplog.messages) for i in infos.values()), WAIT)
            for label, info in infos.items():
                lines = [m for m in caplog.messages if info.name in m]
                assert len(lines) == 1 and BAD_RECORDS[label][1] in lines[0], (label, lines)
            assert [p.name for p in me.peers.values() if p.fingerprint in (good_fp, "d" * 64)] == ["Carol"]
            # The good peer now turns bad: it is dropped, with a REMOVED event.
            await evil.async_update_service(_raw_info(f"good-{tag}", {**good, b"v": b"x"}))
            assert await _until(lambda: _by_fp(me.peers, good_fp) == [], WAIT)
            kinds = [e.kind for e in _drain(me) if e.peer.fingerprint == good_fp]
            assert kinds == [EventKind.ADDED, EventKind.REMOVED]
        finally:
            await me.async_close()
            await me.async_close()


def _raw_info(label: str, properties: Mapping[bytes, bytes | None]) -> AsyncServiceInfo:
    return AsyncServiceInfo(SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=1, properties=dict(properties),
                            server=f"{label}.local.", parsed_addresses=LOOPBACK)


async def _until(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def _drain(d: AsyncDiscovery) -> list[PeerEvent]:
    out = []
    while not d.events.empty():
        out.append(d.events.get_nowait())
    return out


# --- manual host:port fallback -------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("192.168.1.20:41000", ("192.168.1.20", 41000)),
    (" 10.0.0.2:1 ", ("10.0.0.2", 1)),
    ("alice-laptop.local:65535", ("alice-laptop.local", 65535)),
    ("[fe80::1]:41000", ("fe80::1", 41000)),
])
def test_parse_host_port(text: str, expected: tuple[str, int]) -> None:
    """04/U59: where multicast is blocked the player types the other laptop's host:port."""
    assert parse_host_port(text) == expected


@pytest.mark.parametrize("text, reason", [
    ("192.168.1.20", "missing port"),
    ("192.168.1.20:", "port must be a number"),
    ("192.168.1.20:0", "port must be a number"),
    ("192.168.1.20:65536", "port must be a number"),
    ("192.168.1.20:4l", "port must be a number"),
    ("192.168.1.20:٤١", "port must be a number"),
    (":41000", "is not a host name"),
    ("bad host:41000", "is not a host name"),
    ("fe80::1:41000", "in brackets"),
    ("[fe80::1:41000", "expected host:port"),
    ("[nothost]:41000", "not an IPv6 address"),
    ("", "is not a host name"),
])
def test_parse_host_port_errors(text: str, reason: str) -> None:
    """04/U59: a mistyped address gets an error that says what to type."""
    with pytest.raises(HostPortError, match=reason):
        parse_host_port(text)


def test_parse_host_port_default_port() -> None:
    """04/U59: a bare address may use the default game port."""
    assert parse_host_port("10.0.0.2", default_port=41000) == ("10.0.0.2", 41000)


# --- between two network namespaces ----------------------------------------------------------


def _identity(tmp_path: Path, label: str) -> tuple[dict[str, str], str]:
    """An isolated installation: its env (WEC_DATA_DIR) and its fingerprint."""
    directory = tmp_path / label
    return {**os.environ, "WEC_DATA_DIR": str(directory)}, load_or_create(directory).fingerprint


def _wec_peers(pair: NetnsPair, ns: str, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    """``wec peers --json ARGS`` in ``ns``. Its Ctrl-C (SIGINT) is reset to the default in the child:
    a suite started in the background by a non-interactive shell inherits SIGINT *ignored*, and the
    advertiser the test interrupts would then listen out its whole --timeout (issue 10 item 7)."""
    return pair.run(ns, [WEC, "peers", "--json", *args], env=env, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _result(proc: subprocess.Popen[str], timeout: float) -> Any:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return json.loads(out)


@pytest.mark.netns
def test_wec_peers_lists_a_game_in_the_other_namespace(netns_pair: NetnsPair, tmp_path: Path) -> None:
    """04/U59: `wec peers` on one laptop lists the game advertised by the other over real multicast.
    The lister listens until it lists Bob (``--until``), so the test waits on the listing itself;
    the 60 s are only a guard (DESIGN §4's "about a second" is a speed figure:
    `python -m net.bench_discovery` measures it). Bob advertises until interrupted (Ctrl-C), then
    prints its own listing."""
    pair = netns_pair
    env_a, fp_a = _identity(tmp_path, "a")
    env_b, fp_b = _identity(tmp_path, "b")
    host = _wec_peers(pair, pair.ns_a, env_a, "--interface", pair.addr_a, "--name", "Bob", "--status",
                      "hosting", "--timeout", "300")
    lister = _wec_peers(pair, pair.ns_b, env_b, "--interface", pair.addr_b, "--name", "Alice",
                        "--until", "Bob", "--timeout", "60")
    seen = _result(lister, 90)
    host.send_signal(signal.SIGINT)
    bob = _result(host, 90)
    assert seen["me"] == {"name": "Alice", "version": 1, "fingerprint": fp_b, "status": "idle",
                          "host": pair.addr_b, "port": 0, "instance": seen["me"]["instance"],
                          "addresses": [pair.addr_b]}
    assert seen["peers"] == [{"name": "Bob", "version": 1, "fingerprint": fp_a, "status": "hosting",
                              "host": pair.addr_a, "port": 0, "instance": bob["me"]["instance"],
                              "addresses": [pair.addr_a],
                              "pinned": False, "duplicate_name": False, "not_pinned_as": None}]
    assert bob["me"]["fingerprint"] == fp_a and bob["me"]["host"] == pair.addr_a


@pytest.mark.netns
def test_wec_peers_until_a_peer_that_never_comes_exits_1_saying_so(netns_pair: NetnsPair, tmp_path: Path) -> None:
    """04/U59: `wec peers --until` a peer nobody advertises lists what it found when its (injected,
    short) timeout passes, exits 1 and says which peer it waited for, with the manual fallback."""
    pair = netns_pair
    env_b, _ = _identity(tmp_path, "b")
    proc = _wec_peers(pair, pair.ns_b, env_b, "--interface", pair.addr_b, "--until", "Nobody", "--timeout", "0.5")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert json.loads(out)["peers"] == []
    assert err == f"wec peers: 'Nobody' was not listed within 0.5 s. {FALLBACK_HINT}\n"


@pytest.mark.netns
def test_a_network_that_appears_later_is_picked_up(netns_pair: NetnsPair, tmp_path: Path) -> None:
    """04/U58: a laptop whose network comes up later (hotspot started, WiFi rejoined) gets listed."""
    pair = netns_pair
    env_a, fp_a = _identity(tmp_path, "a")
    env_b, _ = _identity(tmp_path, "b")
    pair.ip(pair.ns_a, "addr", "del", f"{pair.addr_a}/{pair.prefix_len}", "dev", pair.if_a)
    # Default interfaces (all suitable): inside namespace a that is only the veth, no address yet.
    late = _wec_peers(pair, pair.ns_a, env_a, "--name", "Late", "--rescan-interval", "0.2", "--timeout", "300")
    lister = _wec_peers(pair, pair.ns_b, env_b, "--interface", pair.addr_b, "--until", fp_a, "--timeout", "60")
    time.sleep(1.0)   # both are up before the address comes (if not, the test still waits on the listing)
    pair.ip(pair.ns_a, "addr", "add", f"{pair.addr_a}/{pair.prefix_len}", "dev", pair.if_a)
    seen = _result(lister, 90)
    late.send_signal(signal.SIGINT)
    late_result = _result(late, 90)
    assert late_result["me"]["host"] == pair.addr_a
    assert [(p["name"], p["fingerprint"], p["host"]) for p in seen["peers"]] == [
        ("Late", fp_a, pair.addr_a)]


# --- network changes and the command line ---------------------------------------------------


def test_wake_from_sleep_is_told_apart_from_normal_ticks() -> None:
    """04/U58: after the laptop wakes up (monotonic clock paused, wall clock not) discovery restarts."""
    assert woke_from_sleep(1000.0, 50.0, 1005.0, 55.0) is False      # a normal 5 s tick
    assert woke_from_sleep(1000.0, 50.0, 1010.9, 55.0) is True       # 5.9 s more on the wall clock
    assert woke_from_sleep(1000.0, 50.0, 3600.0, 55.0) is True       # an hour asleep
    assert woke_from_sleep(1000.0, 50.0, 990.0, 55.0) is False       # wall clock set back


def test_peers_listing_text() -> None:
    """04/U59: `wec peers` shows ME, then PEERS, or a hint about the manual fallback."""
    me = PeerInfo("Alice", 1, "a" * 64, "idle", "10.0.0.2", 0, "wec-x", ("10.0.0.2",))
    bob = PeerInfo("Bob", 1, "b" * 64, "hosting", "10.0.0.1", 41000, "wec-y", ("10.0.0.1",))
    assert format_listing(me, [bob], 3.0).splitlines() == [
        "ME",
        "  Alice                v1   idle     10.0.0.2:0      fp aaaaaaaaaaaaaaaa",
        "PEERS",
        "  Bob                  v1   hosting  10.0.0.1:41000  fp bbbbbbbbbbbbbbbb",
    ]
    assert format_listing(me, [], 2.0).splitlines()[2:] == ["PEERS", f"  none found in 2 s. {FALLBACK_HINT}"]


def test_wec_peers_reports_a_missing_interface(tmp_path: Path) -> None:
    """04/U58: `wec peers --interface` with an address this machine lacks exits 2 and says why."""
    env = {**os.environ, "WEC_DATA_DIR": str(tmp_path)}
    proc = subprocess.run([WEC, "peers", "--timeout", "0", "--interface", "10.254.254.254"], env=env,
                          capture_output=True, text=True, timeout=30)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "wec peers: none of the interfaces 10.254.254.254 exists on this machine\n"


@pytest.mark.netns
def test_discovery_times_are_measured_for_every_trial_of_both_cases(netns_pair: NetnsPair) -> None:
    """04/U59: the discovery benchmark's measurement lists the other device in every trial of both
    cases (join an advertised game; host while the other browses). DESIGN §4's "within about a
    second" is a speed figure, checked where speed is measured, not here under a shared machine's
    load: `python -m net.bench_discovery` prints each case's median and max against its goal and
    the 1 s limit."""
    times = measure(netns_pair, trials=2)
    assert {case: len(ms) for case, ms in times.items()} == {"join": 2, "host": 2}
    assert all(ms > 0.0 for case in times.values() for ms in case), times
