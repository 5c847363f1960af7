"""The points on which the games of the system differ, each value with the rule that gives it.

A ruleset builds one `Profile` (Arrivano: adjudicator/arrivano/profile.py) and hands it to the shared
procedures of this package instead of flags inside them. Caldiero's own `caldiero.system_profile` predates
this package; its fields map one to one onto the ones here (see docs/rulesets/arrivano.md §8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Cited:
    """A value and the citation that fixes it ("arrivano §12.4.3")."""

    value: object
    rule: str


@dataclass(frozen=True)
class Profile:
    game: str
    # Odds above the last column: "cap" (arrivano §12.4.3) or "drm_per_level" (caldiero §12.4.3).
    above_max_odds: Literal["cap", "drm_per_level"]
    above_max_odds_rule: str
    # Cap on the total die modifier (both §12.5.2: 4).
    drm_cap: int
    drm_cap_rule: str
    # Initiative ties: a seat that wins them ("france", arrivano §6.1.1) or None to roll again.
    initiative_tie_winner: str | None
    initiative_tie_rule: str
    # Efficiency tests: 1 always passes, 6 always fails (both §13.1.1).
    natural_pass: int = 1
    natural_fail: int = 6
    efficiency_rule: str = ""
