"""Movement (caricat §5, §6, §6.1, §6.2): the cost of a path on the terrain effects table, zones of control, roads,
what each level requires of a move (§3.1), the morale levels' obligations (§7.5.1), the scenario's march
(§13.2.1), arrivals, leaders joining another unit (§7.3) and the charge's path (§9.1)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from itertools import combinations

from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.caricat.world import BROKEN, ROUTED, SHAKEN, World
from arbitro.adjudicator.maps import control
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.movement import MoveBlock, check_path, reachable
from arbitro.adjudicator.memo import Memo
from arbitro.events import caricat as ev
from arbitro.projections.caricat import leader_hex, other


def in_activation(w: World, unit: str) -> bool:
    s, u = w.state, w.state.units[unit]
    if s.activation_kind == "leader":
        return u.leader == s.activation
    return s.activation_kind == "cavalry" and unit == s.activation


def start_of(w: World, unit: str) -> tuple[str, int] | None:
    """Where a unit's move starts and the half-points already spent: its hex, or its entry hex for an arriving unit
    (entering it costs its terrain)."""
    u = w.state.units[unit]
    if u.where == "map" and u.hex is not None:
        return u.hex, 0
    entry = w.scenario.file.unit(unit).entry
    for option in w.scenario.file.options:  # a brigade called by its optional rule enters where it says (§13.3.2)
        if option.leader and option.leader == u.leader and option.name in w.state.used and option.entry:
            entry = option.entry
    if u.where != "off" or entry is None or u.leader is None or not w.state.leaders[u.leader].present:
        return None
    if not w.occupancy.free(entry):
        return None
    cost = min(w.data.movement.terrain[t].cost.get(u.kind, w.data.movement.terrain[t].cost.get("default", 2))
               for t in w.map.hex(entry).terrains)
    return entry, cost if isinstance(cost, int) else 2


def road_bonus_possible(w: World, unit: str, path: list[str]) -> bool:
    """caricat §6.1: begun on a road hex, only along the road, never into an enemy zone."""
    zone = w.zone(other(w.state.units[unit].side))
    return bool(w.map.roads_at(path[0])) and all(
        w.map.roads_between(a, b) and b not in zone for a, b in zip(path, path[1:]))


def level_problem(w: World, unit: str, path: list[str]) -> tuple[R.Rule, str] | None:
    """What the unit's level, morale and march require of a move ending at path[-1] (None: allowed)."""
    u = w.state.units[unit]
    start, end = path[0], path[-1]
    hexes = len(path) - 1
    arriving = u.where == "off"
    if u.hits >= ROUTED:
        best = _best(w, unit, "nearest_lines", lambda h: w.loc_distance(u.side, h), 99)
        if w.loc_distance(u.side, end) > best or w.loc_distance(u.side, end) >= w.loc_distance(u.side, start):
            return R.MORALE_EFFECTS, f"{unit} is Routed: it moves its full movement toward its lines"
        return None
    if u.hits >= BROKEN:
        if w.loc_distance(u.side, end) >= w.loc_distance(u.side, start):
            return R.MORALE_EFFECTS, f"{unit} is Broken: it moves toward its lines"
        return None
    if u.hits >= SHAKEN and w.in_enemy_zoc(unit) and not w.in_enemy_zoc(unit, end):
        return None  # caricat §7.5.1: a Shaken unit may leave an enemy zone whatever its level
    target = SC.march_target(w.state, w.scenario.file, u.leader)
    if target is not None and not arriving and w.grid.distance(end, target) >= w.grid.distance(start, target):
        return R.FEDERICI, f"{unit} marches straight on {target} (its leader's orders)"
    level = w.level(unit)
    if level == "reserve":
        return R.RESERVE, f"{unit}'s leader is at Reserve: it may not move"
    if level == "hold":
        if hexes > 1:
            return R.HOLD, f"{unit}'s leader is at Hold: at most one hex"
        if arriving:
            return None
        goals = w.objective_hexes(u.side)  # any of them, "non necessariamente il più vicino" (caricat §3.1)
        if not any(w.grid.distance(end, o) < w.grid.distance(start, o) for o in goals):
            return R.HOLD, f"{unit}'s leader is at Hold: it moves only toward a friendly objective"
        return None
    if arriving or u.kind == "cavalry":
        return None
    if w.nearest_enemy(u.side, end) >= w.nearest_enemy(u.side, start):
        rule = R.ATTACK if level == "attack" else R.ADVANCE
        return rule, f"{unit}'s leader is at {level.capitalize()}: it moves toward the enemy"
    if level == "attack" and w.readings.get("attack_speed", "full_speed") == "full_speed":
        here = w.nearest_enemy(u.side, end)
        if here == 1:  # no destination is nearer (none holds an enemy): the unit's reach is not searched (issue 15)
            return None
        best = _best(w, unit, "nearest_enemy", lambda h: w.nearest_enemy(u.side, h), None)
        if here > best:
            return R.ATTACK, f"{unit}'s leader is at Attack: it moves at full speed, to {best} hex(es) from the enemy"
    return None


def _best(w: World, unit: str, what: str, distance: Callable[[str], int], default: int | None) -> int:
    """The least `distance` among the unit's destinations now (memoised in the World: asked of each of them)."""
    found = w.memo.get((what, unit))
    if found is None:
        hexes = (distance(h) for h in _reach(w, unit).destinations())
        found = w.memo[(what, unit)] = min(hexes) if default is None else min(hexes, default=default)
    return found  # type: ignore[return-value]


def _reach(w: World, unit: str):  # type: ignore[no-untyped-def]
    """Where the unit can go now (memoised in the World: one position's answer)."""
    found = w.memo.get(("reach", unit))
    if found is None:
        start = start_of(w, unit)
        assert start is not None
        rules = w.move_rules(unit)
        rules = replace(rules, budget=rules.budget - start[1])
        found = w.memo[("reach", unit)] = reachable(w.map, w.data.movement, start[0], rules)
    return found


def move_problem(w: World, unit: str, path: list[str]) -> tuple[R.Rule, str] | None:
    return path_problem(w, unit, path) or level_problem(w, unit, path)


def unit_problem(w: World, unit: str) -> tuple[R.Rule, str] | None:
    """Why the unit may not move now whatever its path: whose it is, the activation (caricat §4)."""
    u = w.state.units.get(unit)
    if u is None or u.side != w.state.seat or u.where == "gone":
        return R.MOVEMENT, f"{unit!r} is not one of your units"
    if not w.state.activation:
        return R.ACTIVATION, "no activation is under way"
    if not in_activation(w, unit):
        return R.ACTIVATION, f"{unit} is not part of the activation under way ({w.state.activation})"
    if u.moved or u.fought:
        return R.MOVEMENT, f"{unit} already moved or fought in this activation"
    return None


def path_problem(w: World, unit: str, path: list[str]) -> tuple[R.Rule, str] | None:
    """What the path itself breaks: whose unit, the activation, the map, the points and zones (caricat §5, §6)."""
    problem = unit_problem(w, unit)
    if problem is not None:
        return problem
    u = w.state.units[unit]
    off = [h for h in path if not w.grid.contains(h)]
    if off:
        return R.MOVEMENT, f"hex {off[0]} is not on the {w.state.scenario} map"
    apart = [(a, b) for a, b in zip(path, path[1:]) if not w.grid.is_adjacent(a, b)]
    if apart:  # before anything reads the hexsides between them (the road bonus, caricat §6.1)
        return R.MOVEMENT, f"a path goes hex by hex: {apart[0][1]} is not next to {apart[0][0]}"
    start = start_of(w, unit)
    if start is None:
        return R.MOVEMENT, f"{unit} is off the map and may not enter now"
    if path[0] != start[0]:
        return R.MOVEMENT, f"{unit}'s path must begin at {start[0]}"
    if len(path) < 2 and u.where == "map":
        return R.MOVEMENT, "a move enters at least one hex"
    rules = w.move_rules(unit)
    budget = rules.budget - start[1]
    if road_bonus_possible(w, unit, path):
        budget += 2 * w.system.road_bonus.points
    rules = replace(rules, budget=budget)
    result = check_path(w.map, w.data.movement, path, rules)
    if not result.ok:
        rule, message = _blocked(result.block, path, result.at_step)
        note = w.command_note(unit) if result.block == MoveBlock.NOT_ENOUGH_POINTS else ""
        return (rule, f"{message}: {note}") if note else (rule, message)  # the cut allowance's own citation inside
    return None


def _blocked(block: MoveBlock | None, path: list[str], at: int | None) -> tuple[R.Rule, str]:
    where = path[at] if at is not None and at < len(path) else path[-1]
    if block in (MoveBlock.CANNOT_ENTER, MoveBlock.CANNOT_END_HERE):
        return R.ZOC, f"cannot {'end in' if block == MoveBlock.CANNOT_END_HERE else 'enter'} {where}: " \
                      "an enemy unit, a friend in an enemy zone, or a second unit in the hex"
    if block == MoveBlock.STEP_VETOED:
        return R.BRIDGE, f"the Adige cannot be crossed into {where}"
    if block in (MoveBlock.PROHIBITED_HEXSIDE, MoveBlock.PROHIBITED_TERRAIN):
        return R.ESCARPMENT, f"{where} cannot be entered that way (terrain effects table)"
    if block == MoveBlock.NOT_ENOUGH_POINTS:
        return R.MOVEMENT, f"not enough movement points to reach {where}"
    return R.MOVEMENT, f"illegal step into {where} ({block})"


def moves(w: World, unit: str) -> list[list[str]]:
    """Every legal move of the unit now, one path per outcome (paths(); the template's other paths to a listed
    destination: docs/ruleset-interface.md); worked out once per World (the listing, its charges and the
    obligations of caricat §3.1 and §7.5.1 each ask)."""
    found = w.memo.get(("moves", unit))
    if found is None:
        found = w.memo[("moves", unit)] = tuple(tuple(p) for p in _moves(w, unit))
    return [list(p) for p in found]  # type: ignore[attr-defined]


def _moves(w: World, unit: str) -> list[list[str]]:
    if move_problem_early(w, unit):
        return []
    # Only the level is asked of each candidate (issue 15): every candidate is a path the unit's own search walked
    # with its own rules, or stricter ones (_candidates), and check_path walks a path with exactly the rules
    # reachable uses, so path_problem would find each lawful; the road search's paths are the road bonus's own
    # (caricat §6.1: begun on a road, along it, never into an enemy zone), whose points path_problem adds.
    return routes(w, unit, lambda path: level_problem(w, unit, path) is None)


def routes(w: World, unit: str, legal: Callable[[list[str]], bool],
           keep: Callable[[HexId], bool] | None = None, what: str = "move") -> list[list[str]]:
    """The unit's legal paths now through hexes `keep` allows, one per outcome: the destination and the enemy
    infantry whose reaction fire it provokes, in order (caricat §6.2); the first legal one of each among the
    candidates (_candidates, worked out once per World and `what`: a move, or a charge whatever its target)."""
    found = w.memo.get(("routes", what + unit))
    if found is None:
        found = w.memo[("routes", what + unit)] = tuple(_candidates(w, unit, keep))
    chosen: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for key, path in found:  # type: ignore[attr-defined]
        if key not in chosen and legal(path):
            chosen[key] = path
    return list(chosen.values())


def _candidates(w: World, unit: str, keep: Callable[[HexId], bool] | None) -> list[tuple[tuple[str, tuple[str, ...]],
                                                                                      list[str]]]:
    """Candidate paths with their outcome keys: to each hex reached, the cheapest path; for each set of the enemy
    units those paths provoke (and those the paths avoiding them provoke in turn), the cheapest path avoiding it;
    from a road hex, the road path the road bonus (§6.1) takes further. Every destination any legal path reaches is
    among them (the first search has the full allowance and no veto but `keep`), and any other path provokes the
    reaction fire of a listed path to its destination, or more."""
    start = start_of(w, unit)
    assert start is not None
    rules = w.move_rules(unit)
    rules = replace(rules, budget=rules.budget - start[1])
    side = other(w.state.units[unit].side)
    zone, firers = w.zone(side), frozenset(reactors(w, side))
    out: list[tuple[tuple[str, tuple[str, ...]], list[str]]] = []

    def take(paths: list[list[str]]) -> set[str]:
        provoked: set[str] = set()
        for path in paths:
            key = (path[-1], tuple(r.unit for r in control.reactions(path, zone, firers)))
            provoked.update(key[1])
            out.append((key, path))
        return provoked

    def search(budget: int, veto: Callable[[HexId, HexId], bool] | None) -> list[list[str]]:
        def may_step(a: HexId, b: HexId) -> bool:
            return (rules.may_step is None or rules.may_step(a, b)) and (keep is None or keep(b)) and \
                (veto is None or not veto(a, b))
        reach = reachable(w.map, w.data.movement, start[0], replace(rules, budget=budget, may_step=may_step))
        return [list(reach.path(h)) for h in reach.destinations()]

    if keep is None:  # the unit's reach, as the level's obligations ask it (_best)
        reach = _reach(w, unit)
        base = [list(reach.path(h)) for h in reach.destinations()]
    else:
        base = search(rules.budget, None)
    provoked = take(([] if w.state.units[unit].where == "map" else [[start[0]]]) + base)
    tried: set[tuple[str, ...]] = set()
    while todo := [s for s in _avoidable(sorted(provoked)) if s not in tried]:
        for avoided in todo:
            tried.add(avoided)
            provoked |= take(search(rules.budget, _fired_on(zone, avoided)))
    if w.map.roads_at(start[0]) and (keep is None or keep(HexId(start[0]))):
        take(search(rules.budget + 2 * w.system.road_bonus.points,
                    lambda a, b: not w.map.roads_between(a, b) or b in zone))
    return out


def _fired_on(zone: Mapping[HexId, tuple[str, ...]], firers: tuple[str, ...]) -> Callable[[HexId, HexId], bool]:
    """Whether a step goes from a hex in one of `firers`' zones straight into another of the same unit's (its
    reaction fire, caricat §6.2); only the hexes in their zones are looked at (every step of a search asks)."""
    theirs = {h: units for h, units in zone.items() if any(f in units for f in firers)}
    return lambda a, b: a in theirs and b in theirs and any(f in theirs[a] and f in theirs[b] for f in firers)


def _avoidable(firers: list[str]) -> list[tuple[str, ...]]:
    """The sets of reaction firers a listing tries to avoid: every non-empty set of up to three firers, else each
    alone and all of them."""
    if len(firers) <= 3:
        return [c for n in range(1, len(firers) + 1) for c in combinations(firers, n)]
    return [(f,) for f in firers] + [tuple(firers)]


def reactors(w: World, side: str) -> list[str]:
    """`side`'s units that may fire at a move through their zone: infantry with a fire value, not Routed
    (caricat §6.2, §7.5.1), not at Reserve (§3.1: no combat "eccetto che con fuoco difensivo ... se attaccate in
    mischia", and a move past them is no melee)."""
    return [k for k, e in w.on_map(side).items() if e.kind == "infantry" and e.hits < ROUTED and w.fire_value(k) > 0
            and w.level(k) != "reserve"]


def move_problem_early(w: World, unit: str) -> bool:
    """Whether the unit has no move now whatever its path."""
    return unit_problem(w, unit) is not None or start_of(w, unit) is None


def move(g: Game, unit: str, path: list[str]) -> None:
    w = g.world()
    problem = move_problem(w, unit, path)
    if problem is not None:
        g.reject(*problem)
    road = road_bonus_possible(w, unit, path)
    g.emit(ev.UnitMoved(unit=unit, path=tuple(path), road_bonus=road, rule=str(R.ROAD if road else R.MOVEMENT)))
    SC.after_placement(g, unit)
    react(g, w, unit, path)


# --- reaction fire (caricat §6.2) -----------------------------------------------------------------------------------
def react(g: Game, w: World, unit: str, path: list[str]) -> None:
    side = other(g.state.units[unit].side)
    found = control.reactions(path, w.zone(side), reactors(w, side))
    if found:
        g.push("reaction", (side,), R.REACTION, f"choose whether to fire at {unit}",
               ev.ReactionAwaited(mover=unit, firers=tuple(r.unit for r in found)))


# --- leaders (caricat §7.3: a leader stands with one of his units; 9 MP, §6) -----------------------------------------
def move_leader(g: Game, leader: str, unit: str) -> None:
    w = g.world()
    state = g.state
    le = state.leaders.get(leader)
    if le is None or le.side != g.ctx.seat or le.gone:
        g.reject(R.LEADERS, f"{leader!r} is not one of your leaders")
    if state.activation != leader or state.activation_kind != "leader":
        g.reject(R.ACTIVATION, f"{leader} moves only in his own activation")
    if unit not in leader_targets(w, leader):
        g.reject(R.MOVEMENT, f"{leader} cannot reach {unit!r}: one of his units on the map within "
                             f"{w.system.movement.leader} movement points")
    g.emit(ev.LeaderMoved(leader=leader, unit=unit, rule=str(R.LEADERS)))


def leader_targets(w: World, leader: str) -> list[str]:
    here = leader_hex(w.state, leader)
    le = w.state.leaders[leader]
    if here is None or le.unit is None or le.moved:  # one move of 9 MP an activation (caricat §6)
        return []
    rules = w.move_rules(le.unit, w.system.movement.leader, zoc=False)
    rules = replace(rules, unit_class="leader", can_end=None)
    others = [k for k in w.units_of(leader) if k != le.unit]
    hexes = {h for k in others if (h := w.state.units[k].hex) is not None}
    reach = reachable(w.map, w.data.movement, here, rules, until=hexes)  # only whether his units' hexes are reached
    return [k for k in others if w.state.units[k].hex in reach.costs]


# --- the charge's path (caricat §9.1) -------------------------------------------------------------------------------
def charge_ground(w: World) -> frozenset[str]:
    """The hexes a charge may start, run and end in (caricat §9.1): clear terrain only. Once per map and terrain
    (kept in the World, as every step of every path a charge listing tries asks it: issue 15)."""
    found = w.memo.get(("charge ground", ""))
    if found is None:
        terrain = w.system.charge.terrain
        found = w.memo[("charge ground", "")] = _CHARGE_GROUND.get((w.map,), terrain, lambda: frozenset(
            h for h in w.map.hexes() if w.map.hex(h).terrain == terrain and not w.map.hex(h).other_terrain))
    return found  # type: ignore[return-value]


_CHARGE_GROUND = Memo(8)


def charge_problem(w: World, unit: str, path: list[str], target: str) -> tuple[R.Rule, str] | None:
    return charge_shape_problem(w, unit, path, target) or move_problem(w, unit, path)


def charge_shape_problem(w: World, unit: str, path: list[str], target: str) -> tuple[R.Rule, str] | None:
    """What a charge asks of its path beyond a move's (caricat §9.1): the activated cavalry, an enemy target at the
    charge's distance, clear terrain throughout, an end next to the target."""
    u, t = w.state.units.get(unit), w.state.units.get(target)
    if u is None or u.kind != "cavalry" or w.state.activation != unit:
        return R.CHARGE, f"{unit!r} is not the cavalry unit activated now"
    if t is None or t.where != "map" or t.side == u.side:
        return R.CHARGE, f"{target!r} is not an enemy unit on the map"
    spec = w.system.charge
    if not all(w.grid.contains(h) for h in path):
        return R.CHARGE, "the charge's path leaves the map"
    d = w.grid.distance(path[0], t.hex or "")
    if not spec.min_distance <= d <= spec.max_distance:
        return R.CHARGE, f"a charge starts {spec.min_distance}-{spec.max_distance} hexes from its target, not {d}"
    if not charge_ground(w).issuperset(path):
        return R.CHARGE, "a charge starts, runs and ends in clear terrain only"
    if not w.grid.is_adjacent(path[-1], t.hex or ""):
        return R.CHARGE, f"the charge must end next to {target}"
    return None
