"""Assault arithmetic (caldiero §12, arrivano §12): odds, columns, shifts, DRM, table look-up.

Column indices: 0 is "1-5", 4 is "1-1", 9 is "6-1"; an index below 0 is worse than 1-5, above 9 is a
level above 6-1.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbitro.adjudicator.caldiero.loader import CombatTable
from arbitro.adjudicator.caldiero.system_profile import SystemProfile


def odds_index(attack: int, defence: int) -> int:
    """Raw odds as a column index, rounded in the defender's favour (caldiero §12.5.1).

    13 against 4 is 3.25-1 -> 3-1 (index 6); 4 against 13 is 1-3.25 -> 1-4 (index 1).
    """
    if defence <= 0:
        raise ValueError("no defending strength")
    if attack <= 0:
        return -99
    if attack >= defence:
        return 4 + (attack // defence - 1)
    ratio = -(-defence // attack)  # ceiling: in the defender's favour
    return 4 - (ratio - 1)


def odds_label(index: int, profile: SystemProfile) -> str:
    if index >= 4:
        return f"{index - 3}-1"
    return f"1-{5 - index}"


@dataclass(frozen=True)
class ColumnResult:
    below_minimum: bool  # worse than 1-5: automatic Ae (caldiero §12.4.2)
    column: str
    extra_drm: int  # levels above the last column (caldiero §12.4.3)


def final_column(index: int, profile: SystemProfile, shift_beyond: str = "extra_drm", shifted: int = 0) -> ColumnResult:
    """Apply column shifts to the raw index; clamp to the table and convert levels above 6-1.

    `shifted` is the part of the final index that comes from shifts (for shift_beyond == "capped")."""
    last = len(profile.columns) - 1
    if index < 0:
        return ColumnResult(True, profile.columns[0], 0)
    if index > last:
        levels = index - last
        if profile.above_max_odds == "cap":
            levels = 0
        elif shift_beyond == "capped":
            levels = max(0, min(levels, index - shifted - last))
        return ColumnResult(False, profile.columns[last], levels)
    return ColumnResult(False, profile.columns[index], 0)


def clamp_drm(total: int, profile: SystemProfile) -> int:
    """The DRM is never beyond +/-4 (caldiero §12.5.2): the shared cap (adjudicator/napoleonic/assault.py)."""
    from arbitro.adjudicator.caldiero.profile import SYSTEM
    from arbitro.adjudicator.napoleonic.assault import capped
    assert profile.max_drm == SYSTEM.drm_cap
    return capped(SYSTEM, total)


def look_up(table: CombatTable, column: str, modified_roll: int) -> str:
    low, high = table.roll_range()
    row = max(low, min(high, modified_roll))
    return table.rows[str(row)][column]
