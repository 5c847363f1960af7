"""Movement under an order (caldiero §5.1, §8, §9; arrivano §5.1, §8, §9), written once on the map kit's path
finding (adjudicator/maps/movement.py: costs, minimum move, stops).

What the kernel decides here, for both books:
- what an order lets a unit do with enemy zones of control (`OrderMove` -> the engine's `ZocRules`): entering
  stops (§8.2.1), Manoeuvre never enters, Defence only where a friendly unit stands (§5.1.3-§5.1.4), a march
  column never enters (§9.3.2), and a unit in an enemy ZoC leaves it only under a Defence order (§8.1);
- a commander's move (§8.2.2, §9.1.4): his full allowance whatever the order (D31: the allowance is each game's
  data), never into enemy units, into an enemy ZoC only where friendly units stand, from one enemy ZoC hex to
  another only when both hold friendly units, never stopping there; fleeing (§8.2.3, D12) by the variant's data;
- the movement obligations of Advance and Attack (§5.1.1, §5.1.2): when the counted units have not done what the
  order asks while they still could (who is counted is each game's, D6).

Which of several equally cheap paths a move records is the variant's `path_tie_break` (the paths are in the
games' recorded events)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple

from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.maps.hexgrid import Cube, HexId
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.maps.movement import MoveRules, Reach, ZocRules, cached_step_cost, reachable
from arbitro.adjudicator.parabellum.data import OrdersTable
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.stacking import Piece, broken_rule, make_up, make_up_fits, stack_words
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.adjudicator.ruleset import Rule

EzocEntry = Literal["yes", "no", "with_friend"]
Problem = tuple[Rule, str]


SEARCHES = Memo(1024)
"""Movement searches kept across positions (issue 15). A search reads only what its game's key names: the
mover's start, order, allowance and formation of march, the enemy's zones of control and units, the friends
that matter to it, the weather and the readings that price a step. Any later position that leaves those alone
asks the same search, so within an activation a group is searched once, whatever the other groups do meanwhile
(the key is the game's to make complete: a thing it leaves out is a thing the search must not read)."""


# --- an order's permissions (§5.1, §8 in both) ------------------------------------------------------------
def may_leave_ezoc(order: str) -> bool:
    """§8.1 in both books ("Unità in EZoC non possono lasciarla se non con un Ordine di Difesa (5.1.3) o come
    risultato di un Bombardamento o Assalto"): a unit moves out of an enemy ZoC only under a Defence order. A
    retreat or an advance after combat is not a move and never asks."""
    return order == "defence"


def leave_ezoc_problem(variant: Variant, order: str, start: str | None, ezoc: frozenset[HexId]) -> Problem | None:
    """Why a unit in `start` may not move at all under `order` (§8.1 in both), or None."""
    if start is None or start not in ezoc or may_leave_ezoc(order):
        return None
    rule = variant.rules.LEAVE_EZOC
    return rule, f"{start} is in an enemy ZoC: only a Defence order may leave it ({rule})"


@dataclass(frozen=True)
class OrderMove:
    """The movement permissions of an order (`order_moves`, from each game's orders table), or a commander's
    (`commander`: `COMMANDER_MOVE`, `FLEEING_MOVE`): he goes on through an enemy ZoC he may enter (§8.2.2 "non deve
    fermarsi in EZoC", §9.1.2 "ma non un Comandante"), leaves one whatever his orders (§9.1.4), and entering one only
    where friendly units stand goes from one to another only when both hexes hold them (§8.2.2 "se entrambi gli
    esagoni sono occupati da unità di combattimento amiche")."""

    order: str
    enter_ezoc: EzocEntry
    ezoc_to_ezoc: bool  # straight from one enemy ZoC hex to another (D7: caldiero §5.1.3 no, arrivano §5.1.3 with a test)
    max_hexes: int | None
    commander: bool = False


# A commander's move (§8.2.2, §9.1.4 in both): his full allowance whatever the order, into an enemy ZoC only where
# friendly units stand; fleeing an enemy unit (§8.2.3), through enemy ZoCs where the variant reads it so (D12).
COMMANDER_MOVE = OrderMove("commander", "with_friend", True, None, commander=True)
FLEEING_MOVE = OrderMove("commander", "yes", True, None, commander=True)


_ORDER_MOVES = Memo(64)


def order_moves(table: OrdersTable) -> Mapping[str, OrderMove]:
    """Each order's movement permissions as the game's orders table gives them (§5.1 in both, D6; caldiero
    data/orders.json, arrivano tables/orders.json): its EZoC entry, one hex under Defence, and D7, straight from one
    EZoC hex to another: free unless the order enters only beside a friend, then only with the table's test
    (caldiero §5.1.3: never; arrivano §5.1.3: with a test, its own procedure). Worked out once per table."""
    return _ORDER_MOVES.get((table,), "order moves", lambda: {
        name: OrderMove(name, o.enter_ezoc, ezoc_to_ezoc=o.enter_ezoc != "with_friend" or o.ezoc_to_ezoc_test,
                        max_hexes=o.max_hexes) for name, o in table.orders.items()})


def zoc_rules(order: OrderMove, ezoc: frozenset[HexId], friendly: Callable[[HexId], bool],
              march_column: bool = False) -> ZocRules:
    """Enemy ZoC for a combat unit: entering stops (§8.2.1); Manoeuvre never enters, Defence only where a
    friendly unit stands (§5.1.3-§5.1.4); a march column never enters (§9.3.2); a unit in an enemy ZoC leaves it
    only under Defence (§8.1: `may_leave_ezoc`), so a unit entering the map on an EZoC hex stops there (§9.1.2). A
    commander neither stops nor is held (`OrderMove.commander`: §8.2.2, §9.1.4)."""
    leave = order.commander or may_leave_ezoc(order.order)
    if march_column or order.enter_ezoc == "no":
        return ZocRules(hexes=ezoc, entry="prohibited", zoc_to_zoc=order.ezoc_to_ezoc, may_leave=leave)
    may_enter = friendly if order.enter_ezoc == "with_friend" else None
    return ZocRules(hexes=ezoc, entry="continue" if order.commander else "stop", may_enter=may_enter,
                    zoc_to_zoc=order.ezoc_to_ezoc, may_leave=leave)


def enemy_problem(variant: Variant, b: str, enemy_there: bool) -> Problem | None:
    """§9.1.2 in both: a unit never enters a hex holding enemy combat units."""
    rule = variant.rules.ENEMY_HEX
    return (rule, f"{b} holds enemy combat units ({rule})") if enemy_there else None


def entering_problem(variant: Variant, world: World, side: str, b: str) -> Problem | None:
    """Why a unit of `side` may never enter b whatever the step, or None: a hex its scenario closes to the side
    (`World.closed_to`: caldiero §9.2.1), enemy combat units there (§9.1.2 in both)."""
    return world.closed_to(side, b) or enemy_problem(variant, b, bool(world.enemy_units_at(b, side)))


def presence_problem(variant: Variant, order: OrderMove, b: str, ezoc: frozenset[HexId], friends_there: bool,
                     column: bool) -> Problem | None:
    """Why the friends in b or the enemy's ZoC over it forbid a unit moving under `order` to enter b (`friends_there`:
    friendly units other than the movers): §9.3.2 in both, a march column passes through no friends and enters no
    EZoC; §8.2.1 an EZoC only as the order allows: Defence where a friendly unit already is (§5.1.3), Manoeuvre
    never (§5.1.4); a commander likewise only where friendly units stand (§8.2.2: `COMMANDER_MOVE`)."""
    r = variant.rules
    if column and friends_there:
        return r.COLUMN_LIMITS, f"a unit in march column may not move through or stack with friends at {b} ({r.COLUMN_LIMITS})"
    if b not in ezoc:
        return None
    if column:
        return r.COLUMN_LIMITS, f"{b} is in an enemy ZoC: a march column may not enter it ({r.COLUMN_LIMITS})"
    if order.enter_ezoc == "with_friend" and not friends_there:
        rule, who = (r.LEADER_EZOC, "a commander enters it") if order.commander else (r.DEFENCE, "with a Defence order")
        return rule, f"{b} is in an enemy ZoC: {who} only where a friendly unit already is ({rule})"
    if order.enter_ezoc == "no":
        return r.MANOEUVRE, f"{b} is in an enemy ZoC: a {order.order} order does not allow entering it ({r.MANOEUVRE})"
    return None


def column_problem(variant: Variant, world: World, orders: Sequence[str], start: str | None) -> Problem | None:
    """Why movers under any of `orders`, leaving `start` (None or "": entering the map), may not declare march column
    (§9.3 in both, "una unità su strada o strada minore ... può dichiarare"), or None: none of the orders allows it (the
    orders table's `march_column`: caldiero §5.1.1, §5.1.4; arrivano §5.1), or no road at the start, unless the
    variant keeps the whole column move to roads (D38 `column_keeps_to_roads`: the roads of the path say it then)."""
    rule = variant.rules.MARCH_COLUMN
    if not _column_order(world, orders):
        allowing = " or ".join(o.capitalize() for o, rules in world.orders.orders.items() if rules.march_column)
        return rule, f"march column needs an {allowing} order ({rule})"
    if not _column_start(variant, world, start):
        return rule, f"march column is declared on a road or minor road; {start} has none ({rule})"
    return None


def may_march(variant: Variant, world: World, orders: Sequence[str], start: str | None) -> bool:
    """Whether `column_problem` finds nothing, its words not made (issue 15: a listing asks it of every group)."""
    return _column_order(world, orders) and _column_start(variant, world, start)


def _column_order(world: World, orders: Sequence[str]) -> bool:  # one of them allows it (`column_problem`)
    return any(world.order_rules(o).march_column for o in orders)


def _column_start(variant: Variant, world: World, start: str | None) -> bool:  # a start it may be declared at
    return not start or variant.column_keeps_to_roads(world.reading) or bool(world.hexmap.roads_at(start))


def ezoc_to_ezoc_problem(variant: Variant, order: OrderMove, a: str | None, b: str, ezoc: frozenset[HexId],
                         friends_left: bool = False) -> Problem | None:
    """D7, §5.1.3 in both: whether a Defence unit may go straight from one EZoC hex to another is the order's
    `ezoc_to_ezoc` (caldiero: never; arrivano: with a test, its own procedure); a commander, only where friendly units
    stand in both (§8.2.2: `friends_left` in a; `presence_problem` says b's)."""
    if a is None or a not in ezoc or b not in ezoc:
        return None
    if order.commander and order.enter_ezoc == "with_friend" and not friends_left:
        rule = variant.rules.LEADER_EZOC
        return rule, (f"{a} to {b}: a commander goes from one enemy ZoC hex to another only when both hold friendly "
                      f"units ({rule})")
    if order.ezoc_to_ezoc:
        return None
    rule = variant.rules.DEFENCE
    return rule, f"{order.order.capitalize()} order: not directly from one enemy ZoC hex to another ({a} to {b}) ({rule})"


def one_hex_rule(variant: Variant, move: OrderMove, weather: Rule | None = None) -> Rule | None:
    """The rule keeping a unit to one hex (`Mover.one_hex`): its Defence order's, the order allowing one hex (§5.1.3
    in both), else the weather's (arrivano §17.2.7), or None."""
    return variant.rules.DEFENCE if move.max_hexes == 1 else weather


def reach(variant: Variant, hexmap: HexMap, table: MovementTable, origin: str, rules: MoveRules, *,
          to: str | None = None, stop_at: Callable[[HexId], bool] | None = None) -> Reach:
    """The engine's search from `origin`, equally cheap paths ranked as the variant records them; `to` and
    `stop_at`: only as far as the engine's `settle` and `stop_at` search (`maps.movement.reachable`)."""
    return reachable(hexmap, table, origin, rules, tie_break=variant.path_tie_break, settle=to, stop_at=stop_at)


def kept_reach(variant: Variant, hexmap: HexMap, table: MovementTable, origin: str,
               rules: MoveRules | Callable[[], MoveRules], key: Hashable, anchors: tuple[object, ...] = (), *,
               to: str | None = None, stop_at: Callable[[HexId], bool] | None = None) -> Reach:
    """`reach` kept across positions (`SEARCHES`) under `key`, which names all the search reads of the position
    except where the mover may end: the answer is searched without `rules.can_end`, which `ends` applies.
    `rules` may be a function making them, called only when the search is made (a kept answer needs none).
    `anchors`: the game's data objects the rules read besides the map and table (a scenario's closed rows).

    A caller needing one hex's answer alone (`to`: a move to it) or whether any hex it accepts is reached
    (`stop_at`: a listing asking whether anything is left) is given the whole search where it is kept, else a
    search stopped as soon as that is known, never kept: in a verify each move starts from a new hex, and a whole
    search per move was most of its time (issue 15). Either answers the question asked exactly as the whole
    search does (`maps.movement.reachable`), and nothing else; one that had to search everything is the whole
    search, and is kept (a group with nowhere to go is asked again after every command)."""
    anchored = (variant, hexmap, table, *anchors)

    def search() -> Reach:
        made = rules if isinstance(rules, MoveRules) else rules()
        if made.can_end is not None:  # the engine's rules are made without it (`unit_rules`): no copy on a miss
            made = replace(made, can_end=None)
        return reach(variant, hexmap, table, origin, made, to=to, stop_at=stop_at)

    if to is None and stop_at is None:
        return SEARCHES.get(anchored, key, search)
    kept = SEARCHES.kept(anchored, key)
    if isinstance(kept, Reach):
        return kept
    found = search()
    return SEARCHES.get(anchored, key, lambda: found) if found.whole else found  # one that ran to its end is whole


def search_key(world: World, name: Hashable, hexes: frozenset[str]) -> str:
    """`hexes` as a kept search's key names them (`SEARCHES`), once per position under `name`: their ids sorted and
    joined by "|" (no hex id holds one), a string, which the garbage collector does not track, where a frozenset is
    always tracked and each of its items walked (a full collection walking the kept keys' ~3,000 frozensets was most
    of the Para Bellum legal() maximum), and whose hash is worked out once, where a tuple's is worked out again at
    every look-up of a key holding it (a key names a side's whole enemy ZoC: a hundred hexes; issue 15)."""
    return world.cached(("search key", name), lambda: "|".join(sorted(hexes)))  # type: ignore[no-any-return]


def ends(found: Reach, can_end: Callable[[HexId], bool] | None, only: str | None = None) -> list[HexId]:
    """The hexes other than its start where a kept search's mover may end (`Reach.destinations` with `can_end`);
    `only`: that hex alone, if it is one (a move to it, searched with `to`)."""
    if only is not None:
        return [HexId(only)] if only in found.costs and only != found.start and (can_end is None or can_end(
            HexId(only))) else []
    return [h for h in found.hexes() if h != found.start and (can_end is None or can_end(h))]


# --- a combat unit's move: one search for a group and for a unit alone (§8, §9 in both) ------------------------
class Mover(NamedTuple):
    """What the search of a move reads of its movers: a group leaving one hex together (caldiero §9.1) or a unit
    alone (arrivano §9), which is a group of one (a NamedTuple: one is made for every group of a listing, and a frozen
    dataclass's maker, a Python function setting each field, cost ~2 % of a slow Caldiero listing, issue 15). `origin`: the hex the search begins in, the hex they leave or,
    `on_map` False, the entry hex they come onto the map at (§15.4 in both), already paid for in `budget` (half
    points left); `unit_class`: their class in the movement table; `column`: march column (§9.3); `move`: their
    order's permissions; `one_hex`: the rule that keeps them to one hex at most, which a longer move's refusal cites
    (the Defence order, §5.1.3 in both; the storm, arrivano §17.2.7), or None; `spent`: the half points paid before
    the search, the entry hex's (`entry_spent`, §15.4 in both), which a move's cost counts (`unit_moves.Move`) and
    its search does not read (out of `key`)."""

    side: str
    origin: str
    on_map: bool
    budget: int
    unit_class: str
    column: bool
    move: OrderMove
    one_hex: Rule | None
    spent: int = 0

    def key(self) -> tuple[object, ...]:
        """All of the mover in strings, numbers and bools, a kept search's key (`SEARCHES`): a tuple holding a Mover, a
        dataclass, stays tracked by the garbage collector, and such keys were most of what a full collection walked."""
        m = self.move
        return (self.side, self.origin, self.on_map, self.budget, self.unit_class, self.column, m.order, m.enter_ezoc,
                m.ezoc_to_ezoc, m.max_hexes, rule_key(self.one_hex))


def rule_key(rule: Rule | None) -> tuple[str, str] | None:  # a Rule (a Struct) keeps a tuple holding it tracked
    return None if rule is None else (str(rule), rule.summary)  # str: its book and section


_ROAD_STEPS = Memo(64)


def road_steps(hexmap: HexMap) -> frozenset[tuple[str, str]]:
    """Every (a, b) step along a road of the map, both ways (a march column keeping to roads, §9.3 in both; caldiero
    §17.1.1's and §17.1.3's road-only moves), worked out once per map (issue 15: a search asks it of every step)
    from the roads' own hexes, whose neighbours along a road are the steps where `roads_between` finds one (the map's
    only maker, `maps.hexmap.parse_map`, builds it from them): asking it of every step of the map was 3 % of a
    verify."""
    return _ROAD_STEPS.get((hexmap,), "road steps", lambda: frozenset(
        step for road in hexmap.roads for a, b in zip(road.hexes, road.hexes[1:]) for step in ((a, b), (b, a))))


def unit_rules(variant: Variant, world: World, m: Mover, *, closed: Callable[[HexId], bool] | None = None,
               step: Callable[[HexId, HexId], bool] | None = None,
               can_end: Callable[[HexId], bool] | None = None, roads_only: bool = False) -> MoveRules:
    """The engine's rules for a move, written once: never into enemy units (§9.1.2), nor into a hex the game closes
    to the side (`closed`: caldiero §9.2.1's rows, §19.1's direction); along roads only where `roads_only` (caldiero
    §17.1.1's full allowance), a march column through no friends (§9.3.2)
    and, where the variant's reading says so, along roads only (`column_keeps_to_roads`, arrivano §9.3); one hex only as
    `one_hex` says, the minimum move of one hex (§9.1.1) from a start on the map, and from an entry hex as the
    variant's `entry_hex_is_first_step` says (§15.4); enemy zones of control as the order
    allows (`zoc_rules`, §8 and §5.1 in both; a commander's from one to another only between friends, §8.2.2); costs
    times the weather's `terrain_multiplier`. `step`: the game's own step veto (caldiero §10.3 guns at a canal,
    §17.1.3 roads only)."""
    ezoc = enemy_zoc(world, m.side)
    enemy, friends = world.hexes_held(world.enemy(m.side)), world.hexes_held(m.side)
    column, origin = m.column, m.origin
    follow_roads = roads_only or (column and variant.column_keeps_to_roads(world.reading))
    roads = road_steps(world.hexmap)
    from_entry = not m.on_map and variant.entry_hex_is_first_step  # the entry hex was the move's first hex
    moves = not (m.one_hex is not None and from_entry)
    # The search asks these of every step it tries (issue 15): each is made with only the tests that apply to it.
    barred = enemy | friends if column else enemy
    can_enter: Callable[[HexId], bool] = (lambda h: h not in barred) if closed is None else \
        (lambda h: h not in barred and not closed(h))

    between_friends = m.move.commander and m.move.enter_ezoc == "with_friend"  # §8.2.2: a commander's EZoC to EZoC

    def may_step(a: HexId, b: HexId) -> bool:
        if not moves or (m.one_hex is not None and a != origin):
            return False
        if follow_roads and (a, b) not in roads:
            return False
        if between_friends and a in ezoc and b in ezoc and a not in friends:
            return False
        return step is None or step(a, b)

    plain = moves and m.one_hex is None and not follow_roads and not between_friends  # only the game's own veto
    return MoveRules(unit_class=m.unit_class, budget=m.budget, march_column=column, minimum_move=not from_entry,
                     terrain_multiplier=terrain_multiplier(world), can_enter=can_enter, can_end=can_end,
                     may_step=step if plain else may_step, zoc=zoc_rules(m.move, ezoc, friends.__contains__, column))


def end_problem(variant: Variant, world: World, h: str, arriving: Sequence[str], column: bool = False) -> str | None:
    """Why `arriving`, one side's units moving together, may not end their move in h, or None (`end_break`)."""
    broken, stack = end_break(world, h, arriving, column)
    if broken is None:
        return None
    if broken == "column":
        return f"a unit in march column may not stack ({variant.cite('7.1.2')}, {variant.rules.COLUMN_LIMITS})"
    return stack_words(variant, world, stack, broken)


def end_break(world: World, h: str, arriving: Sequence[str], column: bool = False) -> tuple[str | None, list[str]]:
    """The rule `arriving` break by ending their move in h, and the stack they would make there: a march column stacks
    with no one ("column", §7.1.2, §9.3.2 in both), any other stack as the stacking rules say (§7.1, §7.1.1:
    `stacking.broken_rule`); None: they may end there."""
    present = [u for u in world.side_units_at(h, world.side_of(arriving[0])) if u not in arriving]
    if column and present:
        return "column", present
    stack = present + list(arriving)
    return broken_rule(world, stack), stack


class EndFits:
    """Whether movers may end in a hex (`end_fits`), a function of the hex, and what a caller asking it of many hexes
    needs to ask it only of a few: `held`, the hexes friends hold (the movers' own among them), outside which the
    answer is `elsewhere()`, the same in every hex (issue 15: a call for every hex every group of a listing reaches
    was 6 % of a slow Caldiero listing; `unit_moves.moves`)."""

    __slots__ = ("fits", "held", "elsewhere")

    def __init__(self, fits: Callable[[str], bool], held: frozenset[str], elsewhere: Callable[[], bool]) -> None:
        self.fits, self.held, self.elsewhere = fits, held, elsewhere

    def __call__(self, h: str) -> bool:
        return self.fits(h)


def end_fits(world: World, arriving: tuple[str, ...], column: bool = False) -> EndFits:
    """Whether `arriving` may end in a hex (`end_break` finds no rule broken), each answer kept as long as the World
    and the one for every hex without friends worked out once (issue 15: a listing asks it of every destination of
    every mover; it words no refusal). A hex friends hold is judged by the stack's make-up (`stacking.make_up`),
    each once per position whichever group asks; the movers' own hex unit by unit (they are not friends there)."""
    side = world.side_of(arriving[0])
    held, start = world.hexes_held(side), world.hex_of(arriving[0])
    known: dict[str, bool] = world.cached(("stacking fits", *arriving, str(column)), dict)

    moving: list[tuple[Piece, ...]] = []  # the movers' make-up, once asked

    def movers() -> tuple[Piece, ...]:
        if not moving:
            moving.append(world.cached(("make-up of", arriving), lambda: make_up(world, arriving)))
        return moving[0]

    def alone() -> bool:  # a hex no friend holds: the movers alone there (`end_break` with none present)
        ok = known.get("")
        if ok is None:
            ok = known[""] = len(arriving) <= 1 or make_up_fits(world, (), movers())  # `broken_rule` by make-up
        return ok

    def fits(h: str) -> bool:
        if h not in held:  # no friends there: the movers alone, the same answer in every such hex
            return alone()
        ok = known.get(h)
        if ok is None:
            if h == start or column:  # a column: refused wherever friends are (§7.1.2)
                ok = end_break(world, h, arriving, column)[0] is None
            else:
                ok = make_up_fits(world, world.cached(("make-up at", h), lambda: make_up(world, world.units_at(h))),
                                   movers())
            known[h] = ok
        return ok

    return EndFits(fits, held, alone)


# --- what a step costs (§9.2 in both) ------------------------------------------------------------------------
def costs_in_force(variant: Variant, world: World) -> MovementTable:
    """The movement costs in force (§9.2 in both): the game's movement table for the weather box in force (a box's
    own, as its data name it: caldiero §17.1.3, arrivano §17.2.8; else the base: `loader.load_movement_by_box`), its
    roads priced as the variant reads them (`road_costs`, D40)."""
    box = world.state.weather if world.weather is not None else 0
    return variant.road_costs(world, world.counters.movement[box])


def terrain_multiplier(world: World) -> int:
    """The weather box's multiplier of every cost but a road's the table spares (caldiero §17.1.2 snow and ice, off the
    roads; §17.1.3 ice storm, all but the main road: `WeatherBox.terrain_cost_multiplier`); 1 without a weather."""
    box = world.weather_box()
    return box.terrain_cost_multiplier if box is not None else 1


def off_road_half_less(world: World) -> int:
    """The half points a move not wholly along roads loses in the weather box in force (caldiero §17.1.1 "un punto
    movimento in meno, tranne se compiono tutto il loro movimento su strada o strada minore":
    `WeatherBox.off_road_mp_less`); none without a weather."""
    box = world.weather_box()
    return 2 * box.off_road_mp_less if box is not None else 0


# --- entering the map (§15.4 in both) ------------------------------------------------------------------------
OFF_THE_SCALE = 10 ** 6  # more half points than any allowance


def entry_cost(table: MovementTable, terrain: str, unit_class: str, on_road: bool = False, multiplier: int = 1) -> int:
    """§15.4 in both: the half points a piece entering from off the map spends on its entry hex: the terrain's cost
    for its class (by road where a road runs there and the table prices the terrain so, arrivano), times the
    weather's multiplier (caldiero §17.1.2-§17.1.3); a terrain costing all points, or prohibited, is off the scale."""
    rule = table.terrain[terrain]
    costs = rule.on_road if on_road and rule.on_road is not None else rule.cost
    value = costs[unit_class] if unit_class in costs else costs["default"]
    if isinstance(value, int):
        return value * multiplier
    if value == "all" or value == "prohibited":
        return OFF_THE_SCALE
    inner = getattr(value, "cost", 0)
    return inner * multiplier if isinstance(inner, int) else OFF_THE_SCALE


def entry_spent(variant: Variant, world: World, unit_class: str, entry: str) -> int:
    """§15.4 in both: the half points a unit entering the map spends on its entry hex (`entry_cost` in the costs in
    force, by road where a road runs there, times the weather's multiplier)."""
    return entry_cost(costs_in_force(variant, world), world.hexmap.terrain(entry), unit_class,
                      on_road=bool(world.hexmap.roads_at(entry)), multiplier=terrain_multiplier(world))


def step_costs(variant: Variant, world: World, unit_class: str, column: bool) -> Callable[[str, str], int]:
    """The half points of a step from a to b on the map in the costs in force and the weather's multiplier (§9.2 in
    both; the march column's, §9.3.1), made once per position (issue 15: every one-hex move's record asks it)."""
    def make() -> Callable[[str, str], int]:
        hexmap, table = world.hexmap, costs_in_force(variant, world)
        rules = MoveRules(unit_class=unit_class, budget=0, march_column=column,
                          terrain_multiplier=terrain_multiplier(world))
        return lambda a, b: cached_step_cost(hexmap, table, a, b, rules).half_points

    return world.cached(("step costs", unit_class, column), make)  # type: ignore[no-any-return]


# --- the movement obligations (§5.1.1 Advance, §5.1.2 Attack in both) -----------------------------------------
_NEAREST = Memo(256)


def nearest_enemy_distance(world: World, h: str, side: str) -> int | None:
    """Hexes from h to the nearest enemy unit on the map, terrain ignored (§5.1.1 "più vicino al nemico", §5.1.2
    "verso le unità nemiche" in both); None while no enemy unit is on the map (`enemy_distances`)."""
    return enemy_distances(world, side)(h)


def enemy_distances(world: World, side: str) -> Callable[[str], int | None]:
    """`nearest_enemy_distance` of `side`'s units, as a function of the hex made once per position (a listing asks it
    of every end of every mover: one look-up each, issue 15). Its answers are kept across positions for the same enemy
    hexes, which alone they read (`_NEAREST`, a `Memo.table` filled as hexes are asked, each entry final): the enemy
    stands still while a side moves."""
    return world.cached(("enemy distances", side), lambda: _distances(world, side))  # type: ignore[no-any-return]


def _distances(world: World, side: str) -> Callable[[str], int | None]:
    enemy = world.hexes_held(world.enemy(side))
    known: dict[str, int | None] = _NEAREST.table(  # type: ignore[assignment]
        (world.grid,), search_key(world, ("held", world.enemy(side)), enemy))
    grid = world.grid
    cubes: list[Cube] = []  # the enemy's, once a hex is not known (none at all where every hex asked is)

    def distance(h: str) -> int | None:
        if h in known:
            return known[h]
        if not cubes:
            cubes.extend(grid.cube(e) for e in sorted(enemy))
        q, r, s = grid.cube(h)  # maps.hexgrid.cube_distance, written out: it runs for every hex and enemy
        found = known[h] = min((max(abs(q - eq), abs(r - er), abs(s - es)) for eq, er, es in cubes), default=None)
        return found

    return distance


def nearer(world: World, side: str, h: str, than: int | None) -> bool:
    """Whether h is at least one hex nearer the nearest enemy unit than `than` hexes (§5.1.1 "almeno un esagono più
    vicino al nemico", §5.1.2 "verso le unità nemiche" in both): the one answer to "did (or would) it close", never
    true while no enemy unit is on the map or `than` is unknown (None)."""
    return closer(enemy_distances(world, side), h, than)


def closer(distance: Callable[[str], int | None], h: str, than: int | None) -> bool:
    """`nearer` with the side's `enemy_distances` in hand (a caller asking it of many hexes)."""
    if than is None:
        return False
    d = distance(h)
    return d is not None and d < than


def toward_enemy(variant: Variant, world: World, side: str, start: str,
                 ezoc: frozenset[HexId]) -> Callable[[str], Problem | None]:
    """§5.1.2 in both ("Non è obbligatorio raggiungere una EZoC, ma in questo caso il movimento deve tendere verso
    l'unità nemica più vicina"): for a unit the Attack order binds (who is bound is each game's, D6), why a move from
    `start` ending in a hex is refused: it ends neither in an enemy ZoC nor nearer the closest enemy unit; None while
    no enemy unit is on the map. The start's distance is worked out once for every end asked."""
    meets, distance = tends_toward(world, side, start, ezoc), enemy_distances(world, side)
    rule = variant.rules.ATTACK

    def problem(end: str) -> Problem | None:
        if meets(end):
            return None
        return rule, (f"with an Attack order the move must end nearer the closest enemy ({distance(start)} hexes now, "
                      f"{distance(end)} at {end}) or in its ZoC ({rule})")

    return problem


def tends_toward(world: World, side: str, start: str, ezoc: frozenset[HexId]) -> Callable[[str], bool]:
    """Whether a move from `start` ending in a hex meets §5.1.2's direction (`toward_enemy` finds nothing), unworded: it
    ends in an enemy ZoC or nearer the closest enemy unit, or no enemy unit is on the map (issue 15: a listing asks it
    of every end of every bound mover, and the words of each refusal were ~3 % of a slow Caldiero listing)."""
    distance = enemy_distances(world, side)
    before = distance(start)
    return lambda end: before is None or end in ezoc or closer(distance, end, before)


def advance_short(variant: Variant, counted: int, closer: int, could: Iterable[str]) -> tuple[int, list[str]] | None:
    """§5.1.1 in both ("almeno la metà delle unità" rounded up, caldiero §1.4, arrivano §1.3): (the number that must
    end nearer the enemy, the units that still could) when fewer than half of the `counted` units did (`closer`)
    and the obligation still binds, else None. It binds while the variant's `advance_binds_while` says (D6):
    "half" while enough units could still close to make the half, "any" while any one could. `could` is read
    lazily: only as far as the answer needs."""
    need = -(-counted // 2)
    if closer >= need:
        return None
    wanted = need - closer if variant.advance_binds_while == "half" else 1
    found: list[str] = []
    for u in could:
        found.append(u)
        if variant.advance_binds_while == "any":
            break
    return (need, found) if len(found) >= wanted else None


def attack_order_problem(variant: Variant, bound: Iterable[str]) -> Problem | None:
    """§5.1.2 in both: the refusal to end a movement step while counted Attack-order units have not moved toward
    the enemy although they still could, naming them, or None."""
    units = list(bound)
    if not units:
        return None
    rule = variant.rules.ATTACK
    return rule, f"with an Attack order every unit must move toward the enemy if it can: {', '.join(units)} ({rule})"


def advance_order_problem(variant: Variant, counted: int, closer: int, could: Iterable[str]) -> Problem | None:
    """§5.1.1 in both: the refusal to end a movement step while fewer than half of the `counted` Advance-order
    units ended nearer the enemy (`closer` did) and the obligation still binds (`advance_short`), naming the
    units that still could, or None."""
    short = advance_short(variant, counted, closer, could)
    if short is None:
        return None
    need, still = short
    rule = variant.rules.ADVANCE
    return rule, (f"with an Advance order at least {need} of {counted} units must end nearer the enemy; {closer} did, "
                  f"and {', '.join(still)} still could ({rule})")
