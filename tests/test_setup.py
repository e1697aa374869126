"""The board and the standard set-up (01/R1, R2, R21; 02/G1-G9, §2, §3, D2, D5, D9-D12;
RUL-32, RUL-33, RUL-39, RUL-40). Expected values are copied from the rule text, not the engine."""
from __future__ import annotations

from collections import Counter

import pytest

from engine import api
from engine.board import has_ability
from engine.errors import SaveError
from engine.pieces import KINDS
from engine.position import parse_square
from engine.visibility import hidden_from
from engine_helpers import moves_of, pos, setup_json

# 02/§2.2 diagram, Black's ranks from file a to j ("+" = two pieces on the square); the hands
# are RUL-32's "inward" scheme (Right Tank a1, Left Cleric c1, Right Chopper d1, Left Chopper g1,
# Right Cleric h1, Left Tank j1), not the JSON's handedness_placeholder.
BLACK_RANK_1 = "TA> DO+SU CL< CH>+JE K Q CH<+JE CL> DO+SU TA<"
BLACK_RANK_2 = "RP SP FP+AAA CP+DS SHP XP CP+DS FP+AAA SP RP"
# 02/§2.2 White ranks from file a to j; RUL-32: White right Tank j10, right Chopper g10, right
# Cleric c10; left Cleric h10, left Chopper d10, left Tank a10.
WHITE_RANK_10 = "TA< DO+SU CL> CH<+JE Q K CH>+JE CL< DO+SU TA>"
WHITE_RANK_9 = "RP SP FP+AAA CP+DS XP SHP CP+DS FP+AAA SP RP"

# 02/§3.1 article diagram, ranks 3..8, files a..j.
ARTICLE_RANKS = {
    8: "SH TL BI+SL JP SC SC JP BI+SL TL ASH",
    7: "ATL ASH SL ACS ARL AFL AST SL ASH ATL",
    6: "TL SH ASL CS XXX+RL XXX+FL ST ASL SH TL",
    5: "TL SH ASL ST XXX+FL XXX+RL CS ASL SH TL",
    4: "ATL ASH SL AST AFL ARL ACS SL ASH ATL",
    3: "ASH TL BI+SL JP SC SC JP BI+SL TL SH",
}

# RUL-33 activation squares (Black rank 8 a..j = own files 1..10; White rank 3 j..a).
REINFORCEMENTS = {
    "a8": ("B", "TA", ">"), "b8": ("B", "SU", ""), "c8": ("B", "CL", "<"), "d8": ("B", "JE", ""),
    "e8": ("B", "Q", ""), "f8": ("B", "DO", ""), "g8": ("B", "JE", ""), "h8": ("B", "AAA", ""),
    "i8": ("B", "SU", ""), "j8": ("B", "DS", ""),
    "j3": ("W", "TA", ">"), "i3": ("W", "SU", ""), "h3": ("W", "CL", "<"), "g3": ("W", "JE", ""),
    "f3": ("W", "Q", ""), "e3": ("W", "DO", ""), "d3": ("W", "JE", ""), "c3": ("W", "AAA", ""),
    "b3": ("W", "SU", ""), "a3": ("W", "DS", ""),
}

FILES = "abcdefghij"


def _expected_pieces() -> dict[tuple[int, int], list[tuple[str, str, str]]]:
    out: dict[tuple[int, int], list[tuple[str, str, str]]] = {}
    for side, rank, text in (("B", 1, BLACK_RANK_1), ("B", 2, BLACK_RANK_2),
                             ("W", 10, WHITE_RANK_10), ("W", 9, WHITE_RANK_9)):
        for col, cell in enumerate(text.split(), start=1):
            for token in cell.split("+"):
                hand = token[-1] if token[-1] in "<>" else ""
                out.setdefault((rank, col), []).append((side, token.rstrip("<>"), hand))
    return out


def _board(state: api.GameState) -> dict[tuple[int, int], list[tuple[str, str, str]]]:
    out: dict[tuple[int, int], list[tuple[str, str, str]]] = {}
    for sid in sorted(state.pieces):
        p = state.pieces[sid]
        out.setdefault(p.square, []).append((p.side, p.kind, p.hand))
    return out


@pytest.fixture(scope="module")
def game() -> api.GameState:
    return api.new_game()


# -- the board -------------------------------------------------------------------------------

def test_board_has_100_squares_a1_to_j10_01_R1_1_02_G3() -> None:
    """01/R1.1, 02/G3, 02/§2.1: files a-j = columns 1-10, ranks 1-10 = rows; e4 is (4,5)."""
    squares = {parse_square(f + str(r)) for f in FILES for r in range(1, 11)}
    assert len(squares) == 100
    assert squares == {(r, c) for r in range(1, 11) for c in range(1, 11)}
    assert parse_square("e4") == (4, 5)
    assert parse_square("j10") == (10, 10)
    for bad in ("k1", "a11", "a0", "j01"):
        with pytest.raises(ValueError):
            parse_square(bad)


def test_square_colours_and_coordinates_of_the_data_file_01_R1_2_02_G3() -> None:
    """01/R1.2: (r, c) is black exactly when r + c is odd; j1 and a10 (the near-right corners)
    are black, a1 and j10 white; the data file's row/col agree with the notation squares."""
    squares = setup_json()["squares"]
    assert len(squares) == 100
    for name, sq in squares.items():
        assert (sq["row"], sq["col"]) == parse_square(name)
        assert sq["colour"] == ("black" if (sq["row"] + sq["col"]) % 2 else "white")
    assert [squares[n]["colour"] for n in ("j1", "a10", "a1", "j10")] == \
        ["black", "black", "white", "white"]


def test_three_levels_hold_six_pieces_on_one_square_01_R1_3_R5_2_02_G4() -> None:
    """01/R1.3, 01/R5.2, 02/G4: each square has Ground, Air and Sub; 2 pieces per level, so 6
    pieces on one square (friend and enemy on different levels), plus 2 articles on the Ground."""
    s = pos("""
        piece B K j1 G
        piece W K j10 G
        piece B JE e5 A
        piece B CH> e5 A
        piece W DS e5 G
        piece W AAA e5 G
        piece B SU e5 S
        piece B SU e5 S
        article SC e5
        article FL e5
    """)
    assert [len(s.at(5, 5, lv)) for lv in "GAS"] == [2, 2, 2]
    assert [s.art_code[a] for a in s.ground[(5, 5)]] == ["SC", "FL"]


def test_position_refuses_three_articles_or_three_pieces_01_R1_5_R5_1() -> None:
    """01/R1.5: at most 2 articles lie on a square; 01/R5.1: at most 2 pieces per level."""
    base = "piece B K j1 G\npiece W K j10 G\n"
    with pytest.raises(SaveError, match=r"01/R1\.5"):
        pos(base + "article SC e5\narticle FL e5\narticle TL e5\n")
    with pytest.raises(SaveError, match=r"01/R5\.1"):
        pos(base + "piece B DS e5 G\npiece B AAA e5 G\npiece B SU e5 G\n")


def test_position_refuses_more_than_200_articles_01_R10_3() -> None:
    """01/R10.3: at most 200 articles in a game, held ones included (200 on the ground + 1 held)."""
    lines = ["piece B K j1 G FL", "piece W K j10 G"]
    lines += [f"article SC {f}{r}" for f in FILES for r in range(1, 11) for _ in range(2)]
    with pytest.raises(SaveError, match=r"01/R10\.3"):
        pos("\n".join(lines))
    # exactly 200 is allowed
    assert len(pos("\n".join(lines[1:] + ["piece B K j1 G"])).art_code) == 200


def test_a_side_needs_a_primary_piece_01_R3_1() -> None:
    """01/R3.1: each player has a primary government piece; a position without one is refused."""
    with pytest.raises(SaveError, match=r"01/R3\.1"):
        pos("piece B K j1 G\npiece W Q j10 G\n")


# -- the standard pieces -----------------------------------------------------------------------

def test_standard_pieces_square_by_square_02_S2_2_S2_3_RUL_32(game: api.GameState) -> None:
    """02/§2.2-§2.3 with RUL-32 handedness: every piece, side, hand; ranks 3-8 are empty."""
    assert _board(game) == _expected_pieces()


def test_handedness_is_rul32_not_the_json_placeholder_RUL_32_RUL_39(game: api.GameState) -> None:
    """RUL-32/RUL-39: Black a1 right, c1 left, d1 right, g1 left, h1 right, j1 left; White j10
    right, h10 left, g10 right, d10 left, c10 right, a10 left. The JSON placeholder says the
    opposite for a1, so it must not be used."""
    want = {"a1": ">", "c1": "<", "d1": ">", "g1": "<", "h1": ">", "j1": "<",
            "j10": ">", "h10": "<", "g10": ">", "d10": "<", "c10": ">", "a10": "<"}
    got = {}
    for name in want:
        r, c = parse_square(name)
        hands = [game.pieces[s].hand for s in game.at(r, c, "G") if KINDS[game.pieces[s].kind].handed]
        assert len(hands) == 1
        got[name] = hands[0]
    assert got == want
    placeholder = next(p for p in setup_json()["pieces"] if p["id"] == "B-a1-TA")
    assert placeholder["handedness_placeholder"] == "left" and got["a1"] == ">"


def test_56_pieces_28_per_side_counts_01_R21_1_02_S2_6(game: api.GameState) -> None:
    """01/R21.1, 02/§2.6: per side 10 Pawns (2 RP, 2 SP, 2 FP, 2 CP, 1 SHP, 1 XP; 01/R21.2, A-15:
    no SOP), 2 each of TA DO SU CH DS AAA CL JE, 1 King, 1 Queen: 28 per side, 56 in all."""
    want = {"RP": 2, "SP": 2, "FP": 2, "CP": 2, "SHP": 1, "XP": 1, "TA": 2, "DO": 2, "SU": 2,
            "CH": 2, "DS": 2, "AAA": 2, "CL": 2, "JE": 2, "K": 1, "Q": 1}
    assert len(game.pieces) == 56
    for side in "BW":
        assert Counter(p.kind for p in game.pieces.values() if p.side == side) == want
    assert sum(want.values()) == 28


def test_two_piece_squares_02_S2_3_01_R21_5(game: api.GameState) -> None:
    """02/§2.3: 16 two-piece squares, same owner, at Ground; 01/R21.5: Chopper+Jet pairs."""
    pairs = {sq: sorted(game.pieces[s].kind for s in sids)
             for (r, c, lv), sids in game.cells().items() if len(sids) == 2
             for sq in [f"{FILES[c - 1]}{r}"]}
    want = {}
    for squares, kinds in ((("b1", "i1", "b10", "i10"), ["DO", "SU"]),
                           (("d1", "g1", "d10", "g10"), ["CH", "JE"]),
                           (("c2", "h2", "c9", "h9"), ["AAA", "FP"]),
                           (("d2", "g2", "d9", "g9"), ["CP", "DS"])):
        for sq in squares:
            want[sq] = kinds
    assert pairs == want
    for (r, c, lv), sids in game.cells().items():
        assert lv == "G"
        assert len({game.pieces[s].side for s in sids}) == 1


def test_pieces_are_point_symmetric_02_S2_5(game: api.GameState) -> None:
    """02/§2.5: a 180° rotation maps every Black piece to a White one of the same type and hand;
    Kings e1/f10, Queens f1/e10, Stealth Pawns e2/f9, XXX Pawns f2/e9."""
    board = _board(game)
    for (r, c), items in board.items():
        mirrored = board[(11 - r, 11 - c)]
        flip = {"B": "W", "W": "B"}
        assert sorted((flip[s], k, h) for s, k, h in items) == sorted(mirrored)
    assert board[(1, 5)] == [("B", "K", "")] and board[(10, 6)] == [("W", "K", "")]
    assert board[(1, 6)] == [("B", "Q", "")] and board[(10, 5)] == [("W", "Q", "")]
    assert board[(2, 5)] == [("B", "SHP", "")] and board[(9, 6)] == [("W", "SHP", "")]
    assert board[(2, 6)] == [("B", "XP", "")] and board[(9, 5)] == [("W", "XP", "")]


def test_serials_follow_the_json_pieces_order_RUL_40_RUL_39_RUL_35(game: api.GameState) -> None:
    """RUL-40: serials 1-56 in the order of standard-setup.json's ``pieces`` (1 = B-a1-TA,
    56 = W-a9-RP); STP is read as SP (RUL-35, RUL-39)."""
    data = setup_json()
    codes = {k: v["wec_code"] for k, v in data["piece_types"].items()}
    assert sorted(game.pieces) == list(range(1, 57))
    assert game.next_sid == 57
    for sid, entry in enumerate(data["pieces"], start=1):
        p = game.pieces[sid]
        code = {"STP": "SP"}.get(codes[entry["type"]], codes[entry["type"]])
        assert (p.side, p.row, p.col, p.kind) == \
            (entry["side"][0].upper(), entry["row"], entry["col"], code), entry["id"]
    assert data["pieces"][0]["id"] == "B-a1-TA" and data["pieces"][55]["id"] == "W-a9-RP"


def test_every_piece_starts_on_ground_unstunned_empty_handed_02_G7_S2_7(game: api.GameState) -> None:
    """02/G7, 02/§2.7: all pieces on Ground (Subs not submerged), no articles, not stunned;
    Pawns on their origin square (A-14), other pieces have no origin flag."""
    for p in game.pieces.values():
        assert (p.level, p.arts, p.stun, p.trip) == ("G", (), 0, None)
        assert p.origin == (p.kind in {"RP", "SP", "FP", "CP", "SHP", "XP"})


def test_black_moves_first_at_ply_1_01_R2_3_02_G1_R21_7(game: api.GameState) -> None:
    """01/R2.1, R2.3, 02/G1-G2, 01/R21.7: two players, Black to move at ply 1, empty history."""
    assert {p.side for p in game.pieces.values()} == {"B", "W"}
    assert (game.ply, game.side_to_move, api.side_to_move(game)) == (1, "B", "black")
    assert game.history == () and game.result is None and api.outcome(game) is None


def test_standard_pawn_has_its_first_move_01_R7_2_A_14(game: api.GameState) -> None:
    """01/R7.1-R7.2, A-14: the a2 Rocket Pawn moves to b3 or, from its origin, to c4; a1-side
    forward-left is off the board."""
    assert moves_of(game, "RP(2,1)") == {"MV:RP(2,1)->(3,2)", "MV:RP(2,1)->(4,3)"}


# -- the standard articles ---------------------------------------------------------------------

def test_standard_articles_square_by_square_02_S3_1_01_R10_2_R21_4(game: api.GameState) -> None:
    """02/§3.1-§3.2, 01/R10.2, 01/R21.4: 68 unowned articles on ranks 3-8 as in the diagram,
    at most 2 per square; none is held."""
    want = {}
    for rank, text in ARTICLE_RANKS.items():
        for col, cell in enumerate(text.split(), start=1):
            want[(rank, col)] = sorted(cell.split("+"))
    got = {sq: sorted(game.art_code[a] for a in aids) for sq, aids in game.ground.items() if aids}
    assert got == want
    assert len(game.art_code) == 68
    assert sum(len(a) for a in game.ground.values()) == 68
    assert all(not p.arts for p in game.pieces.values())


def test_article_data_file_agrees_02_S3(game: api.GameState) -> None:
    """02/§0, §3: the data copy's 68 articles lie where the engine puts them."""
    data = setup_json()
    codes = {k: v["wec_code"] for k, v in data["article_types"].items()}
    want = Counter((a["row"], a["col"], codes[a["type"]]) for a in data["articles"])
    got = Counter((r, c, game.art_code[a]) for (r, c), aids in game.ground.items() for a in aids)
    assert got == want


def test_two_article_squares_and_totals_02_S3_2_S3_3_D11_D12(game: api.GameState) -> None:
    """02/§3.2: two articles on c3, h3, c8, h8, e5, f5, e6, f6; 02/§3.3 totals per type and
    34 per half; 02/D12: 4 XXX boxes."""
    doubles = {f"{FILES[c - 1]}{r}" for (r, c), a in game.ground.items() if len(a) == 2}
    assert doubles == {"c3", "h3", "c8", "h8", "e5", "f5", "e6", "f6"}
    totals = {"TL": 8, "SL": 8, "SH": 6, "ASH": 6, "ATL": 4, "ASL": 4, "BI": 4, "JP": 4,
              "SC": 4, "XXX": 4, "FL": 2, "ST": 2, "CS": 2, "RL": 2, "AFL": 2, "AST": 2,
              "ACS": 2, "ARL": 2}
    assert Counter(game.art_code.values()) == totals
    for half in ((3, 4, 5), (6, 7, 8)):
        codes = Counter(game.art_code[a] for (r, _), aids in game.ground.items() if r in half
                        for a in aids)
        assert codes == {k: v // 2 for k, v in totals.items()}


def test_articles_are_point_symmetric_02_S3_3(game: api.GameState) -> None:
    """02/§3.3: the article layout is unchanged by a 180° rotation (a3<->j8, d4<->g7, e5<->f6)."""
    def codes(r: int, c: int) -> list[str]:
        return sorted(game.art_code[a] for a in game.ground.get((r, c), ()))
    for r in range(1, 11):
        for c in range(1, 11):
            assert codes(r, c) == codes(11 - r, 11 - c)
    assert codes(3, 1) == ["ASH"] and codes(3, 10) == ["SH"]


# -- starting state beyond placement -----------------------------------------------------------

def _sid(entry_id: str) -> int:
    return [p["id"] for p in setup_json()["pieces"]].index(entry_id) + 1


def test_stealth_pawns_start_locked_on_each_other_02_S2_7_02_G25_A_25(game: api.GameState) -> None:
    """02/§2.7, 02/G25, A-25, RUL-19: e2 and f9 Stealth Pawns' inherent Anti-Stealth lock onto
    each other; these are the only locks."""
    b, w = _sid("B-e2-SHP"), _sid("W-f9-SHP")
    assert game.locks == {("p", b): w, ("p", w): b}


def test_only_the_aaas_start_hidden_02_S2_7_01_R21_6_D2_D3(game: api.GameState) -> None:
    """02/§2.7, 01/R21.6, 02/D2-D3: the AAAs (inherent Stealth) are hidden from the enemy; the
    locked Stealth Pawns are visible; Subs on the Ground are not submerged."""
    assert hidden_from(game, "W") == {_sid("B-c2-AAA"), _sid("B-h2-AAA")}
    assert hidden_from(game, "B") == {_sid("W-c9-AAA"), _sid("W-h9-AAA")}


def test_without_lock_on_the_stealth_pawns_are_hidden_02_D5() -> None:
    """02/D5 off: no starting locks, so each Stealth Pawn is hidden as well as the AAAs."""
    s = api.new_game(api.Options(stealth_lock_on=False))
    assert s.locks == {}
    assert hidden_from(s, "W") == {_sid("B-c2-AAA"), _sid("B-h2-AAA"), _sid("B-e2-SHP")}


def test_without_stealth_invisibility_nothing_is_hidden_02_D2() -> None:
    """02/D2 off: Stealth hides nothing."""
    s = api.new_game(api.Options(stealth_invisibility=False))
    assert hidden_from(s, "W") == frozenset() and hidden_from(s, "B") == frozenset()


def test_reinforcement_squares_RUL_33_01_R21_3_02_D10(game: api.GameState) -> None:
    """RUL-33, 01/R16.4, 01/R21.3, 02/D10: one waiting reinforcement per square, Black's on rank 8,
    White's on rank 3 (2 JE, 2 SU, secondary, DO, CL, TA, AAA, DS per side; hands per RUL-32)."""
    want = {parse_square(n): v for n, v in REINFORCEMENTS.items()}
    assert game.reinforcements == want
    for side in "BW":
        kinds = Counter(k for s, k, _ in game.reinforcements.values() if s == side)
        assert kinds == {"JE": 2, "SU": 2, "Q": 1, "DO": 1, "CL": 1, "TA": 1, "AAA": 1, "DS": 1}


def test_no_reinforcements_option_RUL_33() -> None:
    """RUL-33 option reinforcement_layout = none: nothing waits."""
    assert api.new_game(api.Options(reinforcement_layout="none")).reinforcements == {}


# -- government types ----------------------------------------------------------------------------

GOV = {"monarchy": ("K", "Q"), "dictatorship": ("DI", "AS"), "theocracy": ("AV", "AC"),
       "democracy": ("PR", "PM")}
DEFENCES = {"K": {"AFL", "ARL"}, "DI": {"ACS", "ARL"}, "AV": {"AST", "ARL"}, "PR": {"ACS", "AFL"},
            "Q": {"ACS", "AST"}, "AS": {"AFL", "AST"}, "AC": {"AFL", "ACS"}, "PM": {"ARL", "AST"}}
ALL_ARTICLES = ("FL", "ST", "CS", "RL", "SL", "TL", "BI", "JP", "SC", "AFL", "AST", "ACS", "ARL",
                "ASL", "ATL", "SH", "ASH", "XXX")


def test_default_government_is_monarchy_02_D9_A_26(game: api.GameState) -> None:
    """02/D9, A-26: King e1/f10 and Queen f1/e10 for both sides; Queens reinforce e8/f3."""
    assert [game.pieces[s].kind for s in game.at(1, 5, "G")] == ["K"]
    assert [game.pieces[s].kind for s in game.at(10, 5, "G")] == ["Q"]


@pytest.mark.parametrize("gov", sorted(GOV))
def test_government_type_per_side_01_R9_1_R9_2_R2_5_02_D9(gov: str) -> None:
    """01/R2.5, R9.1-R9.2, 02/D9: Black's choice fixes its primary (e1) and secondary (f1) piece
    and the secondary reinforcement on e8; the inherent abilities are the two defences of the
    table and nothing else; White keeps Monarchy."""
    s = api.new_game(api.Options(gov_black=gov))
    primary, secondary = GOV[gov]
    p = s.pieces[s.at(1, 5, "G")[0]]
    q = s.pieces[s.at(1, 6, "G")[0]]
    assert (p.kind, q.kind) == (primary, secondary)
    assert (KINDS[p.kind].role, KINDS[q.kind].role) == ("primary", "secondary")
    assert s.reinforcements[(8, 5)] == ("B", secondary, "")
    assert s.reinforcements[(3, 6)] == ("W", "Q", "")
    assert [s.pieces[x].kind for x in s.at(10, 6, "G")] == ["K"]
    for piece in (p, q):
        assert {a for a in ALL_ARTICLES if has_ability(s, piece, a)} == DEFENCES[piece.kind]


def test_democracy_gives_president_and_prime_minister_02_D9() -> None:
    """The brief's example: Options(gov_black="democracy") -> PR (ACS, AFL), PM (ARL, AST)."""
    s = api.new_game(api.Options(gov_black="democracy"))
    pr, pm = s.pieces[7], s.pieces[8]            # serials 7, 8 = B-e1-K, B-f1-Q slots (RUL-40)
    assert (pr.kind, pr.row, pr.col, pm.kind, pm.row, pm.col) == ("PR", 1, 5, "PM", 1, 6)
    assert has_ability(s, pr, "ACS") and has_ability(s, pr, "AFL")
    assert not has_ability(s, pr, "ARL") and not has_ability(s, pr, "AST")
    assert has_ability(s, pm, "ARL") and has_ability(s, pm, "AST")
    assert not has_ability(s, pm, "ACS") and not has_ability(s, pm, "AFL")


# -- piece types and article types (01/R7.7, R8.1, R8.3, R10.4, RUL-38) -------------------------

INHERENT = {
    "TA": {"FL"}, "CL": {"CS"}, "CH": {"ST"}, "DO": set(), "DS": {"TL"}, "AAA": {"SH", "SL"},
    "SU": {"TL", "RL"}, "JE": {"SL", "RL"}, "RP": {"RL", "ARL"}, "FP": {"FL", "AFL"},
    "SP": {"ST", "AST"}, "CP": {"CS", "ACS"}, "SOP": {"SL", "TL"}, "XP": {"XXX"},
    "SHP": {"SH", "ASH"}, **DEFENCES,
}


@pytest.mark.parametrize("kind", sorted(INHERENT))
def test_inherent_abilities_01_R7_7_R8_1_R8_3_R9_2(kind: str) -> None:
    """01/R7.7, R8.1, R8.3 (Bulldozer: none), R9.2: a piece holding nothing has exactly its
    type's inherent abilities (01/R10.5: they work like the article of the same name)."""
    hand = ">" if KINDS[kind].handed else ""
    s = pos(f"piece B K j1 G\npiece W K j10 G\npiece B {kind}{hand} e5 G\n")
    piece = s.pieces[3]
    assert {a for a in ALL_ARTICLES if has_ability(s, piece, a)} == INHERENT[kind]


def test_capabilities_by_type_01_R8_1_02_G35() -> None:
    """01/R8.1, 02/G35, RUL-24, RUL-25: Coexistence (union), carrying, handedness, roles."""
    assert {k for k, v in KINDS.items() if v.carrier} == {"CH", "SU"}
    assert {k for k, v in KINDS.items() if v.handed} == {"TA", "CL", "CH"}
    assert {k for k, v in KINDS.items() if v.role == "secondary"} == {"Q", "AS", "AC", "PM"}
    assert {k for k, v in KINDS.items() if v.role == "primary"} == {"K", "DI", "AV", "PR"}


def test_eighteen_article_types_in_their_classes_01_R10_4_02_S3() -> None:
    """01/R10.4, 01/§11, 02/G13: 6 weapons, 3 transports, 6 defences (each against one weapon),
    plus Stealth, Anti-Stealth and XXX: 18 types."""
    from engine.pieces import ARTICLES, DEFENCES as DEF, TRANSPORTS, WEAPONS
    assert set(WEAPONS) == {"FL", "ST", "CS", "RL", "SL", "TL"}
    assert set(TRANSPORTS) == {"BI", "JP", "SC"}
    assert DEF == {"AFL": "FL", "AST": "ST", "ACS": "CS", "ARL": "RL", "ASL": "SL", "ATL": "TL"}
    assert sorted(ARTICLES) == sorted(ALL_ARTICLES) and len(ARTICLES) == 18


def test_option_defaults_RUL_38_02_S4() -> None:
    """RUL-38 (and 02/D1-D29 where they are options): Options() is the standard game."""
    o = api.Options()
    assert (o.movement_type, o.gov_black, o.gov_white) == ("weaponized_chess", "monarchy",
                                                            "monarchy")           # D1, D9
    assert (o.tank_range, o.cleric_range, o.queen_tank_range, o.queen_cleric_range) == (7, 7, 7, 7)
    assert (o.sub_jet_combat, o.flamer_range, o.stun_range, o.stun_duration) == (False, 1, 9, 3)
    assert (o.restricted_rocket_range, o.homing_range, o.projectile_speed) == (0, 3, 1)
    assert (o.rate_stunner, o.rate_flamer, o.rate_conversion, o.rate_rocket, o.rate_sam,
            o.rate_torpedo) == (2, 4, 4, 4, 4, 4)                                  # D25-D28
    assert o.fire_limit_rule == "per_source"
    assert (o.stealth_invisibility, o.submerged_invisibility, o.stealth_lock_on) == \
        (True, True, True)                                                        # D2, D3, D5
    assert (o.stealth_range_detection, o.stealth_detect_range, o.submerged_detect_range) == \
        (False, 3, 3)                                                             # D14, D15
    assert (o.reveal_stealth_on_fire, o.reveal_submerged_on_fire,
            o.reveal_stealth_on_capture) == (True, True, True)                    # D4, D7, D6
    assert (o.detection_dominance, o.stealthy_primary_allowed, o.primary_may_fly_or_dive) == \
        ("submerge", False, True)                                                 # D21
    assert (o.enemy_nudging, o.transport_ground_to_ground_only) == (True, True)  # D20, D22
    assert (o.bike_distance, o.transport_max_distance, o.transport_speed) == (1, 3, 1)
    assert (o.one_action_per_piece, o.move_only, o.stunned_may_act,
            o.chopper_must_land_next_turn) == (False, False, True, True)          # D23
    assert (o.coexistence_set, o.handedness_scheme, o.reinforcement_layout) == \
        ("union", "inward", "standard")
    assert (o.competitive, o.ply_limit) == (False, 0)                             # D24, RUL-53
