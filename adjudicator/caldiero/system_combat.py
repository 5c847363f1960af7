"""Assault arithmetic (caldiero §12): odds, columns, shifts, DRM, table look-up.

The arithmetic is the shared system's (`parabellum.assault` on `tables.odds_column`, the same as Arrivano's, with
the modifier cap and the table look-up); what stays here is Caldiero's: the CRT in the kit's shape, kept once, and
the reading `shift_beyond_6_1`.
"""

from __future__ import annotations

from arbitro.adjudicator import tables
from arbitro.adjudicator.parabellum.data import CombatTable
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import assault

_ODDS_TABLES: dict[int, tuple[CombatTable, tables.CombatTable]] = {}


def odds_table(crt: CombatTable) -> tables.CombatTable:
    """Caldiero's CRT (caldiero/data/crt.json, one object per row) as the shared engine's table, built once."""
    kept = _ODDS_TABLES.get(id(crt))
    if kept is None or kept[0] is not crt:  # the CRT is kept in the entry, so its id stays unique
        kept = _ODDS_TABLES[id(crt)] = (crt, crt.odds_table("caldiero_crt"))
    return kept[1]


def odds(crt: CombatTable, attack: int, defence: int, shift: int = 0, shift_beyond: str = "extra_drm") -> assault.Odds:
    """The CRT column for attack against defence shifted by `shift` columns (positive: right), by the shared
    `parabellum.assault.odds`: odds rounded in the defender's favour (caldiero §12.5.1), worse than 1-5 an
    automatic Ae (caldiero §12.4.2), +1 DRM per level above 6-1 (caldiero §12.4.3); with the reading
    `shift_beyond_6_1` "capped", column shifts add no level above 6-1. No attack strength at all is worse
    than any column."""
    return assault.odds(CALDIERO_VARIANT, odds_table(crt), attack, defence, shift, shifts_beyond_last=shift_beyond != "capped")


def odds_label(crt: CombatTable, attack: int, defence: int) -> str:
    """The odds as the events record them, before any shift: "3-1", "1-4", or "below 1-5" (caldiero §12.4.2)."""
    return assault.odds_label(CALDIERO_VARIANT, odds_table(crt), attack, defence)
