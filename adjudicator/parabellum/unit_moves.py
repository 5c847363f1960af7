"""A combat unit's moves, written once for a group leaving one hex together (caldiero §9.1) and a unit alone (arrivano
§9, a group of one): where the mover may end and the cheapest way there, read on demand from the searches kept across
positions (`movement.kept_reach`), so nothing is made for a hex no one asks about (issue 15)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple

from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.movement import Reach
from arbitro.adjudicator.parabellum.movement import (
    EndFits, Mover, costs_in_force, entering_problem, kept_reach, off_road_half_less, search_key, step_costs,
    terrain_multiplier, unit_rules,
)
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World


class Move(NamedTuple):
    """The cheapest way to one hex, as the search that found it gives it: `spent`, the half points spent before the
    search began (the entry hex's, §15.4 in both); `on_map` False: the mover enters the map at the search's origin;
    `step`, a step's half points on the map (`movement.step_costs`)."""

    reach: Reach
    to: HexId
    spent: int
    on_map: bool
    step: Callable[[str, str], int]

    @property
    def path(self) -> tuple[HexId, ...]:
        """The hexes entered, as the move's event records them: from the map its start left out, onto the map its
        entry hex first (§15.4 in both)."""
        walk = self.reach.path(self.to)
        return walk[1:] if self.on_map else walk

    @property
    def cost_half(self) -> int:
        """The half points the move spends (caldiero's record): the entry hex's and the search's, a one-hex move from
        the map its one step's cost, which the minimum move (§9.1.1 in both) may take beyond the allowance (only an
        arrival that must stop there may be one: the path is walked for those alone)."""
        if self.on_map and self.reach.stops[self.to] is not None and len(self.path) == 1:
            return self.step(self.reach.start, self.to)
        return self.spent + self.reach.costs[self.to]


_make: Callable[..., Any] = tuple.__new__  # a NamedTuple's own maker (`moves`)


def _position_reads(variant: Variant, world: World, side: str, column: bool,
                    with_friend: bool) -> tuple[tuple[object, ...], int, MovementTable]:
    """What `moves` reads of the position for a mover of `side`, the same for every group of a listing alike (worked
    out once per position: issue 15, ~10 look-ups a group): its searches' key, the enemy's zones of control and units
    (§8, §9.1.2), the friends only where they matter (a march column passes through none, §9.3.2; a Defence order
    enters an enemy ZoC only where one stands, §5.1.3), whether a column keeps to roads and the weather's multiplier;
    the half points the weather takes off a move not wholly along roads (`off_road_half_less`); the costs in force."""
    ezoc, enemy = enemy_zoc(world, side), world.enemy(side)
    friends = ""
    if column:
        friends = search_key(world, ("held", side), world.hexes_held(side))
    elif with_friend:
        friends = search_key(world, ("held in enemy zoc", side), world.hexes_held(side) & ezoc)
    read = (search_key(world, ("enemy zoc", side), ezoc), search_key(world, ("held", enemy), world.hexes_held(enemy)),
            friends, column and variant.column_keeps_to_roads(world.reading), terrain_multiplier(world))
    return read, off_road_half_less(world), costs_in_force(variant, world)


def moves(variant: Variant, world: World, m: Mover, can_end: EndFits, key: Hashable = (),
          anchors: tuple[object, ...] = (), *, closed: Callable[[HexId], bool] | None = None,
          step: Callable[[HexId, HexId], bool] | None = None, to: str | None = None,
          stop_at: Callable[[HexId], bool] | None = None) -> dict[HexId, Move]:
    """Where the mover may end (`can_end`: the stacking, §7.1 in both, `movement.end_fits`) and its cheapest move
    there. One search with its allowance; where the weather takes points off a move not wholly along roads (caldiero
    §17.1.1: `off_road_half_less`), one along roads with the whole allowance and one anywhere with the less, the
    cheaper move kept, then the one smaller hex by hex. A mover entering the map may stay on its entry hex (§15.4 in
    both), paid for in its `spent`, unless enemy units or its scenario close it (§9.1.2). `to`: that hex alone, if it is
    one; `stop_at`: the first hex it takes alone (each searched only as far as that: `kept_reach`).

    The searches, of `unit_rules` with the game's `closed` and `step`, are kept across positions under what they read
    of the position (`_position_reads`) and the game's `key` and `anchors` (what its `closed` and `step` read)."""
    with_friend = m.move.enter_ezoc == "with_friend"
    reads, less, table = world.cached(("search reads", id(variant), m.side, m.column, with_friend),
                                      lambda: _position_reads(variant, world, m.side, m.column, with_friend))
    read = (*reads, key)
    searches = [(m.budget, True), (m.budget - less, False)] if less else [(m.budget, False)]
    costs = step_costs(variant, world, m.unit_class, m.column)
    origin = HexId(m.origin)
    stay = not m.on_map and entering_problem(variant, world, m.side, origin) is None
    ask = None if stop_at is None else (lambda h: (stay or h != origin) and can_end(h) and stop_at(h))
    found: dict[HexId, Move] = {}
    for budget, roads_only in searches:
        mover = m if budget == m.budget else m._replace(budget=budget)
        rules = lambda mover=mover, r=roads_only: unit_rules(  # noqa: E731 (made on a miss only)
            variant, world, mover, closed=closed, step=step, roads_only=r)
        reach = kept_reach(variant, world.hexmap, table, m.origin, rules, ("unit move", mover.key(), roads_only, *read),
                           anchors, to=to, stop_at=ask)
        hexes: Iterable[HexId] = reach.costs  # in hex order (`reachable`'s answer): never in set order
        if to is not None:
            hexes = (HexId(to),) if to in reach.costs else ()
        elif ask is not None:
            first = next((h for h in reach.hexes() if ask(h)), None)
            hexes = () if first is None else (first,)
        # A Move made by tuple.__new__, as its NamedTuple constructor does, without that Python function's call: one is
        # made for every reachable hex of every group a listing lists (issue 15: ~1,500 in a slow Caldiero listing);
        # `can_end` asked only where friends stand, its one answer elsewhere read once (`EndFits`).
        held, fits, elsewhere = can_end.held, can_end.fits, can_end.elsewhere()
        ends = {h: _make(Move, (reach, h, m.spent, m.on_map, costs)) for h in hexes
                if (h != origin or stay) and (fits(h) if h in held else elsewhere)}
        if not found:
            found = ends  # the first search's, or all searches' until one finds something: taken as they are
        else:
            for h, move in ends.items():
                old = found.get(h)
                if old is None or (move.cost_half, move.path) < (old.cost_half, old.path):
                    found[h] = move
        if ask is not None and found:
            return found  # one is enough, whichever search found it
    return found
