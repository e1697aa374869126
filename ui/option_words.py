"""Every pre-game option of the engine in words, with its choices (RUL-38, 02/§4, 04/U15).

Pure data and functions for the options screen and the WiFi rule negotiation (04/U21, U61):
``describe_option(name)`` is a label a player reads, ``choices(name)`` the values the engine
accepts (``engine.options.domain``), and ``value_words(name, value)`` one value in words. A test
checks that every option of ``engine.options.Options`` has words here.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from engine.options import Options, bounds, domain

__all__ = ["OptionWords", "WORDS", "GROUPS", "describe_option", "choices", "bounds", "value_words",
           "is_default"]


class OptionWords(NamedTuple):
    """A label and a one-line explanation, with the rule that defines it."""

    label: str
    help: str
    rule: str


WORDS: dict[str, OptionWords] = {
    "movement_type": OptionWords("Movement", "how pieces move: Weaponized Chess, Standard Chess or "
                                 "Mass Destruction", "02/D1"),
    "gov_black": OptionWords("Black's government", "which King and Queen pieces Black plays with", "02/D9"),
    "gov_white": OptionWords("White's government", "which King and Queen pieces White plays with", "02/D9"),
    "tank_range": OptionWords("Tank range", "how far a Tank moves", "RUL-21"),
    "cleric_range": OptionWords("Cleric range", "how far a Cleric moves", "RUL-21"),
    "queen_tank_range": OptionWords("Queen's Tank-move range", "how far a Queen moves like a Tank", "RUL-21"),
    "queen_cleric_range": OptionWords("Queen's Cleric-move range", "how far a Queen moves like a Cleric",
                                      "RUL-21"),
    "sub_jet_combat": OptionWords("Subs and Jets take by moving", "Subs and Jets capture like other "
                                  "pieces (not in Weaponized Chess movement)", "03/M2.0.4"),
    "md_pawn_variant": OptionWords("Mass Destruction pawns", "which squares pawns take on in Mass "
                                   "Destruction movement", "03/M3.1"),
    "flamer_range": OptionWords("Flamer range", "how many squares a Flamer burns", "RUL-9"),
    "stun_range": OptionWords("Stunner range", "how far a Stunner ray reaches", "02/D17"),
    "stun_duration": OptionWords("Stun length", "how many turns a stunned piece stays stunned", "02/D18"),
    "restricted_rocket_range": OptionWords("Jet and Sub rocket range", "how far a Jet's or Sub's rocket "
                                           "may be aimed (0: adjacent only)", "RUL-17"),
    "homing_range": OptionWords("Homing range", "how far a homing projectile may lock on", "02/D16"),
    "projectile_speed": OptionWords("Projectile speed", "squares a projectile flies per turn", "RUL-15"),
    "rate_stunner": OptionWords("Stunner reload", "turns before a Stunner fires again", "02/D25"),
    "rate_flamer": OptionWords("Flamer reload", "turns before a Flamer fires again", "02/D26"),
    "rate_conversion": OptionWords("Conversion reload", "turns before a Conversion fires again", "02/D27"),
    "rate_rocket": OptionWords("Rocket reload", "turns before a Rocket Launcher fires again", "02/D28"),
    "rate_sam": OptionWords("SAM reload", "turns before a SAM Launcher fires again", "02/D28"),
    "rate_torpedo": OptionWords("Torpedo reload", "turns before a Torpedo Launcher fires again", "02/D28"),
    "fire_limit_rule": OptionWords("Fire limit", "what the two Fires a turn are counted by", "RUL-4"),
    "stealth_invisibility": OptionWords("Stealth hides pieces", "a piece with Stealth is invisible to "
                                        "the enemy", "02/D2"),
    "submerged_invisibility": OptionWords("Submerged Subs are hidden", "a Sub under water is invisible "
                                          "to the enemy", "02/D3"),
    "stealth_lock_on": OptionWords("Lock-on reveals stealth", "a homing lock shows the stealthy target",
                                   "02/D5"),
    "stealth_range_detection": OptionWords("Stealth seen up close", "enemy pieces near a stealthy piece "
                                           "see it", "02/D14"),
    "stealth_detect_range": OptionWords("Stealth detection range", "how near is near enough to see "
                                        "stealth", "02/D14"),
    "submerged_detect_range": OptionWords("Sub detection range", "how near a Destroyer must be to see a "
                                          "submerged Sub", "02/D15"),
    "reveal_stealth_on_fire": OptionWords("Firing reveals stealth", "a stealthy piece that fires is seen",
                                          "02/D4"),
    "reveal_submerged_on_fire": OptionWords("Firing reveals a Sub", "a submerged Sub that fires is seen",
                                            "02/D7"),
    "reveal_stealth_on_capture": OptionWords("Capturing reveals stealth", "a stealthy piece that takes a "
                                             "piece is seen", "02/D6"),
    "detection_dominance": OptionWords("Stealth/Submerge dominance", "which hiding wins when both apply",
                                       "RUL-18"),
    "stealthy_primary_allowed": OptionWords("King may be stealthy", "a primary government piece may "
                                            "carry Stealth", "02/D21"),
    "primary_may_fly_or_dive": OptionWords("King may fly or dive", "a primary government piece may go "
                                           "to the Air or under water", "01/R6.10"),
    "enemy_nudging": OptionWords("Bulldozers nudge enemies", "a Bulldozer may push enemy pieces",
                                 "02/D20"),
    "transport_ground_to_ground_only": OptionWords("No special forces", "transport articles only go "
                                                   "from Ground to Ground", "02/D22"),
    "bike_distance": OptionWords("Bike distance", "how far a Bike ride goes", "RUL-30"),
    "transport_max_distance": OptionWords("Jump Pack / Scuba distance", "how far a Jump Pack or Scuba "
                                          "trip may go", "RUL-31"),
    "transport_speed": OptionWords("Jump Pack / Scuba speed", "squares a trip covers per turn", "RUL-31"),
    "one_action_per_piece": OptionWords("One action per piece", "each piece acts at most once a turn",
                                        "02/D23"),
    "move_only": OptionWords("Moves only", "no Fires, pick-ups or other actions: only Moves", "02/D23"),
    "stunned_may_act": OptionWords("Stunned pieces may act", "a stunned piece may still pick up, drop "
                                   "and exchange", "RUL-11"),
    "chopper_must_land_next_turn": OptionWords("Choppers must land", "a Chopper in the Air must come "
                                               "down on its next turn", "RUL-22"),
    "coexistence_set": OptionWords("Which pieces share a square", "the list of piece types that may "
                                   "share a square", "RUL-24"),
    "handedness_scheme": OptionWords("Tank and Cleric hands", "which way left and right varieties face",
                                     "RUL-32"),
    "reinforcement_layout": OptionWords("Reinforcements", "whether reinforcements wait behind the lines",
                                        "RUL-33"),
    "competitive": OptionWords("Competitive game", "no undo, and each side's history hides what it did "
                               "not see until the end", "02/D24"),
    "ply_limit": OptionWords("Turn limit", "the game is drawn after this many turns (0: no limit)", "RUL-53"),
}

#: How the options screen groups them, in order.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Game", ("movement_type", "gov_black", "gov_white", "competitive", "ply_limit", "md_pawn_variant",
              "sub_jet_combat", "move_only", "one_action_per_piece")),
    ("Ranges", ("tank_range", "cleric_range", "queen_tank_range", "queen_cleric_range", "flamer_range",
                "stun_range", "stun_duration", "restricted_rocket_range", "homing_range", "projectile_speed")),
    ("Reloading", ("rate_stunner", "rate_flamer", "rate_conversion", "rate_rocket", "rate_sam",
                   "rate_torpedo", "fire_limit_rule")),
    ("Hidden pieces", ("stealth_invisibility", "submerged_invisibility", "stealth_lock_on",
                       "stealth_range_detection", "stealth_detect_range", "submerged_detect_range",
                       "reveal_stealth_on_fire", "reveal_submerged_on_fire", "reveal_stealth_on_capture",
                       "detection_dominance", "stealthy_primary_allowed")),
    ("Movement and transport", ("primary_may_fly_or_dive", "enemy_nudging", "transport_ground_to_ground_only",
                                "bike_distance", "transport_max_distance", "transport_speed",
                                "stunned_may_act", "chopper_must_land_next_turn", "coexistence_set",
                                "handedness_scheme", "reinforcement_layout")),
)

_VALUES: dict[str, str] = {
    "weaponized_chess": "Weaponized Chess", "standard_chess": "Standard Chess",
    "mass_destruction_chess": "Mass Destruction", "monarchy": "Monarchy (King, Queen)",
    "dictatorship": "Dictatorship (Dictator, Assassin)", "theocracy": "Theocracy (Avatar, Acolyte)",
    "democracy": "Democracy (President, Prime Minister)", "per_source": "each weapon source",
    "per_piece": "each piece", "per_weapon": "each weapon type", "submerge": "submerged wins",
    "stealth": "stealth wins", "union": "all the lists together", "overview": "the overview's list",
    "glossary": "the glossary's list", "inward": "facing inward", "standard": "standard", "none": "none",
    "all_sides_and_forward": "sides and forward", "all_forward": "all forward",
    "all_but_directly_ahead": "all but straight ahead",
}


def describe_option(name: str) -> OptionWords:
    """The words for option ``name``. :raises KeyError: not an engine option."""
    return WORDS[name]


def choices(name: str) -> tuple[Any, ...] | None:
    """Every value the engine accepts for ``name``, in order; None for a number typed in (the
    turn limit: ``bounds``)."""
    limits = bounds(name)
    if limits is not None and limits[1] - limits[0] > 20:
        return None
    return domain(name)


def value_words(name: str, value: Any) -> str:
    """One value of ``name`` in words ("on"/"off", a number, or the choice's name)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if name == "ply_limit" and value == 0:
        return "no limit"
    return _VALUES.get(value, str(value)) if isinstance(value, str) else str(value)


def is_default(name: str, value: Any) -> bool:
    """True when ``value`` is the standard game's (RUL-38)."""
    return bool(getattr(Options(), name) == value)

