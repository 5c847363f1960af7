"""Movement (caldiero §7.1.2, §9, §10): what Caldiero adds to the kernel's one movement search
(parabellum/unit_moves.py `moves`: a group is searched as a unit alone is; stacking: the kernel's
parabellum/stacking.py):
- its costs: the kernel's `costs_in_force` (the movement table of its data: tables/movement.json, in the ice storm
  with the minor road weighed too, weather.json's `scaled_roads`; its `minor_road_cost` reading by CaldieroVariant.road_costs) times the kernel's
  `terrain_multiplier` (weather.json: caldiero §17.1.2 doubles off-road costs, §17.1.3 all but the main road's);
- the hexes its scenario closes (§9.2.1 rows, §19.1 direction) and its step vetoes (§10.3 canal for artillery,
  §17.1.3 ice storm), and the rules a refused path breaks, in the order it reads them (`own_step_problem`);
- §17.1.1 (one MP less unless the whole move is on roads) for a path the player gives; the search's pair of searches
  is the kernel's (parabellum/unit_moves.py `moves`, from weather.json's `off_road_mp_less`);
- reinforcements entering from off the map at their entry hex (§15.4), the entry hex being the move's first hex
  (the variant's `entry_hex_is_first_step`), none where the group may not enter it.

Costs are integers in half movement points (the march column's 1/2 MP, caldiero §9.3.1). A move is a
group of units leaving one hex together (or entering together from an entry hex, §15.4), under one order
that every unit of the group may act under. Among equally cheap paths the one smallest hex by hex is taken
(the variant's `path_tie_break`), as this module always did, so recorded games still verify.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from arbitro.adjudicator.caldiero import ground, map_rules
from arbitro.adjudicator.caldiero.loader import UNIT_CLASS
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.movement import (
    Mover, Problem, costs_in_force, end_fits, entry_spent, off_road_half_less, one_hex_rule, order_moves, road_steps,
    step_costs, unit_rules,
)
from arbitro.adjudicator.parabellum.move_problems import StepVeto, path_problem, step_problem
from arbitro.adjudicator.parabellum.unit_moves import Move, moves
from arbitro.adjudicator.maps.hexgrid import HexId


class Group(NamedTuple):
    """Who moves together, from where, under which order and allowance: a key of the World's answers for each group of
    every listing, cheaper to make, copy and hash than a frozen dataclass (issue 15)."""

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
    """A path a player gave and its cost (`check_path`); a searched move is the kernel's `Move`, which reads both from
    its search when asked."""

    path: tuple[str, ...]
    cost_half: int


Way = Route | Move
"""A group's move as its event records it (`path`, `cost_half`): searched, or the path the player gave."""


def step_cost(world: World, a: str | None, b: str, column: bool) -> int:
    """The cost in half-MP of entering b from a (a None: entering the map at b, §15.4, doubled in boxes 2 and 3)."""
    if a is None:
        return entry_spent(CALDIERO_VARIANT, world, UNIT_CLASS, b)
    return step_costs(CALDIERO_VARIANT, world, UNIT_CLASS, column)(a, b)


def own_step_problem(world: World, g: Group) -> StepVeto:
    """What Caldiero adds to the kernel's reasons a step is refused (`move_problems.step_problem`): artillery crosses a
    canal only at a bridge (§10.3) and moves only along roads in an ice storm (§17.1.3); a hex the formation's
    direction closes (§19.1, its map rules)."""
    box = world.weather_box()  # the box in force, cited and named where it keeps the group's guns to roads
    roads_box = box if g.artillery and _roads_only(world) else None  # (its `artillery_roads_only`), read once a group

    def veto(a: str | None, b: str) -> Problem | None:
        if g.artillery and a is not None and ground.canal_without_bridge(world, a, b):
            return R.CANAL, f"artillery crosses the canal {a}-{b} only at a bridge (caldiero §10.3)"
        if roads_box is not None and (a is None or not ground.road(world, a, b)):
            return roads_box.cited(), f"{roads_box.words()} artillery moves only along roads"
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
    counters = world.counters  # lists, not generators: a listing makes a group for each order of each (issue 15)
    ma = min([counters.unit(u).movement for u in units]) * 2
    return Group(units=units, side=first.side, start=start, entry=entry, order=order, column=column, ma_half=ma,
                 artillery=any([state.units[u].arm == "artillery" for u in units]), formation=world.formation_of(units[0]))


def group_mover(world: World, g: Group, spent: int = 0, less: int = 0) -> Mover:
    """The group as the kernel's search and refusals read it, from where it begins (its hex, or its entry hex) with
    its allowance but `spent` (the entry hex's cost, §15.4, which its moves' cost counts) and `less` (the weather's,
    §17.1.1)."""
    move = order_moves(world.orders)[g.order]
    return Mover(g.side, g.start if g.start is not None else g.entry or "", g.start is not None,
                 g.ma_half - spent - less,
                 UNIT_CLASS, g.column, move, one_hex=one_hex_rule(CALDIERO_VARIANT, move), spent=spent)


def _step(world: World, g: Group) -> Callable[[HexId, HexId], bool] | None:
    """Caldiero's own step vetoes for the search: guns across a canal only at a bridge (§10.3) and only along roads
    in an ice storm (§17.1.3); None for a group without guns."""
    if not g.artillery:
        return None
    road, canal = road_steps(world.hexmap).__contains__, _canal_steps(world).__contains__
    ice = _roads_only(world)

    def step(a: HexId, b: HexId) -> bool:  # the search's inner loop asks it of every step (issue 15)
        return not (ice and not road((a, b))) and not canal((a, b))

    return step


def _roads_only(world: World) -> bool:
    """Whether guns move only along roads and minor roads in the weather in force (caldiero §17.1.3, the ice storm's
    box: its data, `artillery_roads_only`)."""
    box = world.weather_box()
    return box is not None and box.artillery_roads_only


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


def reachable(world: World, g: Group) -> dict[str, Move]:
    """Every legal destination of the group with its cheapest move (the kernel's `moves`). Computed once per World
    and group (legal() and the movement obligations ask again): do not modify the answer."""
    return world.cached(("reachable", g), lambda: _moves(world, g))


def route_to(world: World, g: Group, to: str) -> Move | None:
    """`reachable(world, g).get(to)`, searched only as far as `to` where the group's searches are not worked out
    (issue 15: a move names its destination)."""
    known = world.known(("reachable", g))
    return (known if known is not None else _moves(world, g, to=to)).get(to)  # type: ignore[no-any-return]


def any_destination(world: World, g: Group, accept: Callable[[str], bool]) -> str | None:
    """A destination of `reachable(world, g)` that `accept` takes, or None when there is none: the group's searches
    stopped at the first (issue 15: a listing asking only whether anything is left)."""
    known = world.known(("reachable", g))
    if known is not None:
        return next((h for h in sorted(known) if accept(h)), None)
    return next(iter(_moves(world, g, stop_at=accept)), None)


def _moves(world: World, g: Group, *, to: str | None = None,
           stop_at: Callable[[str], bool] | None = None) -> dict[str, Move]:
    """The kernel's `moves` of the group, from its hex or its entry hex (§15.4: none where the group may not enter
    it), with Caldiero's closed hexes and step vetoes and what they read: the arm and formation (§10.3, §17.1.3,
    §19.1), the weather, whether the formation's direction is released (§19.1, by the scenario hooks)."""
    spent = 0
    if g.start is None:
        if g.entry is None or step_problem(CALDIERO_VARIANT, world, group_mover(world, g), g.units, None, g.entry,
                                           own_step_problem(world, g)):
            return {}
        spent = step_cost(world, None, g.entry, g.column)
    own = (g.artillery, g.formation, world.state.weather, g.formation in world.state.direction_released)
    return moves(CALDIERO_VARIANT, world, group_mover(world, g, spent), end_fits(world, g.units, g.column), own,
                 (world.counters, world.hexmap, world.scenario), closed=_closed(world, g), step=_step(world, g),
                 to=to, stop_at=stop_at)  # type: ignore[return-value]


def check_path(world: World, g: Group, path: tuple[str, ...]) -> Route | Problem:
    """The route of a path the player gave, or the rule it breaks (the kernel's `path_problem`, with Caldiero's step
    vetoes and §17.1.1's allowance for the path given)."""
    if not path:
        return CALDIERO.MOVEMENT, "a move needs at least one hex"
    if g.start is None and path[0] != g.entry:
        return CALDIERO.REINFORCEMENTS, f"reinforcements enter at {g.entry} (caldiero §15.4, §21)"
    walked = path if g.start is None else (g.start, *path)
    all_road = all(world.grid.contains(y) and ground.road(world, x, y) for x, y in zip(walked, walked[1:]))
    spent = step_cost(world, None, path[0], g.column) if g.start is None else 0
    m = group_mover(world, g, spent, 0 if all_road else off_road_half_less(world))
    rules = unit_rules(CALDIERO_VARIANT, world, m, closed=_closed(world, g), step=_step(world, g))
    problem = path_problem(CALDIERO_VARIANT, world, m, g.units, walked, world.hexmap,
                           costs_in_force(CALDIERO_VARIANT, world), rules, own_step_problem(world, g))
    return problem or Route(path, sum(step_cost(world, a, b, g.column) for a, b in zip((g.start, *path), path)))
