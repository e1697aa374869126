"""Game History notation: printer and parser (04 Part 2, RUL-35, RUL-36, RUL-51)."""
from __future__ import annotations

import random

import pytest

from engine.actions import (
    AIR,
    GROUND,
    SUB,
    Drop,
    EndTurn,
    Exchange,
    Fire,
    Move,
    PickUp,
    PieceDesc,
    Reinforce,
    Result,
    Transport,
    Turn,
)
from engine.notation import (
    ARTICLES,
    FIRING_ARTICLES,
    PIECE_TYPES,
    RESULT_TYPES,
    NotationError,
    format_action,
    format_history,
    format_turn,
    parse_action,
    parse_history,
    parse_turn,
)

# --------------------------------------------------------------------------- vectors

#: 04/H25 constructed examples (the ``…,RS:`` fragment completed with ``MV:-``, RUL-36).
H25_EXAMPLES = [
    "MV:JE(1,4)->^(1,4)",
    "MV:SU(1,2)->v(1,2)",
    "MV:TA(1,1)1FL>->(5,1),FI1:FL/TA(5,1)1FL>->(6,1)",
    "MV:CH(1,4)<->(3,5)-TRA->JE(1,4)(3,5)",
    "MV:DO(1,2)->(2,2),DO>(2,2)SU(1,2),RP(2,1),CL(1,3)",
    "MV:K(1,6)->(2,6),FI1:SL/AAA(2,3)=>JE^(6,4)1XXX,PU:K(2,6)^AFL",
    "MV:PR(1,6)->(2,6),EX:PM(1,5)1ARL->ARL->TA(3,1)>",
    "MV:PR(1,6)->(2,6),EX:PM(1,5)1ARL->ARL<=>FL<-TA(3,1)1FL>",
    "MV:CL(9,5)<->(7,3),RE:(9,5)TA>",
    "MV:TA(3,1)1FL>->(3,2),DR:TA(3,2)1FL>vFL",
    "MV:TA(3,1)1FL>->(3,2),DR:TA(3,1)1FL>vFL",
    "MV:RP(2,1)->(3,2),FI1:RL/RP(3,2)->(4,2),RS:R->(4,2)(1,0)",
    "MV:-,RS:RK*CL(7,2)1ST<0W,STK*JE^(5,5)0B",
    "MV:TA(2,2)>->(6,2),RS:TAv(4,2),TA*SHP(4,2)0W",
]

#: Full history lines of the test scenarios of 00-rulings.md.
SCENARIO_LINES = {
    "00/T22": "MV:TA(1,1)>->(8,4),RS:TAv(4,1),TA*RP(4,1)1SH0W",
    "00/T27": "MV:K(8,4)->(8,3),RE:(8,4)JE",
    "00/T31": "MV:CH(1,4)>->(3,5)-TRA->JE(1,4)(3,5),RS:CH*RP(3,5)0W",
    "00/T33": "MV:-",
    "00/T34": "MV:SUv(8,5)->v(7,5)",
    "00/T41": "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6),AAA(5,6)",
    "00/T41-stall": "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4),RP(3,4),DS(3,6),FP(5,6),RS:DOv(4,5)",
    "00/T43": "MV:DO(8,4)->(8,3),RE:(8,4)JE",
    "00/T45": "MV:CH^(3,5)>->(5,7),RS:CHv(4,6),CH*JE^(4,6)1SH0W",
}

#: Part fragments of the scenarios, completed into a turn line by prefixing ``MV:-,``.
SCENARIO_FRAGMENTS = {
    "00/T12": "RS:CH*XP(6,5)2AFLARL3W",
    "00/T13": "RS:STK*TA^(5,5)1JP<0W",
    "00/T15": "RS:CK*TA^(5,4)1ACS>0B",
    "00/T15-corrected": "RS:JE*CH^(5,4)>0B,CK*TA^(5,4)1ACS>0B",
    "00/T16-create": "RS:R->(3,2)(1,0)",
    "00/T16-hit": "RS:Rv(7,2),RK*SP(7,2)0W",
    "00/T26": "FI1:SC/DO(3,5)1SC->(5,6)<",
    "00/T27-variant": "RE:(8,1)TA>",
    "00/T35-stunner": "FI1:ST/SP(2,2)->(2,3)",
    "00/T35-jump": "FI1:JU/TA(3,5)1JP>->(6,5)",
    "00/T39": "RS:JE*CH^(5,4)>0B,TAv(5,4)",
    "00/T39-variant": "RS:JE*CH^(5,4)>0B,TA*TA^(5,4)1AFL>0B",
    "00/T40": "RS:CH*JE^(5,5)1SH0W",
    "00/T42": "RS:Rv(5,3),Rv(5,3),RK*DS(5,3)1ARL0W",
    "00/T46": "RS:SP*DS(5,5)1AFL3W,SP*FP(5,5)1ARL3W",
}

ALL_LINES = (
    [(f"04/H25 #{n}", s) for n, s in enumerate(H25_EXAMPLES, 1)]
    + list(SCENARIO_LINES.items())
    + [(k, "MV:-," + v) for k, v in SCENARIO_FRAGMENTS.items()]
)


def P(kind: str, row: int, col: int, *articles: str, level: str = GROUND, orient: str = "") -> PieceDesc:
    """Short PieceDesc constructor for expected values."""
    return PieceDesc(kind, level, row, col, tuple(articles), orient)


def only_results(line: str) -> tuple[Result, ...]:
    """The results of a line that has a ``MV:-`` and nothing else."""
    t = parse_turn(line)
    assert t.move is None and not t.transports and not t.fires
    return t.results


# --------------------------------------------------------------------------- round trips

@pytest.mark.parametrize("rule,line", ALL_LINES, ids=[k for k, _ in ALL_LINES])
def test_record_round_trips_byte_identically(rule: str, line: str) -> None:
    """04/H25 and the records of 00/T12-T46 parse and re-print unchanged (04/H24)."""
    turn = parse_turn(line)
    assert format_turn(turn) == line
    assert parse_turn(format_turn(turn)) == turn


def test_t22_exact_values() -> None:
    """00/T22, 04/H21: requested Move to (8,4), actual stop at (4,1) taking a stealthy Pawn."""
    t = parse_turn(SCENARIO_LINES["00/T22"])
    assert t == Turn(
        move=Move(P("TA", 1, 1, orient=">"), GROUND, 8, 4),
        results=(
            Result("TA", "v", 4, 1),
            Result("TA", "*", piece=P("RP", 4, 1, "SH"), stun=0, colour="W"),
        ),
    )


def test_t31_passenger_exact_values() -> None:
    """00/T31, RUL-36: the Transport right after the Move, from its cell to its destination, is the passenger."""
    t = parse_turn(SCENARIO_LINES["00/T31"])
    assert t.move == Move(P("CH", 1, 4, orient=">"), GROUND, 3, 5, passenger=P("JE", 1, 4))
    assert t.transports == ()
    assert t.results == (Result("CH", "*", piece=P("RP", 3, 5), stun=0, colour="W"),)


def test_t41_doze_exact_values() -> None:
    """00/T41, 04/H14: Doze entries are (type, starting square); a hidden member is an ordinary entry."""
    t = parse_turn(SCENARIO_LINES["00/T41"])
    assert t.move == Move(P("DO", 4, 5), GROUND, 4, 4,
                          doze=(("FP", 4, 5), ("FP", 5, 6), ("AAA", 5, 6)))
    stall = parse_turn(SCENARIO_LINES["00/T41-stall"])
    assert len(stall.move.doze) == 5
    assert stall.results == (Result("DO", "v", 4, 5),)


def test_t45_air_mover_exact_values() -> None:
    """00/T45, RUL-51(c): the mover is in the Air; its stop is written without a level."""
    t = parse_turn(SCENARIO_LINES["00/T45"])
    assert t.move == Move(P("CH", 3, 5, level=AIR, orient=">"), GROUND, 5, 7)
    assert t.results == (
        Result("CH", "v", 4, 6),
        Result("CH", "*", piece=P("JE", 4, 6, "SH", level=AIR), stun=0, colour="W"),
    )


def test_t34_sub_level_move() -> None:
    """00/T34, 04/H6: ``v`` before a square is the Sub level, both in the piece and the destination."""
    assert parse_turn("MV:SUv(8,5)->v(7,5)").move == Move(P("SU", 8, 5, level=SUB), SUB, 7, 5)


def test_t33_turn_without_move() -> None:
    """00/T33, RUL-36: a turn without a Move is ``MV:-``; other parts may follow."""
    assert parse_turn("MV:-") == Turn(None)
    assert format_turn(Turn(None)) == "MV:-"
    line = "MV:--TRA->TA^(3,5)1JP>^(4,5),FI1:ST/SP(2,2)->(2,3)"
    t = parse_turn(line)
    assert t.move is None
    assert t.transports == (Transport(P("TA", 3, 5, "JP", level=AIR, orient=">"), AIR, 4, 5),)
    assert format_turn(t) == line


def test_t12_articles_then_stun() -> None:
    """00/T12, 04/H23.5: ``2AFLARL3W`` is two articles, stun 3, White."""
    (r,) = only_results("MV:-," + SCENARIO_FRAGMENTS["00/T12"])
    assert r == Result("CH", "*", piece=P("XP", 6, 5, "AFL", "ARL"), stun=3, colour="W")


def test_t13_orient_after_articles_before_stun() -> None:
    """00/T13, 04/H23.5/7: ``1JP<0W`` is articles [JP], left, stun 0, White."""
    (r,) = only_results("MV:-," + SCENARIO_FRAGMENTS["00/T13"])
    assert r == Result("STK", "*", piece=P("TA", 5, 5, "JP", level=AIR, orient="<"), stun=0, colour="W")


def test_t16_projectile_records() -> None:
    """00/T16, RUL-36: projectile creation ``R->(r,c)(dr,dc)`` and hit ``Rv(r,c)`` plus kill."""
    assert only_results("MV:-," + SCENARIO_FRAGMENTS["00/T16-create"]) == (
        Result("R", "->", 3, 2, 1, 0),)
    assert only_results("MV:-," + SCENARIO_FRAGMENTS["00/T16-hit"]) == (
        Result("R", "v", 7, 2),
        Result("RK", "*", piece=P("SP", 7, 2), stun=0, colour="W"),
    )


def test_t26_transport_fire_with_path() -> None:
    """00/T26, 04/H15: a Scuba Fire writes its destination and the port path ``<``."""
    (f,) = parse_turn("MV:-," + SCENARIO_FRAGMENTS["00/T26"]).fires
    assert f == Fire("SC", P("DO", 3, 5, "SC"), 5, 6, "<")


def test_h25_homing_fire_and_pickup() -> None:
    """04/H25, H15/H16: ``=>`` aims at a piece; ``PU:`` piece ``^`` article."""
    t = parse_turn(H25_EXAMPLES[5])
    assert t.fires == (Fire("SL", P("AAA", 2, 3), target=P("JE", 6, 4, "XXX", level=AIR)),)
    assert t.pickup == PickUp(P("K", 2, 6), "AFL")


def test_h25_exchange_forms() -> None:
    """04/H17, H8 [R6]: ``->A->`` is a transfer, ``->A<=>B<-`` a swap."""
    assert parse_turn(H25_EXAMPLES[6]).exchange == Exchange(
        P("PM", 1, 5, "ARL"), "ARL", P("TA", 3, 1, orient=">"))
    assert parse_turn(H25_EXAMPLES[7]).exchange == Exchange(
        P("PM", 1, 5, "ARL"), "ARL", P("TA", 3, 1, "FL", orient=">"), swapped="FL")


def test_h25_reinforce_and_drop() -> None:
    """04/H18, H19: ``RE:`` square type orient; ``DR:`` piece ``v`` article."""
    t = parse_turn(H25_EXAMPLES[8])
    assert t.move == Move(P("CL", 9, 5, orient="<"), GROUND, 7, 3)
    assert t.reinforce == Reinforce(9, 5, "TA", ">")
    assert parse_turn(H25_EXAMPLES[9]).drop == Drop(P("TA", 3, 2, "FL", orient=">"), "FL")


# --------------------------------------------------------------------------- aliases (RUL-35)

def test_t35_stp_alias_reads_as_sp() -> None:
    """00/T35, RUL-35: ``STP`` is accepted wherever a piece type is and printed ``SP``."""
    canonical = parse_turn("MV:-," + SCENARIO_FRAGMENTS["00/T35-stunner"])
    assert parse_turn("MV:-,FI1:ST/STP(2,2)->(2,3)") == canonical
    assert canonical.fires[0].piece.kind == "SP"
    t = parse_turn("MV:STP(2,2)->(3,2),DO>(3,2)STP(2,2),RE:(8,4)STP,RS:STP*STP(5,5)0B")
    assert format_turn(t) == "MV:SP(2,2)->(3,2),DO>(3,2)SP(2,2),RE:(8,4)SP,RS:SP*SP(5,5)0B"


def test_t35_jump_pack_aliases() -> None:
    """00/T35, RUL-35: ``JP`` as firing article reads ``JU``; ``JU`` in an article list reads ``JP``."""
    canonical = parse_turn("MV:-," + SCENARIO_FRAGMENTS["00/T35-jump"])
    assert canonical.fires[0].article == "JU"
    assert canonical.fires[0].piece.articles == ("JP",)
    for alias in ("FI1:JP/TA(3,5)1JP>->(6,5)", "FI1:JU/TA(3,5)1JU>->(6,5)",
                  "FI1:JP/TA(3,5)1JU>->(6,5)"):
        t = parse_turn("MV:-," + alias)
        assert t == canonical
        assert format_turn(t) == "MV:-," + SCENARIO_FRAGMENTS["00/T35-jump"]


def test_printer_writes_aliases_canonically() -> None:
    """RUL-35, 04/H24: values holding ``STP`` / ``JU`` articles / ``JP`` firing print as SP / JP / JU."""
    f = Fire("JP", PieceDesc("STP", GROUND, 3, 5, ("JU",)), 6, 5)
    assert format_action(f) == "FI:JU/SP(3,5)1JP->(6,5)"
    assert parse_action(format_action(f)) == Fire("JU", P("SP", 3, 5, "JP"), 6, 5)


def test_kill_tokens_are_not_articles() -> None:
    """RUL-35, 04/H9c: TK/RK/SK are never printed as articles, and this parser rejects them there."""
    with pytest.raises(NotationError, match=r"'TK' is a kill result.* at 12 "):
        parse_turn("MV:TA(1,1)1TK->(2,2)")
    with pytest.raises(NotationError, match="cannot format article 'RK'"):
        format_action(PickUp(P("K", 1, 1), "RK"))


# --------------------------------------------------------------------------- lexical rules (04/H23)

@pytest.mark.parametrize("tail,piece,stun,colour", [
    ("1BI2B", P("TA", 4, 1, "BI"), 2, "B"),
    ("12B", P("TA", 4, 1), 12, "B"),
    ("1B", P("TA", 4, 1), 1, "B"),
    ("255W", P("TA", 4, 1), 255, "W"),
    ("3XXXFLST>100W", P("TA", 4, 1, "XXX", "FL", "ST", orient=">"), 100, "W"),
    ("2SCST<0B", P("TA", 4, 1, "SC", "ST", orient="<"), 0, "B"),
])
def test_h23_articles_versus_stun(tail: str, piece: PieceDesc, stun: int, colour: str) -> None:
    """04/H23.5: a digit 1-3 starts Articles only if an article token follows it."""
    line = f"MV:-,RS:RK*TA(4,1){tail}"
    assert only_results(line) == (Result("RK", "*", piece=piece, stun=stun, colour=colour),)
    assert format_turn(parse_turn(line)) == line


@pytest.mark.parametrize("rtype", ["R", "T", "S", "RK", "TK", "SK", "STK", "CK",
                                   "RP", "TA", "SU", "SP", "SHP", "SOP", "CL", "CH", "CP", "Q", "K"])
def test_h23_result_types_longest_match(rtype: str) -> None:
    """04/H23.3: result types are matched longest first (R/RK/RP, S/SK/STK/SU/SP/SHP/SOP)."""
    for form in ("->(2,3)(-1,1)", "v(10,10)", "*JE^(5,5)0B"):
        line = f"MV:-,RS:{rtype}{form}"
        (r,) = only_results(line)
        assert r.kind == rtype
        assert format_turn(parse_turn(line)) == line


def test_h23_index_ten_before_one() -> None:
    """04/H23.4: ``10`` is read before ``1``; both orders of (1,10) / (10,1) work."""
    t = parse_turn("MV:K(10,1)->(1,10)")
    assert (t.move.piece.row, t.move.piece.col, t.move.row, t.move.col) == (10, 1, 1, 10)


def test_h23_doze_entry_versus_next_part() -> None:
    """04/H23.6: ``,DO(`` is a dozed Dozer, ``,DI(`` a dozed Dictator; ``,DR:`` starts the next part."""
    line = "MV:DO(5,5)->(6,5),DO>(6,5)DO(5,5),DI(5,4),DS(4,5),FI1:FL/TA(1,1)->(2,1),DR:K(1,1)1FLvFL"
    t = parse_turn(line)
    assert t.move.doze == (("DO", 5, 5), ("DI", 5, 4), ("DS", 4, 5))
    assert t.drop == Drop(P("K", 1, 1, "FL"), "FL")
    assert format_turn(t) == line


def test_h23_orient_next_to_arrows() -> None:
    """04/H23.7: ``<``/``>`` after a piece is Orient, even right before ``->``, ``=>`` or ``<=>``."""
    line = ("MV:CH(1,4)<->(3,5),FI1:SL/CH(3,5)<=>JE^(6,4)>,"
            "EX:TA(3,1)1FL>->FL<=>ST<-CL(3,2)1ST<")
    t = parse_turn(line)
    assert t.move.piece.orient == "<"
    assert t.fires[0].piece.orient == "<" and t.fires[0].target.orient == ">"
    assert t.exchange == Exchange(P("TA", 3, 1, "FL", orient=">"), "FL",
                                  P("CL", 3, 2, "ST", orient="<"), swapped="ST")
    assert format_turn(t) == line


def test_h23_commas_inside_squares() -> None:
    """04/H23.8: commas of ``(r,c)`` and ``(dr,dc)`` do not split results."""
    assert only_results("MV:-,RS:S->(10,10)(-1,-1),T->(1,1)(0,-1)") == (
        Result("S", "->", 10, 10, -1, -1), Result("T", "->", 1, 1, 0, -1))


def test_h20_piece_type_projectile_form_is_accepted() -> None:
    """04/H20: ``PieceType->(r,c)(dr,dc)`` has no reading, but the parser accepts it (pure syntax)."""
    line = "MV:-,RS:TA->(4,4)(0,0)"
    assert format_turn(parse_turn(line)) == line


# --------------------------------------------------------------------------- normalisations

def test_transport_trailing_articles_are_dropped() -> None:
    """04/H8 [R5], RUL-36: trailing Transport Articles are accepted and not printed."""
    t = parse_turn("MV:--TRA->TA^(3,5)1JP^(4,5)1JP")
    assert t.transports == (Transport(P("TA", 3, 5, "JP", level=AIR), AIR, 4, 5),)
    assert format_turn(t) == "MV:--TRA->TA^(3,5)1JP^(4,5)"


def test_transport_that_is_not_a_passenger() -> None:
    """RUL-36 passenger rule: a Transport from another cell, or to another cell, is a trip step."""
    line = "MV:CH(1,4)>->(3,5)-TRA->JE(2,4)(3,5)-TRA->JE(1,4)(3,5)"
    t = parse_turn(line)
    assert t.move.passenger is None
    assert [tr.piece.row for tr in t.transports] == [2, 1]  # only the first part can be a passenger
    assert format_turn(t) == line
    assert parse_turn("MV:CH(1,4)>->(3,5)-TRA->JE(1,4)^(3,5)").move.passenger is None


def test_passenger_normalisation() -> None:
    """RUL-36 passenger rule: a first transport that looks like a passenger reads back as one."""
    move = Move(P("SU", 1, 2), SUB, 1, 2)
    trip = Transport(P("DO", 1, 2), SUB, 1, 2)
    t = Turn(move, (trip,))
    assert format_turn(t) == "MV:SU(1,2)->v(1,2)-TRA->DO(1,2)v(1,2)"
    assert parse_turn(format_turn(t)) == Turn(Move(P("SU", 1, 2), SUB, 1, 2, passenger=P("DO", 1, 2)))


def test_doze_after_transport_is_normalised() -> None:
    """04/H7 ``(Transport|Doze)*``: a Doze after a trip step is accepted and printed after the Move."""
    t = parse_turn("MV:DO(4,5)->(4,4)-TRA->TA^(1,1)^(2,1),DO>(4,4)FP(4,5)")
    assert t.move.doze == (("FP", 4, 5),)
    assert format_turn(t) == "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5)-TRA->TA^(1,1)^(2,1)"


def test_passenger_with_doze_round_trips() -> None:
    """04/H14, RUL-36: passenger first, then the Doze, then the trip steps."""
    m = Move(P("DO", 4, 5), GROUND, 4, 4, passenger=P("FP", 4, 5), doze=(("RP", 5, 6),))
    t = Turn(m, (Transport(P("JE", 4, 5), GROUND, 4, 4),))
    s = format_turn(t)
    assert s == "MV:DO(4,5)->(4,4)-TRA->FP(4,5)(4,4),DO>(4,4)RP(5,6)-TRA->JE(4,5)(4,4)"
    assert parse_turn(s) == t


# --------------------------------------------------------------------------- errors

BAD_LINES = [
    # (text, 1-based position, message fragment, rule)
    ("MV:TA(1,1)>->8,4)", 14, "expected '('", "04/H7 Square"),
    ("MV:K(8,4)->(8,3)x", 17, "expected ',' and a part", "trailing garbage"),
    ("MV:K(8,4)->(8,3) ", 17, "expected ',' and a part", "04/H23.1 no whitespace"),
    ("MV:K(8,4)->(8,3),", 17, "expected ','", "dangling comma"),
    ("", 1, "expected 'MV:'", "04/H12 Move first"),
    ("FI1:ST/SP(2,2)->(2,3)", 1, "expected 'MV:'", "04/H12 Move first"),
    ("MV:K(0,4)->(8,3)", 6, "bad index '0'", "04/H9"),
    ("MV:K(11,4)->(8,3)", 6, "bad index '11'", "04/H9"),
    ("MV:K(01,4)->(8,3)", 6, "bad index '01'", "04/H9 leading zero"),
    ("MV:K(8,4)->(8,)", 15, "expected a row or column", "04/H7 Index"),
    ("MV:K(8,4)->(8,3", 16, "expected ')'", "04/H7 Square"),
    ("MV:-,RS:CH*XP(6,5)256W", 19, "above 255", "04/H9 Stun"),
    ("MV:-,RS:CH*XP(6,5)03W", 19, "leading zero", "04/H9 Stun"),
    ("MV:-,RS:CH*XP(6,5)00W", 19, "leading zero", "04/H9 Stun"),
    ("MV:-,RS:CH*XP(6,5)W", 19, "expected a stun", "04/H7 Stun"),
    ("MV:-,RS:CH*XP(6,5)3", 20, "expected colour", "04/H7 Colour"),
    ("MV:-,RS:CH*XP(6,5)3X", 20, "expected colour", "04/H7 Colour"),
    ("MV:TA(1,1)2FL>->(5,1)", 11, "count 2 does not match 1", "04/H9 Count"),
    ("MV:TA(1,1)1FLST>->(5,1)", 11, "count 1 does not match 2", "04/H9 Count"),
    ("MV:-,RS:CH*XP(6,5)3AFLARL3W", 19, "count 3 does not match 2", "04/H9 Count"),
    ("MV:TA(1,1)3FLSTCSRL->(5,1)", 18, "more than 3 articles", "04/H7 Article{1,3}"),
    ("MV:TA(1,1)4FLSTCSRL->(5,1)", 11, "article count must be 1-3", "04/H7 Count"),
    ("MV:TA(1,1)1ZZ->(5,1)", 11, "expected '->'", "04/H9c unknown article"),
    ("MV:-,RS:R->(4,2)(-0,1)", 18, "'-0'", "04/H8 [R7]"),
    ("MV:-,RS:R->(4,2)(1,-0)", 20, "'-0'", "04/H8 [R7]"),
    ("MV:-,RS:R->(4,2)(2,0)", 18, "beyond ±1", "04/H7 Step"),
    ("MV:-,RS:R->(4,2)(1,-1", 22, "expected ')'", "04/H7 Offset"),
    ("MV:-,RS:R->(4,2)(--1,0)", 18, "expected an offset", "04/H8 [R7]"),
    ("MV:TX(1,1)->(2,2)", 4, "unknown piece type", "04/H9b"),
    ("MV:-,FI1:XX/TA(1,1)->(2,1)", 10, "unknown firing article", "04/H9d"),
    ("MV:-,FI1:SH/TA(1,1)->(2,1)", 10, "unknown firing article", "04/H9d SH is not fired"),
    ("MV:-,FI1:FL/TA(1,1)(2,1)", 20, "expected '->' or '=>'", "04/H15"),
    ("MV:-,RS:Z->(4,2)(1,0)", 9, "unknown result type", "04/H9e"),
    ("MV:-,RS:Rx(4,2)", 10, "expected '->', 'v' or '*'", "04/H7 Result"),
    ("MV:-,RS:", 9, "unknown result type", "04/H7 Results needs one"),
    ("MV:-,ZZ:K(1,1)", 5, "expected ',' and a part", "04/H9a unknown part"),
    ("MV:-,PU:K(1,1)^ZZ", 16, "unknown article", "04/H16"),
    ("MV:-,PU:K(1,1)AFL", 15, "expected '^'", "04/H16"),
    ("MV:-,DR:K(1,1)1FL^FL", 18, "expected 'v'", "04/H19"),
    ("MV:-,EX:PM(1,5)->ARL=>FL<-TA(3,1)", 21, "expected '->'", "04/H8 [R6]"),
    ("MV:-,EX:PM(1,5)->ARL<=>FL->TA(3,1)", 26, "expected '<-'", "04/H8 [R6]"),
    ("MV:DO(1,2)->(2,2),DO>(2,2)SU(1,2),RP(2,1),CL(1,3),DS(1,1),FP(3,3),SP(3,2)", 67,
     "more than 5 doze entries", "04/H7 Doze{0,4}"),
    ("MV:DO(1,2)->(2,2),DO>(2,3)SU(1,2)", 22, "Doze square must be the Move's destination", "04/H14"),
    ("MV:-,DO>(2,2)SU(1,2)", 5, "a Doze needs a Move", "04/H14"),
    ("MV:DO(1,2)->(2,2),DO>(2,2)SU(1,2),DO>(2,2)RP(2,1)", 34, "more than one Doze", "04/H8 [R2]"),
    ("MV:DO(1,2)->(2,2),DO>(2,2)", 27, "unknown piece type", "04/H7 Doze needs one entry"),
    ("MV:-,FI1:ST/SP(2,2)->(2,3),FI2:ST/SP(2,2)->(2,3),FI3:ST/SP(2,2)->(2,3)", 49,
     "more than 2 fires", "04/H8 [R2]"),
    ("MV:-,FI1:ST/SP(2,2)->(2,3),FI2:ST/SP(2,2)->(2,3),FI2:ST/SP(2,2)->(2,3)", 49,
     "more than 2 fires", "04/H8 [R2]"),
    ("MV:-,FI2:ST/SP(2,2)->(2,3)", 5, "expected ',FI1:'", "04/H7 Fire"),
    ("MV:-,FI1:ST/SP(2,2)->(2,3),FI1:ST/SP(2,2)->(2,3)", 27, "expected ',FI2:'", "04/H7 Fire"),
    ("MV:-,PU:K(1,1)^FL,FI1:ST/SP(2,2)->(2,3)", 18, "Fire part out of order", "04/H3"),
    ("MV:-,DR:K(1,1)1FLvFL,PU:K(1,1)^FL", 21, "'PU:' out of order", "04/H3"),
    ("MV:-,PU:K(1,1)^FL,PU:K(1,1)^ST", 18, "'PU:' out of order or repeated", "04/H8 [R2]"),
    ("MV:-,RS:Rv(1,1),RE:(1,1)JE", 16, "part 'RE:' out of order", "04/H3 Results last"),
    ("MV:-,RS:Rv(1,1),FI1:ST/SP(2,2)->(2,3)", 16, "part 'FI1' out of order", "04/H3 Results last"),
    ("MV:-,FI1:ST/SP(2,2)->(2,3)-TRA->JE(1,4)(3,5)", 27, "Transport part out of order", "04/H3"),
    ("MV:?", 4, "display-only", "RUL-36, RUL-37"),
    ("MV:?->v(6,5)", 4, "display-only", "RUL-36, RUL-37"),
    ("MV:K(1,1)->^(1,1", 17, "expected ')'", "04/H7 Square"),
    ("MV:k(1,1)->(2,1)", 4, "unknown piece type", "04/H23.1 upper case"),
    ("MV:K(1,1)->V(2,1)", 12, "expected '('", "04/H23.1 only v is lower case"),
]


@pytest.mark.parametrize("text,pos,fragment,rule", BAD_LINES,
                         ids=[f"{r}:{t[:40]}" for t, _, _, r in BAD_LINES])
def test_malformed_turn_is_rejected_with_position(text: str, pos: int, fragment: str, rule: str) -> None:
    """04/H7-H9, H23: malformed lines raise NotationError naming the position and the text."""
    with pytest.raises(NotationError) as info:
        parse_turn(text)
    err = info.value
    assert fragment in str(err)
    assert f" at {pos} in {text!r}" in str(err)
    assert err.pos == pos - 1 and err.text == text
    assert isinstance(err, ValueError)


@pytest.mark.parametrize("value,fragment", [
    (Turn(Move(P("K", 0, 1), GROUND, 1, 1)), "row/column 0"),
    (Turn(Move(P("K", 1, 1), "X", 1, 1)), "level 'X'"),
    (Turn(Move(P("XX", 1, 1), GROUND, 1, 2)), "piece type 'XX'"),
    (Turn(Move(P("K", 1, 1, "FL", "ST", "CS", "RL"), GROUND, 1, 2)), "more than 3"),
    (Turn(Move(P("K", 1, 1, orient="^"), GROUND, 1, 2)), "orientation"),
    (Turn(Move(P("CH", 1, 1), GROUND, 1, 2, passenger=P("JE", 2, 2))), "passenger"),
    (Turn(Move(P("DO", 1, 1), GROUND, 1, 2, doze=(("K", 1, 1),) * 6)), "more than 5"),
    (Turn(None, fires=(Fire("FL", P("TA", 1, 1), 2, 1),) * 3), "more than 2"),
    (Turn(None, fires=(Fire("SH", P("TA", 1, 1), 2, 1),)), "firing article 'SH'"),
    (Turn(None, fires=(Fire("SL", P("TA", 1, 1), 2, 1, target=P("JE", 3, 3)),)), "homing"),
    (Turn(None, results=(Result("R", "->", 1, 1, 2, 0),)), "offset 2"),
    (Turn(None, results=(Result("R", "v", 1, 1, 1, 0),)), "offset"),
    (Turn(None, results=(Result("R", "*", piece=None, colour="B"),)), "needs a piece"),
    (Turn(None, results=(Result("R", "*", piece=P("K", 1, 1), stun=256, colour="B"),)), "stun 256"),
    (Turn(None, results=(Result("R", "*", piece=P("K", 1, 1), colour=""),)), "colour"),
    (Turn(None, results=(Result("R", "x", 1, 1),)), "result form"),
    (Turn(None, results=(Result("X", "v", 1, 1),)), "result type"),
])
def test_printer_rejects_values_outside_the_grammar(value: Turn, fragment: str) -> None:
    """04/H7, H9, H24: the printer never writes a line the parser would reject or misread."""
    with pytest.raises(NotationError, match="cannot format") as info:
        format_turn(value)
    assert fragment in str(info.value)


# --------------------------------------------------------------------------- single actions

ACTION_VECTORS = [
    ("MV:TA(1,1)>->(8,4)", Move(P("TA", 1, 1, orient=">"), GROUND, 8, 4)),
    ("MV:CH(1,4)>->(3,5)-TRA->JE(1,4)(3,5)",
     Move(P("CH", 1, 4, orient=">"), GROUND, 3, 5, passenger=P("JE", 1, 4))),
    ("MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6),AAA(5,6)",
     Move(P("DO", 4, 5), GROUND, 4, 4, doze=(("FP", 4, 5), ("FP", 5, 6), ("AAA", 5, 6)))),
    ("FI:SC/DO(3,5)1SC->(5,6)<", Fire("SC", P("DO", 3, 5, "SC"), 5, 6, "<")),
    ("FI:SL/AAA(2,3)=>JE^(6,4)1XXX", Fire("SL", P("AAA", 2, 3), target=P("JE", 6, 4, "XXX", level=AIR))),
    ("PU:K(2,6)^AFL", PickUp(P("K", 2, 6), "AFL")),
    ("EX:PM(1,5)1ARL->ARL<=>FL<-TA(3,1)1FL>",
     Exchange(P("PM", 1, 5, "ARL"), "ARL", P("TA", 3, 1, "FL", orient=">"), "FL")),
    ("EX:PM(1,5)1ARL->ARL->TA(3,1)>", Exchange(P("PM", 1, 5, "ARL"), "ARL", P("TA", 3, 1, orient=">"))),
    ("RE:(8,1)TA>", Reinforce(8, 1, "TA", ">")),
    ("DR:TA(3,2)1FL>vFL", Drop(P("TA", 3, 2, "FL", orient=">"), "FL")),
    ("END", EndTurn()),
]


@pytest.mark.parametrize("text,action", ACTION_VECTORS, ids=[t for t, _ in ACTION_VECTORS])
def test_action_round_trip(text: str, action: object) -> None:
    """Single-action form: the turn part without its comma, ``FI:`` for a Fire, ``END`` (RUL-1)."""
    assert parse_action(text) == action
    assert format_action(action) == text


def test_action_accepts_numbered_fire_labels() -> None:
    """A Fire copied from a history line (``FI1:``/``FI2:``) is accepted and printed ``FI:``."""
    for label in ("FI1:", "FI2:"):
        a = parse_action(label + "ST/SP(2,2)->(2,3)")
        assert format_action(a) == "FI:ST/SP(2,2)->(2,3)"


@pytest.mark.parametrize("text,pos,fragment", [
    ("MV:-", 4, "not an action"),
    ("MV:CH(1,4)>->(3,5)-TRA->JE(2,4)(3,5)", 19, "must be its passenger"),
    ("MV:K(1,1)->(2,1),FI1:ST/SP(2,2)->(2,3)", 17, "unexpected"),
    ("END,", 4, "unexpected"),
    ("end", 1, "expected 'MV:'"),
    ("RS:Rv(1,1)", 1, "expected 'MV:'"),
    ("FI3:ST/SP(2,2)->(2,3)", 1, "expected 'MV:'"),
    ("RE:(8,1)TA>x", 12, "unexpected 'x'"),
])
def test_malformed_action_is_rejected(text: str, pos: int, fragment: str) -> None:
    """Single-action form: anything but exactly one action raises NotationError with its position."""
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert fragment in str(info.value)
    assert f" at {pos} in {text!r}" in str(info.value)


# --------------------------------------------------------------------------- histories

def test_history_round_trip() -> None:
    """04/H8 [R1]: one turn per line in play order, each line ending in a newline."""
    lines = [s for _, s in ALL_LINES]
    text = "\n".join(lines) + "\n"
    turns = parse_history(text)
    assert len(turns) == len(lines)
    assert format_history(turns) == text
    assert format_history([]) == "" and parse_history("") == []
    assert parse_history("MV:-\r\nMV:K(1,1)->(2,1)\r\n") == parse_history("MV:-\nMV:K(1,1)->(2,1)")


def test_history_error_names_the_line() -> None:
    """04/H8 [R1]: an error in a history names the 1-based line and the position in it."""
    with pytest.raises(NotationError) as info:
        parse_history("MV:-\nMV:K(1,1)->(2,1)\nMV:K(1,1)->(2,0)\n")
    assert str(info.value) == "line 3: bad index '0' (1-10, no leading zero) at 15 in 'MV:K(1,1)->(2,0)'"
    assert info.value.line == 3
    with pytest.raises(NotationError, match=r"^line 2: expected 'MV:' at 1 in ''$"):
        parse_history("MV:-\n\nMV:-\n")
    with pytest.raises(NotationError, match=r"^line 1: expected 'MV:' at 1 in '# header'$"):
        parse_history("# header\nMV:-\n")


# --------------------------------------------------------------------------- property test

LEVELS = (GROUND, AIR, SUB)
ORIENTS = ("", "<", ">")


def rand_piece(rng: random.Random, level: str | None = None, row: int | None = None,
               col: int | None = None) -> PieceDesc:
    """A random valid PieceDesc (04/H11), optionally pinned to a cell."""
    return PieceDesc(
        rng.choice(PIECE_TYPES),
        rng.choice(LEVELS) if level is None else level,
        rng.randint(1, 10) if row is None else row,
        rng.randint(1, 10) if col is None else col,
        tuple(rng.choice(ARTICLES) for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3)))),
        rng.choice(ORIENTS),
    )


def rand_fire(rng: random.Random) -> Fire:
    """A random valid Fire (04/H15): directional or homing."""
    if rng.random() < 0.3:
        return Fire(rng.choice(FIRING_ARTICLES), rand_piece(rng), target=rand_piece(rng))
    return Fire(rng.choice(FIRING_ARTICLES), rand_piece(rng), rng.randint(1, 10),
                rng.randint(1, 10), rng.choice(ORIENTS))


def rand_result(rng: random.Random) -> Result:
    """A random valid Result in one of the three forms (04/H20)."""
    kind = rng.choice(RESULT_TYPES)
    form = rng.choice(("->", "v", "*"))
    if form == "->":
        return Result(kind, form, rng.randint(1, 10), rng.randint(1, 10),
                      rng.randint(-1, 1), rng.randint(-1, 1))
    if form == "v":
        return Result(kind, form, rng.randint(1, 10), rng.randint(1, 10))
    return Result(kind, form, piece=rand_piece(rng), stun=rng.choice((0, 1, 3, 9, 10, 99, 100, 255)),
                  colour=rng.choice("BW"))


def rand_move(rng: random.Random) -> Move:
    """A random valid Move, sometimes with a passenger (same cell) and a Doze (04/H14)."""
    piece = rand_piece(rng)
    lv, r, c = rng.choice(LEVELS), rng.randint(1, 10), rng.randint(1, 10)
    passenger = rand_piece(rng, piece.level, piece.row, piece.col) if rng.random() < 0.2 else None
    doze = tuple((rng.choice(PIECE_TYPES), rng.randint(1, 10), rng.randint(1, 10))
                 for _ in range(rng.randint(1, 5))) if rng.random() < 0.2 else ()
    return Move(piece, lv, r, c, passenger, doze)


def rand_turn(rng: random.Random) -> Turn:
    """A random Turn within the grammar's limits (04/H7, H8 [R2])."""
    move = rand_move(rng) if rng.random() < 0.9 else None
    transports = [Transport(rand_piece(rng), rng.choice(LEVELS), rng.randint(1, 10), rng.randint(1, 10))
                  for _ in range(rng.choice((0, 0, 1, 2, 3)))]
    if transports and move is not None and rng.random() < 0.3:
        # a trip step that looks exactly like a passenger (normalised by the passenger rule)
        transports[0] = Transport(rand_piece(rng, move.piece.level, move.piece.row, move.piece.col),
                                  move.level, move.row, move.col)
    return Turn(
        move,
        tuple(transports),
        tuple(rand_fire(rng) for _ in range(rng.randint(0, 2))),
        PickUp(rand_piece(rng), rng.choice(ARTICLES)) if rng.random() < 0.3 else None,
        Exchange(rand_piece(rng), rng.choice(ARTICLES), rand_piece(rng),
                 rng.choice((None, rng.choice(ARTICLES)))) if rng.random() < 0.3 else None,
        Reinforce(rng.randint(1, 10), rng.randint(1, 10), rng.choice(PIECE_TYPES),
                  rng.choice(ORIENTS)) if rng.random() < 0.3 else None,
        Drop(rand_piece(rng), rng.choice(ARTICLES)) if rng.random() < 0.3 else None,
        tuple(rand_result(rng) for _ in range(rng.choice((0, 0, 1, 2, 5)))),
    )


def passenger_normalised(t: Turn) -> Turn:
    """The documented normalisation (RUL-36 passenger rule): what ``parse_turn(format_turn(t))`` gives."""
    m = t.move
    if m is None or m.passenger is not None or m.doze or not t.transports:
        return t
    first = t.transports[0]
    p = first.piece
    if ((p.level, p.row, p.col) != (m.piece.level, m.piece.row, m.piece.col)
            or (first.level, first.row, first.col) != (m.level, m.row, m.col)):
        return t
    return Turn(Move(m.piece, m.level, m.row, m.col, p, m.doze), t.transports[1:], t.fires,
                t.pickup, t.exchange, t.reinforce, t.drop, t.results)


def test_random_turns_round_trip() -> None:
    """04/H24: parse(format(t)) == t for 2000 seeded random Turns (up to the passenger rule)."""
    rng = random.Random(20240604)
    normalised = 0
    for _ in range(2000):
        t = rand_turn(rng)
        s = format_turn(t)
        expected = passenger_normalised(t)
        normalised += expected != t
        assert parse_turn(s) == expected, s
        assert format_turn(parse_turn(s)) == s
    assert normalised > 20  # the passenger rule was exercised


def test_random_actions_round_trip() -> None:
    """Single-action form: parse_action(format_action(a)) == a for seeded random actions."""
    rng = random.Random(7)
    for _ in range(500):
        t = rand_turn(rng)
        actions = [a for a in (t.move, *t.fires, t.pickup, t.exchange, t.reinforce, t.drop)
                   if a is not None]
        for a in actions:
            s = format_action(a)
            assert parse_action(s) == a, s
            assert format_action(parse_action(s)) == s


def test_mutated_lines_raise_only_notation_error() -> None:
    """04/H23: on seeded random edits of valid lines the parser raises only NotationError, and
    any text it accepts prints to a fixed point (``parse(format(parse(s))) == parse(s)``)."""
    rng = random.Random(99)
    alphabet = "MV:-TRA>,DOFI12PUEXRESvK^<=*/()0123456789BWJLSHCAQ?x "
    seeds = [s for _, s in ALL_LINES] + [format_turn(rand_turn(rng)) for _ in range(100)]
    accepted = 0
    for _ in range(20000):
        s = rng.choice(seeds)
        for _ in range(rng.randint(1, 3)):
            i, op = rng.randrange(len(s) + 1), rng.random()
            if op < 0.4:
                s = s[:i] + rng.choice(alphabet) + s[i:]
            elif op < 0.7:
                s = s[:i] + s[i + 1:]
            else:
                s = s[:i] + rng.choice(alphabet) + s[i + 1:]
        try:
            t = parse_turn(s)
        except NotationError as e:
            assert 0 <= e.pos <= len(s) and e.text == s
            continue
        accepted += 1
        assert parse_turn(format_turn(t)) == t, s
    assert accepted > 100
