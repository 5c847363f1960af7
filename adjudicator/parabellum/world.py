"""The read model the kernel's rules ask of a position: who is where, strengths, readings in force.

Until the two games' states are one (`projections/parabellum.py`), each game keeps its own World class
(adjudicator/caldiero/system_world.py, adjudicator/arrivano/world.py) and both satisfy this Protocol: a kernel
rule takes a `World` and asks only what is declared here. Moving a rule area into the kernel adds the questions
it needs to this Protocol (one section per area) and answers them in both worlds; when the states are one, the
two classes become one class here."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Protocol, TypeVar

from arbitro.adjudicator.maps.hexgrid import Grid, HexId

T = TypeVar("T")


class StackPattern(Protocol):
    """One allowed make-up of a hex (parabellum/stacking.py): at most so many of each arm, `infantry_or_cavalry`
    more of either, all of one formation or not. A scenario's data file validates its own; the kernel's is
    `stacking.StackLimit`."""

    @property
    def infantry(self) -> int: ...
    @property
    def cavalry(self) -> int: ...
    @property
    def artillery(self) -> int: ...
    @property
    def infantry_or_cavalry(self) -> int: ...
    @property
    def same_formation(self) -> bool: ...


class World(Protocol):
    """What the kernel may ask; every answer is a pure function of the state, the game's data and its readings."""

    # --- readings (the interpretations in force; docs/engine-rules.md §U) -------------------------------
    def reading(self, name: str) -> str: ...

    # --- pieces ------------------------------------------------------------------------------------------
    def units_at(self, h: str) -> list[str]: ...  # the units on map in hex h, in id order
    def strength(self, u: str) -> int: ...  # strength points on the side it shows (both §12.8)
    def efficiency(self, u: str) -> int: ...  # its efficiency value (both §13.1)
    def is_artillery(self, u: str) -> bool: ...

    # --- line of sight (parabellum/sight.py) ------------------------------------------------------------
    @property
    def grid(self) -> Grid: ...  # the map's hex grid
    def clear_line(self, a: str, b: str) -> bool: ...  # nothing between a and b blocks (sight.clear_line's rule)
    def sight_range(self) -> int: ...  # the longest line of sight in hexes (caldiero §11.3: 4; arrivano: the scenario's)
    def piece_hexes(self, side: str) -> set[str]: ...  # the hexes of side's units and leaders on the map

    # --- the assault (parabellum/assault.py, parabellum/exchange.py) -----------------------------------
    def hex_of(self, u: str) -> str | None: ...  # the unit's hex while it is on the map, else None
    def on_map(self, u: str) -> bool: ...  # the unit is on the map (not eliminated, not yet entered)
    def general_of(self, u: str) -> str | None: ...  # the general of the formation it obeys (both §4.1)
    def leader_on_map(self, leader: str | None) -> str | None: ...  # a leader's hex, None when he is off the map
    def attacked_this_turn(self, u: str) -> bool: ...  # it attacked in this turn already (both §12.2.3)
    def attacked_hexes(self) -> Collection[str]: ...  # the hexes attacked in this combat segment (both §12.2.3)
    def charging(self, u: str) -> bool: ...  # a cavalry charge (caldiero §20.2, arrivano §14.2) it is making
    def charge_target(self, u: str) -> str | None: ...  # the hex it charged, when the state records it (arrivano)

    # --- bombardment (parabellum/bombardment.py) ---------------------------------------------------------
    def artillery_range(self, u: str) -> int: ...  # its counter's range (both §11.2); arrivano §17.2.6: a redoubt battery any hex in sight
    def weather_range_cap(self) -> int | None: ...  # the weather's limit to every range (caldiero §17.1.1, arrivano §17.2.7); None: none
    def artillery_fires(self) -> bool: ...  # the weather lets guns fire (caldiero §17.1.2-§17.1.3, arrivano §17.2.7)
    def no_fire_into(self, h: str) -> bool: ...  # terrain no bombardment reaches (caldiero §10.2 marsh; arrivano none)

    # --- victory (parabellum/victory.py) -----------------------------------------------------------------
    def side_at(self, h: str) -> str | None: ...  # the side whose units occupy h (never two), None when empty

    # --- reinforcements and returns (parabellum/reinforcements.py) ----------------------------------------
    def officers_of(self, u: str) -> list[str]: ...  # the officers of the unit's formation, in id order (arrivano §4.2)

    # --- zones of control (parabellum/zoc.py) ----------------------------------------------------------
    def enemy(self, side: str) -> str: ...  # the other side
    def units_of(self, side: str) -> list[str]: ...  # the side's units on map, in id order
    def side_of(self, u: str) -> str: ...
    def status(self, u: str) -> str: ...  # "good", "disordered", "routed" (both §15)
    def zocs_in_force(self) -> bool: ...  # False while the weather suspends every ZoC (arrivano §17.2.7 storm)
    def no_zoc_into(self, h: HexId) -> bool: ...  # terrain no ZoC enters (caldiero §10.5.1 fortress, arrivano §8 redoubt)
    # An answer worked out from this position, kept as long as the World if it keeps any (a World never outlives
    # its state): `work()` otherwise.
    def cached(self, key: tuple[str, ...], work: Callable[[], T]) -> T: ...

    # --- stacking (parabellum/stacking.py) ---------------------------------------------------------------
    def arm(self, u: str) -> str: ...  # "infantry", "cavalry", "artillery"
    def formation_of(self, u: str) -> str: ...  # the formation it stacks with (caldiero §15.4.3: a reserve's joined one)
    def stacking_limits(self) -> Sequence[StackPattern]: ...  # §7.1 in both; a scenario's own (arrivano §17.2.3)

    # --- command (parabellum/command.py) -----------------------------------------------------------------
    def formation_units(self, formation: str) -> list[str]: ...  # its units on the map, in id order
    # units in command whatever the range (arrivano §3.2 first turn, §15.4.1 entered in this activation)
    def commanded_anyway(self, formation: str, members: Sequence[str]) -> list[str]: ...
    def general_on_map(self, formation: str) -> str | None: ...
    def command_reach(self, leader: str) -> frozenset[str]: ...  # hexes within his command range, traced legally
    def relay_officers(self, formation: str) -> list[str]: ...  # officers on the map who may relay (D3; caldiero none)
    def relayed_by(self, officer: str, members: Sequence[str]) -> list[str]: ...  # members in his range (arrivano §4.6)
    def leader_hex(self, leader: str) -> str: ...  # a leader's hex while on the map

    # --- efficiency tests (parabellum/efficiency.py) -----------------------------------------------------
    def test_efficiency(self, u: str) -> int: ...  # the value a test reads (arrivano §17.2.7: a weather bonus)
    def leaders_at(self, h: str) -> list[str]: ...  # the leaders on the map in hex h, in id order
    def leader_role(self, leader: str) -> str: ...  # "commander_in_chief", "general", "officer"
    def leader_side(self, leader: str) -> str: ...
    def leader_formation(self, leader: str) -> str | None: ...  # his formation (None: a commander in chief)
    def leader_initiative(self, leader: str) -> int: ...  # his printed initiative (both §4)
