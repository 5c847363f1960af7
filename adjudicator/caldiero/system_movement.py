"""Movement (caldiero §7, §9, §10; arrivano §7, §9): costs, legal paths, march column, stacking.

Costs are integers in half movement points (the march column's 1/2 MP, caldiero §9.3.1). A move is a
group of units leaving one hex together (or entering together from an entry hex, §15.4), under one order
that every unit of the group may act under. `reachable` finds, for every destination, the cheapest legal
path; `check_path` validates a path the player gave. Both use `_step_problem` and `step_cost`, so the
listing and the checking cannot drift apart.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_orders import ALLOWS_COLUMN, ALLOWS_EZOC
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.caldiero.system_zoc import enemy_zoc
from arbitro.adjudicator.hexgrid import parse_hex
from arbitro.adjudicator.ruleset import Rule


@dataclass(frozen=True)
class Group:
    units: tuple[str, ...]
    side: str
    start: str | None  # None: entering from off the map through `entry`
    entry: str | None
    order: str
    column: bool
    ma_half: int
    artillery: bool
    formation: str


@dataclass(frozen=True)
class Route:
    path: tuple[str, ...]
    cost_half: int
    all_road: bool


class MoveProblem(Exception):
    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(message)
        self.rule, self.message = rule, message


def step_cost(world: World, a: str | None, b: str, column: bool) -> tuple[int, bool]:
    """(cost in half-MP, moved along a road) of entering b from a (a None: entering the map at b)."""
    board, weather = world.board, world.state.weather if world.profile.has_weather else 0
    road = board.road(a, b) if a is not None else None
    on_road = road is not None
    base = board.effect(b).move_cost_half
    if a is not None:
        if board.climbs(a, b):
            base += board.table.climb.move_extra_half
        if board.canal_without_bridge(a, b):
            base += board.table.hexsides["canale"].move_extra_half
    if road == "strada" and column:
        cost = board.table.roads["strada"].column_cost_half  # §9.3.1
    elif road == "strada_minore":
        minor = board.table.roads["strada_minore"]
        flat = minor.cost_half if world.reading("minor_road_cost") == "flat_1" and minor.cost_half else base
        cost = max(2, flat - 2) if column else flat  # §9.3.1: one less in column, never below 1 MP
    else:
        cost = base
    if weather == 2 and not on_road:
        cost *= 2  # caldiero §17.1.2
    if weather == 3 and road != "strada":
        cost *= 2  # caldiero §17.1.3: only the (main) road is spared
    return cost, on_road


def stacking_problem(world: World, h: str, arriving: tuple[str, ...], column: bool = False) -> str | None:
    """Why `arriving` may not end in h (caldiero §7.1, §7.1.1, §7.1.2), or None."""
    side = world.state.units[arriving[0]].side
    present = [u for u in world.side_units_at(h, side) if u not in arriving]
    together = present + list(arriving)
    if column and present:
        return "a unit in march column may not stack (caldiero §7.1.2, §9.3.2)"
    return stack_problem(world, together)


def stack_problem(world: World, together: list[str]) -> str | None:
    if len(together) <= 1:
        return None
    if len(together) > 2:
        return f"{len(together)} units in one hex: at most two (caldiero §7.1)"
    a, b = together
    ua, ub = world.state.units[a], world.state.units[b]
    if (ua.status == "routed") != (ub.status == "routed"):
        return "routed units may not stack with friends not in rout (caldiero §7.1.1)"
    arts = [x.arm == "artillery" for x in (ua, ub)]
    if any(arts):
        return None  # one artillery plus any unit, or two artillery (§7.1)
    if ua.arm != ub.arm:
        return f"{a} and {b}: infantry and cavalry may not stack (caldiero §7.1)"
    if world.formation_of(a) != world.formation_of(b):
        return f"{a} and {b}: two units of different formations (caldiero §7.1)"
    return None


def _step_problem(world: World, g: Group, a: str | None, b: str, ezoc: frozenset[str], first: bool) -> tuple[Rule, str] | None:
    board = world.board
    if not board.on_map(b):
        return R.MOVEMENT, f"{b} is not on the map"
    if a is not None and not board.grid.is_adjacent(a, b):
        return R.MOVEMENT, f"{a} and {b} are not adjacent"
    if a is not None and board.crossing_prohibited(a, b):
        return R.TERRAIN_COSTS, f"{a}-{b} is a river hexside: movement not allowed (terrain effects table)"
    if world.hooks is not None:
        problem_hex = world.hooks.entry_problem(world, g.side, b)  # e.g. caldiero §9.2.1
        if problem_hex:
            return problem_hex
    if world.enemy_units_at(b, g.side):
        return R.STOP_IN_EZOC, f"{b} holds enemy combat units (caldiero §9.1.2)"
    if g.artillery and a is not None and board.canal_without_bridge(a, b):
        return R.CANAL, f"artillery crosses the canal {a}-{b} only at a bridge (caldiero §10.3)"
    if g.artillery and world.state.weather == 3 and world.profile.has_weather and (a is None or board.road(a, b) is None):
        return R.ICE_STORM, "in an ice storm artillery moves only along roads (caldiero §17.1.3)"
    friends = [u for u in world.side_units_at(b, g.side) if u not in g.units]
    if g.column and friends:
        return R.COLUMN_LIMITS, f"a unit in march column may not move through or stack with friends at {b} (caldiero §9.3.2)"
    if b in ezoc:
        if g.column:
            return R.COLUMN_LIMITS, f"{b} is in an enemy ZoC: a march column may not enter it (caldiero §9.3.2)"
        if g.order == "defence":
            if not friends:
                return R.DEFENCE, f"{b} is in an enemy ZoC: with a Defence order only where a friendly unit already is (caldiero §5.1.3)"
            if a is not None and a in ezoc:
                return R.DEFENCE, f"Defence order: not directly from one enemy ZoC hex to another ({a} to {b}) (caldiero §5.1.3)"
        elif not ALLOWS_EZOC[g.order]:
            return R.MANOEUVRE, f"{b} is in an enemy ZoC: a {g.order} order does not allow entering it (caldiero §5.1.4, §8.2.1)"
    if world.hooks is not None:
        return world.hooks.formation_hex_problem(world, g.formation, b)  # e.g. caldiero §19.1
    return None


def make_group(world: World, units: tuple[str, ...], order: str, column: bool) -> Group:
    state = world.state
    first = state.units[units[0]]
    start = first.hex if first.where == "map" else None
    entry = None
    if start is None:
        arrival = world.unit_data(units[0]).arrival
        entry = arrival.entry if arrival else None
    ma = min(world.unit_data(u).movement for u in units) * 2
    return Group(units=units, side=first.side, start=start, entry=entry, order=order, column=column, ma_half=ma,
                 artillery=any(state.units[u].arm == "artillery" for u in units), formation=world.formation_of(units[0]))


def _budget(world: World, g: Group, all_road: bool) -> int:
    if world.profile.has_weather and world.state.weather == 1 and not all_road:
        return g.ma_half - 2  # caldiero §17.1.1: one MP less unless the whole move is on roads
    return g.ma_half


def reachable(world: World, g: Group) -> dict[str, Route]:
    """Every legal destination of the group with its cheapest path (stacking checked at the end)."""
    ezoc = enemy_zoc(world, g.side)
    if g.start is not None and g.start in ezoc and g.order != "defence":
        return {}  # caldiero §8.1
    best: dict[tuple[str, bool], int] = {}
    routes: dict[str, Route] = {}
    heap: list[tuple[int, tuple[str, ...], bool]] = []
    if g.start is None:
        if g.entry is None or _step_problem(world, g, None, g.entry, ezoc, True):
            return {}
        cost, _ = step_cost(world, None, g.entry, g.column)
        heap.append((cost, (g.entry,), True))
    else:
        for n in world.board.neighbours(g.start):
            if _step_problem(world, g, g.start, n, ezoc, True):
                continue
            cost, on_road = step_cost(world, g.start, n, g.column)
            heap.append((cost, (n,), on_road))
    heapq.heapify(heap)
    first_steps = True
    while heap:
        cost, path, all_road = heapq.heappop(heap)
        h = path[-1]
        key = (h, all_road)
        if key in best and best[key] <= cost:
            continue
        within = cost <= _budget(world, g, all_road) or len(path) == 1  # §9.1.1: always one hex
        if not within:
            continue
        best[key] = cost
        if h != g.start and stacking_problem(world, h, g.units, g.column) is None:
            old = routes.get(h)
            if old is None or (cost, path) < (old.cost_half, old.path):
                routes[h] = Route(path=path, cost_half=cost, all_road=all_road)
        if h in ezoc:
            continue  # caldiero §9.1.2: stop on entering an EZoC
        if g.order == "defence" and len(path) >= (1 if g.start is not None else 1):
            continue  # caldiero §5.1.3: at most one hex
        for n in world.board.neighbours(h):
            if n in path or n == g.start:
                continue
            if _step_problem(world, g, h, n, ezoc, False):
                continue
            step, on_road = step_cost(world, h, n, g.column)
            heapq.heappush(heap, (cost + step, path + (n,), all_road and on_road))
    del first_steps
    return routes


def check_path(world: World, g: Group, path: tuple[str, ...]) -> Route:
    """Validate a path the player gave; raise MoveProblem with the rule it breaks."""
    if not path:
        raise MoveProblem(R.MOVEMENT, "a move needs at least one hex")
    ezoc = enemy_zoc(world, g.side)
    if g.start is not None and g.start in ezoc and g.order != "defence":
        raise MoveProblem(R.LEAVE_EZOC, f"units in an enemy ZoC at {g.start} may leave it only with a Defence order (caldiero §8.1)")
    if g.order == "defence" and len(path) > 1:
        raise MoveProblem(R.DEFENCE, "with a Defence order a unit moves at most one hex (caldiero §5.1.3)")
    if g.start is None and path[0] != g.entry:
        raise MoveProblem(R.REINFORCEMENTS, f"reinforcements enter at {g.entry} (caldiero §15.4, §21)")
    cost, all_road, prev = 0, True, g.start
    for i, h in enumerate(path):
        problem = _step_problem(world, g, prev, h, ezoc, i == 0)
        if problem:
            raise MoveProblem(*problem)
        if prev is not None and prev in ezoc and i > 0:
            raise MoveProblem(R.STOP_IN_EZOC, f"units stop on entering an enemy ZoC at {prev} (caldiero §9.1.2)")
        step, on_road = step_cost(world, prev, h, g.column)
        if prev is None:
            on_road = True
        cost += step
        all_road = all_road and on_road
        if i > 0 and cost > _budget(world, g, all_road):
            raise MoveProblem(R.ALWAYS_ONE_HEX, f"the path costs {cost / 2:g} MP, more than the {_budget(world, g, all_road) / 2:g} available (caldiero §9.1.1, §9.2)")
        prev = h
    if len(set(path)) != len(path) or path[-1] == g.start:
        raise MoveProblem(R.MOVEMENT, "a path may not revisit a hex")
    problem_stack = stacking_problem(world, path[-1], g.units, g.column)
    if problem_stack:
        raise MoveProblem(R.COLUMN_STACKING if g.column else R.STACKING, problem_stack)
    return Route(path=path, cost_half=cost, all_road=all_road)


# --- leaders ------------------------------------------------------------------------------------------
def leader_reachable(world: World, leader: str, entry: str | None = None, escape: bool = False) -> dict[str, tuple[str, ...]]:
    """Legal destinations of a leader (6 MP, caldiero §2.2.1, §8.2.2, §9.1.4, §4.2.2). `escape`: fleeing an
    enemy unit (caldiero §8.2.3), which is not a voluntary entry into enemy ZoC."""
    s = world.state.leaders[leader]
    side = s.side
    ezoc = enemy_zoc(world, side)
    start = s.hex if s.where == "map" else None
    ma = world.leader_data(leader).movement * 2
    heap: list[tuple[int, tuple[str, ...]]] = []
    if start is None:
        if entry is None or world.enemy_units_at(entry, side):
            return {}
        heap.append((step_cost(world, None, entry, False)[0], (entry,)))
    else:
        heap.append((0, ()))
    best: dict[str, int] = {}
    out: dict[str, tuple[str, ...]] = {}
    while heap:
        cost, path = heapq.heappop(heap)
        h = path[-1] if path else start
        assert h is not None
        if h in best and best[h] <= cost:
            continue
        if path and cost > ma and len(path) > 1:
            continue
        best[h] = cost
        if path and (world.hooks is None or world.hooks.leader_may_end(world, leader, h)):
            out.setdefault(h, path)
        for n in world.board.neighbours(h):
            if n in path or n == start or world.board.crossing_prohibited(h, n) or world.enemy_units_at(n, side):
                continue
            if world.hooks is not None and world.hooks.entry_problem(world, side, n):
                continue
            friends_n = world.side_units_at(n, side)
            if n in ezoc and not friends_n and not escape:
                continue  # caldiero §8.2.2
            if n in ezoc and h in ezoc and not (world.side_units_at(h, side) and friends_n) and not escape:
                continue
            step, _ = step_cost(world, h, n, False)
            heapq.heappush(heap, (cost + step, path + (n,)))
    return out
