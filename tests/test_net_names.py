"""Two devices calling themselves "Bob" (issue 10 item 3), over real mDNS on 127.0.0.1.

A name is a claim, a fingerprint an identity: ``wec join Bob`` with a pinned Bob joins only the
pinned identity and refuses another one using the name, with a warning; two unpinned Bobs are
listed with their fingerprints and a script is refused; ``wec peers`` marks the duplicates and
which one is pinned. Each test's Bobs carry a random suffix, so that other test runs sharing
127.0.0.1 cannot add a third one.
"""
from __future__ import annotations

import json
import secrets
import subprocess
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from net import certs
from net.discovery import Discovery, PeerInfo
from net.identity import load_or_create
from net.peer_names import mark, resolve
from net.peers import KnownPeer, PeerStore
from test_net_cli import LAUNCH, REPO, activated
from wec_p2p.cmd_net_peers import format_listing

LOOPBACK = ["127.0.0.1"]


def _bob() -> str:
    return f"Bob {secrets.token_hex(3)}"


def _pin(data_dir: Path, name: str) -> str:
    """Pin a new identity as ``name`` in ``data_dir`` (as a confirmed pairing would); its fingerprint."""
    ident = load_or_create(data_dir.parent / f"pinned-{secrets.token_hex(4)}")
    cp = certs.make_cert(ident)
    PeerStore(data_dir).add(KnownPeer(ident.fingerprint, ident.public_bytes.hex(), cp.cert_pem.decode(),
                                      certs.pin(cp.der), name, ""))
    return ident.fingerprint


def _script(vendor: Ed25519PrivateKey, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    """A real `wec` run as a script: no terminal on stdin."""
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    return subprocess.Popen([sys.executable, "-c", LAUNCH, pub, *args], env=env, cwd=REPO, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _seen(disc: Discovery, name: str, count: int) -> list[PeerInfo]:
    assert disc.wait_for(lambda p: len([x for x in p.values() if x.name == name]) >= count, 15.0)
    return sorted((p for p in disc.peers.values() if p.name == name), key=lambda p: p.fingerprint)


def test_pinned_name_joins_only_the_pinned_identity_and_warns_about_the_other(tmp_path: Path) -> None:
    """Issue 10 item 3: with Bob pinned, a second device advertising "Bob" is never chosen: the
    pinned one is, with a warning naming the other; with only the other there, it is refused."""
    name, fp_other = _bob(), secrets.token_hex(32)
    me = tmp_path / "me"
    me.mkdir()
    fp_pinned = _pin(me, name)
    pins = PeerStore(me).all()
    with Discovery("me", secrets.token_hex(32), interfaces=LOOPBACK) as browser, \
            Discovery(name, fp_other, port=4101, status="hosting", interfaces=LOOPBACK):
        only_other = _seen(browser, name, 1)
        waiting = resolve(name, only_other, pins, final=False)
        assert waiting.wait and waiting.peer is None and len(waiting.warnings) == 1
        refused = resolve(name, only_other, pins, final=True)
        assert refused.peer is None and refused.refused is not None
        assert "refused, not paired" in refused.refused and fp_pinned[:16] in refused.refused
        assert fp_other[:16] in refused.warnings[0] and "possible impostor" in refused.warnings[0]
        with Discovery(name, fp_pinned, port=4102, status="hosting", interfaces=LOOPBACK):
            both = _seen(browser, name, 2)
            found = resolve(name, both, pins, final=False)
            assert found.peer is not None and found.peer.fingerprint == fp_pinned and found.peer.port == 4102
            assert len(found.warnings) == 1 and fp_other[:16] in found.warnings[0]
            marked = {m.peer.fingerprint: m for m in mark(both, pins)}
            assert marked[fp_pinned].pinned and marked[fp_pinned].not_pinned_as is None
            assert not marked[fp_other].pinned and marked[fp_other].not_pinned_as == fp_pinned
            assert marked[fp_pinned].duplicate and marked[fp_other].duplicate
            text = format_listing(browser.me, both, 3.0, pins)
            assert "[pinned; same name as another device]" in text and f"NOT the pinned {name!r}" in text
            assert f"WARNING: several devices call themselves {name!r}" in text


def test_wec_join_refuses_another_identity_answering_a_pinned_name(tmp_path: Path) -> None:
    """Issue 10 item 3, end to end: `wec join Bob` while only an impostor "Bob" answers: a warning,
    exit 1, nothing paired (the pinned peers are unchanged)."""
    vendor = Ed25519PrivateKey.generate()
    env = activated(tmp_path, "joiner", vendor)
    joiner = Path(env["WEC_DATA_DIR"])
    name = _bob()
    fp_pinned = _pin(joiner, name)
    before = (joiner / "known_peers.json").read_bytes()
    fp_other = secrets.token_hex(32)
    with Discovery(name, fp_other, port=4103, status="hosting", interfaces=LOOPBACK) as impostor:
        assert impostor.me.host
        proc = _script(vendor, env, "join", name, "--bot", "random", "--interface", "127.0.0.1", "--timeout", "4",
                       "--auto-confirm")
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, (out, err)
    assert f"has identity {fp_other[:16]}, but {name!r} is pinned here as {fp_pinned[:16]}" in err
    assert "refused, not paired" in err and "pairing code" not in out
    assert (joiner / "known_peers.json").read_bytes() == before


def test_wec_join_lists_two_unpinned_bobs_and_refuses_in_a_script(tmp_path: Path) -> None:
    """Issue 10 item 3: two identities answer one name not pinned here: `wec join` lists both
    fingerprints and, with no terminal to ask on, refuses (exit 1); nothing is pinned."""
    vendor = Ed25519PrivateKey.generate()
    env = activated(tmp_path, "joiner", vendor)
    name, fa, fb = _bob(), secrets.token_hex(32), secrets.token_hex(32)
    with Discovery(name, fa, port=4104, status="hosting", interfaces=LOOPBACK), \
            Discovery(name, fb, port=4105, status="hosting", interfaces=LOOPBACK), \
            Discovery("watcher", secrets.token_hex(32), interfaces=LOOPBACK) as watcher:
        _seen(watcher, name, 2)   # both advertised before the join starts
        proc = _script(vendor, env, "join", name, "--bot", "random", "--interface", "127.0.0.1", "--timeout", "60",
                       "--name-wait", "40", "--auto-confirm")
        out, err = proc.communicate(timeout=90)
    assert proc.returncode == 1, (out, err)
    assert f"several devices answer {name!r}" in err
    assert fa[:16] in err and fb[:16] in err and "join by fingerprint" in err
    assert not (Path(env["WEC_DATA_DIR"]) / "known_peers.json").exists()


def test_wec_peers_marks_duplicates_and_the_pinned_one(tmp_path: Path) -> None:
    """Issue 10 item 3: `wec peers --json` marks both Bobs as duplicate names, the pinned one as
    pinned, and the other as not being the pinned Bob."""
    me = tmp_path / "me"
    me.mkdir()
    name = _bob()
    fp_pinned, fp_other = _pin(me, name), secrets.token_hex(32)
    with Discovery(name, fp_pinned, port=4106, status="hosting", interfaces=LOOPBACK), \
            Discovery(name, fp_other, port=4107, status="hosting", interfaces=LOOPBACK), \
            Discovery("watcher", secrets.token_hex(32), interfaces=LOOPBACK) as watcher:
        _seen(watcher, name, 2)
        done = subprocess.run([sys.executable, "-m", "wec_p2p.cli", "peers", "--interface", "127.0.0.1",
                               "--timeout", "6", "--json"], capture_output=True, text=True, timeout=60,
                              env={"PATH": "/usr/bin:/bin", "WEC_DATA_DIR": str(me)})
    assert done.returncode == 0, done.stderr
    peers = {p["fingerprint"]: p for p in json.loads(done.stdout)["peers"] if p["name"] == name}
    assert set(peers) == {fp_pinned, fp_other}
    assert (peers[fp_pinned]["pinned"], peers[fp_pinned]["duplicate_name"], peers[fp_pinned]["not_pinned_as"]) == \
        (True, True, None)
    assert (peers[fp_other]["pinned"], peers[fp_other]["duplicate_name"], peers[fp_other]["not_pinned_as"]) == \
        (False, True, fp_pinned)


def test_wec_join_asks_which_bob_on_a_terminal_and_joins_the_chosen_one(tmp_path: Path) -> None:
    """Issue 10 item 3: on a terminal, `wec join Bob` lists both identities and asks; the answer
    picks the device it connects to (here nobody listens on its port, so the attempt says
    which address it tried)."""
    import os
    import pty
    vendor = Ed25519PrivateKey.generate()
    env = activated(tmp_path, "joiner", vendor)
    name, fa, fb = _bob(), secrets.token_hex(32), secrets.token_hex(32)
    ports = {fa: 4108, fb: 4109}
    chosen = max(ports)                  # the list is in fingerprint order: the second entry
    master, slave = pty.openpty()
    try:
        with Discovery(name, fa, port=ports[fa], status="hosting", interfaces=LOOPBACK), \
                Discovery(name, fb, port=ports[fb], status="hosting", interfaces=LOOPBACK), \
                Discovery("watcher", secrets.token_hex(32), interfaces=LOOPBACK) as watcher:
            _seen(watcher, name, 2)
            pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
            proc = subprocess.Popen([sys.executable, "-c", LAUNCH, pub, "join", name, "--bot", "random",
                                     "--interface", "127.0.0.1", "--timeout", "60", "--name-wait", "40",
                                     "--auto-confirm"], env=env, cwd=REPO, text=True, stdin=slave,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            assert proc.stdout is not None
            seen = ""
            while "join which one?" not in seen:
                chunk = proc.stdout.read(1)
                assert chunk, seen
                seen += chunk
            os.write(master, b"2\n")
            out, err = proc.communicate(timeout=90)
    finally:
        os.close(master)
        os.close(slave)
    assert f"several devices answer {name!r}" in seen and fa[:16] in seen and fb[:16] in seen
    assert proc.returncode == 1
    assert f"127.0.0.1:{ports[chosen]}" in err and f"127.0.0.1:{ports[min(ports)]}" not in err
