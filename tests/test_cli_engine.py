"""The engine's command line: ``wec legal``, ``wec selfplay``, ``wec replay`` (issue 2 item 9).

Each test runs the installed ``wec`` console script as a real process.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine import api

WEC = [sys.executable, "-m", "wec_p2p.cli"]


def wec(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``wec`` with arguments; capture its output."""
    return subprocess.run([*WEC, *args], capture_output=True, text=True, timeout=120)


def test_legal_at_the_standard_start_lists_every_legal_action() -> None:
    """04/H7, 02/§2: `wec legal` prints the start's legal actions, one per line, in the notation."""
    out = wec("legal")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines == [api.format_action(a) for a in api.legal_actions(api.new_game())]
    assert "MV:SHP(2,5)->(4,7)" in lines          # 03/M1.1.3: two-square first move
    assert "MV:TA(1,1)>->(8,4)" not in lines       # 03/M0.9: the Tank's path is blocked
    assert "END" not in lines                      # 01/R4.2: no End Turn before the Move


def test_selfplay_save_and_replay_end_on_the_same_state(tmp_path: Path) -> None:
    """04/H1: a seeded self-play game saved to a file replays to the same `state <hash>`."""
    save = tmp_path / "game.wec"
    played = wec("selfplay", "--seed", "5", "--turns", "40", "--save", str(save))
    assert played.returncode == 0, played.stderr
    last = played.stdout.splitlines()[-1]
    assert last.startswith("state ") and len(last) == len("state ") + 64
    again = wec("selfplay", "--seed", "5", "--turns", "40", "--quiet")
    assert again.stdout.splitlines() == [last]    # deterministic: same seed, same hash
    replayed = wec("replay", str(save), "--quiet")
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.splitlines() == [last]
    legal = wec("legal", str(save))
    assert legal.returncode == 0
    assert legal.stdout.splitlines() == \
        [api.format_action(a) for a in api.legal_actions(api.load(save))]


def test_unknown_file_is_a_one_line_error_naming_it(tmp_path: Path) -> None:
    """Bad input: an unknown file exits 2 with one line naming the file."""
    missing = tmp_path / "nope.wec"
    for command in ("replay", "legal"):
        out = wec(command, str(missing))
        assert out.returncode == 2
        assert out.stdout == ""
        assert out.stderr == f"wec: {missing}: no such file\n"


def test_save_cut_in_half_names_the_file_and_line(tmp_path: Path) -> None:
    """04/H1: a save cut in the middle of a line is refused, naming the file and the line."""
    save = tmp_path / "game.wec"
    assert wec("selfplay", "--seed", "2", "--turns", "12", "--save", str(save)).returncode == 0
    text = save.read_text()
    lines = text.splitlines()
    cut = tmp_path / "cut.wec"
    cut.write_text("\n".join(lines[:8]) + "\n" + lines[8][: len(lines[8]) // 2])
    out = wec("replay", str(cut))
    assert out.returncode == 2
    assert out.stderr.startswith(f"wec: {cut}:9: ")
    assert out.stderr.count("\n") == 1


def test_illegal_action_in_a_save_names_the_line_and_the_rule(tmp_path: Path) -> None:
    """01/R4.2, 03/M1.2: an illegal Move in a save is refused with its line and rule id."""
    bad = tmp_path / "bad.wec"
    bad.write_text("# WEC game 1\noptions {}\nstart standard\nMV:K(1,5)->(2,5)\n")
    out = wec("replay", str(bad))
    assert out.returncode == 2
    assert out.stderr == (f"wec: {bad}:4: illegal: 01/R5.4: K(1,5)->(2,5): neither piece "
                          "has Coexistence\n")


def test_not_a_save_file_is_refused(tmp_path: Path) -> None:
    """04/H1: a file without the save header is refused at line 1."""
    junk = tmp_path / "junk.wec"
    junk.write_text("hello\n")
    out = wec("replay", str(junk))
    assert out.returncode == 2
    assert out.stderr == f"wec: {junk}:1: not a WEC save file (expected '# WEC game 1')\n"


def test_hash_does_not_depend_on_pythonhashseed() -> None:
    """DESIGN §3 determinism: set/dict ordering never leaks into the state (PYTHONHASHSEED)."""
    import os

    hashes = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([*WEC, "selfplay", "--seed", "9", "--turns", "80", "--quiet"],
                             capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 0, out.stderr
        hashes.add(out.stdout.strip())
    assert len(hashes) == 1
