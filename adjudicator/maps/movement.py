"""Movement on a hex map: the zones of control and move rules a ruleset supplies as data and predicates,
path finding (:func:`reachable`) and path checking (:func:`check_path`).

Everything that decides an outcome is deterministic: ties are broken by hex id, never by set order.
"""

from __future__ import annotations

import heapq
import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from arbitro.adjudicator.maps.costs import MovementTable, StepCost, StepKind, kind_cost, step_kind
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.memo import Memo


# ================================================================================================
# Zones of control and move rules supplied by the ruleset
# ================================================================================================


@dataclass(frozen=True, slots=True)
class ZocRules:
    """Enemy zones of control as the ruleset computes them, and how they constrain this move.

    ``hexes``: hexes in enemy ZOC for the moving unit (the ruleset applies exceptions such as
    "ZOC does not extend into a fortress", caldiero §10.5.1). ``entry``: ``stop`` (the move ends on
    entering, caldiero §8.2.1), ``continue`` (no stop, caricat §5) or ``prohibited`` (e.g. a unit in
    march column, caldiero §9.3.2). ``may_enter``: per-hex permission to enter (caldiero §5.1.3:
    only where a friendly unit already is). ``may_leave``: whether the unit may step out of an enemy
    ZOC hex at all (caldiero §8.1). ``zoc_to_zoc``: whether a step may go straight from one enemy ZOC
    hex to another. ``leave_cost``: extra half-points for a step out of an enemy ZOC hex (caricat §6).
    """

    hexes: frozenset[HexId]
    entry: Literal["stop", "continue", "prohibited"] = "stop"
    may_enter: Callable[[HexId], bool] | None = None
    may_leave: bool = True
    zoc_to_zoc: bool = True
    leave_cost: int = 0


@dataclass(frozen=True, slots=True)
class MoveRules:
    """Everything a ruleset decides about one unit's move, passed to :func:`reachable`/:func:`check_path`.

    ``budget``: movement allowance in half-points. ``minimum_move``: the unit may always move one hex
    if that step is not prohibited, even when it costs more than the budget (caldiero §9.1.1).
    ``can_enter(hex)``: False for hexes the unit may never enter (enemy units, forbidden rows).
    ``can_end(hex)``: False for hexes it may pass through but not stop in (stacking).
    ``may_step(a, b)``: extra veto on individual steps (e.g. "only along roads").
    """

    unit_class: str
    budget: int
    march_column: bool = False
    minimum_move: bool = True
    terrain_multiplier: int = 1
    can_enter: Callable[[HexId], bool] | None = None
    can_end: Callable[[HexId], bool] | None = None
    may_step: Callable[[HexId, HexId], bool] | None = None
    zoc: ZocRules | None = None


class MoveBlock(StrEnum):
    """Why a step or a path is not allowed; rulesets map these to their own rule citations."""

    NOT_ADJACENT = "not_adjacent"
    OFF_MAP = "off_map"
    CANNOT_ENTER = "cannot_enter"
    STEP_VETOED = "step_vetoed"
    PROHIBITED_TERRAIN = "prohibited_terrain"
    PROHIBITED_HEXSIDE = "prohibited_hexside"
    ALL_POINTS_NOT_FIRST = "all_points_not_first_step"
    NOT_ENOUGH_POINTS = "not_enough_points"
    ALREADY_STOPPED = "already_stopped"
    ZOC_ENTRY_PROHIBITED = "zoc_entry_prohibited"
    ZOC_CANNOT_LEAVE = "zoc_cannot_leave"
    ZOC_TO_ZOC = "zoc_to_zoc"
    CANNOT_END_HERE = "cannot_end_here"


class StopReason(StrEnum):
    ENEMY_ZOC = "enemy_zoc"
    TERRAIN = "terrain"
    ALL_POINTS = "all_points"
    MINIMUM_MOVE = "minimum_move"


_Arrival = tuple[int, StopReason | None, bool]
"""A step's arrival: (half points spent, why the move must stop there or None, forced: by the minimum-move rule, it
really cost more than the budget recorded as spent). A plain tuple: the search makes one per step it tries, and a
frozen dataclass cost four times as much to make (issue 15)."""


_STEP_COSTS = Memo(256)
"""The step costs of one map and table for one unit class, formation and multiplier (pure functions of those): a
`Memo.table` filled by the searches as they step, by step ((a, b)) and by the step's kind (`costs.step_kind`, a
4-tuple), which the many steps alike share: a map has a few dozen kinds of step, and a cost worked out anew took
~40 us (issue 15: a fresh process's verify works out thousands)."""

StepCosts = dict[tuple[HexId, HexId] | StepKind, StepCost]


def _pricing(rules: MoveRules) -> tuple[str, bool, int]:
    """All of a unit's rules that a step's cost reads (`kind_cost`): the key of its costs (`_STEP_COSTS`) and rows
    (`_STEP_ROWS`) under a map and table."""
    return rules.unit_class, rules.march_column, rules.terrain_multiplier


def _step_memo(hexmap: HexMap, table: MovementTable, rules: MoveRules) -> StepCosts:
    return _STEP_COSTS.table((hexmap, table), _pricing(rules))  # type: ignore[return-value]


def _memo_step_cost(hexmap: HexMap, table: MovementTable, rules: MoveRules, a: HexId, b: HexId,
                    memo: StepCosts | None = None) -> StepCost:
    if memo is None:
        memo = _step_memo(hexmap, table, rules)
    cost = memo.get((a, b))
    if cost is None:
        kind = step_kind(hexmap, a, b)
        cost = memo.get(kind)
        if cost is None:
            cost = memo[kind] = kind_cost(table, kind, rules.unit_class, march_column=rules.march_column,
                                          terrain_multiplier=rules.terrain_multiplier)
        memo[(a, b)] = cost
    return cost


def cached_step_cost(hexmap: HexMap, table: MovementTable, a: str, b: str, rules: MoveRules) -> StepCost:
    """:func:`step_cost` for ``rules``' unit class, formation and multiplier, memoised as :func:`reachable` does."""
    return _memo_step_cost(hexmap, table, rules, HexId(a), HexId(b))


_STEP_ROWS = Memo(256)
"""Each hex's steps the search may try, for one map and table, unit class, formation and multiplier (`_Rows`)."""

StepRow = tuple[tuple[HexId, int], ...]


class _Rows:
    """The steps a search tries from each hex, filled hex by hex as searches expand them: the hex's neighbours in the
    grid's order, each with its cost's place in `costs`, the steps the table prohibits left out (a search skips them,
    whatever else forbids them). A search reads one row per hex it expands, not the grid's neighbours and a cost
    look-up (a tuple made and hashed) per step (issue 15: those look-ups were a fifth of a Caldiero listing's
    searches). A row names a cost by its place among the few a map has, not by the cost itself: a tuple holding a
    `StepCost` stays tracked by the garbage collector, which every full collection walks; one of strings and numbers
    is let go (issue 15: the kept searches' objects were most of such a collection)."""

    __slots__ = ("rows", "costs", "_places", "_lock")

    def __init__(self) -> None:
        self.rows: dict[HexId, StepRow] = {}
        self.costs: list[StepCost] = []
        self._places: dict[StepCost, int] = {}
        self._lock = threading.Lock()  # a place is taken once: the server lists from several threads

    def make(self, here: HexId, steps: Iterable[tuple[HexId, StepCost]]) -> StepRow:
        with self._lock:
            row = []
            for there, cost in steps:
                if cost.prohibited:
                    continue
                place = self._places.get(cost)
                if place is None:
                    place = self._places[cost] = len(self.costs)
                    self.costs.append(cost)
                row.append((there, place))
            found = self.rows[here] = tuple(row)
        return found


def _step_rows(hexmap: HexMap, table: MovementTable,
               rules: MoveRules) -> tuple[Mapping[HexId, StepRow], Callable[[HexId], StepRow], list[StepCost]]:
    """The steps from a hex the search tries (`_Rows`): the rows worked out, the function that works one out, and the
    costs their places name (the search reads a row worked out without a call: issue 15, one per hex expanded)."""
    kept: _Rows = _STEP_ROWS.get((hexmap, table), _pricing(rules), _Rows)
    rows, memo, neighbours = kept.rows, _step_memo(hexmap, table, rules), hexmap.grid.neighbours

    def row(here: HexId) -> StepRow:
        found = rows.get(here)
        if found is None:
            found = kept.make(here, ((there, _memo_step_cost(hexmap, table, rules, here, there, memo))
                                     for there in neighbours(here)))
        return found

    return rows, row, kept.costs


Stepper = Callable[[HexId, HexId, StepCost, int, bool], "_Arrival | MoveBlock"]


def _stepper(rules: MoveRules, all_points: str) -> Stepper:
    """The one place that decides a step, shared by the path finder and the path checker: a function of the step
    (``a`` to ``b`` at ``cost``, the table's, with ``spent`` half-points spent before it, ``first``: the move's first
    step) for one unit's ``rules`` and the table's ``all_points`` rule, which reads them once, not on each of the
    search's thousands of steps (issue 15).

    ``a`` and ``b`` must be adjacent on-map hexes (checked by :func:`check_path`, given by the grid in
    :func:`reachable`).
    """
    can_enter, may_step, zoc, budget = rules.can_enter, rules.may_step, rules.zoc, rules.budget
    first_step_only, minimum_move = all_points == "first_step_only", rules.minimum_move
    zoc_hexes = zoc.hexes if zoc is not None else frozenset()
    may_leave, zoc_to_zoc = (zoc.may_leave, zoc.zoc_to_zoc) if zoc is not None else (True, True)
    entry, may_enter, leave_cost = (zoc.entry, zoc.may_enter, zoc.leave_cost) if zoc is not None else ("", None, 0)

    def step(a: HexId, b: HexId, cost: StepCost, spent: int, first: bool) -> _Arrival | MoveBlock:
        if can_enter is not None and not can_enter(b):
            return MoveBlock.CANNOT_ENTER
        if may_step is not None and not may_step(a, b):
            return MoveBlock.STEP_VETOED
        extra = 0
        stop: StopReason | None = None
        if zoc_hexes:
            from_zoc, into_zoc = a in zoc_hexes, b in zoc_hexes
            if from_zoc and not may_leave:
                return MoveBlock.ZOC_CANNOT_LEAVE
            if from_zoc and into_zoc and not zoc_to_zoc:
                return MoveBlock.ZOC_TO_ZOC
            if into_zoc and (entry == "prohibited" or (may_enter is not None and not may_enter(b))):
                return MoveBlock.ZOC_ENTRY_PROHIBITED
            if into_zoc and entry == "stop":
                stop = StopReason.ENEMY_ZOC
            if from_zoc:
                extra = leave_cost
        if cost.prohibited:
            return MoveBlock.PROHIBITED_HEXSIDE if (cost.blocked_by or "").startswith("hexside") else MoveBlock.PROHIBITED_TERRAIN
        if cost.all_points:
            if first_step_only and not first:
                return MoveBlock.ALL_POINTS_NOT_FIRST
            if spent >= budget and not first:
                return MoveBlock.NOT_ENOUGH_POINTS
            return max(budget, spent), stop or StopReason.ALL_POINTS, False
        total = spent + cost.half_points + extra
        if cost.stop and stop is None:
            stop = StopReason.TERRAIN
        if total <= budget:
            return total, stop, False
        if first and minimum_move:
            # caldiero §9.1.1 / arrivano §9.1.1: one hex is always possible; it ends the move.
            return budget, stop or StopReason.MINIMUM_MOVE, True
        return MoveBlock.NOT_ENOUGH_POINTS

    return step


# ================================================================================================
# Path finding and path checking
# ================================================================================================


@dataclass(frozen=True, slots=True)
class Reach:
    """Where a unit can go this move: cheapest cost (half-points) and a path to each reachable hex."""

    start: HexId
    costs: Mapping[HexId, int]
    stops: Mapping[HexId, StopReason | None]
    """Why the move must end at each hex (None: it may go on from there)."""
    endable: Collection[HexId]
    """The hexes it may end in: a dict of them (a set the garbage collector stops tracking, where a frozenset's items
    are walked by every full collection: searches are kept across positions, issue 15)."""
    _chosen: Mapping[HexId, bool] = field(repr=False)
    """Each hex's state reported: arrived with a forced stop (True) or free."""
    _parents: Mapping[HexId, HexId | None] = field(repr=False)
    """The hex each free state was reached from (the start's: None), `_stopped_parents` each stopped state's; a parent
    is always a free state, the only ones expanded. Hexes alone, so that no tuple made per state outlives the search:
    dicts of strings, which the collector does not track (issue 15), held by the Reach itself (a tuple holding them
    would stay tracked)."""
    _stopped_parents: Mapping[HexId, HexId | None] = field(repr=False)
    whole: bool = True
    """The whole search's answer: False when ``until``, ``settle`` or ``stop_at`` stopped it before its end."""

    def hexes(self) -> tuple[HexId, ...]:
        """Reachable hexes (the start included) ordered by (cost, id)."""
        return tuple(sorted(self.costs, key=lambda h: (self.costs[h], h)))

    def destinations(self) -> tuple[HexId, ...]:
        """Reachable hexes other than the start where the unit may end its move, by (cost, id)."""
        return tuple(h for h in self.hexes() if h != self.start and h in self.endable)

    def path(self, hex_id: str) -> tuple[HexId, ...]:
        """The cheapest path from the start to ``hex_id`` (both included); ties broken by hex id."""
        stopped = self._chosen.get(HexId(hex_id))
        if stopped is None:
            raise KeyError(f"{hex_id} is not reachable from {self.start}")
        path = [HexId(hex_id)]
        current = (self._stopped_parents if stopped else self._parents)[path[0]]
        while current is not None:
            path.append(current)
            current = self._parents[current]
        return tuple(reversed(path))


TieBreak = Literal["first", "path"]


def reachable(hexmap: HexMap, table: MovementTable, start: str, rules: MoveRules, *,
              tie_break: TieBreak = "first", until: Collection[str] | None = None, settle: str | None = None,
              stop_at: Callable[[HexId], bool] | None = None) -> Reach:
    """Dijkstra over (hex, must-stop) states from ``start`` within ``rules.budget``.

    Deterministic: states are expanded in (cost, hex id) order. With ``tie_break="first"`` a parent is
    replaced only by a strictly cheaper one. With ``"path"``, among equally cheap arrivals the path
    that is smallest hex by hex from the start wins (Caldiero's order, kept so that its recorded
    games still verify), and an arrival by the minimum-move rule, which really costs more than the
    budget, loses every tie. A hex where the move must stop (enemy ZOC, "all points", minimum move)
    is reached but not expanded; for each hex the cheapest arrival is reported, and at equal cost one
    that may continue. ``until``: the caller asks only whether these hexes are reached; the search stops as
    soon as all of them are (the answer then holds what was reached so far, with costs not yet final).

    ``settle`` (issue 15: a move to a given hex needs that hex's answer alone): the search stops once every state
    no dearer than the cheapest arrival at that hex is expanded, and the answer holds exactly the hexes no dearer
    than it, each with the cost, stop and path the whole search gives. It is the whole search's own prefix: steps
    never cost less than nothing, so a state popped dearer than that arrival means every arrival still to come is
    dearer too, and a cost or a parent changes only for an arrival at least as cheap (the "path" tie-break only
    before its state is expanded). A hex not reached searches everything: the answer is the whole one.

    ``stop_at`` (a listing asking only whether there is anything): the search stops at the first hex reached (the
    start included) for which ``stop_at`` holds; the answer then holds what was reached so far, costs and paths
    not final. A hex is reached by the whole search exactly when it is reached by any prefix of it, so the answer
    has such a hex exactly when the whole search's has.
    """
    origin = hexmap.grid.require(start)
    # Each state's cheapest arrival, parent and reason, by hex in two tables, the free states' ([False]) and the
    # stopped ones' ([True]): no tuple made per step nor kept per state (issue 15).
    best: tuple[dict[HexId, int], dict[HexId, int]] = ({origin: 0}, {})
    parents: tuple[dict[HexId, HexId | None], dict[HexId, HexId | None]] = ({origin: None}, {})
    reasons: tuple[dict[HexId, StopReason | None], dict[HexId, StopReason | None]] = ({origin: None}, {})
    heap: list[tuple[int, HexId, bool]] = [(0, origin, False)]
    forced: tuple[set[HexId], set[HexId]] = (set(), set())  # states last reached by the minimum-move rule ("path")
    step, (rows, steps_from, costs) = _stepper(rules, table.all_points), _step_rows(hexmap, table, rules)
    row_of = rows.get
    wanted = {HexId(h) for h in until} - {origin} if until is not None else None
    target = HexId(settle) if settle is not None else None
    limit: int | None = 0 if target == origin else None  # the cheapest arrival at `target` so far
    found = stop_at is not None and stop_at(origin)
    pop, push, by_path = heapq.heappop, heapq.heappush, tie_break == "path"
    budget, minimum_move = rules.budget, rules.minimum_move
    # The states taken off the heap: a hex's free state once it is expanded (the origin first of all), its stopped
    # state once it is taken off (never expanded: the move ends there).
    expanded: set[HexId] = set()
    stopped_done: set[HexId] = set()
    paths: dict[HexId, tuple[HexId, ...]] = {}  # "path": each expanded (free) state's path, final once expanded
    stopped_early = False
    while heap and (wanted is None or wanted) and not found:
        spent, here, stopped = pop(heap)
        if limit is not None and spent > limit:
            stopped_early = True
            break  # every state no dearer than `target`'s cheapest arrival is expanded: its answer is final
        if stopped:
            stopped_done.add(here)
            continue
        if here in expanded:
            continue
        expanded.add(here)
        if by_path:  # its parent was expanded before it, and a parent changes only before its state is expanded
            parent = parents[False][here]
            paths[here] = (*paths[parent], here) if parent is not None else (here,)
        at_origin = here == origin
        left, any_cost = budget - spent, at_origin and minimum_move
        for there, place in row_of(here) or steps_from(here):  # worked out, else worked out now (an empty row again)
            if there in expanded:  # the origin too: expanded first
                continue  # settled free at no more than `spent`: no arrival now can be cheaper, nor chosen over it
            price = costs[place]
            if price.half_points > left and not any_cost and not price.all_points:
                continue  # dearer than the points left: the step refuses it whatever else (issue 15: a quarter of them)
            arrival = step(here, there, price, spent, at_origin)
            if arrival.__class__ is not tuple:  # a MoveBlock (isinstance: a call more per step)
                continue
            cost, stop, was_forced = arrival
            must_stop = stop is not None
            if wanted:
                wanted.discard(there)
            known = best[must_stop].get(there)
            if known is None or cost < known:
                best[must_stop][there] = cost
                parents[must_stop][there] = here
                reasons[must_stop][there] = stop
                push(heap, (cost, there, must_stop))
                if there == target and (limit is None or cost < limit):
                    limit = cost
                if stop_at is not None and known is None and stop_at(there):
                    found = True
                    break
            elif by_path and cost == known and not (must_stop and there in stopped_done) \
                    and _better_tie(paths, there in forced[must_stop], was_forced, here, parents[must_stop][there],
                                    there):
                parents[must_stop][there] = here  # not yet taken off the heap (a free one is not expanded: see above)
                reasons[must_stop][there] = stop
            else:
                continue
            if not by_path:
                continue  # `forced` is read only by the "path" tie-break
            if was_forced:
                forced[must_stop].add(there)
            elif forced[must_stop]:
                forced[must_stop].discard(there)
    # Each hex's cheapest state, at equal cost its free one, in hex order; under `settle` only those no dearer than
    # `target`'s cheapest arrival (dearer ones are not final).
    # Its cost and reason are read there, in the same pass (issue 15: a table of each, made from the chosen ones, was
    # two more passes over every hex reached).
    chosen: dict[HexId, bool] = {}
    costs_of: dict[HexId, int] = {}
    stops: dict[HexId, StopReason | None] = {}
    (free_best, held_best), (free_reasons, held_reasons) = best, reasons
    for h in sorted(free_best.keys() | held_best.keys()):
        free, held = free_best.get(h), held_best.get(h)
        if limit is not None:
            free, held = (free if free is not None and free <= limit else None), \
                (held if held is not None and held <= limit else None)
        if free is not None and (held is None or free <= held):
            chosen[h], costs_of[h], stops[h] = False, free, free_reasons[h]
        elif held is not None:
            chosen[h], costs_of[h], stops[h] = True, held, held_reasons[h]
    can_end = rules.can_end
    return Reach(
        start=origin,
        costs=costs_of,
        stops=stops,
        endable=dict.fromkeys(chosen if can_end is None else (h for h in chosen if can_end(h))),
        _chosen=chosen,
        _parents=parents[False],
        _stopped_parents=parents[True],
        whole=not (stopped_early or found or wanted == set()),
    )


def _better_tie(paths: Mapping[HexId, tuple[HexId, ...]], old_forced: bool, new_forced: bool,
                new_parent: HexId, old_parent: HexId | None, there: HexId) -> bool:
    """For ``tie_break="path"``: whether an arrival at ``there`` at the same cost replaces the recorded one
    (an arrival by the minimum-move rule, which really cost more, loses to any other). Both parents are expanded
    states, whose paths (`paths`) are final."""
    if old_forced != new_forced:
        return old_forced
    return (*paths[new_parent], there) < (*(paths[old_parent] if old_parent is not None else ()), there)


def _geometry_block(hexmap: HexMap, a: HexId, b: HexId) -> MoveBlock | None:
    if not hexmap.grid.contains(b):
        return MoveBlock.OFF_MAP
    if not hexmap.grid.is_adjacent(a, b):
        return MoveBlock.NOT_ADJACENT
    return None


@dataclass(frozen=True, slots=True)
class PathCheck:
    """Result of :func:`check_path`: cost so far, and the first problem (``None`` if the path is legal)."""

    path: tuple[HexId, ...]
    spent: int
    block: MoveBlock | None = None
    at_step: int | None = None
    """Index into ``path`` of the hex that could not be entered (or ended in)."""
    stop: StopReason | None = None

    @property
    def ok(self) -> bool:
        return self.block is None


def check_path(hexmap: HexMap, table: MovementTable, path: Iterable[str], rules: MoveRules) -> PathCheck:
    """Check a commanded path step by step with exactly the rules :func:`reachable` uses."""
    hexes = tuple(HexId(h) for h in path)
    if not hexes:
        raise ValueError("a path needs at least its starting hex")
    hexmap.grid.require(hexes[0])
    spent = 0
    stop: StopReason | None = None
    step = _stepper(rules, table.all_points)
    for i in range(1, len(hexes)):
        if stop is not None:
            return PathCheck(hexes, spent, MoveBlock.ALREADY_STOPPED, i, stop)
        a, b = hexes[i - 1], hexes[i]
        arrival = _geometry_block(hexmap, a, b) or step(a, b, _memo_step_cost(hexmap, table, rules, a, b), spent, i == 1)
        if isinstance(arrival, MoveBlock):
            return PathCheck(hexes, spent, arrival, i, stop)
        spent, stop = arrival[0], arrival[1]
    if len(hexes) > 1 and rules.can_end is not None and not rules.can_end(hexes[-1]):
        return PathCheck(hexes, spent, MoveBlock.CANNOT_END_HERE, len(hexes) - 1, stop)
    return PathCheck(hexes, spent, None, None, stop)
