"""The assault table look-up shared by the system (arrivano §12.4-§12.5, caldiero §12.4-§12.5): odds column
in the defender's favour, column shifts, what happens beyond either end, capped die modifiers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.tables import ColumnPick, CombatTable, Modifier, TableLookup, look_up, odds_column


@dataclass(frozen=True)
class Odds:
    column: ColumnPick
    below_minimum: bool  # worse than the first column (arrivano §12.4.2, caldiero §12.4.2)
    excess_drm: int  # the variant's DRM per level above the last column (D23, §12.4.3 in both)


def odds(variant: Variant, table: CombatTable, attack: int, defence: int, shift: int = 0,
         shifts_beyond_last: bool = True) -> Odds:
    """The column for the odds shifted by `shift` columns. `shifts_beyond_last` False: column shifts never add
    levels above the last column, only the odds themselves do (caldiero §12.4.3, reading `shift_beyond_6_1`
    "capped"); a shift toward the defender still takes levels away."""
    pick = odds_column(table, attack, max(1, defence), shift)
    excess = pick.beyond_high * variant.excess_odds_drm_per_level  # D23: caldiero 1 a level, arrivano none
    if not shifts_beyond_last:
        unshifted = pick.index + pick.beyond_high - pick.beyond_low - shift
        excess = min(excess, max(0, unshifted - (len(table.columns) - 1)))
    return Odds(pick, pick.beyond_low > 0, excess)


def resolve(variant: Variant, table: CombatTable, column: ColumnPick, die: int,
            modifiers: Sequence[Modifier]) -> TableLookup:
    """Read the table with the modifiers capped at the variant's cap (both §12.5.2)."""
    return look_up(table, column, die, list(modifiers), cap=variant.drm_cap)


def capped(variant: Variant, total: int) -> int:
    """A modifier total within the variant's cap (both §12.5.2: at most +/-4)."""
    return max(-variant.drm_cap, min(variant.drm_cap, total))
