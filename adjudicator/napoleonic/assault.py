"""The assault table look-up shared by the system (arrivano §12.4-§12.5, caldiero §12.4-§12.5): odds column
in the defender's favour, column shifts, what happens beyond either end, capped die modifiers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbitro.adjudicator.napoleonic.profile import Profile
from arbitro.adjudicator.tables import ColumnPick, CombatTable, Modifier, TableLookup, look_up, odds_column


@dataclass(frozen=True)
class Odds:
    column: ColumnPick
    below_minimum: bool  # worse than the first column (arrivano §12.4.2, caldiero §12.4.2)
    excess_drm: int  # +1 per level above the last column where the profile says so (caldiero §12.4.3)


def odds(profile: Profile, table: CombatTable, attack: int, defence: int, shift: int = 0,
         shifts_beyond_last: bool = True) -> Odds:
    """The column for the odds shifted by `shift` columns. `shifts_beyond_last` False: column shifts never add
    levels above the last column, only the odds themselves do (caldiero §12.4.3, reading `shift_beyond_6_1`
    "capped"); a shift toward the defender still takes levels away."""
    pick = odds_column(table, attack, max(1, defence), shift)
    excess = pick.beyond_high if profile.above_max_odds == "drm_per_level" else 0  # arrivano §12.4.3: none
    if not shifts_beyond_last:
        unshifted = pick.index + pick.beyond_high - pick.beyond_low - shift
        excess = min(excess, max(0, unshifted - (len(table.columns) - 1)))
    return Odds(pick, pick.beyond_low > 0, excess)


def resolve(profile: Profile, table: CombatTable, column: ColumnPick, die: int,
            modifiers: Sequence[Modifier]) -> TableLookup:
    """Read the table with the modifiers capped at the profile's cap (both §12.5.2)."""
    return look_up(table, column, die, list(modifiers), cap=profile.drm_cap)


def capped(profile: Profile, total: int) -> int:
    """A modifier total within the profile's cap (both §12.5.2: at most +/-4)."""
    return max(-profile.drm_cap, min(profile.drm_cap, total))
