"""The read-only world the system's rules look at: state + order of battle + board + readings.

Every `system_*` function takes a World; nothing here mutates the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from dataclasses import dataclass, field

from arbitro.adjudicator.caldiero.board import Board
from arbitro.adjudicator.caldiero.loader import CaldieroData
from arbitro.adjudicator.parabellum.data import LeaderData, UnitData
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.maps.command import command_distances
from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.parabellum import sight
from arbitro.adjudicator.parabellum.stacking import SECTION_7_1, StackLimit
from arbitro.adjudicator.parabellum.world import T
from arbitro.projections.caldiero import CaldieroState, enemy_of

ARMY_SEATS = ("france", "austria")

@dataclass
class World:
    state: CaldieroState
    data: CaldieroData
    board: Board
    reading: Callable[[str], str]  # interpretation in force, by name
    hooks: Any = None  # the ruleset's map rules (caldiero: map_rules.HOOKS); None: no extra restriction
    _units: dict[str, UnitData] = field(default_factory=dict)
    _leaders: dict[str, LeaderData] = field(default_factory=dict)
    _index: dict[str, list[str]] | None = None
    # Answers worked out from this state (paths, distances), kept as long as the World: a World is made
    # afresh for each legal() and after each event (Act.emit), so the state never changes under them.
    _memo: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._units = {u.id: u for u in self.data.oob.units}
        self._leaders = {leader.id: leader for leader in self.data.oob.leaders}

    # --- static values -------------------------------------------------------------------------
    def unit_data(self, u: str) -> UnitData:
        return self._units[u]

    def leader_data(self, leader: str) -> LeaderData:
        return self._leaders[leader]

    def option(self, name: str) -> bool:
        return name in self.state.options

    def strength(self, u: str) -> int:
        d = self._units[u]
        return (d.reduced or 0) if self.state.units[u].reduced else d.strength

    def efficiency(self, u: str) -> int:
        return self._units[u].efficiency

    def is_artillery(self, u: str) -> bool:
        return self.state.units[u].arm == "artillery"

    # --- where things are ----------------------------------------------------------------------
    def on_map_units(self) -> list[str]:
        return sorted(u for u, s in self.state.units.items() if s.where == "map" and s.hex)

    def units_at(self, h: str) -> list[str]:
        """Units on the map in hex h (sorted). The World is short-lived: built after the last event."""
        if self._index is None:
            index: dict[str, list[str]] = {}
            for u in self.on_map_units():
                index.setdefault(self.state.units[u].hex or "", []).append(u)
            self._index = index
        return list(self._index.get(h, []))

    def side_at(self, h: str) -> str | None:
        units = self.units_at(h)
        return self.state.units[units[0]].side if units else None

    def side_units_at(self, h: str, side: str) -> list[str]:
        return [u for u in self.units_at(h) if self.state.units[u].side == side]

    def enemy_units_at(self, h: str, side: str) -> list[str]:
        return self.side_units_at(h, enemy_of(side))

    def leaders_at(self, h: str, side: str | None = None) -> list[str]:
        return sorted(l for l, s in self.state.leaders.items()
                      if s.where == "map" and s.hex == h and (side is None or s.side == side))

    def occupied_by(self, side: str) -> set[str]:
        return {self.state.units[u].hex or "" for u in self.on_map_units() if self.state.units[u].side == side}

    def formation_of(self, u: str) -> str:
        """The unit's formation for command and stacking: a reserve unit's joined formation (§15.4.3)."""
        unit = self.state.units[u]
        return unit.attached or unit.formation

    def general_of(self, u: str) -> str | None:
        formation = self.state.formations.get(self.formation_of(u))
        return formation.general if formation is not None else None

    def officers_of(self, u: str) -> list[str]:
        return []  # Caldiero's commanders are its chiefs and generals: no officers (D3)

    def leader_on_map(self, leader: str | None) -> str | None:
        if leader is None or leader not in self.state.leaders:
            return None
        s = self.state.leaders[leader]
        return s.hex if s.where == "map" else None

    def cinc_of(self, side: str) -> str:
        return "bonaparte" if side == "france" else "alvinczy"

    def nearest_enemy_distance(self, h: str, side: str) -> int | None:
        key = ("nearest_enemy", h, side)
        if key not in self._memo:
            enemies = self._memo.get(("occupied", side))
            if enemies is None:
                enemies = self._memo[("occupied", side)] = frozenset(self.occupied_by(enemy_of(side)))
            self._memo[key] = min((self.board.distance(h, e) for e in enemies), default=None)
        return self._memo[key]  # type: ignore[no-any-return]

    # --- zones of control (the kernel's parabellum/zoc.py) -------------------------------------------
    def enemy(self, side: str) -> str:
        return enemy_of(side)

    def units_of(self, side: str) -> list[str]:
        return [u for u in self.on_map_units() if self.state.units[u].side == side]

    # --- line of sight (the kernel's World questions; the rules are parabellum/sight.py) ---------------------
    @property
    def grid(self) -> Grid:
        return self.board.grid

    def sight_range(self) -> int:
        return 4  # caldiero §11.3

    def artillery_range(self, u: str) -> int:
        return self.unit_data(u).range or 0  # caldiero §11.2

    def weather_range_cap(self) -> int | None:
        return 1 if self.state.weather == 1 else None  # caldiero §17.1.1

    def artillery_fires(self) -> bool:
        return self.state.weather < 2  # caldiero §17.1.2, §17.1.3

    def no_fire_into(self, h: str) -> bool:
        return self.board.is_marsh(h)  # caldiero §10.2

    def clear_line(self, a: str, b: str) -> bool:
        """caldiero §11.3.1: villages, fortresses, ground higher than both ends and hexes holding units block."""
        board = self.board
        return sight.clear_line(CALDIERO_VARIANT, board.grid, a, b, board.elevation, board.blocks_sight,
                                lambda h: bool(self.units_at(h)))

    def piece_hexes(self, side: str) -> set[str]:
        units = {s.hex for s in self.state.units.values() if s.side == side and s.where == "map" and s.hex}
        return units | {s.hex for s in self.state.leaders.values() if s.side == side and s.where == "map" and s.hex}

    # --- the kernel's assault questions (adjudicator/parabellum/world.py) -----------------------------
    def hex_of(self, u: str) -> str | None:
        unit = self.state.units[u]
        return unit.hex if unit.where == "map" else None

    def on_map(self, u: str) -> bool:
        return self.state.units[u].where == "map"

    def attacked_this_turn(self, u: str) -> bool:
        return self.state.units[u].attacked_turn == self.state.turn

    def attacked_hexes(self) -> list[str]:
        act = self.state.activation
        return act.attacked_hexes if act is not None else []

    def charging(self, u: str) -> bool:
        return self.state.units[u].charging

    def charge_target(self, u: str) -> str | None:
        return None  # caldiero §20.2: the charged hex is the one its attack names

    # --- zones of control, continued -------------------------------------------------------------------
    def side_of(self, u: str) -> str:
        return self.state.units[u].side

    def status(self, u: str) -> str:
        return self.state.units[u].status

    def zocs_in_force(self) -> bool:
        return True  # no Caldiero weather suspends a ZoC (caldiero §17.1)

    def no_zoc_into(self, h: HexId) -> bool:
        return self.board.is_fortress(h)  # caldiero §8, §10.5.1

    def cached(self, key: tuple[str, ...], work: Callable[[], T]) -> T:
        if key not in self._memo:
            self._memo[key] = work()
        return self._memo[key]  # type: ignore[no-any-return]

    # --- stacking (the kernel's parabellum/stacking.py) ----------------------------------------------
    def arm(self, u: str) -> str:
        return self.state.units[u].arm

    def stacking_limits(self) -> tuple[StackLimit, ...]:
        return SECTION_7_1  # caldiero §7.1

    # --- command (the kernel's parabellum/command.py) ------------------------------------------------
    def formation_units(self, formation: str) -> list[str]:
        return [u for u in self.on_map_units() if self.formation_of(u) == formation]

    def commanded_anyway(self, formation: str, members: Sequence[str]) -> list[str]:
        return []  # caldiero §4.3: only range and the line of battle

    def general_on_map(self, formation: str) -> str | None:
        general = self.state.formations[formation].general if formation in self.state.formations else None
        return general if self.leader_on_map(general) is not None else None

    def command_range(self, leader: str) -> int:
        value = self.leader_data(leader).command_range
        if self.state.weather == 3:
            value = (value + 1) // 2  # caldiero §17.1.3 halved, rounded up (§1.4)
        return value

    def command_reach(self, leader: str) -> frozenset[str]:
        """Hexes within the leader's command range, traced legally (caldiero §4.3.3): the map kit's
        `command_distances`, the line never crossing a river hexside nor entering a hex with enemy combat units
        (through EZoC and any other terrain). Kept as long as the World."""
        start = self.leader_on_map(leader)
        if start is None:
            return frozenset()
        side = self.state.leaders[leader].side

        def may_cross(h: str, n: str) -> bool:
            return not self.board.crossing_prohibited(h, n) and not self.enemy_units_at(n, side)

        return self.cached(("command_reach", leader), lambda: frozenset(command_distances(
            self.board.grid, start, self.command_range(leader), lambda h: True, may_cross=may_cross)))

    def relay_officers(self, formation: str) -> list[str]:
        return []  # caldiero §4: commanders in chief and generals only (D3)

    def relayed_by(self, officer: str, members: Sequence[str]) -> list[str]:
        return []

    def leader_hex(self, leader: str) -> str:
        return self.leader_on_map(leader) or ""

    # --- efficiency tests (the kernel's parabellum/efficiency.py) -------------------------------------
    def test_efficiency(self, u: str) -> int:
        return self.efficiency(u)

    def leader_role(self, leader: str) -> str:
        return self.leader_data(leader).role

    def leader_side(self, leader: str) -> str:
        return self.state.leaders[leader].side

    def leader_formation(self, leader: str) -> str | None:
        return self.leader_data(leader).formation

    def leader_initiative(self, leader: str) -> int:
        return self.leader_data(leader).initiative
