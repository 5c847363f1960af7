"""Movement (caldiero §7.1.2, §9, §10): what Caldiero adds to the kernel's one movement search
(parabellum/movement.py `unit_rules`/`unit_reach`: a group is searched as a unit alone is; stacking: the kernel's
parabellum/stacking.py):
- its costs: the kernel's `costs_in_force` (the movement table of its data: tables/movement.json, in the ice storm
  with the minor road weighed too, weather.json's `scaled_roads`; its `minor_road_cost` reading by CaldieroVariant.road_costs) times the kernel's
  `terrain_multiplier` (weather.json: caldiero §17.1.2 doubles off-road costs, §17.1.3 all but the main road's);
- the hexes its scenario closes (§9.2.1 rows, §19.1 direction) and its step vetoes (§10.3 canal for artillery,
  §17.1.3 ice storm), and the rules a refused path breaks, in the order it reads them (`_step_problem`);
- §17.1.1 (one MP less unless the whole move is on roads): a road-only search with the full allowance and an
  unrestricted one with one MP less, the cheaper route kept;
- reinforcements entering from off the map at their entry hex (§15.4), the entry hex being the move's first hex
  (the variant's `entry_hex_is_first_step`).

Costs are integers in half movement points (the march column's 1/2 MP, caldiero §9.3.1). A move is a
group of units leaving one hex together (or entering together from an entry hex, §15.4), under one order
that every unit of the group may act under. Among equally cheap paths the one smallest hex by hex is taken
(the variant's `path_tie_break`), as this module always did, so recorded games still verify.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from arbitro.adjudicator.caldiero import ground, map_rules
from arbitro.adjudicator.caldiero.loader import UNIT_CLASS
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.movement import (
    Mover, Problem, costs_in_force, end_fits, entry_cost, leave_ezoc_problem, off_road_half_less, one_hex_rule, order_moves,
    road_steps, terrain_multiplier, unit_reach, unit_rules,
)
from arbitro.adjudicator.parabellum.move_problems import StepVeto, path_problem, step_problem
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.movement import MoveRules, Reach, cached_step_cost


class Group(NamedTuple):
    """Who moves together, from where, under which order and allowance: a key of the World's answers for each group of
    every listing, and without its units of the search they share (`_routes`), cheaper to make, copy and hash than a
    frozen dataclass (issue 15)."""

    units: tuple[str, ...]
    side: str
    start: str | None  # None: entering from off the map through `entry`
    entry: str | None
    order: str
    column: bool
    ma_half: int
    artillery: bool
    formation: str


class Route(NamedTuple):
    """A group's cheapest path to a hex and its cost; made for every end of every group, cheaper than a frozen dataclass
    (issue 15). The collector keeps tracking a tuple subclass: the kept searches keep plain tuples (`ROUTES`)."""

    path: tuple[str, ...]
    cost_half: int


def map_entry_cost(world: World, b: str) -> int:
    """Entering the map at b from off the map (§15.4): the kernel's entry cost, doubled in boxes 2 and 3."""
    return entry_cost(costs_in_force(CALDIERO_VARIANT, world), world.hexmap.terrain(b), UNIT_CLASS,
                      multiplier=terrain_multiplier(world))


def step_cost(world: World, a: str | None, b: str, column: bool) -> int:
    """The cost in half-MP of entering b from a (a None: entering the map at b)."""
    return map_entry_cost(world, b) if a is None else step_costs(world, column)(a, b)


def step_costs(world: World, column: bool) -> Callable[[str, str], int]:
    """The cost in half-MP of a step from a to b on the map (`step_cost`), the costs in force and the weather's
    multiplier read once for every step asked (issue 15: the routes of a search ask it of each one-hex move)."""
    hexmap, table = world.hexmap, costs_in_force(CALDIERO_VARIANT, world)
    rules = MoveRules(unit_class=UNIT_CLASS, budget=0, march_column=column, terrain_multiplier=terrain_multiplier(world))
    return lambda a, b: cached_step_cost(hexmap, table, a, b, rules).half_points


def path_cost(world: World, g: Group, path: tuple[str, ...]) -> int:
    """The cost of a path from the group's start."""
    return sum(step_cost(world, prev, h, g.column) for prev, h in zip((g.start, *path), path))


def own_step_problem(world: World, g: Group) -> StepVeto:
    """What Caldiero adds to the kernel's reasons a step is refused (`move_problems.step_problem`): artillery crosses a
    canal only at a bridge (§10.3) and moves only along roads in an ice storm (§17.1.3); a hex the formation's
    direction closes (§19.1, its map rules)."""
    def veto(a: str | None, b: str) -> Problem | None:
        if g.artillery and a is not None and ground.canal_without_bridge(world, a, b):
            return R.CANAL, f"artillery crosses the canal {a}-{b} only at a bridge (caldiero §10.3)"
        if g.artillery and world.state.weather == 3 and (a is None or not ground.road(world, a, b)):
            return R.ICE_STORM, "in an ice storm artillery moves only along roads (caldiero §17.1.3)"
        return map_rules.formation_hex_problem(world, g.formation, b)

    return veto


def make_group(world: World, units: tuple[str, ...], order: str, column: bool) -> Group:
    state = world.state
    first = state.units[units[0]]
    start = first.hex if first.where == "map" else None
    entry = None
    if start is None:
        arrival = world.counters.unit(units[0]).arrival
        entry = arrival.entry if arrival else None
    ma = min(world.counters.unit(u).movement for u in units) * 2
    return Group(units=units, side=first.side, start=start, entry=entry, order=order, column=column, ma_half=ma,
                 artillery=any(state.units[u].arm == "artillery" for u in units), formation=world.formation_of(units[0]))


def _budget(world: World, g: Group, all_road: bool) -> int:
    """The group's allowance, the weather's off-road loss taken unless the whole move is on roads (§17.1.1)."""
    return g.ma_half if all_road else g.ma_half - off_road_half_less(world)


def group_mover(world: World, g: Group) -> Mover:
    """The group as the kernel's search and refusals read it, from where it begins: its hex, or its entry hex."""
    return _mover(world, g, g.start if g.start is not None else g.entry or "", g.ma_half)


def _mover(world: World, g: Group, origin: str, budget: int) -> Mover:
    move = order_moves(world.orders)[g.order]
    return Mover(g.side, origin, g.start is not None, budget, UNIT_CLASS, g.column, move,
                 one_hex=one_hex_rule(CALDIERO_VARIANT, move))


def _rules(world: World, g: Group, origin: str, budget: int, roads_only: bool) -> MoveRules:
    """The kernel's rules for one search from `origin` (the start, or the entry hex already entered), with what
    Caldiero adds: hexes its scenario closes (§9.2.1 rows, §19.1 direction: `_closed`), guns across a canal only at a
    bridge (§10.3) and only along roads in an ice storm (§17.1.3), and `roads_only` (§17.1.1)."""
    road = road_steps(world.hexmap).__contains__
    canal = _canal_steps(world).__contains__
    artillery, ice = g.artillery, world.state.weather == 3

    def step(a: HexId, b: HexId) -> bool:  # the search's inner loop asks it of every step (issue 15)
        if (roads_only or (artillery and ice)) and not road((a, b)):
            return False
        return not (artillery and canal((a, b)))

    step_veto = step if roads_only or artillery else None
    return unit_rules(CALDIERO_VARIANT, world, _mover(world, g, origin, budget), closed=_closed(world, g),
                      step=step_veto, terrain_multiplier=terrain_multiplier(world))


_CANAL_STEPS = Memo(64)


def _canal_steps(world: World) -> frozenset[tuple[str, str]]:
    """Every (a, b) step across a hexside artillery crosses only at a bridge (§10.3: `ground.canal_without_bridge`),
    worked out once per map and terrain table, which alone it reads (issue 15: an artillery search asks it of every
    step)."""
    hexmap = world.hexmap
    return _CANAL_STEPS.get((hexmap, world.terrain_table), "canal steps", lambda: frozenset(
        (h, n) for h in hexmap.hexes() for n in hexmap.grid.neighbours(h) if ground.canal_without_bridge(world, h, n)))


_CLOSED = Memo(64)


def _closed(world: World, g: Group) -> Callable[[str], bool]:
    """The hexes Caldiero's scenario closes to the group (its map rules: §9.2.1 a side's rows, §19.1 a formation's
    direction), worked out once for every position of the same map, scenario, side, formation and §19.1 release,
    which alone they read (the search asks it of every step: one look-up; issue 15: each position asked them again)."""
    side, formation = g.side, g.formation
    released = formation in world.state.direction_released
    return _CLOSED.get((world.hexmap, world.scenario), (side, formation, released), lambda: frozenset(
        b for b in world.hexmap.hexes()
        if world.closed_to(side, b) or map_rules.formation_hex_problem(world, formation, b))).__contains__


def reachable(world: World, g: Group) -> dict[str, Route]:
    """Every legal destination of the group with its cheapest path (stacking checked at the end). Computed
    once per World and group (legal() and the movement obligations ask again): do not modify the answer."""
    def work() -> dict[str, Route]:
        fits = end_fits(world, g.units, g.column)
        return {h: r for h, r in _routes(world, g._replace(units=())).items() if fits(h)}

    return world.cached(("reachable", g), work)


def route_to(world: World, g: Group, to: str) -> Route | None:
    """`reachable(world, g).get(to)`, searched only as far as `to` where the group's searches are not worked out
    (issue 15: a move names its destination)."""
    known = world.known(("reachable", g))
    if known is not None:
        return known.get(to)  # type: ignore[no-any-return]
    if not end_fits(world, g.units, g.column)(to):
        return None
    search = g._replace(units=())
    routes = world.known(("routes", search))
    return (routes if routes is not None else _reachable(world, search, to=to)).get(to)  # type: ignore[no-any-return]


def any_destination(world: World, g: Group, accept: Callable[[str], bool]) -> str | None:
    """A destination of `reachable(world, g)` that `accept` takes, or None when there is none: the group's searches
    stopped at the first (issue 15: a listing asking only whether anything is left)."""
    known = world.known(("reachable", g))
    if known is not None:
        return next((h for h in sorted(known) if accept(h)), None)
    fits = end_fits(world, g.units, g.column)
    found = _reachable(world, g._replace(units=()), stop_at=lambda h: h != g.start and fits(h) and accept(h))
    return next(iter(found), None)


def _routes(world: World, search: Group) -> dict[str, Route]:
    """Every hex the group could end in but for stacking, with its cheapest path: the same for every group of the
    same start, side, order, formation, allowance, arm and formation of march, whoever its units are (the search
    never enters its start, where alone the movers stand), so who moves changes nothing but where the group may end
    (stacking, `reachable`)."""
    return world.cached(("routes", search), lambda: _reachable(world, search))


def _reachable(world: World, g: Group, *, to: str | None = None,
               stop_at: Callable[[str], bool] | None = None) -> dict[str, Route]:
    """The group's routes but for stacking (`_routes`); `to`: that hex's alone, if it is reached; `stop_at`: the
    first hex it takes alone, if there is one (the kernel's `unit_reach`, which searches only as far as that)."""
    ezoc = enemy_zoc(world, g.side)
    if leave_ezoc_problem(CALDIERO_VARIANT, g.order, g.start, ezoc):
        return {}
    if g.start is None:
        if g.entry is None or step_problem(CALDIERO_VARIANT, world, _mover(world, g, g.entry, 0), g.units, None, g.entry,
                                           own_step_problem(world, g)):
            return {}
        origin, spent = g.entry, map_entry_cost(world, g.entry)
    else:
        origin, spent = g.start, 0
    searches = [(g.ma_half, False)]
    if _budget(world, g, False) != g.ma_half:  # caldiero §17.1.1: all along roads, or one MP less
        searches = [(g.ma_half, True), (_budget(world, g, False), False)]
    routes: dict[str, Route] = {}
    hm, table = world.hexmap, costs_in_force(CALDIERO_VARIANT, world)
    # what its own rules read besides the kernel's: the arm and formation (§10.3, §17.1.3, §19.1), the weather and
    # its cost multiplier, whether the formation's direction is released (§19.1, by the scenario hooks)
    own = (g.artillery, g.formation, world.state.weather, terrain_multiplier(world),
           g.formation in world.state.direction_released)
    for budget, roads_only in searches:
        rules = lambda b=budget - spent, r=roads_only: _rules(world, g, origin, b, r)  # noqa: E731 (made on a miss)
        reach = unit_reach(CALDIERO_VARIANT, world, hm, table, _mover(world, g, origin, budget - spent), rules,
                           (*own, roads_only), (world.counters, world.hexmap, world.scenario), to=to, stop_at=stop_at)
        if to is not None or stop_at is not None:
            asked = [to] if to is not None else [next((h for h in reach.hexes() if stop_at and stop_at(h)), None)]
            found = _search_routes(world, g, reach, spent, [h for h in asked if h is not None and h in reach.costs])
            if stop_at is not None and found:
                return {h: Route(path, cost) for h, path, cost in found}  # one is enough, whichever found it
        else:
            key = ("caldiero routes", g.start, g.column, spent)
            found = ROUTES.get((reach,), key, lambda: _search_routes(world, g, reach, spent, reach.hexes()))
        for h, path, cost in found:
            old = routes.get(h)
            if old is None or (cost, path) < (old.cost_half, old.path):
                routes[h] = Route(path, cost)
    return routes


ROUTES = Memo(1024)
"""A kept search's routes as Caldiero records them, kept with the search (issue 15: a search kept across positions
is not turned into routes again at every position), as plain (hex, path, cost) tuples of strings and ints: those the
garbage collector stops tracking, where ~18,000 kept `Route`s and the tuples holding them were walked by every full
collection, most of the legal() maximum (issue 15)."""


def _search_routes(world: World, g: Group, reach: Reach, spent: int,
                   hexes: Iterable[str]) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    """Each of `hexes` (those a search reached, by (cost, id)) but the start, with its route (`ROUTES`): the path from the
    start (entering: from the entry hex) and its cost, the minimum move recorded as what its one step costs
    (§9.1.1)."""
    out = []
    one_step = step_costs(world, g.column)
    for h in hexes:  # by (cost, id): never in set order
        if h == g.start:
            continue
        walk = reach.path(h)
        path = walk if g.start is None else walk[1:]
        if g.start is not None and len(walk) == 2:  # the minimum move is recorded as the whole allowance
            cost = one_step(g.start, h)
        else:
            cost = spent + reach.costs[h]
        out.append((h, path, cost))
    return tuple(out)


def check_path(world: World, g: Group, path: tuple[str, ...]) -> Route | Problem:
    """The route of a path the player gave, or the rule it breaks (the kernel's `path_problem`, with Caldiero's step
    vetoes and §17.1.1's allowance for the path given)."""
    if not path:
        return CALDIERO.MOVEMENT, "a move needs at least one hex"
    if g.start is None and path[0] != g.entry:
        return CALDIERO.REINFORCEMENTS, f"reinforcements enter at {g.entry} (caldiero §15.4, §21)"
    walked, spent = (path, map_entry_cost(world, path[0])) if g.start is None else ((g.start, *path), 0)
    all_road = all(world.grid.contains(y) and ground.road(world, x, y) for x, y in zip(walked, walked[1:]))
    budget = _budget(world, g, all_road) - spent
    problem = path_problem(CALDIERO_VARIANT, world, _mover(world, g, walked[0], budget), g.units, walked,
                           world.hexmap, costs_in_force(CALDIERO_VARIANT, world),
                           _rules(world, g, walked[0], budget, False),
                           own_step_problem(world, g))
    return problem or Route(path=path, cost_half=path_cost(world, g, path))
