"""Initiative (arrivano §6, caldiero §6): each side's die plus its value; the higher wins."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.variant import Reading, Variant


def winner(variant: Variant, totals: dict[str, int], reading: Reading) -> str | None:
    """The seat with the higher total; a tie goes to the variant's tie winner, or None (roll again; D13)."""
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return variant.initiative_tie_winner(reading)
    return ranked[0][0]
