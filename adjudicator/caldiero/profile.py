"""Caldiero 1796's profile of the shared system (see system_profile.py), with its citations."""

from __future__ import annotations

from arbitro.adjudicator.caldiero.system_profile import SystemProfile

CALDIERO = SystemProfile(
    game="caldiero",
    above_max_odds="drm_per_level",  # caldiero §12.4.3: an 8-1 is a 6-1 with +2
    general_efficiency="add_initiative_in_or_adjacent",  # caldiero §13.2
    exchange="attacker_chooses_defender_matches_sp",  # caldiero §12.5.4 Ex
    ne_test_pass="all_stacks",  # caldiero §12.5.4 Ne: "se passa il test"
    has_weather=True,  # caldiero §17
    has_elan=True,  # caldiero §16
    dr_in_village_becomes="Ex",  # caldiero §12.5.4 Dr (interpretation dr_in_fortress for fortifications)
)
