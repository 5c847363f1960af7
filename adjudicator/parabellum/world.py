"""The read model of a Para Bellum position: who is where, strengths, readings in force; one class for both games.

A kernel rule takes a `World` and asks only what is declared here. `World` answers every question from the state,
the game's counters and its readings, the same way in both books; where the books differ it asks the game's
Variant (parabellum/variant.py: `Answers` below is what it asks), the one hook mechanism; no game subclasses it.
What only one game's procedures ask of a position are that game's functions of a World (adjudicator/caldiero/
map_rules.py, ground.py; adjudicator/arrivano/world.py). A World is one position: it is made
afresh after every event, so what it works out (the units in each hex, enemy zones of control, command reach) is
worked out once and kept (`cached`) as long as the World. The costly answers that outlive a position (a unit's
movement search, what a hex sees) are kept by the rule that works them out, under a key of what they read
(parabellum/movement.SEARCHES, parabellum/sight.view_from)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from arbitro.adjudicator.maps.command import command_distances
from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.maps.sight import between_cells
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.assault_frame import assault_below
from arbitro.adjudicator.parabellum.loader import ScenarioData
from arbitro.adjudicator.parabellum.data import HexsideEffect, OrderRules, StackPattern, TerrainEffect, TerrainTable
from arbitro.adjudicator.parabellum.weather_track import WeatherBox
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.tables import halved
from arbitro.events.core import Frame
from arbitro.events.parabellum import AssaultUnderway
from arbitro.projections.parabellum import SystemState

T = TypeVar("T")
_NOTHING = object()  # nothing worked out under a key (`World.cached`; None is an answer)
_LINES = Memo(1 << 18)  # what the ground leaves of each line of sight (`line_cells`), kept across positions: per data, reading and pair
_NO_ZOC = Memo(64)
_LINE_GROUND = Memo(64)
_SIGHT_BLOCKING = Memo(64)
_REACHES = Memo(1024)
"""Command reaches kept across positions (issue 15): a reach reads only the commander's hex and range, the hexes his
enemy holds and the ground (map and terrain table), and most positions leave all of them alone."""


def _no_zoc_hexes(hexmap: HexMap, table: TerrainTable) -> frozenset[str]:
    """The hexes of a map whose terrain no ZoC enters, worked out once per map and terrain table (issue 15: every
    position's enemy ZoC asks it of every hex next to a unit)."""
    return _NO_ZOC.get((hexmap, table), "no zoc", lambda: frozenset(
        h for h in hexmap.hexes() if any(table.terrain[t].no_zoc_into for t in hexmap.hex(h).terrains)))


def _line_ground(hexmap: HexMap, table: TerrainTable) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """Where the ground alone stops a command line (caldiero §4.3.3, arrivano §4.4.3 "Terreno intransitabile"): the
    hexes of a terrain the table bars, and every step between neighbours across a hexside it prohibits; worked out
    once per map and terrain table, which alone they read (issue 15: a reach traced anew asked the terrain table of
    every step, 5 % of an Arrivano verify)."""
    def work() -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
        impassable = frozenset(h for h in hexmap.hexes() if any(table.terrain[t].impassable for t in hexmap.hex(h).terrains))
        hexsides = table.hexsides
        crossings = frozenset((h, n) for h in hexmap.hexes() for n in hexmap.grid.neighbours(h) if any(
            hexsides[f].prohibited for f in hexmap.hexside_features(h, n) if f in hexsides))
        return impassable, crossings
    return _LINE_GROUND.get((hexmap, table), "command line ground", work)


def _sight_blocking(hexmap: HexMap, table: TerrainTable, more: frozenset[str]) -> frozenset[str]:
    """The hexes whose terrain blocks a line of sight (`World.blocks_sight`): the table's, and those of the terrains a
    reading adds (`more`), worked out once per map, table and reading (issue 15: a line traced cold asked the terrain
    table of each of its hexes, most of Arrivano's largest legal(), an open-order game's first sight)."""
    return _SIGHT_BLOCKING.get((hexmap, table), ("sight blocking", tuple(sorted(more))), lambda: frozenset(
        h for h in hexmap.hexes() if any(table.terrain[t].blocks_los for t in hexmap.hex(h).terrains)
        or not more.isdisjoint(hexmap.hex(h).terrains)))


def _comes_on(starts: Mapping[str, str], u: str, where: str) -> bool:
    """`World.entering_now` of unit `u`, standing `where`, in an activation whose moves began where `starts` says:
    waiting at its entry hex, or come onto the map in this activation (its first move began off it: "")."""
    return where == "waiting" or starts.get(u) == ""


class Answers(Protocol):
    """What a World asks its game's Variant (parabellum/variant.py, where each is documented with both books' rules)."""

    units_block_sight: ClassVar[bool]  # D18, §11.3.1 in both
    fog_option: ClassVar[str | None]  # D18, caldiero §20.4, arrivano §11.3.2

    def closed_to(self, w: World, side: str, h: str) -> tuple[Rule, str] | None: ...  # D30, caldiero §9.2.1

    def sight_blocking_terrains(self, reading: Callable[[str], str]) -> frozenset[str]: ...  # D18, arrivano §10.3

    def out_of_command(self, w: World, u: str) -> bool: ...  # D8, §5.3 in both

    def ordered_otherwise(self, w: World, u: str) -> bool: ...  # D8, arrivano §11, §16, §17.1.5

    def commanded_anyway(self, w: World, members: Sequence[str]) -> list[str]: ...  # D2

    def relayed_by(self, w: World, officer: str, members: Sequence[str]) -> list[str]: ...  # D3, arrivano §4.6

    def test_efficiency_bonus(self, w: World, u: str) -> int: ...  # D29, arrivano §17.2.7


def line_cells(grid: Grid, a: str, b: str, elevation: Callable[[str], int],
               blocking_terrain: Callable[[HexId], bool]) -> tuple[tuple[HexId, ...], ...]:
    """The line of sight a-b as the ground leaves it (caldiero §11.3-§11.3.1, arrivano §11.3-§11.3.1), traced exactly
    by the map kit (`maps.sight.between_cells`: `blocking_cells` of its trace): the groups of hexes that block it when units stand in every hex of
    one (`units_clear`), each without the hexes that block by themselves (blocking terrain, ground higher than both
    ends; along a hexside only if both hexes block); `((),)`, one group left empty, where the ground blocks it
    whatever stands where. The range is the caller's: it differs per scenario."""
    top = max(elevation(a), elevation(b))
    cells: list[tuple[HexId, ...]] = []
    for cell in between_cells(grid, a, b):
        left = tuple(h for h in cell if not (blocking_terrain(h) or elevation(h) > top))
        if not left:
            return ((),)
        cells.append(left)
    return tuple(cells)


def units_clear(variant: Answers, cells: tuple[tuple[HexId, ...], ...], occupied: Callable[[HexId], bool]) -> bool:
    """Whether nothing blocks a line (`line_cells`): no group left empty by the ground, and where units block (D18:
    caldiero §11.3.1; never arrivano §11.3.1) no group whose hexes are all occupied."""
    units_block = variant.units_block_sight
    return not any(not cell or (units_block and all(map(occupied, cell))) for cell in cells)


class World:
    """What the kernel may ask; every answer is a pure function of the state, the game's data and its readings.
    `data`: what the scenario is played on, the same shape in both books (loader.ScenarioData: the order of
    battle, the scenario file whose seats are the two sides, the map and terrain effects table, the orders table, the
    CRT, the weather track, the content hash); `variant`: the game's answers where the books differ (`Answers`);
    `reading(name)`: the reading of an interpretation in force; `position()`: a count that moves with every event
    folded into the state while the World lives (a procedure's events so far), so that what was worked out is worked
    out again after one (None: the state does not change under the World)."""

    def __init__(self, state: Any, data: ScenarioData, reading: Callable[[str], str],
                 position: Callable[[], int] | None = None, *, variant: Answers,
                 decisions: Callable[[], Sequence[Frame[Any]]] = tuple) -> None:
        self.state: SystemState = state
        self.variant, self.crt, self.digest = variant, data.crt, data.digest
        self.counters, self.scenario, self.hexmap, self.terrain_table = data, data.scenario, data.map, data.terrain
        self.book_rules = data.tables.rules  # the values its whole book gives (tables/rules.json: D10's loss test)
        self.orders, self.weather = data.orders, data.weather
        self.sides: tuple[str, str] = (data.scenario.seats[0], data.scenario.seats[1])
        self.grid = data.map.grid
        self._reading, self._position, self._decisions = reading, position, decisions
        self._worked_out: dict[Any, Any] | None = None
        self._at = position() if position is not None else 0
        self._ruled = dict(state.interpretations)  # the readings what is worked out was worked out under

    def read_for(self, state: Any, data: ScenarioData, variant: Answers, reading: Callable[[str], str],
                 position: Callable[[], int], decisions: Callable[[], Sequence[Frame[Any]]]) -> bool:
        """Take this World over for another procedure on the same `state` object, data and variant (the next
        command's: issue 15, a verify's state is one object, and each command's first position is the last one's):
        its readings and position become that procedure's, and what it worked out stays only while the position has
        not moved since (`_memo`: `position` must count the events folded into the state whichever procedure
        folds them, the game state's seq) and the readings kept in the state are those it was worked out under (a
        ruling written into the state object itself moves no seq). False: another state, data or variant, nothing
        taken over."""
        if state is not self.state or data is not self.counters or variant is not self.variant:
            return False
        self._reading, self._position, self._decisions = reading, position, decisions
        if state.interpretations != self._ruled:
            self._worked_out, self._ruled = None, dict(state.interpretations)
        self._memo()
        return True

    def _memo(self) -> dict[Any, Any]:
        """What was worked out at this position, what was from an earlier one forgotten (asked by every `cached`: one
        call, issue 15)."""
        at = self._position() if self._position is not None else self._at
        if at != self._at or self._worked_out is None:
            self._worked_out, self._at = {}, at
        return self._worked_out

    def assault(self) -> AssaultUnderway:
        """The assault in progress (its frame on the decision stack, whatever waits above it): what the decisions it
        asks list their answers from (§12.7's advance, the defensive fire of arrivano §11.4.4 / caldiero §11.4.5)."""
        c = assault_below(self._decisions())
        assert c is not None, "no assault in progress"
        return c

    def order_rules(self, order: str) -> OrderRules:
        """What `order` permits (§5.1 in both, D6): its row of the game's orders table."""
        return self.orders.orders[order]  # type: ignore[index]

    # --- the ground: the map and the terrain effects table (parabellum/data.TerrainTable), both books' data ------
    def terrains(self, h: str) -> list[TerrainEffect]:
        """The effects of every terrain of the hex, its main terrain first (arrivano §10: a hex may have several)."""
        table = self.terrain_table.terrain
        return [table[t] for t in self.hexmap.hex(h).terrains]

    def elevation(self, h: str) -> int:  # its level (caldiero's table: climbing; §11.3.1 in both: sight)
        return self.hexmap.hex(h).elevation

    def blocks_sight(self, h: str) -> bool:
        """Blocking terrain (caldiero §11.3.1, arrivano §11.3.1): the table's, and the terrains the variant adds by a
        reading (arrivano §10.3's wheat, interpretation `wheat_blocks_los`)."""
        return h in _sight_blocking(self.hexmap, self.terrain_table, self._more_blocking())

    def _more_blocking(self) -> frozenset[str]:
        return self.cached(("sight blocking terrains",), lambda: self.variant.sight_blocking_terrains(self.reading))

    def may_stay(self, h: str) -> bool:  # units there may stay put whatever their order (caldiero §10.1, §10.5.2; arrivano §10.1)
        return any(t.may_stay for t in self.terrains(h))

    def no_fire_into(self, h: str) -> bool:  # terrain no bombardment reaches (caldiero §10.2 marsh; arrivano none)
        return any(t.no_bombard_into for t in self.terrains(h))

    def no_zoc_into(self, h: HexId) -> bool:  # terrain no ZoC enters (caldiero §10.5.1 fortress, arrivano §8 redoubt)
        return h in self.no_zoc_hexes()

    def no_zoc_hexes(self) -> frozenset[str]:
        """Every hex `no_zoc_into` answers yes for, in one set (what a zone of control asks of every hex it reaches)."""
        return _no_zoc_hexes(self.hexmap, self.terrain_table)

    def closed_to(self, side: str, h: str) -> tuple[Rule, str] | None:
        """Why the scenario closes hex h to `side`'s units, moving or retreating (the variant's `closed_to`: caldiero
        §9.2.1, the Austrians never enter the 10xx row), or None (arrivano: no such hex)."""
        return self.variant.closed_to(self, side, h)

    def adjacent(self, a: str, b: str) -> bool:  # two map hexes sharing a hexside (False for anything else)
        return self.grid.contains(a) and self.grid.contains(b) and self.grid.is_adjacent(a, b)

    def hexside_effects(self, a: str, b: str) -> list[HexsideEffect]:
        """The table's entries for what lies between a and b; none for hexes that are not neighbours, so a caller
        judging a path checks adjacency itself first (a non-neighbour is no crossing, not a refusal)."""
        if not self.adjacent(a, b):
            return []
        hexsides = self.terrain_table.hexsides
        return [hexsides[f] for f in self.hexmap.hexside_features(a, b) if f in hexsides]

    def crossing_prohibited(self, a: str, b: str) -> bool:
        """A hexside no unit moves, attacks or traces command across (caldiero's table: a river; arrivano's table
        has no hexside feature). False for hexes that are not neighbours: the caller checks adjacency first."""
        return any(e.prohibited for e in self.hexside_effects(a, b))

    # --- weather (the box's effects are the variant's data, D29) ---------------------------------------
    def weather_box(self) -> WeatherBox | None:  # the box in force (None: no weather track, or no box: arrivano's 0)
        return self.weather.in_force(self.state.weather) if self.weather is not None else None

    # --- readings (the interpretations in force; docs/engine-rules.md §U) -------------------------------
    def reading(self, name: str) -> str:
        """The reading in force of interpretation `name`, read once per position (issue 15: a reading is looked up in
        the data in force, ~2.5 us, and a movement listing asks ~90)."""
        return self.cached(("reading", name), lambda: self._reading(name))

    # An answer worked out from this position, kept as long as the World (a World never outlives its state); `known`:
    # the answer if it is worked out already (a caller asking for one part of it searches only that part).
    def cached(self, key: Hashable, work: Callable[[], T]) -> T:
        # `_memo` written out, and the key hashed once: asked ~30 times a command (issue 15)
        at = self._position() if self._position is not None else self._at
        memo = self._worked_out
        if at != self._at or memo is None:
            memo = self._worked_out = {}
            self._at = at
        found = memo.get(key, _NOTHING)
        if found is _NOTHING:
            found = memo[key] = work()
        return found  # type: ignore[no-any-return]

    def known(self, key: Hashable) -> Any:
        return self._memo().get(key)

    # --- pieces ------------------------------------------------------------------------------------------
    def on_map_units(self) -> list[str]:
        """The units on the map, in id order (sorted once per position: every side's and formation's list reads it)."""
        return list(self._on_map())

    def _on_map(self) -> tuple[str, ...]:  # `on_map_units` as kept, read without a copy by the lists made from it
        return self.cached(("on map",), self._sorted_on_map)  # type: ignore[no-any-return]

    def _sorted_on_map(self) -> tuple[str, ...]:
        return tuple(sorted(u for u, s in self.state.units.items() if s.where == "map"))

    def by_hex(self) -> dict[str, list[str]]:
        """The units on the map in each hex, in id order (worked out once per position)."""
        return self.cached(("by_hex",), self._units_by_hex)

    def _units_by_hex(self) -> dict[str, list[str]]:
        table: dict[str, list[str]] = {}
        units = self.state.units
        for u in self._on_map():
            table.setdefault(units[u].hex, []).append(u)
        return table

    def units_at(self, h: str) -> list[str]:  # the units on map in hex h, in id order
        return list(self.by_hex().get(h, []))

    def side_at(self, h: str) -> str | None:  # the side whose units occupy h (never two), None when empty
        units = self.by_hex().get(h)
        return self.state.units[units[0]].side if units else None

    def units_of(self, side: str) -> list[str]:  # the side's units on map, in id order (once per position)
        return list(self._side_units(side))

    def _side_units(self, side: str) -> tuple[str, ...]:  # `units_of` as kept, read without a copy
        units = self.state.units  # read once, not for each unit (issue 15: the fog asks both sides' after every command)
        return self.cached(("units of", side), lambda: tuple(u for u in self._on_map() if units[u].side == side))

    def side_units_at(self, h: str, side: str) -> list[str]:
        return [u for u in self.units_at(h) if self.state.units[u].side == side]

    def enemy_units_at(self, h: str, side: str) -> list[str]:
        return self.side_units_at(h, self.enemy(side))

    def occupied_by(self, side: str) -> set[str]:  # the hexes holding side's units
        return set(self.hexes_held(side))

    def hexes_held(self, side: str) -> frozenset[str]:
        """The hexes holding `side`'s units on the map, once per position: what a kept answer's key names of who
        stands where (the command reach here, the movement searches in parabellum/movement.py)."""
        units = self.state.units
        return self.cached(("hexes held", side), lambda: frozenset([units[u].hex for u in self._side_units(side)]))

    def enemy(self, side: str) -> str:  # the other side
        a, b = self.sides
        return b if side == a else a

    def strength(self, u: str) -> int:  # strength points on the side it shows (both §12.8)
        data = self.counters.unit(u)
        return data.reduced if self.state.units[u].reduced and data.reduced is not None else data.strength

    def efficiency(self, u: str) -> int:  # its efficiency value (both §13.1)
        return self.counters.unit(u).efficiency

    def test_efficiency(self, u: str) -> int:  # the value a test reads (the variant's bonus: arrivano §17.2.7 weather)
        return self.efficiency(u) + self.variant.test_efficiency_bonus(self, u)

    def is_artillery(self, u: str) -> bool:
        return self.state.units[u].arm == "artillery"

    def arm(self, u: str) -> str:  # "infantry", "cavalry", "artillery"
        return self.state.units[u].arm

    def side_of(self, u: str) -> str:
        return self.state.units[u].side

    def status(self, u: str) -> str:  # "good", "disordered", "routed" (both §15)
        return self.state.units[u].status

    def hex_of(self, u: str) -> str | None:  # the unit's hex while it is on the map, else None
        unit = self.state.units[u]
        return unit.hex if unit.where == "map" else None

    def on_map(self, u: str) -> bool:  # the unit is on the map (not eliminated, not yet entered)
        return self.state.units[u].where == "map"

    def formation_of(self, u: str) -> str:
        """The formation it obeys and stacks with: the one it joined for this turn, if it joined one (caldiero
        §15.4.3, the French reserve; arrivano's units never join another), else its own."""
        unit = self.state.units[u]
        return unit.attached or unit.formation

    def formation_arrival(self, formation: str) -> int:
        """The turn a formation arrives, as its order of battle prints it (caldiero §21.3); 1 for one the order of
        battle has not (Bonaparte's, caldiero §20.1: present from the first turn)."""
        printed = next((f for f in self.counters.oob.formations if f.id == formation), None)
        return printed.arrival_turn if printed is not None else 1

    def option(self, name: str) -> bool:  # the optional rule is in play (caldiero §20, arrivano §16)
        return name in self.state.options

    def formation_units(self, formation: str) -> list[str]:  # its units on the map, in id order
        return list(self._by_formation().get(formation, ()))

    def _by_formation(self) -> dict[str, list[str]]:
        """The units on the map of each formation they obey (`formation_of`), in id order, once per position (issue
        15: each formation's were picked out of every unit at each ask, several a command)."""
        def work() -> dict[str, list[str]]:
            table: dict[str, list[str]] = {}
            for u in self._on_map():
                table.setdefault(self.formation_of(u), []).append(u)
            return table
        return self.cached(("by formation",), work)  # type: ignore[no-any-return]

    def piece_hexes(self, side: str) -> frozenset[str]:
        """The hexes of side's units and leaders on the map, once per position (the fog asks them of every unknown
        piece after every command)."""
        return self.cached(("piece hexes", side), lambda: self.hexes_held(side).union(
            [s.hex for s in self.state.leaders.values() if s.side == side and s.where == "map"]))

    # --- leaders -----------------------------------------------------------------------------------------
    def leaders_at(self, h: str, side: str | None = None) -> list[str]:  # the leaders on the map in h, in id order
        return sorted(l for l, s in self.state.leaders.items()
                      if s.where == "map" and s.hex == h and (side is None or s.side == side))

    def leader_on_map(self, leader: str | None) -> str | None:  # a leader's hex, None when he is off the map
        s = self.state.leaders.get(leader) if leader is not None else None
        return s.hex if s is not None and s.where == "map" else None

    def leader_hex(self, leader: str) -> str:  # a leader's hex while on the map
        return self.leader_on_map(leader) or ""

    def general_of(self, u: str) -> str | None:  # the general of the formation it obeys (both §4.1)
        formation = self.state.formations.get(self.formation_of(u))
        return formation.general if formation is not None else None

    def general_on_map(self, formation: str) -> str | None:
        f = self.state.formations.get(formation)
        general = f.general if f is not None else None
        return general if self.leader_on_map(general) is not None else None

    def officers_of(self, u: str) -> list[str]:  # the officers of the unit's formation, in id order (arrivano §4.2)
        return [l for l in self.counters.oob.officers(self.formation_of(u)) if l in self.state.leaders]

    def leader_role(self, leader: str) -> str:  # "commander_in_chief", "general", "officer"
        return self.counters.leader(leader).role

    def leader_side(self, leader: str) -> str:
        return self.state.leaders[leader].side

    def commander_in_chief(self, side: str) -> str:  # the side's one leader in that role (caldiero §4.2, arrivano §4.3)
        return next(l for l in sorted(self.state.leaders)
                    if self.leader_role(l) == "commander_in_chief" and self.leader_side(l) == side)

    def chief_reach(self, side: str) -> frozenset[str]:  # his command range (caldiero §4.3.1, arrivano §4.4 with §4.3.2)
        return self.command_reach(self.commander_in_chief(side))

    def leader_formation(self, leader: str) -> str | None:  # his formation (None: a commander in chief)
        return self.counters.leader(leader).formation

    def leader_initiative(self, leader: str) -> int:  # his printed initiative (both §4)
        return self.counters.leader(leader).initiative

    # --- the assault (parabellum/assault.py, parabellum/exchange.py) -----------------------------------
    def attacked_this_turn(self, u: str) -> bool:  # it attacked in this turn already (both §12.2.3)
        return self.state.units[u].attacked_turn == self.state.turn

    def attacked_hexes(self) -> Collection[str]:  # the hexes attacked in this combat segment (both §12.2.3)
        return self.state.hexes_attacked()

    # --- bombardment (parabellum/bombardment.py) ---------------------------------------------------------
    def artillery_range(self, u: str) -> int:
        """Its counter's range (both §11.2); a redoubt battery's (a counter's `redoubt_battery`), any hex in sight
        (arrivano §17.2.6)."""
        data = self.counters.unit(u)
        return self.sight_range() if data.redoubt_battery else (data.range or 0)

    def weather_range_cap(self) -> int | None:  # the weather's limit to every range (caldiero §17.1.1, arrivano §17.2.7); None: none
        box = self.weather_box()
        return box.artillery_range_max if box is not None else None

    def artillery_fires(self) -> bool:  # the weather lets guns fire (caldiero §17.1.2-§17.1.3, arrivano §17.2.7)
        box = self.weather_box()
        return box is None or box.artillery_fires

    def charging(self, u: str) -> bool:  # it bears a Charge marker (caldiero §20.2, arrivano §14.2)
        return self.state.charging(u)

    def charge_target(self, u: str) -> str | None:  # the hex it charged, when the state records it (arrivano §14.2)
        return self.state.charge_target(u)

    # --- line of sight (parabellum/sight.py) ------------------------------------------------------------
    def clear_line(self, a: str, b: str) -> bool:
        """Nothing between a and b blocks the line: blocking terrain, ground higher than both ends (`line_cells`), units
        where the variant says they block (`units_clear`, caldiero §11.3.1). What the ground leaves of a line is kept
        for every position under the data's `terrain_key`, traced from the lower hex (a line is clear both ways), and the
        position's units are applied to it (issue 15: where units block, every position traced its lines again, most of
        a fog game's serving)."""
        key = self.terrain_key()
        if key is None:
            return self.cached(("line", a, b), lambda: units_clear(self.variant, self._traced(a, b), self.occupied))  # type: ignore[no-any-return]
        a, b = (a, b) if a <= b else (b, a)
        return units_clear(self.variant, _LINES.get((), (key, a, b), lambda: self._traced(a, b)), self.occupied)

    def _traced(self, a: str, b: str) -> tuple[tuple[HexId, ...], ...]:
        blocking = _sight_blocking(self.hexmap, self.terrain_table, self._more_blocking())  # once a line, not a hex
        return line_cells(self.grid, a, b, self.elevation, blocking.__contains__)

    def occupied(self, h: str) -> bool:  # units stand there (a line they block, caldiero §11.3.1)
        return bool(self.units_at(h))

    def terrain_key(self) -> object | None:
        """What the ground's answers depend on besides the hexes (`line_cells`): the content of the data (`digest`) and
        the terrains a reading makes block; None where nothing names the data. Once per position: the fog asks it of
        every hex it looks at."""
        if self.digest is None:
            return None
        return self.cached(("terrain key",), lambda: (self.digest, tuple(sorted(self._more_blocking()))))

    def lines_key(self) -> object | None:
        """What every `clear_line` answer depends on besides its two hexes, when that is not the position: the
        `terrain_key`; None where units block lines (caldiero §11.3.1) or nothing names the data."""
        return None if self.variant.units_block_sight else self.terrain_key()

    def sight_range(self) -> int:  # the longest line of sight in hexes (caldiero §11.3: 4; arrivano: the scenario's)
        return self.scenario.los_range

    # --- zones of control (parabellum/zoc.py) ----------------------------------------------------------
    def zocs_in_force(self) -> bool:  # False while the weather suspends every ZoC (arrivano §17.2.7 storm)
        box = self.weather_box()
        return box is None or box.zoc

    # --- stacking (parabellum/stacking.py) ---------------------------------------------------------------
    def stacking_limits(self) -> Sequence[StackPattern]:  # §7.1 in both; a scenario's own (arrivano §17.2.3)
        return self.scenario.stacking.allowed

    # --- command (parabellum/command.py) -----------------------------------------------------------------
    # units in command whatever the range (arrivano §3.2 first turn)
    def commanded_anyway(self, members: Sequence[str]) -> list[str]:
        return self.variant.commanded_anyway(self, members)

    def entering_now(self, u: str) -> bool:
        """Whether unit u comes onto the map in the activation under way (§15.4 in both, D22): waiting at its entry
        hex (arrivano §15.4, `where` "waiting"), or come onto it in this activation (its first move began off the
        map: `starts` "")."""
        act = self.state.activation
        return act is not None and _comes_on(act.starts, u, self.state.units[u].where)

    def entering(self, formation: str) -> list[str]:
        """The units of the activated `formation` coming onto the map in this activation (`entering_now`), in id
        order; none for another formation (arrivano §15.4.1: in command, `command.in_command`)."""
        act = self.state.activation
        if act is None or act.formation != formation:
            return []
        # `entering_now` asked first, off the unit's state: few units are entering, and each's formation is a call
        # (issue 15: asked of every unit in each position's command, `command.in_command`)
        starts = act.starts
        return sorted(u for u, s in self.state.units.items()
                      if _comes_on(starts, u, s.where) and self.formation_of(u) == formation)

    def held_to_defence(self, u: str) -> bool:
        """A unit of the activation under a Defence order only for being out of command (caldiero §5.3, arrivano §5.3:
        "Le unità fuori comando ... assumono un ordine di Difesa"): out of command (`out_of_command`, each book's
        moment), given no order of its own (caldiero §5.3.1 its test or the chief's range; arrivano §3.1 B-4 an
        officer's), not every formation in Defence by the weather (caldiero §17.1.3), nothing else of its book giving
        it its order (`ordered_otherwise`), its formation's order not Defence already."""
        act = self.state.activation
        if act is None or u in act.unit_orders or not self.out_of_command(u) or self.ordered_otherwise(u):
            return False
        box = self.weather_box()
        formation = self.state.formations.get(act.formation)
        return (box is None or not box.formations_defence) and formation is not None and formation.order not in (
            None, "defence")

    def out_of_command(self, u: str) -> bool:
        """A unit of the activated group out of command, as its book judges it (the variant's `out_of_command`: when
        the formation is activated, caldiero §5.3; as the position stands, arrivano §5.3 with §4.4)."""
        return self.variant.out_of_command(self, u)

    def ordered_otherwise(self, u: str) -> bool:  # its book gives it an order by another rule (arrivano: §11, §16, §17.1.5)
        return self.variant.ordered_otherwise(self, u)

    def command_range(self, leader: str) -> int:  # his range in hexes (caldiero §4.3, arrivano §4.4.1)
        value = self.counters.leader(leader).command_range
        box = self.weather_box()
        return halved(value, box.command_range_halved if box is not None else None)  # caldiero §17.1.3, §1.4

    def command_line_enters(self, a: str, b: str, side: str) -> bool:
        """A command line may step from a into b: the same rule in both books (caldiero §4.3.3, arrivano §4.4.3 "non
        può essere tracciata attraverso Terreno intransitabile o unità nemiche"): never across a hexside nor into a
        terrain the terrain table bars (a river: caldiero's table), nor into a hex holding enemy units; through
        enemy ZoCs and any other terrain it goes."""
        return self._line_steps(self.hexes_held(self.enemy(side)))(a, b)

    def _line_steps(self, blocked: Collection[str]) -> Callable[[str, str], bool]:
        """`command_line_enters` with the enemy-held hexes `blocked` given, the ground read once for every step it is
        asked (issue 15: a reach traced asked the kept ground of each step, most of its time)."""
        impassable, crossings = _line_ground(self.hexmap, self.terrain_table)
        return lambda a, b: b not in blocked and b not in impassable and (a, b) not in crossings

    def command_reach(self, leader: str) -> frozenset[str]:
        """The hexes within his command range by a line traced hex by hex that goes on through no hex holding enemy
        units (caldiero §4.3.3, arrivano §4.4.3 "non può essere tracciata attraverso ... unità nemiche") and steps
        only where `command_line_enters` lets it; empty while he is off the map."""
        start = self.leader_on_map(leader)
        if start is None:
            return frozenset()
        radius = self.command_range(leader)
        # The line never leaves his range, so only the enemy-held hexes within it are read: an enemy moving
        # elsewhere leaves the kept reach in force (issue 15).
        held = self.grid.near(start, radius) & self.hexes_held(self.enemy(self.state.leaders[leader].side))

        def trace() -> frozenset[str]:  # reads only what the key names: the start, the radius, `held`, the ground
            return frozenset(command_distances(self.grid, start, radius, lambda h: h not in held,
                                               may_cross=self._line_steps(held)))

        # `held` named by a sorted tuple in the kept key: a frozenset is always tracked by the garbage collector
        return self.cached(("command_reach", leader), lambda: _REACHES.get(
            (self.grid, self.hexmap, self.terrain_table), (start, radius, tuple(sorted(held))), trace))

    def relay_officers(self, formation: str) -> list[str]:  # officers on the map who may relay (D3; caldiero none)
        leaders = self.state.leaders
        return [l for l in self.counters.oob.officers(formation) if l in leaders and leaders[l].where == "map"]

    def relayed_by(self, officer: str, members: Sequence[str]) -> list[str]:  # members in his range (arrivano §4.6)
        return self.variant.relayed_by(self, officer, members)
