"""Initiative (arrivano §6, caldiero §6): each side's die plus its value; the higher wins."""

from __future__ import annotations

from arbitro.adjudicator.napoleonic.profile import Profile


def winner(profile: Profile, totals: dict[str, int]) -> str | None:
    """The seat with the higher total; a tie goes to the profile's tie winner, or None (roll again)."""
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return profile.initiative_tie_winner
    return ranked[0][0]
