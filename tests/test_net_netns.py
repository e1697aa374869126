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
                                 "--request", "tank_range=8", "--request", "stun_range=1"],
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
