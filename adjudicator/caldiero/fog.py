"""Fog of war (caldiero §20.4): which enemy stacks a seat may examine, and the sightings that make an
enemy unit's identity known to a seat (recorded as the system's PiecesSighted events, which block a free undo)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO
from arbitro.adjudicator.parabellum import sight
from arbitro.events import caldiero as ev
from arbitro.events import parabellum as pb

SEATS = ("france", "austria")

# Events after which what a seat can see may have changed.
SIGHT_EVENTS = (ev.UnitPlaced, ev.LeaderPlaced, ev.UnitsMoved, ev.LeaderMoved, ev.UnitRetreated, ev.UnitsAdvanced,
                ev.UnitEliminated, ev.WeatherChanged, ev.LeaderLost)


def active(w: World) -> bool:
    return "fog_of_war" in w.state.options


def hidden_among(w: World, seat: str, hexes: set[str]) -> frozenset[str]:
    """Those of `hexes` no unit or leader of `seat` is adjacent to or has LoS to within 4 - weather hexes
    (caldiero §20.4.1; the kernel's sight.in_view)."""
    own = sight.observers(w, seat)
    return frozenset(h for h in sorted(hexes) if not sight.in_view(w, own, h, reach(w)))


def hidden_hexes(w: World, seat: str) -> frozenset[str]:
    if not active(w) or seat not in SEATS:
        return frozenset()
    enemy = {s.hex for s in w.state.units.values() if s.side != seat and s.where == "map" and s.hex}
    return hidden_among(w, seat, enemy)


def reach(w: World) -> int:
    """How far a seat examines enemy stacks: the line of sight's 4 hexes less the weather box (caldiero §20.4.1)."""
    return max(0, 4 - w.state.weather)


def new_sightings(w: World, seat: str) -> list[str]:
    """Enemy units `seat` can examine now and had never examined (the kernel's `sight.new_sightings`; commanders'
    names are public, so only units are recorded)."""
    return sight.new_sightings(w, seat, reach(w), commanders=False)


def sightings(w: World) -> list[pb.PiecesSighted]:
    return sight.sightings(w, str(CALDIERO.FOG), reach(w), commanders=False)


def secrets(w: World, seat: str) -> set[str]:
    """Enemy units `seat` never examined and cannot examine now (out of sight, or not yet arrived)."""
    if not active(w) or seat not in SEATS:
        return set()
    hidden = hidden_hexes(w, seat)
    known = set(w.state.seen.get(seat, []))
    return {u for u, s in w.state.units.items() if s.side != seat and u not in known and
            ((s.where == "map" and s.hex in hidden) or s.where == "offmap")}
