"""History lines, save files, replay and undo (04/H1, H2, H3, H22, 04/U31, 01/R18, 02/D24,
RUL-3, RUL-36)."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import api
from engine.errors import RuleError, SaveError
from engine_helpers import play, pos

#: A short standard game: Pawn double steps (A-14), Pick-ups, a Drop, then a turn in progress.
PLIES = [
    ["MV:RP(2,1)->(4,3)", "PU:RP(4,3)^SL", "END"],           # a2 -> c4, picks up c4's SL
    ["MV:RP(9,10)->(7,8)", "PU:RP(7,8)^SL", "END"],         # j9 -> h7, picks up h7's SL
    ["MV:RP(4,3)1SL->(5,4)", "DR:RP(5,4)1SLvSL", "END"],     # c4 -> d5, drops SL beside ST
    ["MV:RP(7,8)1SL->(6,7)"],                               # turn in progress
]
LINES = [
    "MV:RP(2,1)->(4,3),PU:RP(4,3)^SL",
    "MV:RP(9,10)->(7,8),PU:RP(7,8)^SL",
    "MV:RP(4,3)1SL->(5,4),DR:RP(5,4)1SLvSL",
]


def _played(options: api.Options | None = None) -> tuple[api.GameState, list[str]]:
    """The game of PLIES and the hash after every action (index 0 = the new game)."""
    s = api.new_game(options)
    hashes = [api.state_hash(s)]
    for ply in PLIES:
        for action in ply:
            s = play(s, action)
            hashes.append(api.state_hash(s))
    return s, hashes


def test_history_is_one_line_per_turn_04_H2_H3() -> None:
    """04/H2-H3: one line per finished turn, parts in the fixed order (Move first)."""
    s, _ = _played()
    assert list(s.history) == LINES
    assert s.ply == 4 and s.side_to_move == "W"


def test_dumps_loads_round_trip_mid_turn_04_H1() -> None:
    """04/H1: a save (options, start, history, the turn in progress) rebuilds the same state."""
    s, _ = _played()
    text = api.dumps(s)
    assert text.split("\n") == ["# WEC game 1", "options {}", "start standard", *LINES,
                                "+ MV:RP(7,8)1SL->(6,7)", ""]
    assert api.state_hash(api.loads(text)) == api.state_hash(s)


def test_save_load_file_round_trip_04_H1(tmp_path: Path) -> None:
    """04/H1, 04/U8: save() then load() gives the same state hash; the file is dumps()' text."""
    s, _ = _played(api.Options(ply_limit=600, tank_range=6))
    path = tmp_path / "game.wec"
    api.save(s, path)
    assert path.read_text(encoding="utf-8") == api.dumps(s)
    assert api.dumps(s).split("\n")[1] == 'options {"ply_limit": 600, "tank_range": 6}'
    loaded = api.load(path)
    assert api.state_hash(loaded) == api.state_hash(s)
    assert loaded.options == api.Options(ply_limit=600, tank_range=6)


def test_round_trip_of_a_position_game_with_reinforce_04_H1_00_T27() -> None:
    """04/H1 ambiguity: a game from an edited position saves its start; 00/T27's Reinforce."""
    s = pos("piece B K d8 G\npiece W K j10 G\nreinforcement B JE d8\n")
    s = play(s, "MV:K(8,4)->(8,3)", "RE:(8,4)JE", "END", "MV:K(10,10)->(9,10)", "END")
    assert s.history == ("MV:K(8,4)->(8,3),RE:(8,4)JE", "MV:K(10,10)->(9,10)")
    assert api.state_hash(api.loads(api.dumps(s))) == api.state_hash(s)


def test_round_trip_of_a_turn_without_move_RUL_3_RUL_36() -> None:
    """RUL-3, RUL-36: saved histories contain ``MV:-``, and it replays."""
    s = play(pos("piece B K a1 G stun=2\npiece W K j10 G\narticle SC a1\n"), "PU:K(1,1)^SC", "END")
    text = api.dumps(s)
    assert text.split("\n")[3] == "MV:-,PU:K(1,1)^SC"
    t = api.loads(text)
    assert api.state_hash(t) == api.state_hash(s)
    assert t.pieces[1].stun == 1


def test_round_trip_of_a_finished_game_RUL_2() -> None:
    """RUL-2: a game ended by capture saves its last line and reloads as over."""
    s = play(pos("piece B K j1 G\npiece B TA> a1 G\npiece W K d8 G\n"), "MV:TA(1,1)>->(8,4)")
    t = api.loads(api.dumps(s))
    assert (t.result, t.history) == ("B", ("MV:TA(1,1)>->(8,4),RS:TA*K(8,4)0W",))
    assert api.state_hash(t) == api.state_hash(s)


def test_turn_ownership_follows_position_04_H22() -> None:
    """04/H22: a line's colour follows from its place; dropping Black's first line makes White's
    line be replayed as Black's, which is illegal: the error names line 4."""
    s, _ = _played()
    lines = api.dumps(s).split("\n")
    del lines[3]
    with pytest.raises(SaveError, match=r"^<save>:4: illegal"):
        api.loads("\n".join(lines))


def test_save_cut_in_half_names_the_line_04_H1() -> None:
    """A save cut in the middle of a line is refused, naming the cut line."""
    s, _ = _played()
    text = api.dumps(s)
    cut = len(text) // 2
    assert text[cut - 1] != "\n" and text[cut] != "\n"       # the cut falls inside a line
    line = text[:cut].count("\n") + 1
    assert line >= 4                                          # a history line, not the header
    with pytest.raises(SaveError, match=rf"^<save>:{line}:"):
        api.loads(text[:cut])


def test_save_cut_after_a_complete_part_is_refused_04_H1() -> None:
    """A save cut right after ``MV:...`` of a longer line still parses as a line, but the cut
    file has no final end of line: it is refused as cut short, naming that line."""
    s, _ = _played()
    text = api.dumps(s)
    cut = text.index(",PU:RP(4,3)^SL")
    with pytest.raises(SaveError, match=r"^<save>:4:"):
        api.loads(text[:cut])


def test_corrupted_line_names_the_line_04_H1() -> None:
    """A garbled or illegal history line is refused with its line number."""
    s, _ = _played()
    lines = api.dumps(s).split("\n")
    garbled = lines[:4] + ["MV:RP(9,10)->(7,8,PU:RP(7,8)^SL"] + lines[5:]
    with pytest.raises(SaveError, match=r"^<save>:5:"):
        api.loads("\n".join(garbled))
    illegal = lines[:4] + ["MV:RP(9,10)->(6,7)"] + lines[5:]
    with pytest.raises(SaveError, match=r"^<save>:5: illegal"):
        api.loads("\n".join(illegal))
    bad_action = lines[:-2] + ["+ PU:RP(6,7)1SL^TL", ""]
    with pytest.raises(SaveError, match=rf"^<save>:{len(lines) - 1}:"):
        api.loads("\n".join(bad_action))


def test_bad_header_and_missing_file(tmp_path: Path) -> None:
    """04/H1: the header is checked; a missing file is a SaveError naming the path."""
    with pytest.raises(SaveError, match=r"^<save>:1:"):
        api.loads("MV:RP(2,1)->(4,3)\n")
    with pytest.raises(SaveError, match=r"^<save>:2:"):
        api.loads('# WEC game 1\noptions {"tank_range": 9}\nstart standard\n')
    with pytest.raises(SaveError, match=r"^<save>:3:"):
        api.loads("# WEC game 1\noptions {}\nstart nowhere\n")
    missing = tmp_path / "none.wec"
    with pytest.raises(SaveError, match="none.wec"):
        api.load(missing)


# -- undo (04/U31, 01/R18, 02/D24) ----------------------------------------------------------

def test_undo_returns_the_exact_previous_state_04_U31() -> None:
    """04/U31, 01/R18.4: each undo gives back the state before the last action, hash for hash,
    down to the new game; undo at the start is refused."""
    s, hashes = _played()
    for want in reversed(hashes[:-1]):
        s = api.undo(s)
        assert api.state_hash(s) == want
    with pytest.raises(RuleError) as info:
        api.undo(s)
    assert info.value.rule == "04/U31"


def test_undo_after_loading_a_save_04_U31() -> None:
    """04/U31, 04/H1: a game loaded from disk can be undone: the previous action's state."""
    s, hashes = _played()
    loaded = api.loads(api.dumps(s))
    assert api.state_hash(api.undo(loaded)) == hashes[-2]


def test_undo_to_turn_04_U31() -> None:
    """04/U31: undo back to the start of a ply (1 = the new game)."""
    s, hashes = _played()
    starts = {1: hashes[0], 2: hashes[3], 3: hashes[6], 4: hashes[9]}
    for ply, want in starts.items():
        assert api.state_hash(api.undo_to_turn(s, ply)) == want
    with pytest.raises(RuleError):
        api.undo_to_turn(s, 5)


def test_new_game_is_not_competitive_02_D24_01_R18_1() -> None:
    """02/D24, 01/R18.1: a new game starts non-competitive."""
    assert api.new_game().options.competitive is False


def test_undo_refused_in_a_competitive_game_02_D24_01_R18_2() -> None:
    """02/D24, 01/R18.2: in a competitive game undo and undo_to_turn are refused."""
    s, _ = _played(api.Options(competitive=True))
    for attempt in (lambda: api.undo(s), lambda: api.undo_to_turn(s, 1)):
        with pytest.raises(RuleError) as info:
            attempt()
        assert info.value.rule == "02/D24"
