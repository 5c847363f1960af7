"""Fog of war (caldiero §20.4, an optional rule): the sightings that make an enemy unit's identity known to a seat
(recorded as the system's PiecesSighted events, which block a free undo). What a seat may examine, its view and what
is kept from it are the kernel's (parabellum/sight.py, ParaBellumRuleset.fogged), within the variant's reach
(CaldieroVariant.fog_reach: the line of sight less the weather box, §20.4.1)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import sight
from arbitro.events import caldiero as ev
from arbitro.events import parabellum as pb

# Events after which what a seat can see may have changed.
SIGHT_EVENTS = (ev.UnitPlaced, ev.LeaderPlaced, ev.UnitsMoved, ev.LeaderMoved, ev.UnitRetreated, ev.UnitsAdvanced,
                ev.UnitEliminated, ev.WeatherChanged, ev.LeaderLost)


def new_sightings(w: World, seat: str) -> list[str]:
    """Enemy units `seat` can examine now and had never examined (the kernel's `sight.new_sightings`; commanders'
    names are public, so only units are recorded)."""
    return sight.new_sightings(w, seat, CALDIERO_VARIANT.fog_reach(w), commanders=False)


def sightings(w: World) -> list[pb.PiecesSighted]:
    return sight.sightings(w, str(CALDIERO.FOG), CALDIERO_VARIANT.fog_reach(w), commanders=False)
