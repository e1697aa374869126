"""What greedy counts as a threat (docs/rulings.md AI-5; issue 11): the enemy's next Fires, the
projectiles in flight and the own travellers' blocked landings, each set up in a position and
checked against the value the rules give (RUL-7 a hit takes effect above the defence)."""
from __future__ import annotations

from engine.ai_eval import KIND_VALUE, evaluate, fire_threats, trip_loss
from engine.ai_eval import _fire_damage
from engine_helpers import pos
from fire_helpers import on_trip

KINGS = "piece B K a1 G\npiece W K j10 G\n"


def test_a_flamer_next_to_the_queen_threatens_it_RUL_9() -> None:
    """RUL-9: a Flamer burns the cell next to its holder (flamer_range 1): White's Dozer with a
    Flamer on e6 threatens the Black Queen on e5, and the threat is the Queen's value."""
    s = pos(KINGS + "piece B Q e5 G\npiece W DO e6 G FL")
    threats = fire_threats(s, "W")
    assert threats[(5, 5, "G")] == ("FL", 1)
    assert _fire_damage(s, "W") == KIND_VALUE["Q"]


def test_an_anti_flamer_makes_one_flame_harmless_RUL_7() -> None:
    """RUL-7: one Flamer hit on a piece with one Anti-Flamer does not take effect (1 <= 1):
    no damage counted; the same Queen without it is threatened."""
    s = pos(KINGS + "piece B Q e5 G AFL\npiece W DO e6 G FL")
    assert _fire_damage(s, "W") == 0.0


def test_a_stun_ray_threatens_the_first_piece_in_its_line_RUL_10() -> None:
    """RUL-10: the stun ray stops at the first occupied cell: White's Stunner Pawn on e8 reaches
    the Black Tank on e5 (the cells e7, e6 empty) and not the Black Queen behind it on e4; a
    stun costs what ``material`` takes off a stunned Tank (RUL-11)."""
    s = pos(KINGS + "piece B TA> e5 G\npiece B Q e4 G\npiece W SP e8 G moved")
    threats = fire_threats(s, "W")
    assert threats.get((5, 5, "G")) == ("ST", 1) and (4, 5, "G") not in threats
    assert 0 < _fire_damage(s, "W") < KIND_VALUE["TA"]


def test_a_rocket_in_flight_threatens_the_cell_it_enters_RUL_15() -> None:
    """RUL-15: a rocket steps one cell a turn (projectile_speed 1) and hits what is there: the
    White rocket on e3 flying north (+1 row) threatens the Black Queen on e4, not the one on
    e6."""
    s = pos(KINGS + "piece B Q e4 G\nprojectile R W e3 1 0 strength=1 created=0 id=1\n")
    assert fire_threats(s, "W")[(4, 5, "G")] == ("RL", 1)
    assert _fire_damage(s, "W") == KIND_VALUE["Q"]
    far = pos(KINGS + "piece B Q e6 G\nprojectile R W e3 1 0 strength=1 created=0 id=1\n")
    assert _fire_damage(far, "W") == 0.0


def test_a_blocked_landing_counts_the_traveller_as_lost_RUL_48() -> None:
    """RUL-48: a traveller whose landing square is taken is destroyed on arrival: Black's
    Queen on a Jump Pack trip to c3 with a Black Tank standing on c3 counts as lost; with c3
    free it does not, and ``evaluate`` differs by the Queen's value."""
    blocked = pos(KINGS + "piece B Q b2 A JP\npiece B TA> c3 G")
    on_trip(blocked, "b2", "A", "JP", ("c3",))
    free = pos(KINGS + "piece B Q b2 A JP\npiece B TA> d4 G")
    on_trip(free, "b2", "A", "JP", ("c3",))
    assert trip_loss(blocked, "B") == KIND_VALUE["Q"]
    assert trip_loss(free, "B") == 0.0
