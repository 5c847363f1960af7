"""The points on which the two games of the system (Caldiero 1796, Arrivano i Francesi!) differ.

The `system_*` modules read these instead of hard-coding one game. Each ruleset supplies its profile with
the citations that justify each value (see profile.py for Caldiero's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class SystemProfile:
    game: str
    # Odds above 6-1: Caldiero +1 DRM per level (caldiero §12.4.3); Arrivano capped at 6-1 (arrivano §12.4.3).
    above_max_odds: Literal["drm_per_level", "cap"]
    # Generals and efficiency tests: Caldiero adds the general's initiative to efficiency when he is in or
    # adjacent to the hex (caldiero §13.2); Arrivano -1 to the die with a commander in the hex (arrivano §13.2).
    general_efficiency: Literal["add_initiative_in_or_adjacent", "minus_one_in_hex"]
    # Ex: Caldiero: the attacker loses a unit of his choice with efficiency >= the one used, the defender at
    # least as many SP (caldiero §12.5.4); Arrivano: each side loses its best unit (arrivano §12.5.4).
    exchange: Literal["attacker_chooses_defender_matches_sp", "best_unit_each"]
    # Ne after an Attack order: Caldiero "se passa il test" (every attacking stack passes); Arrivano "se
    # almeno una unità passa" (at least one).
    ne_test_pass: Literal["all_stacks", "any_stack"]
    # Column shifts for terrain/weather/Elan and the weather track exist in Caldiero only.
    has_weather: bool
    has_elan: bool
    # Dr against units in villages/fortifications becomes Ex (caldiero §12.5.4).
    dr_in_village_becomes: str | None
    columns: tuple[str, ...] = ("1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1")
    max_drm: int = 4
