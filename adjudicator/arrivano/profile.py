"""Arrivano's values for the shared system (adjudicator/napoleonic/profile.py), each with its citation."""

from arbitro.adjudicator.napoleonic.profile import Profile

PROFILE = Profile(
    game="arrivano",
    above_max_odds="cap", above_max_odds_rule="arrivano §12.4.3",
    drm_cap=4, drm_cap_rule="arrivano §12.5.2",
    initiative_tie_winner="france", initiative_tie_rule="arrivano §6.1.1",
    efficiency_rule="arrivano §13.1.1",
)
