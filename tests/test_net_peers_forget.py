"""``wec peers --forget FINGERPRINT`` (04/U59 step 3, DESIGN §4): the way back after an
IDENTITY CHANGED refusal is to remove the old pin on purpose, then pair again with a new code."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine.api as engine
from net.errors import IdentityChanged
from net.peers import KnownPeer, PeerStore
from net.session import Host, join
from net_helpers import QuickBot, make_cfg, run

REPO = Path(__file__).resolve().parent.parent


def forget(data_dir: Path, text: str) -> subprocess.CompletedProcess[str]:
    """Run the real ``wec peers --forget TEXT`` for the installation in ``data_dir``."""
    env = {**os.environ, "WEC_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "wec_p2p.cli", "peers", "--forget", text], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=60)


async def _pair_by_joining(gc, port: int) -> None:
    """Join until the host is pinned (pairing done), then stop before the game."""
    task = asyncio.ensure_future(join(gc, QuickBot(engine, 2, max_actions=0), "127.0.0.1", port))
    try:
        while not PeerStore(gc.data_dir).all() and not task.done():
            await asyncio.sleep(0.01)
        if task.done():
            task.result()   # raises what join raised
    finally:
        running = not task.done()
        task.cancel()
        # 30 s: a safety net only. A cancelled join ends at once; it used to take the cancel in
        # while closing the pairing link (asyncio.wait_for) and go on into the game.
        await asyncio.wait({task}, timeout=30)
        if running:
            assert task.cancelled(), "a join cancelled after pairing went on instead of ending"


def test_forget_after_identity_change_lets_the_devices_pair_again(tmp_path: Path) -> None:
    """IDENTITY CHANGED names the command; after it the pin is gone and pairing (new code) works."""
    hc, gc = make_cfg(tmp_path, "host", engine), make_cfg(tmp_path, "guest", engine)

    async def first_contact() -> int:
        host = Host(hc, QuickBot(engine, 1), "127.0.0.1", 0)
        port = await host.start()
        try:
            await _pair_by_joining(gc, port)
        finally:
            await host.close()
        return port

    port = run(first_contact())
    old = PeerStore(gc.data_dir).all()
    assert [p.fingerprint for p in old] == [hc.identity.fingerprint]
    (hc.data_dir / "identity.key").unlink()            # the host laptop is reinstalled
    hc2 = make_cfg(tmp_path, "host", engine)

    async def reinstalled(expect_refusal: bool) -> str:
        host = Host(hc2, QuickBot(engine, 1), "127.0.0.1", port)
        await host.start()
        try:
            if expect_refusal:
                with pytest.raises(IdentityChanged) as info:
                    await join(gc, QuickBot(engine, 2), "127.0.0.1", port)
                return str(info.value)
            await _pair_by_joining(gc, port)
            return ""
        finally:
            await host.close()

    message = run(reinstalled(expect_refusal=True))
    command = f"wec peers --forget {hc.identity.fingerprint[:16]}"
    assert command in message
    done = forget(gc.data_dir, hc.identity.fingerprint[:16])
    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"forgot 'host' ({hc.identity.fingerprint[:16]}): the next connection with it asks "
                           "to pair again (compare the code on both screens)\n")
    assert PeerStore(gc.data_dir).all() == []
    run(reinstalled(expect_refusal=False))
    assert [p.fingerprint for p in PeerStore(gc.data_dir).all()] == [hc2.identity.fingerprint]


def _pin(directory: Path, fingerprint: str, name: str) -> None:
    PeerStore(directory).add(KnownPeer(fingerprint, "00" * 32, "PEM", "pin-" + name, name))


@pytest.mark.parametrize("text, error", [
    ("abc", "'abc' is not a fingerprint (at least 8 hex digits, as `wec peers` and the IDENTITY CHANGED "
            "message show them)"),
    ("zzzzzzzzzzzz", "'zzzzzzzzzzzz' is not a fingerprint (at least 8 hex digits, as `wec peers` and the "
                     "IDENTITY CHANGED message show them)"),
    ("ffffffff", "no pinned peer has this fingerprint 'ffffffff'; pinned: abcdef0111111111 ('Bob'), "
                 "abcdef0122222222 ('Carol')"),
    ("ABCDEF01", "several pinned peers match 'abcdef01'; pinned: abcdef0111111111 ('Bob'), "
                 "abcdef0122222222 ('Carol')"),
])
def test_forget_refuses_what_does_not_name_exactly_one_peer(tmp_path: Path, text: str, error: str) -> None:
    """A typo, a short or an ambiguous prefix removes nothing, exit code 1 and a clear message."""
    _pin(tmp_path, "abcdef01" + "1" * 56, "Bob")
    _pin(tmp_path, "abcdef01" + "2" * 56, "Carol")
    done = forget(tmp_path, text)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"wec peers --forget: {error}\n"
    assert len(PeerStore(tmp_path).all()) == 2


def test_forget_by_full_fingerprint_removes_only_that_peer(tmp_path: Path) -> None:
    _pin(tmp_path, "abcdef01" + "1" * 56, "Bob")
    _pin(tmp_path, "abcdef01" + "2" * 56, "Carol")
    done = forget(tmp_path, "ABCDEF01" + "2" * 56)
    assert done.returncode == 0 and done.stdout.startswith("forgot 'Carol' (abcdef0122222222)")
    assert [p.name for p in PeerStore(tmp_path).all()] == ["Bob"]
