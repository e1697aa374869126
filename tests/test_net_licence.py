"""Network play refuses a peer without a valid licence token (issue 5 "Licence", DESIGN §5).

Must-show item of issue 5: the network game of "Network play I" refuses a peer whose token
is missing, edited by a byte, signed by another vendor key, or bound to another installation
(copied from another machine). The game does not start, and BOTH sides say why: the
refusing side logs ``peer licence refused (CODE): DETAIL; no game was started``; the refused
side is told by a ``licence-refused{v, code, detail}`` link message (docs/protocol.md) and
reports ``the other side refused our licence (CODE): DETAIL; no game was started``, not a
bare "connection closed". Neither side keeps a game log of the refused connection.

Real TLS over 127.0.0.1 in-process (both directions, all four cases), then real ``wec host``
/ ``wec join`` processes. A tampered client (one that skips its own start-up check, as a
cracked copy would) is launched with ``_own_token`` replaced; the honest side must refuse it.
A host without its own valid token refuses to start with one clear line and exit code 2.
"""
from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

import engine.api as engine
from net.frames import pack
from net.identity import load_or_create
from net.licence import NETWORK_FEATURE, sign_token, verify_peer_token
from net.machine import MACHINE_ID_ENV, machine_fingerprint
from net.messages import LicenceRefused, decode_link, encode_link
from net.session import Host, NetConfig, play_as_guest
from net_helpers import QuickBot, make_cfg, run

REPO = Path(__file__).resolve().parent.parent
NO_GAME = "; no game was started"

#: case -> (LicenceError code, detail) as both sides must report it.
CASES = {
    "no-token": ("not_activated", "no licence token was sent: network play needs an activated installation "
                                  "on both ends (`wec activate KEY`)"),
    "edited-byte": ("bad_signature", "token signature does not match: the token was altered"),
    "other-vendor": ("unknown_vendor_key", "token was signed by a key this program does not trust"),
    "other-installation": ("wrong_device", "token is bound to another installation (copied from another "
                                           "machine?); activate this installation"),
}


def raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def token_for(vendor: Ed25519PrivateKey, fingerprint: str, machine: str | None = None) -> bytes:
    return sign_token(vendor, licence_id="lic-test", device_fingerprint=fingerprint,
                      issued_at=int(time.time()), edition="standard", features=[NETWORK_FEATURE], machine=machine)


def bad_token(case: str, vendor: Ed25519PrivateKey, data_dir: Path, tmp: Path) -> bytes | None:
    """The token a peer in ``data_dir`` holds in each case (None: it has none)."""
    fp = load_or_create(data_dir).fingerprint
    if case == "no-token":
        return None
    if case == "edited-byte":
        good = token_for(vendor, fp)
        i = good.index(b"standard")
        edited = good[:i] + b"standarc" + good[i + 8:]   # one byte of the signed payload
        assert len(edited) == len(good) and sum(a != b for a, b in zip(good, edited)) == 1
        return edited
    if case == "other-vendor":
        return token_for(Ed25519PrivateKey.generate(), fp)
    if case == "other-installation":   # genuine, but issued to another laptop and copied here
        return token_for(vendor, load_or_create(tmp / f"elsewhere-{data_dir.name}").fingerprint)
    raise AssertionError(case)


def refusing(code: str, detail: str) -> str:
    return f"peer licence refused ({code}): {detail}{NO_GAME}"


def refused(code: str, detail: str) -> str:
    return f"the other side refused our licence ({code}): {detail}{NO_GAME}"


def test_licence_refused_message_round_trips_and_is_versioned() -> None:
    """issue 5: ``licence-refused{v, code, detail}`` is a strict link message; only v1 is accepted."""
    msg = LicenceRefused(1, "wrong_device", "token is bound to another installation")
    assert decode_link(encode_link(msg)) == msg
    from net.errors import ProtocolError
    with pytest.raises(ProtocolError, match="licence-refused: field 'v'"):
        decode_link(pack(["licence-refused", {"v": 2, "code": "x", "detail": "y"}]))


# ---------------------------------------------------------------------------------------------
# In-process, real TLS over 127.0.0.1: every case, each side being the bad one
# ---------------------------------------------------------------------------------------------

def _cfgs(tmp: Path, vendor: Ed25519PrivateKey, bad_side: str, case: str) -> tuple[NetConfig, NetConfig]:
    def check(token: bytes, pub: bytes) -> object:
        return verify_peer_token(token, pub, vendor_public_key=raw(vendor))

    cfgs = {}
    for side in ("host", "guest"):
        cfg = make_cfg(tmp, side, engine, licence_check=check)
        cfg.licence_token = (bad_token(case, vendor, cfg.data_dir, tmp) if side == bad_side
                             else token_for(vendor, cfg.identity.fingerprint))
        cfgs[side] = cfg
    return cfgs["host"], cfgs["guest"]


async def _attempt(hc: NetConfig, gc: NetConfig):
    host_bot, guest_bot = QuickBot(engine, seed=1), QuickBot(engine, seed=2)
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    try:
        guest_out = await play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=3, backoff=0.05)
        for _ in range(200):   # the host records the game connection when it has closed it
            if any(o.status != "paired" for o in host.connections):
                break
            await asyncio.sleep(0.01)
    finally:
        await host.close()
    return port, host, host_bot, guest_bot, guest_out


@pytest.mark.parametrize("bad_side", ["guest", "host"])
@pytest.mark.parametrize("case", list(CASES))
def test_peer_without_a_valid_licence_is_refused_and_both_sides_say_why(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, case: str, bad_side: str) -> None:
    """issue 5 / DESIGN §5: no token, a byte edited, another vendor's key, another installation's
    token: pairing may happen, but the game never starts; the refusing side logs why and the
    refused side is told it was its licence (not just "connection closed"); no log is left."""
    vendor = Ed25519PrivateKey.generate()
    hc, gc = _cfgs(tmp_path, vendor, bad_side, case)
    with caplog.at_level("WARNING", logger="wec.net"):
        port, host, host_bot, guest_bot, guest_out = run(_attempt(hc, gc))
    code, detail = CASES[case]
    host_outs = [o for o in host.connections if o.status != "paired"]
    assert len(host_outs) == 1, host.connections   # refused once: the guest does not retry
    host_out = host_outs[0]
    if bad_side == "guest":
        host_reason, guest_reason = refusing(code, detail), refused(code, detail)
    else:
        host_reason, guest_reason = refused(code, detail), refusing(code, detail)
    assert (host_out.status, host_out.licence, host_out.reason) == ("refused", code, host_reason)
    assert (guest_out.status, guest_out.licence, guest_out.reason) == ("refused", code, guest_reason)
    # both ends log it: the guest's label is the host's address, the host's is the guest's
    lines = [r.getMessage() for r in caplog.records]
    assert f"127.0.0.1:{port}: refused: {guest_reason}" in lines
    assert any(m.endswith(f": refused: {host_reason}") and not m.startswith(f"127.0.0.1:{port}:") for m in lines)
    assert not any("connection lost" in m or "dropped" in m for m in lines), lines
    # the game did not start, and no game log is left on either side
    for bot in (host_bot, guest_bot):
        assert not [e for e in bot.events if e.kind in ("started", "applied")]
    for cfg in (hc, gc):
        assert list(cfg.games_dir.iterdir()) == []


def test_after_a_licence_refusal_the_repaired_peer_plays(tmp_path: Path) -> None:
    """issue 5: a refused connection leaves nothing behind (the host had already sent its colour
    before the guest refused it); once the host's token is fixed the same two start a game."""
    vendor = Ed25519PrivateKey.generate()
    hc, gc = _cfgs(tmp_path, vendor, "host", "other-installation")
    *_, first = run(_attempt(hc, gc))
    assert first.licence == "wrong_device"
    hc.licence_token = token_for(vendor, hc.identity.fingerprint)

    async def second() -> list[str]:
        host_bot, guest_bot = QuickBot(engine, seed=1, max_actions=2), QuickBot(engine, seed=2, max_actions=2)
        host = Host(hc, host_bot, "127.0.0.1", 0)
        port = await host.start()
        task = asyncio.ensure_future(play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=1))
        try:
            for _ in range(500):
                if any(e.kind == "started" for e in guest_bot.events):
                    break
                await asyncio.sleep(0.01)
            return [e.kind for e in guest_bot.events]
        finally:
            task.cancel()
            try:
                await task
            except BaseException:
                pass
            await host.close()

    assert "started" in run(second())


# ---------------------------------------------------------------------------------------------
# Real `wec host` / `wec join` processes
# ---------------------------------------------------------------------------------------------

HONEST = ("import sys, net.vendor_key as v; v.VENDOR_PUBLIC_KEY = bytes.fromhex(sys.argv[1]); "
          "from wec_p2p.cli import main; sys.exit(main(sys.argv[2:]))")
# a tampered copy: it skips its own start-up check and sends whatever token file it has (or none)
TAMPERED = ("import sys, net.vendor_key as v; v.VENDOR_PUBLIC_KEY = bytes.fromhex(sys.argv[1]); "
            "import wec_p2p.cmd_net as c; "
            "c._own_token = lambda d, i: (d / 'licence.token').read_bytes() if (d / 'licence.token').exists() else None; "
            "from wec_p2p.cli import main; sys.exit(main(sys.argv[2:]))")


def installation(tmp: Path, name: str, vendor: Ed25519PrivateKey, case: str = "good") -> dict[str, str]:
    """A data dir with an identity and a token: a valid one ("good") or the bad one of ``case``."""
    d = tmp / name
    d.mkdir()
    identity = load_or_create(d)
    machine_file = tmp / f"{name}.machine-id"   # each installation on a machine of its own (issue 10 item 5)
    machine_file.write_text(f"machine-of-{name}\n")
    machine = machine_fingerprint(identity.public_bytes, machine_file.read_bytes())
    token = token_for(vendor, identity.fingerprint, machine) if case == "good" else bad_token(case, vendor, d, tmp)
    if token is not None:
        (d / "licence.token").write_bytes(token)
    return {**os.environ, "WEC_DATA_DIR": str(d), "PYTHONUNBUFFERED": "1", MACHINE_ID_ENV: str(machine_file)}


def wec(launcher: str, vendor: Ed25519PrivateKey, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", launcher, raw(vendor).hex(), *args], env=env, cwd=REPO,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _host_port(host: subprocess.Popen[str]) -> str:
    assert host.stdout is not None
    first = host.stdout.readline()
    m = re.search(r"on port (\d+)", first)
    assert m, first + (host.stderr.read() if host.stderr else "")
    return m.group(1)


def _play(tmp: Path, vendor: Ed25519PrivateKey, host_launch: str, host_env: dict[str, str],
          guest_launch: str, guest_env: dict[str, str]):
    host = wec(host_launch, vendor, host_env, "host", "--bot", "random", "--interface", "127.0.0.1",
               "--auto-confirm", "--no-discovery")
    try:
        port = _host_port(host)
        guest = wec(guest_launch, vendor, guest_env, "join", f"127.0.0.1:{port}", "--bot", "random",
                    "--auto-confirm")
        g_out, g_err = guest.communicate(timeout=60)
        time.sleep(0.3)
        assert host.poll() is None, "an honest host keeps waiting for a licensed peer"
    finally:
        host.terminate()
        h_out, h_err = host.communicate(timeout=30)
    return port, guest.returncode, g_out, g_err, h_out, h_err


@pytest.mark.parametrize("case", list(CASES))
def test_wec_host_refuses_a_wec_join_without_a_valid_licence(tmp_path: Path, case: str) -> None:
    """issue 5 / DESIGN §5 with two real processes: the host logs why it refused; the (tampered)
    joining process prints that its licence was refused and why, exits 2; no game starts."""
    vendor = Ed25519PrivateKey.generate()
    host_env = installation(tmp_path, "host", vendor)
    guest_env = installation(tmp_path, "guest", vendor, case)
    port, rc, g_out, g_err, h_out, h_err = _play(tmp_path, vendor, HONEST, host_env, TAMPERED, guest_env)
    code, detail = CASES[case]
    assert rc == 2, g_err
    assert "RESULT status=refused" in g_out and "started:" not in g_out
    assert f"wec: 127.0.0.1:{port}: refused: {refused(code, detail)}\n" in g_err
    assert f"\nwec: {refused(code, detail)}\n" in g_err and "Traceback" not in g_err
    assert "pairing code" in h_out and "started:" not in h_out
    assert re.search(rf"^wec: 127\.0\.0\.1:\d+: refused: {re.escape(refusing(code, detail))}$", h_err, re.M), h_err
    assert "Traceback" not in h_err
    for side in ("host", "guest"):
        assert not list((tmp_path / side / "games").glob("*"))


def test_wec_join_refuses_a_wec_host_with_another_vendors_token(tmp_path: Path) -> None:
    """issue 5: the other direction with real processes: an honest joiner refuses a tampered host."""
    vendor = Ed25519PrivateKey.generate()
    host_env = installation(tmp_path, "host", vendor, "other-vendor")
    guest_env = installation(tmp_path, "guest", vendor)
    port, rc, g_out, g_err, h_out, h_err = _play(tmp_path, vendor, TAMPERED, host_env, HONEST, guest_env)
    code, detail = CASES["other-vendor"]
    assert rc == 2, g_err
    assert f"\nwec: {refusing(code, detail)}\n" in g_err and "started:" not in g_out
    assert re.search(rf"^wec: 127\.0\.0\.1:\d+: refused: {re.escape(refused(code, detail))}$", h_err, re.M), h_err
    assert "started:" not in h_out
    for side in ("host", "guest"):
        assert not list((tmp_path / side / "games").glob("*"))


@pytest.mark.parametrize("case", list(CASES))
def test_wec_host_without_its_own_valid_licence_refuses_to_start(tmp_path: Path, case: str) -> None:
    """issue 5 / DESIGN §5: the start-up check: one clear line on stderr, exit 2, never listens."""
    vendor = Ed25519PrivateKey.generate()
    env = installation(tmp_path, "host", vendor, case)
    proc = wec(HONEST, vendor, env, "host", "--bot", "random", "--interface", "127.0.0.1", "--no-discovery")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert out == ""
    expected = {
        "no-token": "wec: not_activated: network play needs an activated installation: run `wec activate KEY`",
        "edited-byte": "wec: bad_signature: this installation's licence is not valid: token signature does not "
                       "match: the token was altered; network play needs a valid licence (`wec activate KEY`)",
        "other-vendor": "wec: unknown_vendor_key: this installation's licence is not valid: token was signed by "
                        "a key this program does not trust; network play needs a valid licence (`wec activate KEY`)",
        "other-installation": "wec: wrong_device: this installation's licence is not valid: token is bound to "
                              "another installation (copied from another machine?); activate this installation; "
                              "network play needs a valid licence (`wec activate KEY`)",
    }[case]
    assert err == expected + "\n"
