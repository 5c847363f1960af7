"""What the position means for the rules: who stands where, zones of control (caricat §5), command range (§4.3),
morale and values (§1.3, §7.5.1), lines of communication (§11), and the movement rules of one unit (§6).

A World is built from the state and the scenario's data for one question and never changes the state.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, cached_property

from arbitro.adjudicator.caricat.loader import CaricatData, Scenario
from arbitro.adjudicator.maps import communication, control
from arbitro.adjudicator.maps.hexgrid import Cube, Grid, HexId, cube_distance
from arbitro.adjudicator.maps.movement import MoveRules, ZocRules, cached_step_cost
from arbitro.adjudicator.memo import Memo
from arbitro.projections.caricat import CaricatState, UnitState, leader_hex, other

LEVELS = ("attack", "advance", "hold", "reserve")
SHAKEN, BROKEN, ROUTED, ELIMINATED = 2, 3, 4, 5
_ZONES = Memo(64)  # per grid, the units exerting a zone where they stand (World._zones)


def _zone_of(grid: Grid, holders: dict[str, str]) -> tuple[dict[HexId, tuple[str, ...]], frozenset[HexId]]:
    zone = control.zones(grid, holders)
    return zone, frozenset(zone)


@cache
def _class_only(kind: str) -> MoveRules:
    """What a step's cost reads of a unit's move rules: its class (World.impassable)."""
    return MoveRules(unit_class=kind, budget=0)


class World:
    def __init__(self, state: CaricatState, data: CaricatData, readings: dict[str, str] | None = None) -> None:
        self.state, self.data = state, data
        self.scenario: Scenario = data.scenarios[state.scenario]
        self.map = self.scenario.map
        self.grid = self.map.grid
        self.system = data.system
        self.readings = readings if readings is not None else state.interpretations
        self.memo: dict[tuple[str, str], object] = {}  # answers about this one position (movement.py)
        self._on_map: dict[str | None, dict[str, UnitState]] = {}
        self._nearest: dict[tuple[str, str], int] = {}
        self._side_cubes: dict[str, tuple[Cube, ...]] = {}
        self._rules: dict[tuple[str, int | None, bool], MoveRules] = {}
        self._networks: dict[str, tuple[frozenset[HexId], Callable[[HexId], bool]]] = {}

    # --- pieces ------------------------------------------------------------------------------------
    def on_map(self, side: str | None = None) -> dict[str, UnitState]:
        """The units on the map (of `side`), in id order; worked out once per World: do not modify the answer."""
        found = self._on_map.get(side)
        if found is None:
            found = self._on_map[side] = {k: u for k, u in sorted(self.state.units.items())
                                          if u.where == "map" and u.hex is not None and (side is None or u.side == side)}
        return found

    @cached_property
    def occupancy(self) -> control.Occupancy:
        return control.Occupancy((k, u.hex) for k, u in self.on_map().items())

    def unit_at(self, hex_id: str) -> str | None:
        return self.occupancy.at(hex_id)

    def leaders_at(self, hex_id: str) -> list[str]:
        return [k for k, le in sorted(self.state.leaders.items()) if not le.gone and leader_hex(self.state, k) == hex_id]

    def units_of(self, leader: str) -> list[str]:
        return [k for k, u in sorted(self.state.units.items()) if u.leader == leader and u.where != "gone"]

    # --- zones of control (caricat §5; none for Broken or Routed units, §7.5.1) ---------------------------
    def zone(self, side: str) -> dict[HexId, tuple[str, ...]]:
        """Hexes in the zone of control of `side`'s units -> the units exerting it there."""
        return self._zones[side][0]

    @cached_property
    def _zones(self) -> dict[str, tuple[dict[HexId, tuple[str, ...]], frozenset[HexId]]]:
        """Each side's zone, and its hexes as a move's rules read them; kept across positions by who exerts a zone
        where: a World is made after every event, and most events (a roll, a frame, a hit short of Broken) move no
        zone (issue 15)."""
        out = {}
        for side in ("italian", "austrian"):
            holders = tuple((k, u.hex) for k, u in self.on_map(side).items() if u.hits < BROKEN and u.hex is not None)
            out[side] = _ZONES.get((self.grid,), holders, lambda h=holders: _zone_of(self.grid, dict(h)))
        return out

    def in_enemy_zoc(self, unit: str, hex_id: str | None = None) -> bool:
        u = self.state.units[unit]
        where = hex_id if hex_id is not None else u.hex
        return where is not None and where in self.zone(other(u.side))

    def adjacent_enemies(self, unit: str, hex_id: str | None = None) -> list[str]:
        u = self.state.units[unit]
        where = hex_id if hex_id is not None else u.hex
        if where is None:
            return []
        found = (self.unit_at(n) for n in self.grid.neighbours(where))
        return sorted(k for k in found if k is not None and self.state.units[k].side != u.side)

    def nearest_enemy(self, side: str, hex_id: str) -> int:
        found = self._nearest.get((side, hex_id))
        if found is None:  # asked of every destination of every move a listing weighs: the enemy's cubes read once
            here, enemy = self.grid.cube(hex_id), self._cubes(other(side))
            found = self._nearest[(side, hex_id)] = min((cube_distance(here, e) for e in enemy), default=99)
        return found

    def _cubes(self, side: str) -> tuple[Cube, ...]:
        found = self._side_cubes.get(side)
        if found is None:
            found = self._side_cubes[side] = tuple(self.grid.cube(u.hex) for u in self.on_map(side).values() if u.hex)
        return found

    # --- values (caricat §1.3, §7.5) ------------------------------------------------------------------------
    def counter(self, unit: str):  # type: ignore[no-untyped-def]
        return self.scenario.file.unit(unit)

    def morale(self, unit: str) -> int:
        """The current morale: the printed value less the levels lost (interpretation morale_value)."""
        u, c = self.state.units[unit], self.counter(unit)
        if self.readings.get("morale_value", "reduced_by_hits") == "printed":
            return c.morale
        return max(1, c.morale - u.hits)

    def melee_value(self, unit: str) -> int:
        u, c = self.state.units[unit], self.counter(unit)
        if u.hits >= ROUTED:
            return self.system.modifiers.routed_melee_value
        return c.melee[1] if u.hits >= 1 else c.melee[0]

    def fire_value(self, unit: str) -> int:
        u, c = self.state.units[unit], self.counter(unit)
        return c.fire[1] if u.hits >= 1 else c.fire[0]

    def level(self, unit: str) -> str:
        """The level the unit acts under: its leader's; cavalry obeys no leader's level (caricat §9)."""
        u = self.state.units[unit]
        return self.state.leaders[u.leader].level if u.leader is not None else "advance"

    # --- command range (caricat §4.3, §7.3.1) ------------------------------------------------------------
    def command(self, unit: str) -> str:
        """in | double | beyond."""
        u = self.state.units[unit]
        if u.leader is None:
            return "in"
        le = self.state.leaders[u.leader]
        if le.out_of_command:
            return "beyond"
        where = leader_hex(self.state, u.leader)
        if u.hex is None or where is None:
            return "in"  # arriving with his leader
        points = self.scenario.file.leader(u.leader).command
        d = self.grid.distance(where, u.hex)
        return "in" if d <= points else "double" if d <= 2 * points else "beyond"

    def command_note(self, unit: str) -> str:
        """What being out of its leader's command range does to `unit` now, in words for a refusal or the game's
        status (issue 19 item 16); "" in range."""
        status = self.command(unit)
        if status == "in":
            return ""
        leader = self.state.units[unit].leader
        assert leader is not None
        if self.state.leaders[leader].out_of_command:
            why = f"its leader {leader} is a replacement this activation (caricat §7.3.1), as if beyond twice his range"
        else:
            points = self.scenario.file.leader(leader).command
            why = (f"beyond {'twice ' if status == 'beyond' else ''}its leader {leader}'s command range of {points} "
                   f"hex{'es' if points != 1 else ''} (caricat §4.3)")
        effect = "half its movement points, defensive fire only" if status == "beyond" else "1 MP less, no melee"
        return f"{unit} is out of command: {why}: {effect}"

    # --- lines of communication (caricat §11) -------------------------------------------------------------
    def loc_hexes(self, side: str) -> tuple[str, ...]:
        return self.scenario.file.loc[side].hexes  # type: ignore[index]

    def loc_blocked(self, side: str):  # type: ignore[no-untyped-def]
        """A line may not enter a hex with an enemy unit, nor one in an uncontested enemy zone (one enemy unit
        exerts it; interpretation loc_uncontested)."""
        enemy = other(side)
        zone = self.zone(enemy)
        enemy_hexes = {u.hex for u in self.on_map(enemy).values()}
        friendly = self.zone(side)

        def blocked(h: HexId) -> bool:
            if h in enemy_hexes:
                return True
            exerting = zone.get(h, ())
            if self.readings.get("loc_uncontested", "single_enemy") == "no_friendly_zone":
                return bool(exerting) and h not in friendly
            return len(exerting) == 1
        return blocked

    def has_loc(self, unit: str) -> bool:
        u = self.state.units[unit]
        if u.hex is None:
            return True
        if u.side not in self._networks:  # the side's road network, traced once for all its units
            blocked = self.loc_blocked(u.side)
            self._networks[u.side] = (communication.road_network(self.map, self.loc_hexes(u.side), blocked), blocked)
        network, blocked = self._networks[u.side]
        return communication.distance_to_network(self.map, u.hex, network, self.system.loc_distance.hexes,
                                                 blocked) is not None

    def loc_distance(self, side: str, hex_id: str) -> int:
        """How far a hex is from the side's lines (the nearest LOC place): 'toward the lines' (caricat §7.4)."""
        return min(self.grid.distance(hex_id, h) for h in self.loc_hexes(side))

    # --- movement (caricat §5, §6, §6.1, §13.2.2, §13.3.4) ------------------------------------------------
    def allowance(self, unit: str) -> int:
        """Movement points, after command range (caricat §4.3)."""
        u = self.state.units[unit]
        mp = self.system.movement.infantry if u.kind == "infantry" else self.system.movement.cavalry
        status = self.command(unit)
        if status == "double":
            mp -= 1
        elif status == "beyond":
            mp //= 2
        return max(0, mp)

    def crossing_closed(self, side: str, a: str, b: str) -> bool:
        """The Adige: no crossing once the bridge is destroyed, never for the Italian under caricat §13.3.4."""
        bridge = self.scenario.file.bridge
        if bridge is None or a not in (bridge.hex, bridge.across) or {a, b} != {bridge.hex, bridge.across}:
            return False  # (asked of every step a search tries: most are nowhere near the bridge)
        if self.state.bridge_destroyed:
            return True
        return side == "italian" and "carlo_alberto" in self.state.options

    def impassable(self, unit: str, a: str, b: str) -> bool:
        """Whether the unit may never step from `a` to `b`, even in a retreat or an advance: a hexside or terrain its
        kind may not cross on the terrain effects table (a river without a bridge; the escarpment for cavalry off
        the road, caricat §13.2.3), or the Adige once closed (§13.2.2)."""
        kind = self.state.units[unit].kind  # a step's cost reads the unit's class alone: no need of its move rules
        cost = cached_step_cost(self.map, self.data.movement, a, b, _class_only(kind))
        return cost.prohibited or self.crossing_closed(self.state.units[unit].side, a, b)

    def move_rules(self, unit: str, points: int | None = None, *, zoc: bool = True) -> MoveRules:
        """The unit's movement rules now (asked for every path checked: made once per World)."""
        key = (unit, points, zoc)
        if key not in self._rules:
            self._rules[key] = self._move_rules(unit, points, zoc)
        return self._rules[key]

    def _move_rules(self, unit: str, points: int | None, zoc: bool) -> MoveRules:
        u = self.state.units[unit]
        enemy = other(u.side)
        enemy_hexes = {e.hex for e in self.on_map(enemy).values()}
        enemy_zone = self.zone(enemy)
        blocked_friends = {f.hex for k, f in self.on_map(u.side).items() if k != unit and f.hex in enemy_zone}

        def can_enter(h: HexId) -> bool:
            return h not in enemy_hexes and h not in blocked_friends

        def can_end(h: HexId) -> bool:
            return self.occupancy.free(h) or h == u.hex

        def may_step(a: HexId, b: HexId) -> bool:
            return not self.crossing_closed(u.side, a, b)

        closing = may_step if self.scenario.file.bridge is not None else None  # no bridge, no veto: none asked
        budget = 2 * (self.allowance(unit) if points is None else points)
        zones = ZocRules(hexes=self._zones[enemy][1], entry="continue", leave_cost=2 * self.system.zoc_leave_points.points) \
            if zoc else None
        return MoveRules(unit_class=u.kind, budget=budget, minimum_move=False, can_enter=can_enter, can_end=can_end,
                         may_step=closing, zoc=zones)

    def objective_hexes(self, side: str) -> list[str]:
        """Objectives that began the game under `side`'s control, as the Hold level reads them (caricat §3.1,
        §13.1.4)."""
        return [o.hex for o in self.scenario.file.objectives if o.controller == side or side in o.friendly_for]
