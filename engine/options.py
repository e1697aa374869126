"""Pre-game options as one frozen value (RUL-38 defaults; 01/§20, 02/§4)."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .pieces import GOVERNMENTS

_CHOICES: dict[str, tuple[Any, ...]] = {
    "movement_type": ("weaponized_chess", "standard_chess", "mass_destruction_chess"),  # 02/D1
    "md_pawn_variant": ("all_sides_and_forward", "all_forward", "all_but_directly_ahead"),
    "gov_black": tuple(GOVERNMENTS),
    "gov_white": tuple(GOVERNMENTS),
    "tank_range": (6, 7, 8),
    "cleric_range": (6, 7, 8),
    "queen_tank_range": (6, 7, 8),
    "queen_cleric_range": (6, 7, 8),
    "fire_limit_rule": ("per_source", "per_piece", "per_weapon"),
    "detection_dominance": ("submerge", "stealth"),
    "coexistence_set": ("union", "overview", "glossary"),
    "handedness_scheme": ("inward",),
    "reinforcement_layout": ("standard", "none"),
}
_RANGES: dict[str, tuple[int, int]] = {
    "flamer_range": (1, 2),
    "stun_range": (1, 9),
    "stun_duration": (1, 3),
    "restricted_rocket_range": (0, 9),
    "homing_range": (0, 9),
    "projectile_speed": (1, 3),
    "rate_stunner": (1, 9),
    "rate_flamer": (1, 9),
    "rate_conversion": (1, 9),
    "rate_rocket": (1, 9),
    "rate_sam": (1, 9),
    "rate_torpedo": (1, 9),
    "stealth_detect_range": (0, 9),
    "submerged_detect_range": (0, 9),
    "bike_distance": (1, 3),
    "transport_max_distance": (1, 9),
    "transport_speed": (1, 3),
    "ply_limit": (0, 100000),
}


@dataclass(frozen=True, slots=True)
class Options:
    """Every pre-game option of the standard game; ``Options()`` is the standard game (RUL-38)."""

    movement_type: str = "weaponized_chess"      # 02/D1
    gov_black: str = "monarchy"                   # 02/D9, U21: each side's own choice
    gov_white: str = "monarchy"
    tank_range: int = 7                           # 03/M1.0.14, RUL-21
    cleric_range: int = 7
    queen_tank_range: int = 7
    queen_cleric_range: int = 7
    sub_jet_combat: bool = False                  # 03/M1.0.15, M2.0.4, M3.0.4
    md_pawn_variant: str = "all_sides_and_forward"  # 03/M3.0.3, M3.1 (Mass Destruction only)
    flamer_range: int = 1                         # RUL-9
    stun_range: int = 9                           # 02/D17
    stun_duration: int = 3                        # 02/D18, RUL-11
    restricted_rocket_range: int = 0              # RUL-17
    homing_range: int = 3                         # 02/D16
    projectile_speed: int = 1                     # RUL-15
    rate_stunner: int = 2                         # 02/D25
    rate_flamer: int = 4                          # 02/D26
    rate_conversion: int = 4                      # 02/D27
    rate_rocket: int = 4                          # 02/D28
    rate_sam: int = 4
    rate_torpedo: int = 4
    fire_limit_rule: str = "per_source"           # RUL-4
    stealth_invisibility: bool = True             # 02/D2
    submerged_invisibility: bool = True           # 02/D3
    stealth_lock_on: bool = True                  # 02/D5
    stealth_range_detection: bool = False         # RUL-18, 02/D14
    stealth_detect_range: int = 3
    submerged_detect_range: int = 3               # 02/D15
    reveal_stealth_on_fire: bool = True           # 02/D4
    reveal_submerged_on_fire: bool = True         # 02/D7
    reveal_stealth_on_capture: bool = True        # 02/D6
    detection_dominance: str = "submerge"         # RUL-18
    stealthy_primary_allowed: bool = False        # 02/D21
    primary_may_fly_or_dive: bool = True          # 01/§20 O3
    enemy_nudging: bool = True                    # 02/D20
    transport_ground_to_ground_only: bool = True  # 02/D22
    bike_distance: int = 1                        # RUL-30
    transport_max_distance: int = 3               # RUL-31
    transport_speed: int = 1
    one_action_per_piece: bool = False            # 02/D23
    move_only: bool = False
    stunned_may_act: bool = True                  # RUL-11
    chopper_must_land_next_turn: bool = True      # RUL-22
    coexistence_set: str = "union"                # RUL-24
    handedness_scheme: str = "inward"             # RUL-32
    reinforcement_layout: str = "standard"        # RUL-33
    competitive: bool = False                     # 02/D24
    ply_limit: int = 0                            # RUL-53 (0 = none)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"option {f.name} must be true or false, got {value!r}")
            if f.name in _CHOICES and value not in _CHOICES[f.name]:
                raise ValueError(f"option {f.name} must be one of {list(_CHOICES[f.name])}, got {value!r}")
            if f.name in _RANGES:
                lo, hi = _RANGES[f.name]
                if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                    raise ValueError(f"option {f.name} must be an integer {lo}..{hi}, got {value!r}")
        if self.sub_jet_combat:
            if self.movement_type == "weaponized_chess":
                raise ValueError("option sub_jet_combat needs movement_type standard_chess or "
                                 "mass_destruction_chess: Weaponized Chess movement has no "
                                 "combat Subs and Jets (03/M1.0.15, RUL-38)")
            if self.movement_type == "mass_destruction_chess" and not self.move_only:
                raise ValueError("option sub_jet_combat needs move_only under Mass Destruction "
                                 "movement (03/M3.0.4)")

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of every option (msgpack/JSON-safe), in field order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Options":
        """Build from a (possibly partial) dict. :raises ValueError: unknown or bad option."""
        if not isinstance(data, dict):
            raise ValueError("options must be a mapping")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)

    def replace(self, **changes: Any) -> "Options":
        """A copy with some options changed. :raises ValueError: unknown or bad option."""
        return Options.from_dict({**self.to_dict(), **changes})

    def rate_of_fire(self, weapon: str) -> int:
        """Rate of fire r for a weapon token (RUL-6)."""
        return {
            "ST": self.rate_stunner, "FL": self.rate_flamer, "CS": self.rate_conversion,
            "RL": self.rate_rocket, "SL": self.rate_sam, "TL": self.rate_torpedo,
        }[weapon]


OPTION_NAMES = tuple(f.name for f in fields(Options))


def domain(name: str) -> tuple[Any, ...]:
    """The values option ``name`` may take, in order: its choices, ``(False, True)`` for a
    switch, or every integer of its range (the turn limit's: use ``bounds``).
    :raises KeyError: not an option."""
    if name not in OPTION_NAMES:
        raise KeyError(name)
    if name in _CHOICES:
        return _CHOICES[name]
    if name in _RANGES:
        lo, hi = _RANGES[name]
        return tuple(range(lo, hi + 1)) if hi - lo <= 20 else (lo, hi)
    return (False, True)


def bounds(name: str) -> tuple[int, int] | None:
    """The (lowest, highest) integer option ``name`` may take, or None if it is not a number."""
    return _RANGES.get(name)
