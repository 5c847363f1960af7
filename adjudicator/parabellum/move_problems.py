"""Why a move is refused (caldiero §5.1, §7, §8, §9; arrivano §5.1, §7, §8, §9), worded once for both games.

The movement search (parabellum/movement.py) says only yes or no; a seat refused a move is told the first rule it
breaks, in the order the rules are read: the hex itself (on the map, closed to the side, enemy units: §9.1.2),
the unit's leaving an enemy ZoC (§8.1), the order's one hex (§5.1.3), the step into it (the hexside, the game's
own step vetoes, friends and enemy ZoC as the order allows: §8.2.1, §9.3.2, §5.1.3-§5.1.4), stopping on entering
an enemy ZoC (§9.1.2), the allowance (§9.1.1), stacking at the end (§7.1). One wording per rule, its citation the
variant's book. A game adds its own step vetoes (`StepVeto`: caldiero §10.3 guns at a canal, §17.1.3 the ice
storm, §19.1 a formation's direction). A commander's move is refused by the same functions (his `Mover` moves under
`COMMANDER_MOVE`: he may leave an enemy ZoC, §9.1.4, enters one only where friends stand, §8.2.2, stacks with
anyone; parabellum/commander_move.py adds his limit and his allowance's words).

A refusal says only what the refused seat may know (caldiero §20.4, arrivano §11.3.2, arbitro §V.4): under fog it
cites an enemy ZoC only where a stack the seat may examine projects it (`seen_zoc`); a ZoC only unseen stacks could
project is worded by one sentence true whether it is there or not (`unreachable`, `path_problem`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.maps.movement import MoveBlock, MoveRules, StopReason, check_path
from arbitro.adjudicator.parabellum.movement import (
    Mover, Problem, end_problem, entering_problem, ezoc_to_ezoc_problem, leave_ezoc_problem, presence_problem,
    road_steps,
)
from arbitro.adjudicator.parabellum import sight
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.parabellum.zoc import enemy_zoc, exerts_zoc, zoc_hexes

StepVeto = Callable[[str | None, str], Problem | None]
"""A game's own reason a mover may not step from a into b (a None: entering the map at b), or None."""


def seen_zoc(variant: Variant, world: World, side: str) -> tuple[frozenset[HexId], frozenset[HexId]]:
    """The enemy ZoC as `side` may know it, and the hexes a ZoC it may not know of could reach (caldiero §20.4,
    arrivano §11.3.2): without fog, the whole ZoC and none; under fog, the ZoC of the enemy stacks it may examine,
    and the hexes around those it may not (their markers are served, not their state: whether they are in good
    order, caldiero §15 / arrivano §8, is what the fog hides)."""
    def work() -> tuple[frozenset[HexId], frozenset[HexId]]:
        if not sight.fog_in_force(variant.fog_option, world.option):
            return enemy_zoc(world, side), frozenset()
        enemies = [u for u in world.units_of(world.enemy(side)) if world.hex_of(u) is not None]
        hidden = sight.unexaminable(world, side, {world.hex_of(u) or "" for u in enemies}, variant.fog_reach(world))
        seen = {h for u in enemies if (h := world.hex_of(u) or "") not in hidden and exerts_zoc(world, u)}
        return zoc_hexes(world.grid, seen, world.no_zoc_into), zoc_hexes(world.grid, hidden, world.no_zoc_into)

    return world.cached(("seen_zoc", side), work)


def off_map_problem(variant: Variant, h: str) -> Problem:
    """A hex not on the map (§9.1 in both)."""
    return variant.rules.MOVEMENT, f"{h} is not on the map ({variant.rules.MOVEMENT})"


def friends_at(world: World, h: str, side: str, movers: Sequence[str]) -> bool:
    """Whether units of `side` other than `movers` stand in h (§5.1.3, §9.3.2 in both)."""
    return any(u not in movers for u in world.side_units_at(h, side))


def step_problem(variant: Variant, world: World, m: Mover, movers: Sequence[str], a: str | None, b: str,
                 veto: StepVeto | None = None) -> Problem | None:
    """Why `movers` may not step from a into b (a None: entering the map at b), or None: b off the map, not next to
    a, across a hexside no unit crosses (§9.2's table), a hex they may never enter (`entering_problem`), off the
    road for a march column that keeps to roads (arrivano §9.3), the game's `veto`, friends or the enemy's ZoC
    there as the order allows (`presence_problem`), or straight from one enemy ZoC hex to another (D7)."""
    r = variant.rules
    if not world.grid.contains(b):
        return off_map_problem(variant, b)
    if a is not None and not world.grid.is_adjacent(a, b):
        return r.MOVEMENT, f"{a} and {b} are not adjacent ({r.MOVEMENT})"
    if a is not None and world.crossing_prohibited(a, b):
        return r.TERRAIN_MOVE, f"{a}-{b}: the terrain effects table allows no movement across this hexside ({r.TERRAIN_MOVE})"
    problem = entering_problem(variant, world, m.side, b)
    if problem:
        return problem
    if a is not None and m.column and variant.column_keeps_to_roads(world.reading) \
            and (a, b) not in road_steps(world.hexmap):
        return r.COLUMN_LIMITS, (f"{a}-{b} is not along a road: a march column keeps to roads ({variant.cite('9.3')}, "
                                 f"{r.COLUMN_LIMITS})")
    problem = veto(a, b) if veto is not None else None
    if problem:
        return problem
    ezoc = seen_zoc(variant, world, m.side)[0]
    return presence_problem(variant, m.move, b, ezoc, friends_at(world, b, m.side, movers), m.column) \
        or ezoc_to_ezoc_problem(variant, m.move, a, b, ezoc, a is not None and friends_at(world, a, m.side, movers))


def stacking_problem(variant: Variant, world: World, h: str, movers: Sequence[str], column: bool) -> Problem | None:
    """Why `movers` may not end their move in h for stacking (§7.1, §7.1.1; a march column stacks with no one,
    §7.1.2, §9.3.2 in both: `end_problem`), or None; none for a commander, who moves without units."""
    problem = end_problem(variant, world, h, movers, column) if movers else None
    if problem is None:
        return None
    return (variant.rules.COLUMN_LIMITS if column else variant.rules.STACKING), problem


def _start_problem(variant: Variant, world: World, m: Mover, far: bool) -> Problem | None:
    """What forbids any move of `m` before its first step: leaving an enemy ZoC (§8.1; a commander may, §9.1.4), more
    than the one hex a Defence order (§5.1.3) or the weather (arrivano §17.2.7) allows (`Mover.one_hex`; `far`: the
    move asked goes farther)."""
    commander = m.move.commander
    problem = None if commander else leave_ezoc_problem(variant, m.move.order, m.origin, seen_zoc(variant, world, m.side)[0])
    if problem is None and far and m.one_hex is not None:
        order = m.move.order if m.one_hex == variant.rules.DEFENCE else None
        problem = m.one_hex, one_hex_words(m.one_hex, order, "a commander" if commander else "a unit")
    return problem


def one_hex_words(rule: Rule, order: str | None, who: str) -> str:
    """The refusal of a move beyond the one hex `rule` allows: the Defence order's (§5.1.3 in both, `order`) or the
    weather's (arrivano §17.2.7)."""
    why = f"with a {order.capitalize()} order" if order is not None else "in this weather"
    return f"{why} {who} moves at most one hex ({rule})"


def destination_problem(variant: Variant, world: World, m: Mover, movers: Sequence[str], to: str,
                        veto: StepVeto | None = None) -> Problem | None:
    """Why `movers` (the search's `m`) cannot end a move in `to`, as far as a rule says it, or None (then it is
    beyond their allowance: `unreachable`): the hex itself (`entering_problem`), the start (`_start_problem`), the
    one step into it when it is next to the origin (`step_problem`) or else what stands in it (`presence_problem`),
    stacking there."""
    if not world.grid.contains(to):
        return step_problem(variant, world, m, movers, None, to)
    problem = entering_problem(variant, world, m.side, to) or _start_problem(
        variant, world, m, world.grid.distance(m.origin, to) > 1)
    if problem:
        return problem
    if world.grid.is_adjacent(m.origin, to):
        problem = step_problem(variant, world, m, movers, m.origin, to, veto)
    else:
        problem = presence_problem(variant, m.move, to, seen_zoc(variant, world, m.side)[0],
                                   friends_at(world, to, m.side, movers), m.column)
    return problem or stacking_problem(variant, world, to, movers, m.column)


def unreachable(variant: Variant, to: str, movers: Sequence[str], orders: Sequence[str]) -> Problem:
    """The refusal of a destination no rule said of the hex itself forbids: beyond the allowance at the terrain's
    costs (§9.1.1, §9.2), or reached only through hexes an enemy ZoC closes to the order (§8.2.1) or stops them in
    (§9.1.2). One sentence for all of these, since which one decides may rest on a ZoC the seat may not know of."""
    r = variant.rules
    return r.ALLOWANCE, (f"{to} cannot be reached by {', '.join(movers)} under {' or '.join(orders)}: it is beyond "
                         f"their movement points, or reached only through hexes an enemy ZoC closes to them or stops "
                         f"them in ({r.ALLOWANCE}, {r.TERRAIN_MOVE}, {r.ZOC}, {r.STOP_IN_EZOC})")


def unseen_from(variant: Variant, world: World, side: str, walked: Sequence[str]) -> int | None:
    """The index of the first hex of `walked` a ZoC `side` may not know of could reach (`seen_zoc`), or None: a
    refusal from that step on is worded by `unseen_problem`, true whether that ZoC is there or not."""
    unseen = seen_zoc(variant, world, side)[1]
    return next((i for i, h in enumerate(walked) if h in unseen), None)


def unseen_problem(rule: Rule, walked: Sequence[str], at: str, *rules: Rule) -> Problem:
    """The refusal of a path from `at` on, where enemy stacks the seat may not examine could project a ZoC (the
    fog of war: caldiero §20.4, arrivano §11.3.2): one sentence true whether they do or not."""
    cited = ", ".join(str(r) for r in rules)
    return rule, (f"{'-'.join(walked)} cannot be walked from {at} on, next to enemy stacks out of sight: a "
                  f"step there is beyond the movement points, or forbidden (by the terrain, enemy units or an enemy "
                  f"ZoC), or follows a hex where an enemy ZoC stops the move ({cited})")


def path_problem(variant: Variant, world: World, m: Mover, movers: Sequence[str], walked: Sequence[str],
                 hexmap: HexMap, table: MovementTable, rules: MoveRules, veto: StepVeto | None = None) -> Problem | None:
    """Why `movers` may not walk `walked` (from the search's origin, included: the hex they leave, or the entry hex
    they come onto the map at), the first rule its first forbidden step breaks, or None: each step read by the
    engine's `check_path` with the search's `rules`, worded as `step_problem` words it, then stacking at the end."""
    r = variant.rules
    allowance, zoc = (r.LEADER_MOVE, (r.LEADER_EZOC,)) if m.move.commander else (r.ALLOWANCE, (r.ZOC, r.STOP_IN_EZOC))
    if len(walked) < (2 if m.on_map else 1):
        return r.MOVEMENT, f"a move needs at least one hex ({r.MOVEMENT})"
    problem = (None if m.on_map else step_problem(variant, world, m, movers, None, walked[0], veto)) \
        or _start_problem(variant, world, m, len(walked) > 2)
    if problem:
        return problem
    unseen = unseen_from(variant, world, m.side, walked)
    if unseen is not None:  # what the seat may know, first: the rest may rest on a ZoC it may not know of
        problem = _end_problem(variant, world, m, movers, walked)
        if problem:
            return problem
    check = check_path(hexmap, table, walked, rules)
    if check.block is not None and check.at_step is not None:
        if unseen is not None and check.at_step >= unseen:
            return unseen_problem(r.MOVEMENT, walked, walked[unseen], allowance, r.TERRAIN_MOVE, *zoc)
        a, b = walked[check.at_step - 1], walked[check.at_step]
        if check.block == MoveBlock.ALREADY_STOPPED:
            rule = r.STOP_IN_EZOC if check.stop == StopReason.ENEMY_ZOC else r.TERRAIN_MOVE
            why = "an enemy ZoC" if check.stop == StopReason.ENEMY_ZOC else "terrain that stops a move"
            return rule, f"units stop on entering {why} at {a} ({rule})"
        if check.block in (MoveBlock.NOT_ENOUGH_POINTS, MoveBlock.ALL_POINTS_NOT_FIRST):
            return allowance, (f"{b} costs more than the movement points left after {check.spent / 2:g} of "
                               f"{rules.budget / 2:g} MP along {'-'.join(walked)} ({allowance}, {r.TERRAIN_MOVE})")
        if check.block != MoveBlock.CANNOT_END_HERE:
            return step_problem(variant, world, m, movers, a, b, veto) or (
                r.MOVEMENT, f"{b} cannot be entered from {a}: {check.block.value.replace('_', ' ')} ({r.MOVEMENT})")
    return _end_problem(variant, world, m, movers, walked)


def _end_problem(variant: Variant, world: World, m: Mover, movers: Sequence[str], walked: Sequence[str]) -> Problem | None:
    """What a path breaks as a whole: a hex walked twice (§9.1), stacking where it ends (§7.1)."""
    if len(set(walked)) != len(walked):
        return variant.rules.MOVEMENT, f"a path may not revisit a hex ({variant.rules.MOVEMENT})"
    return stacking_problem(variant, world, walked[-1], movers, m.column)
