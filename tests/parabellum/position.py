"""A minimal position answering the kernel's World Protocol (adjudicator/parabellum/world.py), for kernel tests
that need no game's data: pieces with a side, hex, status, arm and formation on a plain grid."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TypeVar

from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.parabellum.book_rules import LeaderLoss
from arbitro.adjudicator.parabellum.data import FormationData, StackPattern
from arbitro.adjudicator.parabellum.stacking import SECTION_7_1

T = TypeVar("T")
GRID = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)


@dataclass(frozen=True)
class Piece:
    side: str
    hex: str | None  # None: off the map
    status: str = "good"
    arm: str = "infantry"
    formation: str = "f1"


@dataclass
class Position:
    """`closed`: hexes no ZoC enters; `in_force`: ZoCs not suspended; `asked`: the keys `cached` was asked."""

    units: dict[str, Piece]
    closed: frozenset[str] = frozenset()
    in_force: bool = True
    limits: tuple[StackPattern, ...] = SECTION_7_1
    asked: list[tuple[str, ...]] = field(default_factory=list)
    attacked: frozenset[str] = frozenset()  # units that attacked this turn
    attacked_here: tuple[str, ...] = ()  # hexes attacked this combat segment
    charges: dict[str, str | None] = field(default_factory=dict)  # charging unit -> its target, if recorded
    leaders: dict[str, str] = field(default_factory=dict)  # leader -> hex, on the map
    generals: dict[str, str] = field(default_factory=dict)  # formation -> its general
    ranges: dict[str, int] = field(default_factory=dict)  # leader -> command range
    officers: dict[str, list[str]] = field(default_factory=dict)  # formation -> its relaying officers
    anyway: set[str] = field(default_factory=set)  # units in command whatever the range
    arriving: set[str] = field(default_factory=set)  # units coming onto the map in this activation (§15.4)
    readings: dict[str, str] = field(default_factory=dict)
    # leader -> (role, side, formation, initiative)
    leader_info: dict[str, tuple[str, str, str | None, int]] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)  # efficiency by unit (3 unless given)
    gun_ranges: dict[str, int] = field(default_factory=dict)  # artillery -> its range (2 unless given)
    weather_cap: int | None = None  # the weather's limit to every range
    guns_fire: bool = True  # the weather lets guns fire
    no_fire: frozenset[str] = frozenset()  # hexes no bombardment reaches
    unseen: frozenset[str] = frozenset()  # hexes no line of sight reaches
    sight: int = 4
    options: frozenset[str] = frozenset()  # the optional rules in play
    formations: tuple[FormationData, ...] = ()  # the order of battle's (caldiero §15.4.3 reads its reserve flag)
    # the book's commander loss test (caldiero §4.4.3, arrivano §4.5.3); unless given, lost on 1-2
    leader_loss: LeaderLoss = LeaderLoss(rule="a scenario's §4", lost_at_most=2, chief_initiative=None)
    tie_winner: str = "france"  # who wins an initiative tie where the scenario says (arrivano §6.1.1)
    commander_die_modifier: int = -1  # a commander in the hex on the efficiency die, where the book says (arrivano §13.2)

    @property
    def scenario(self) -> SimpleNamespace:  # the scenario file: the values of its rules the kernel tests read
        return SimpleNamespace(initiative_tie_winner=self.tie_winner)

    @property
    def book_rules(self) -> SimpleNamespace:  # tables/rules.json: the values its whole book gives
        return SimpleNamespace(leader_loss=self.leader_loss, commander_die_modifier=self.commander_die_modifier)

    @property
    def counters(self) -> SimpleNamespace:  # the game's data: only its order of battle's formations
        return SimpleNamespace(oob=SimpleNamespace(formations=self.formations))

    @property
    def grid(self) -> Grid:
        return GRID

    def enemy(self, side: str) -> str:
        return "austria" if side == "france" else "france"

    def units_of(self, side: str) -> list[str]:
        return sorted(u for u, p in self.units.items() if p.side == side and p.hex is not None)

    def units_at(self, h: str) -> list[str]:
        return sorted(u for u, p in self.units.items() if p.hex == h)

    def occupied_by(self, side: str) -> set[str]:
        return {p.hex for p in self.units.values() if p.side == side and p.hex is not None}

    def hexes_held(self, side: str) -> frozenset[str]:
        return self.cached(("hexes held", side), lambda: frozenset(self.occupied_by(side)))

    def hex_of(self, u: str) -> str | None:
        return self.units[u].hex

    def on_map(self, u: str) -> bool:
        return self.units[u].hex is not None

    def side_of(self, u: str) -> str:
        return self.units[u].side

    def status(self, u: str) -> str:
        return self.units[u].status

    def arm(self, u: str) -> str:
        return self.units[u].arm

    def formation_of(self, u: str) -> str:
        return self.units[u].formation

    def stacking_limits(self) -> tuple[StackPattern, ...]:
        return self.limits

    def zocs_in_force(self) -> bool:
        return self.in_force

    def no_zoc_into(self, h: HexId) -> bool:
        return h in self.closed

    def no_zoc_hexes(self) -> frozenset[str]:
        return self.closed

    def cached(self, key: tuple[str, ...], work: Callable[[], T]) -> T:
        self.asked.append(key)
        return work()

    # --- the assault's questions (parabellum/declare.py) ---
    def is_artillery(self, u: str) -> bool:
        return self.units[u].arm == "artillery"

    def attacked_this_turn(self, u: str) -> bool:
        return u in self.attacked

    def attacked_hexes(self) -> tuple[str, ...]:
        return self.attacked_here

    def charging(self, u: str) -> bool:
        return u in self.charges

    def charge_target(self, u: str) -> str | None:
        return self.charges.get(u)

    def side_at(self, h: str) -> str | None:
        here = self.units_at(h)
        return self.units[here[0]].side if here else None

    # --- command ------------------------------------------------------------------------------------------
    def reading(self, name: str) -> str:
        return self.readings.get(name, "")

    def formation_units(self, formation: str) -> list[str]:
        return sorted(u for u, p in self.units.items() if p.formation == formation and p.hex is not None)

    def commanded_anyway(self, members: Sequence[str]) -> list[str]:
        return [u for u in members if u in self.anyway]

    def entering(self, formation: str) -> list[str]:
        return sorted(u for u in self.arriving if self.units[u].formation == formation)

    def general_on_map(self, formation: str) -> str | None:
        general = self.generals.get(formation)
        return general if general in self.leaders else None

    def command_reach(self, leader: str) -> frozenset[str]:
        """Every hex within the leader's range (a plain radius: what a line may cross is each game's)."""
        return frozenset(GRID.within(self.leaders[leader], self.ranges[leader]))

    def command_range(self, leader: str) -> int:
        return self.ranges.get(leader, 0)

    def relay_officers(self, formation: str) -> list[str]:
        return sorted(self.officers.get(formation, ()))

    def relayed_by(self, officer: str, members: Sequence[str]) -> list[str]:
        reach = self.command_reach(officer)
        return [u for u in members if self.units[u].hex in reach]

    def leader_hex(self, leader: str) -> str:
        return self.leaders[leader]

    # --- efficiency tests ---------------------------------------------------------------------------------
    def test_efficiency(self, u: str) -> int:
        return self.values.get(u, 3)

    def leaders_at(self, h: str, side: str | None = None) -> list[str]:
        return sorted(leader for leader, where in self.leaders.items()
                      if where == h and (side is None or self.leader_info[leader][1] == side))

    def leader_role(self, leader: str) -> str:
        return self.leader_info[leader][0]

    def leader_side(self, leader: str) -> str:
        return self.leader_info[leader][1]

    def leader_formation(self, leader: str) -> str | None:
        return self.leader_info[leader][2]

    def leader_initiative(self, leader: str) -> int:
        return self.leader_info[leader][3]

    def general_of(self, u: str) -> str | None:
        return self.generals.get(self.units[u].formation)

    def leader_on_map(self, leader: str | None) -> str | None:
        return self.leaders.get(leader) if leader is not None else None

    # --- line of sight and bombardment ----------------------------------------------------------------------
    def sight_range(self) -> int:
        return self.sight

    def clear_line(self, a: str, b: str) -> bool:
        return b not in self.unseen

    def lines_key(self) -> None:  # what a side may examine (the fog of war): no line kept across positions
        return None

    def piece_hexes(self, side: str) -> set[str]:
        return {h for u in self.units_of(side) if (h := self.hex_of(u))}

    def option(self, name: str) -> bool:
        return name in self.options

    def artillery_range(self, u: str) -> int:
        return self.gun_ranges.get(u, 2)

    def weather_range_cap(self) -> int | None:
        return self.weather_cap

    def artillery_fires(self) -> bool:
        return self.guns_fire

    def no_fire_into(self, h: str) -> bool:
        return h in self.no_fire
