"""Two real ``wec`` processes play a bot game over 127.0.0.1 (04/U59–U61), and ``wec join``
gives a clear error when no peer answers. Licence tokens are issued by a test vendor key,
injected through the Python API (``net.vendor_key.VENDOR_PUBLIC_KEY``) by a tiny launcher.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from net.identity import load_or_create
from net.licence import NETWORK_FEATURE, sign_token
from net.machine import MACHINE_ID_ENV, machine_fingerprint
from net.saves import verify_transcript
from net.wal import read

LAUNCH = ("import sys, net.vendor_key as v; v.VENDOR_PUBLIC_KEY = bytes.fromhex(sys.argv[1]); "
          "from wec_p2p.cli import main; sys.exit(main(sys.argv[2:]))")
REPO = Path(__file__).resolve().parent.parent


def activated(tmp: Path, name: str, vendor: Ed25519PrivateKey) -> dict[str, str]:
    """A data dir with an identity and a token from the test vendor, bound to a machine of its own
    (``WEC_MACHINE_ID_FILE``, issue 10 item 5); returns the process env."""
    d = tmp / name
    d.mkdir()
    identity = load_or_create(d)
    machine = tmp / f"{name}.machine-id"
    machine.write_text(f"machine-of-{name}\n")
    token = sign_token(vendor, licence_id=f"lic-{name}", device_fingerprint=identity.fingerprint,
                       issued_at=int(time.time()), edition="standard", features=[NETWORK_FEATURE],
                       machine=machine_fingerprint(identity.public_bytes, machine.read_bytes()))
    (d / "licence.token").write_bytes(token)
    return {**os.environ, "WEC_DATA_DIR": str(d), "PYTHONUNBUFFERED": "1", MACHINE_ID_ENV: str(machine)}


def verify_printed_transcript(out: str) -> int:
    """Verify the signed transcript named on a ``RESULT`` line; returns how many messages it holds."""
    m = re.search(r"^RESULT .* transcript=(\S+)$", out, re.M)
    assert m and m.group(1) != "None", out
    header, entries, _ = read(Path(m.group(1)))
    summary = verify_transcript(header, entries)
    assert entries and summary.chain_id == header.chain_id
    return len(entries)


def wec(vendor: Ed25519PrivateKey, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    return subprocess.Popen([sys.executable, "-c", LAUNCH, pub, *args], env=env, cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_two_wec_processes_play_a_full_bot_game(tmp_path: Path) -> None:
    """04/U59–U61 end to end: pair (auto-confirm), one request approved, one rejected, clash, full game."""
    vendor = Ed25519PrivateKey.generate()
    host = wec(vendor, activated(tmp_path, "a", vendor), "host", "--bot", "random", "--seed", "1",
               "--interface", "127.0.0.1", "--auto-confirm", "--no-discovery", "--reject", "stun_range")
    try:
        assert host.stdout is not None
        first = host.stdout.readline()
        port = re.search(r"on port (\d+)", first)
        assert port, first + host.stderr.read() if host.stderr else first
        guest = wec(vendor, activated(tmp_path, "b", vendor), "join", f"127.0.0.1:{port.group(1)}", "--bot", "random",
                    "--seed", "2", "--auto-confirm", "--request", "tank_range=8", "--request", "stun_range=1",
                    "--request", "hidden_psi=0")    # a bulk game: questions in clear (P-6), approved as rid 2
        g_out, g_err = guest.communicate(timeout=120)
        h_out, h_err = host.communicate(timeout=30)
    finally:
        host.kill()
    assert guest.returncode == 0, g_err
    assert host.returncode == 0, h_err
    g_res = re.search(r"RESULT status=finished outcome=(\w+) hash=(\w+) game=(\w+)", g_out)
    h_res = re.search(r"RESULT status=finished outcome=(\w+) hash=(\w+) game=(\w+)", h_out)
    assert g_res and h_res and g_res.groups() == h_res.groups()
    assert verify_printed_transcript(g_out) == verify_printed_transcript(h_out)   # both transcripts verify
    assert "'rid': 0, 'accept': True" in g_out and "'rid': 1, 'accept': False" in g_out
    assert "'rid': 2, 'accept': True" in g_out
    assert "pairing code" in g_out and "pairing code" in h_out


def test_join_without_a_host_fails_with_a_clear_error(tmp_path: Path) -> None:
    """04/U59: no peer answers: a clear message naming the address, exit code 1, no traceback."""
    vendor = Ed25519PrivateKey.generate()
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = wec(vendor, activated(tmp_path, "b", vendor), "join", f"127.0.0.1:{port}", "--bot", "random")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert f"no answer from 127.0.0.1:{port}" in err and "Traceback" not in err
