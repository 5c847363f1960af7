"""A commander's move (caldiero §8.2.2, §8.2.3, §9.1.4, §15.4; arrivano §8.2.2, §8.2.3, §9.1.4, §15.4), written once
on the map kit's path finding: his full allowance whatever the order (D31: the allowance is each game's data),
never into enemy units, into an enemy ZoC only where friendly units stand, from one enemy ZoC hex to another only
when both hold friendly units, never stopping there; fleeing (§8.2.3, D12) by the variant's data. Each game says
what it adds in a `CommanderMove` (where he starts or enters, his allowance and class, its closed hexes, a storm's
one hex); the kernel searches it as the units' move (`commander_mover`), and judges a path he is given and says why a
hex is refused with the units' refusals (parabellum/move_problems)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.maps.movement import MoveRules
from arbitro.adjudicator.parabellum.chief_limits import ChiefLimit, limit_closed, limit_end_problem, limit_ends, limit_problem
from arbitro.adjudicator.parabellum.move_problems import destination_problem, path_problem
from arbitro.adjudicator.parabellum import sight
from arbitro.adjudicator.parabellum.movement import (
    COMMANDER_MOVE, FLEEING_MOVE, Mover, Problem, costs_in_force, ends, entry_spent, kept_reach, search_key,
    terrain_multiplier, unit_rules,
)
from arbitro.adjudicator.parabellum.sequence import refuse
from arbitro.adjudicator.parabellum.variant import Rolls, Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.adjudicator.ruleset import Rule
from arbitro.events.parabellum import LeaderMoved


@dataclass(frozen=True)
class CommanderMove:
    """One commander's move as his game gives it: of `side`, from `origin` (his hex or, `on_map` False, the entry hex
    he comes onto the map at, already paid for in `budget`: §15.4 in both), `budget` half points (D31), priced as
    `unit_class` on `table` times the weather's multiplier (caldiero §17.1.2-§17.1.3, read off the position as a
    unit's move reads it: `movement.unit_rules`); `one_hex`: the rule keeping him to
    one hex (arrivano §17.2.7 storm), or None; `closed`: hexes his game forbids him to enter (caldiero §9.2.1's rows, by
    the scenario hooks), a rule of `side` and `anchors` (the data objects it reads); `fleeing`: he flees an enemy unit
    (§8.2.3); `limit`: a commander in chief's limit (caldiero §4.2.2; Arrivano prints none), which closes, read for
    the whole move, the hexes farther beyond it than where he starts (`chief_limits.limit_closed`), says where he may
    end and is worded in his refusals; `allowance_rule`: the scenario's rule giving his allowance (arrivano §17.1.2,
    §17.2.2: `ScenarioData.commander_movement_cited`), "" where his counter prints it, cited with §9.1.4 where his
    allowance refuses a move."""

    side: str
    hexmap: HexMap
    table: MovementTable
    origin: str
    on_map: bool
    unit_class: str
    budget: int
    one_hex: Rule | None = None
    closed: Callable[[HexId], bool] | None = None
    fleeing: bool = False
    anchors: tuple[object, ...] = ()
    limit: ChiefLimit | None = None
    allowance_rule: str = ""


def commander_move(variant: Variant, world: World, leader: str, fleeing: bool = False) -> CommanderMove | None:
    """`leader`'s move from his game's data and hooks (D31 `ScenarioData.commander_movement`, `commander_class`; caldiero §4.2.2
    `commander_limit`; arrivano §17.2.7 `weather_one_hex`; `World.closed_to`, caldiero §9.2.1, where his game closes any
    hex: `Variant.closes_hexes`), off the map from his
    entry hex, its cost paid as a unit entering there pays it (§15.4 in both: `entry_spent`, by road where a road runs
    there); `fleeing` an enemy unit (§8.2.3). None: he cannot enter now."""
    le, cls = world.state.leaders[leader], variant.commander_class
    side, origin, spent = le.side, le.hex, 0
    table = costs_in_force(variant, world)
    if le.where != "map":
        origin = leader_entry(world, leader)
        if origin is None or world.enemy_units_at(origin, side):
            return None
        spent = entry_spent(variant, world, cls, origin)
    return CommanderMove(side, world.hexmap, table, origin or "", le.where == "map", cls,
                         world.counters.commander_movement(leader) * 2 - spent,
                         variant.weather_one_hex(world),
                         (lambda h: bool(world.closed_to(side, h))) if variant.closes_hexes else None, fleeing,
                         (world.counters, world.scenario), variant.commander_limit(world, leader),
                         world.counters.commander_movement_cited(leader))


def leader_entry(world: World, leader: str) -> str | None:
    """Where an off-map commander enters (his arrival's entry hex, §15.4 in both), None on the map."""
    arrival = world.counters.leader(leader).arrival if world.state.leaders[leader].where == "offmap" else None
    return arrival.entry if arrival else None


def leader_ends(variant: Variant, world: World, leader: str, fleeing: bool = False,
                to: str | None = None) -> dict[str, tuple[HexId, ...]]:
    """`commander_ends` of `leader`'s `commander_move`."""
    return commander_ends(variant, world, commander_move(variant, world, leader, fleeing), to)


def leader_commands(variant: Variant, world: World, leaders: Iterable[str], first: bool = False) -> Iterator[dict[str, Any]]:
    """The `move_leader` commands of `leaders`, by leader and hex; `first`: each one's first, his search stopped at
    the first hex he may end in (`any_commander_end`, issue 15: "anything left?")."""
    for leader in leaders:
        ends = [any_commander_end(variant, world, commander_move(variant, world, leader))] if first else \
            sorted(leader_ends(variant, world, leader))
        yield from ({"type": "move_leader", "leader": leader, "to": h} for h in ends if h is not None)


def move_leader(variant: Variant, game: Rolls, world: World, leader: str, to: str, rule: Rule,
                path: Sequence[str] | None = None) -> None:
    """`leader`'s own move to `to` (`commander_walk`, along `path` where his game lets him name one), recorded citing
    `rule`, or its refusal: he cannot enter the map now (§15.4 in both), or the rule his move breaks."""
    move = commander_move(variant, world, leader)
    if move is None:
        refuse(variant.rules.REINFORCEMENTS, f"{leader} cannot enter the map at {leader_entry(world, leader)} now "
                                             f"({variant.rules.REINFORCEMENTS})")
    walked = commander_walk(variant, world, move, to, path)
    if isinstance(walked[0], Rule):
        refuse(*walked)
    game.emit(LeaderMoved(leader=leader, path=walked, rule=str(rule), own=True))  # type: ignore[arg-type]


def commander_may_move(world: World, leader: str, seat: str,
                       due: Callable[[str], bool] = lambda _: False) -> bool:
    """Whether `leader` may move now, in an activation of `seat`'s formation (caldiero §4.1.4, §4.2.1; arrivano §4.1.4,
    §4.3.1, the same words): the activated formation's general (and its officers, arrivano §4.2; caldiero has none,
    D3), or in an independent column's activation its officer alone (arrivano §16.2: the column, not "la propria
    formazione", is activated; §16.2.1 "la formazione principale"), and the commander in chief, each unless he moved
    himself this turn (D42: `moved_turn`, set by his own move only: carried with his stack, fleeing or going to
    friends is no move of his); on the map, or off it and `due` to enter with his reinforcements (caldiero §15.4);
    never one lost (§4.4, arrivano §4.5)."""
    act, le = world.state.activation, world.state.leaders[leader]
    if act is None or le.side != seat or world.state.formations[act.formation].side != seat:
        return False
    if le.where != "map" and not (le.where == "offmap" and due(leader)):
        return False
    commands = leader == act.column if act.column is not None else \
        leader == world.state.formations[act.formation].general or (le.role == "officer" and le.formation == act.formation)
    return (commands or le.role == "commander_in_chief") and le.moved_turn != world.state.turn


def commander_mover(variant: Variant, m: CommanderMove) -> Mover:
    """The units' `Mover` for his move, moving as a commander (`COMMANDER_MOVE`: §8.2.2, §9.1.2, §9.1.4; fleeing
    through enemy ZoCs where the variant reads §8.2.3 so, D12: `FLEEING_MOVE`): his search's and his refusals'
    (parabellum/move_problems)."""
    free = m.fleeing and variant.escape_through_ezoc
    return Mover(m.side, m.origin, m.on_map, m.budget, m.unit_class, False, FLEEING_MOVE if free else COMMANDER_MOVE,
                 m.one_hex)


def _commander_rules(variant: Variant, world: World, m: CommanderMove, mover: Mover) -> MoveRules:
    """A commander's rules on the position: the units' (`unit_rules`) for his `commander_mover`, with his game's
    closed hexes and his limit's (`limit_closed`)."""
    game, beyond = m.closed, limit_closed(m.limit, m.origin)
    closed = game if beyond is None else (lambda h: beyond(h) or (game is not None and game(h)))
    return unit_rules(variant, world, mover, closed=closed)


def commander_moves(variant: Variant, world: World, m: CommanderMove, to: str | None = None,
                    stop_at: Callable[[HexId], bool] | None = None) -> dict[str, tuple[HexId, ...]]:
    """Where the commander may end his move, each with its path from his origin (both included), in hex order: the
    search of `_commander_rules` on the position's enemy ZoC and units (§8.2.2, §9.1.2, §9.1.4 in both), kept across
    positions (`kept_reach`). Entering from off the map he may stay on his entry hex (§15.4 in both; no minimum
    move). `to`: that hex alone, if it is one, searched only as far as it (a move to it: `kept_reach`); `stop_at`:
    those reached when the search stopped at the first hex it takes (the whole answer if it takes none)."""
    mover = commander_mover(variant, m)
    ezoc, friends = enemy_zoc(world, m.side), world.hexes_held(m.side)
    # what his search reads of the position: enemy units and ZoC, friends only within an enemy ZoC
    key = ("commander", mover.key(), terrain_multiplier(world), m.closed is not None, m.limit.key if m.limit else None,
           search_key(world, ("enemy zoc", m.side), ezoc),
           search_key(world, ("held", world.enemy(m.side)), world.hexes_held(world.enemy(m.side))),
           search_key(world, ("held in enemy zoc", m.side), friends & ezoc))
    found = kept_reach(variant, m.hexmap, m.table, m.origin, _commander_rules(variant, world, m, mover), key, m.anchors,
                       to=to, stop_at=stop_at)
    out = {h: found.path(h) for h in ends(found, None, to)}
    if not m.on_map and to in (None, m.origin):
        out[m.origin] = (HexId(m.origin),)
    return dict(sorted(out.items()))


def commander_ends(variant: Variant, world: World, m: CommanderMove | None,
                   to: str | None = None) -> dict[str, tuple[HexId, ...]]:
    """Where the commander may end his move (`commander_moves`), each with the hexes he enters, as his move's event
    records them (on the map from the hex after his, entering from his entry hex): a commander in chief within his
    limit, or as near it as he can get (caldiero §4.2.2: `chief_limits.limit_ends`; Arrivano prints none). `to`:
    that hex alone, searched only as far as it where the limit lets him end there whatever else he reaches (issue 15:
    a move names its hex). `m` None (he cannot enter now): nowhere."""
    if m is None:
        return {}
    limit = m.limit
    if to is not None and limit is not None and (not world.grid.contains(to) or limit.beyond(to) > 0):
        return {h: path for h, path in commander_ends(variant, world, m).items() if h == to}
    found = commander_moves(variant, world, m, to)
    may_end = limit_ends(limit, m.origin, found)
    return {h: path[1:] if m.on_map else path for h, path in found.items() if may_end(h)}


def any_commander_end(variant: Variant, world: World, m: CommanderMove | None) -> str | None:
    """A hex of `commander_ends`, or None (issue 15: "anything left?"): his search stopped at the first hex within his
    limit, where he may always end whatever else he reaches; found none, it searched everything, and the limit says
    where he may end as `commander_ends` does."""
    if m is None:
        return None
    limit = m.limit
    within = (lambda h: True) if limit is None else (lambda h: limit.beyond(h) == 0)
    found = commander_moves(variant, world, m, stop_at=lambda h: (h != m.origin or not m.on_map) and within(h))
    may_end = limit_ends(limit, m.origin, found)  # stopped at a hex within: only those within
    return next((h for h in found if may_end(h)), None)


def commander_walk(variant: Variant, world: World, m: CommanderMove, to: str,
                   path: Sequence[str] | None = None) -> tuple[str, ...] | Problem:
    """The hexes a commander's move to `to` enters, as `commander_ends` gives them, or along `path` where his game lets
    him name one (caldiero §9.1: a path he is given is the one he walks, if he may); else why it is refused
    (`commander_destination_problem`, `commander_path_problem`): a Problem's first item is a Rule."""
    r = variant.rules
    found = commander_ends(variant, world, m, to).get(to)
    if found is None:
        return commander_destination_problem(variant, world, m, to)
    if path is None or tuple(path) == found:
        return found
    if path[-1] != to:
        return r.MOVEMENT, f"the path ends at {path[-1]}, not at {to} ({r.MOVEMENT})"
    return commander_path_problem(variant, world, m, (m.origin, *path) if m.on_map else path) or tuple(path)


def commander_path_problem(variant: Variant, world: World, m: CommanderMove, walked: Sequence[str]) -> Problem | None:
    """Why the commander may not walk `walked` (from his origin, included, as `commander_moves` gives a path), the
    first rule its first forbidden step breaks, or None: his limit (caldiero §4.2.2), else the units' `path_problem`
    for his `commander_mover`, each step read as his search reads it (§8.2.2, §9.1.2, §9.1.4 in both)."""
    r = variant.rules
    beyond = limit_problem(m.limit, m.origin, (h for h in walked if world.grid.contains(h)))
    if beyond is not None:
        return beyond
    if not walked or walked[0] != m.origin:
        where = "is" if m.on_map else "enters"
        return r.MOVEMENT, f"a commander's path goes on from {m.origin}, where he {where} ({r.MOVEMENT})"
    mover = commander_mover(variant, m)
    return path_problem(variant, world, mover, (), walked, m.hexmap, m.table, _commander_rules(variant, world, m, mover))


def commander_destination_problem(variant: Variant, world: World, m: CommanderMove, to: str) -> Problem:
    """Why the commander may not end his move in `to`, which `commander_moves` does not list: the units'
    `destination_problem` for his `commander_mover` (off the map, a hex his game closes to his side, caldiero §9.2.1,
    enemy units there, §9.1.2, an enemy ZoC without friends there, §8.2.2, a storm's one hex), else beyond his
    allowance (§9.1.4, §9.1.1; the scenario's rule giving it cited with it, arrivano §17.1.2, §17.2.2) or only
    through enemy ZoC he may not cross (§8.2.2). The ZoC is cited only where the seat may know it (`seen_zoc`: the fog of war, caldiero §20.4, arrivano §11.3.2); the last sentence is
    true whether a ZoC it may not know of is there or not. A commander in chief's limit (caldiero §4.2.2) is worded
    first (`chief_limits.limit_end_problem`); under the fog only where `to` lies farther beyond it than he starts (true
    whatever he can reach), else as one more possibility of the last sentence (whether he can end nearer hangs on
    ZoCs the seat may not know of); and named where, read for the whole move, it closed his way."""
    r, limit = variant.rules, m.limit
    fogged = sight.fog_in_force(variant.fog_option, world.option)
    if world.grid.contains(to) and limit is not None and (limit.beyond(to) > limit.beyond(m.origin) or not fogged):
        beyond = limit_end_problem(limit, m.origin, to, () if fogged else commander_moves(variant, world, m))
        if beyond is not None:
            return beyond
    problem = destination_problem(variant, world, commander_mover(variant, m), (), to)
    if problem is not None:
        return problem
    allowance = f"his {m.budget / 2:g} MP" if m.on_map else f"the {m.budget / 2:g} MP left him after his entry hex"
    allowance += f" ({m.allowance_rule})" if m.allowance_rule else ""
    leaving = f", or reached only by leaving his limit ({limit.words}, {limit.rule})" if limit and limit.whole_move else ""
    # Whether he can end nearer his limit hangs on what he can reach, so on ZoCs the seat may not know of (the fog):
    # said as one more possibility wherever `to` lies beyond it, never as the reason.
    nearer = f", or he can end nearer his limit ({limit.words}, {limit.rule})" if fogged and limit and limit.beyond(to) else ""
    return r.LEADER_MOVE, (f"{to} is beyond {allowance}, or in or reached only through enemy ZoC hexes without "
                           f"friendly units ({r.LEADER_MOVE}, {r.TERRAIN_MOVE}, {r.LEADER_EZOC}){leaving}{nearer}")
