"""The questions only Caldiero's rules ask of the ground, answered by the kernel's World from the map and the
terrain effects table (parabellum/data.TerrainTable: what a terrain does is the table's, never its name here).
Arrivano's book asks none of them (its table has no plain, fortress, marsh or hexside feature)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.data import TerrainEffect
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.tables import Halving


def effect(w: World, h: str) -> TerrainEffect:  # the table's entry for the hex's terrain (one a hex on caldiero's map)
    return w.terrains(h)[0]


def plain(w: World, h: str) -> bool:
    """The plain of caldiero §14.0 and §20.2.1: a terrain the table calls plain, at the lowest level (the table's
    "Pianura / Collina" row: a level up is the hill)."""
    return w.grid.contains(h) and effect(w, h).plain and w.elevation(h) == 0


def fortress(w: World, h: str) -> bool:  # caldiero §10.5, the table's fortress
    return effect(w, h).fortress


def strength_halving(w: World, h: str) -> Halving | None:  # caldiero §10.2: the table's terrain halving strength
    return effect(w, h).halves_strength


def climbs(w: World, a: str, b: str) -> bool:
    """Moving, firing or attacking from a lower hex to a higher one (terrain table: climbing a level)."""
    return w.elevation(b) > w.elevation(a)


def road(w: World, a: str, b: str) -> bool:  # a road crosses the hexside between a and b (§9.3)
    return w.adjacent(a, b) and bool(w.hexmap.roads_between(a, b))


def canal_without_bridge(w: World, a: str, b: str) -> bool:
    """A hexside artillery may not cross (caldiero §10.3 "solo se è presente un ponte"): a feature that needs a
    bridge, with no bridge (a feature cancelling the canal's cost, §10.4.1) and no road over it (§10.4: a bridge
    stands where a road crosses a canal)."""
    effects = w.hexside_effects(a, b)
    return (any(e.artillery_needs_bridge for e in effects) and not any(e.cancels_canal_cost for e in effects)
            and not road(w, a, b))


def canal_for_combat(w: World, a: str, b: str) -> bool:
    """A hexside that fights with the table's assault modifier: the canal (caldiero §10.3.1), or a feature the
    table says fights as one (`combat_as`: §10.4.2 "Trattate il ponte come se fosse un canale")."""
    hexsides = w.terrain_table.hexsides
    return any((hexsides[e.combat_as] if e.combat_as else e).assault_drm for e in w.hexside_effects(a, b))
