"""Caldiero 1796 as a variant of the Para Bellum kernel (adjudicator/parabellum/variant.py): its values and
hook overrides, each with its citation."""

from __future__ import annotations

from typing import ClassVar

from arbitro.adjudicator.caldiero.rules import RULEBOOK
from arbitro.adjudicator.parabellum.rules import Rulebook
from arbitro.adjudicator.parabellum.variant import Reading, Variant


class CaldieroVariant(Variant):
    book: ClassVar[str] = "caldiero"
    rules: ClassVar[Rulebook] = RULEBOOK
    excess_odds_drm_per_level: ClassVar[int] = 1  # caldiero §12.4.3: an 8-1 is a 6-1 with +2 (D23)
    units_block_sight: ClassVar[bool] = True  # caldiero §11.3.1: hexes holding units block (D18)

    def leader_lost(self, die: int, role: str, initiative: int) -> bool:
        """caldiero §4.4.3: lost unless the die is above his initiative, a commander in chief's counting as 1 (D10)."""
        return die <= (1 if role == "commander_in_chief" else initiative)

    def initiative_tie_winner(self, reading: Reading) -> str | None:
        """caldiero §6 prints no tie rule: roll again, unless the interpretation `initiative_tie` gives it to
        the French (D13)."""
        return "france" if reading("initiative_tie") == "french" else None


CALDIERO_VARIANT = CaldieroVariant()
