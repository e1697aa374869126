"""``wec demo`` end to end (DESIGN §6, the README's first command): a real licence endpoint,
two activated installations, mDNS discovery on 127.0.0.1, pairing, negotiation and a full
bot game between two processes; the summary's checks must all pass."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path


def test_wec_demo_plays_a_full_game_and_checks_it() -> None:
    """04/U59-U61 as a new user sees them: exit 0, equal hashes, verified transcripts, a result."""
    wec = Path(sys.executable).parent / "wec"
    assert wec.exists(), f"the `wec` console script is not installed next to {sys.executable}"
    # 300 s: a hang guard only (issue 10 item 7: no wall-clock margin; the machine may be busy)
    done = subprocess.run([str(wec), "demo"], capture_output=True, text=True, timeout=300)
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    assert "Traceback" not in out + done.stderr
    hashes = re.search(r"^  hashes +Bob (\w{16})… Alice (\w{16})… EQUAL$", out, re.M)
    assert hashes and hashes.group(1) == hashes.group(2), out[-2000:]
    assert re.search(r"^  transcripts +both verified: Bob sent (\d+) and received (\d+) signed messages", out, re.M)
    assert re.search(r"^  result +(white wins|black wins|a draw) after \d+ turns \(game \w{16}\)$", out, re.M)
    assert re.search(r"^  requests +Alice asked tank_range=8 \(Bob approved\) and stun_range=1 \(Bob rejected\)",
                     out, re.M)
    assert re.search(r"^  options +tank_range=8$", out, re.M)
    codes = re.findall(r"pairing code (\d{3} \d{3}) with '(Alice|Bob)'", out)
    assert len(codes) == 2 and codes[0][0] == codes[1][0], codes
    assert re.search(r"Alice/join +found 'Bob' \(\w{16}\) at 127\.0\.0\.1:\d+ after \d+ ms of browsing", out)
    assert out.count("activated: licence") == 2
    assert re.search(r"^ *[\d.]+s +Bob/host +turn +1 (white|black) \S", out, re.M)
    work = re.search(r"work dir (\S+)", out)
    assert work and not Path(work.group(1)).exists(), "the temporary directory was left behind"
    assert "endpoint stopped, temporary directory removed" in out
