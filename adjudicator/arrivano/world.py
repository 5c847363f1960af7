"""Read-only questions about an Arrivano position: who is where, zones of control, command, line of sight,
stacking, strengths. Everything here is a pure function of (state, scenario data); sorted explicitly."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbitro.adjudicator.arrivano.data_model import ScenarioData, Tables
from arbitro.adjudicator.arrivano.readings import in_force
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.maps.costs import MovementTable, RoadRule
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum import command, sight, world
from arbitro.projections.arrivano import ArrivanoState


_LOS_CACHE = Memo(1 << 18)  # a line per pair of hexes within sight of each other, per data and wheat reading


_COLUMN_ONLY = Memo(64)


def column_only_roads(table: MovementTable) -> MovementTable:
    """Interpretation road_cost_scope: march_column_only - the Campotenese road costs (arrivano §17.2.8, written
    for any movement along contiguous road hexes) apply to march columns only: each road's `always` cost becomes
    its `in_column` cost."""
    return _COLUMN_ONLY.get((table,), "column only roads", lambda: table.model_copy(update={"roads": {
        k: RoadRule(in_column=r.always or r.in_column) for k, r in table.roads.items()}}))


class World(world.World):
    """The kernel's World with the answers Arrivano's book gives its own way, and what only its procedures ask."""

    state: ArrivanoState

    def __init__(self, state: ArrivanoState, s: ScenarioData, tables: Tables,
                 position: Callable[[], int] | None = None) -> None:
        super().__init__(state, s, s.scenario, s.map, tables.terrain, tables.orders, lambda name: in_force(state, name),
                         position, s.weather, variant=ARRIVANO_VARIANT)
        self.s, self.tables = s, tables
        self._tag: str | None = None

    # --- terrain ---------------------------------------------------------------------------------------
    def artillery_range(self, uid: str) -> int:
        data = self.counters.unit(uid)
        return self.sight_range() if data.redoubt_battery else (data.range or 0)  # §11.2; §17.2.6 any target in LoS

    def movement_table(self) -> MovementTable:
        table = self.s.movement[self.state.weather if self.weather is not None else 0]
        if self.weather is not None and self.reading("road_cost_scope") == "march_column_only":
            return column_only_roads(table)
        return table

    # --- orders and command ---------------------------------------------------------------------------
    def in_command(self, formation: str) -> frozenset[str]:
        """Units of the formation in command: the kernel's rule (parabellum/command.py; arrivano §4.4, §4.2,
        §4.4.2, §5.3.1, §4.6, §3.2, §15.4.1) with this World's answers."""
        return self.cached(("in command", formation), lambda: command.in_command(ARRIVANO_VARIANT, self, formation))

    def out_of_command(self, u: str) -> bool:
        """arrivano §5.3 with §4.4: a unit of the activated group on the map, out of its formation's command as the
        position stands."""
        unit = self.state.units[u]
        if unit.where != "map" or not self.acts_now(u):
            return False
        return u not in self.cached(("in_command", unit.formation), lambda: self.in_command(unit.formation))

    def ordered_otherwise(self, u: str) -> bool:
        """arrivano: artillery chooses its order (§11), a column's unit obeys its column (§16.2.2), a failed fatigue
        test gives Defence for the turn (§16.3.4), a march order in force Manoeuvre (§17.1.5)."""
        unit = self.state.units[u]
        if unit.arm == "artillery" or self.column_of(u) is not None or unit.fatigue_defence_turn == self.state.turn:
            return True
        return any(self.state.march_orders.get(m.id) and u in m.units for m in self.scenario.march_orders)

    def commanded_anyway(self, formation: str, members: Sequence[str]) -> list[str]:
        if self.state.first_turn:  # arrivano §3.2: every unit starts in command
            return list(members)
        act = self.state.activation
        if act is not None and act.formation == formation:  # arrivano §15.4.1: entered in this activation
            return [u for u in members if act.starts.get(u) == ""]
        return []

    def relayed_by(self, officer: str, members: Sequence[str]) -> list[str]:
        """arrivano §4.2, §4.6: the members in the officer's range (a cavalry officer's: cavalry and horse artillery)."""
        reach, cavalry = self.command_reach(officer), self.counters.leader(officer).cavalry
        return [u for u in members if self.state.units[u].hex in reach and (not cavalry or self._cavalry_like(u))]

    def _cavalry_like(self, uid: str) -> bool:
        u = self.counters.unit(uid)
        return u.arm == "cavalry" or (u.arm == "artillery" and u.horse)

    def column_of(self, uid: str) -> str | None:
        """The independent column the unit belongs to (arrivano §17.2.9), while its officer is on the map."""
        for officer in sorted(self.state.columns):
            if uid in self.state.columns[officer].units and self.state.leaders[officer].where == "map":
                return officer
        return None

    def column_in_command(self, officer: str) -> set[str]:
        """Column units within their officer's range are in command (arrivano §16.2.2)."""
        reach = self.command_reach(officer)
        act = self.state.activation
        fresh = {u for u in self.state.columns[officer].units if act is not None and act.starts.get(u) == ""}
        return fresh | {u for u in self.state.columns[officer].units
                        if self.state.units[u].where == "map" and self.state.units[u].hex in reach}

    def acts_now(self, uid: str) -> bool:
        """Whether the unit belongs to the group now activated: its formation outside any column, or its column."""
        act = self.state.activation
        if act is None or self.state.units[uid].formation != act.formation:
            return False
        return self.column_of(uid) == act.column

    def order_of(self, uid: str, in_command: set[str] | None = None) -> str:
        """The order a unit obeys: its formation's (or its column's), or Defence out of command (arrivano §5.3)."""
        if self.state.units[uid].fatigue_defence_turn == self.state.turn:
            return "defence"  # arrivano §16.3.4: a failed fatigue test, Defence for the turn
        act = self.state.activation
        if act is not None and uid in act.unit_orders:
            return act.unit_orders[uid]  # arrivano §3.1 B-4
        column = self.column_of(uid)
        if column is not None:
            return self.state.columns[column].order if uid in self.column_in_command(column) else "defence"
        unit = self.state.units[uid]
        ic = in_command if in_command is not None else self.in_command(unit.formation)
        return self.state.formations[unit.formation].order if uid in ic else "defence"

    # --- line of sight (the kernel's World questions; the rules are parabellum/sight.py) -----------------------
    def _los_tag(self) -> str:
        """What a line of sight depends on besides the two hexes: the content of the data (the map, the terrain
        table: never the scenario's name, which two loads of different data share), and the wheat reading
        (computed once per World: a World is one position)."""
        if self._tag is None:
            wheat = self.reading("wheat_blocks_los") == "true"  # the list of §11.3.1 over the specific §10.3
            self._tag = self.s.digest + ("+wheat" if wheat else "")
        return self._tag

    def clear_line(self, a: str, b: str) -> bool:
        """Line of sight (arrivano §11.3.1): blocking terrain between, or ground higher than both ends; units
        never block. Memoised per content of the data and reading."""
        tag = self._los_tag()
        a, b = (a, b) if a <= b else (b, a)
        return _LOS_CACHE.get((), (tag, a, b), lambda: self._traced_line(tag.endswith("+wheat"), a, b))

    def _traced_line(self, wheat: bool, a: str, b: str) -> bool:
        def blocking_terrain(h: HexId) -> bool:  # §11.3.1, with §10.3's wheat per the reading
            return (wheat and "grano" in self.hexmap.hex(h).terrains) or any(t.blocks_los for t in self.terrains(h))

        return world.clear_line(ARRIVANO_VARIANT, self.grid, a, b, self.elevation, blocking_terrain,
                                 lambda h: bool(self.units_at(h)))

    def lines_key(self) -> object | None:
        """arrivano §11.3.1: units never block a line of sight, so the lines depend only on the data and the wheat
        reading (`_los_tag`)."""
        return self._los_tag()

    def new_sightings(self, side: str) -> list[str]:
        """The enemy units and leaders on the map in hexes `side` may examine that it had never examined (arrivano
        §11.3.2), in id order."""
        enemy, known = self.enemy(side), set(self.state.seen.get(side, []))
        unknown = {u: s.hex for u, s in self.state.units.items() if s.side == enemy and s.where == "map" and u not in known}
        unknown |= {lid: le.hex for lid, le in self.state.leaders.items()
                    if le.side == enemy and le.where == "map" and lid not in known}
        return sight.sighted(self, side, unknown)

    # --- the assault ---------------------------------------------------------------------------------------
    def attacked_hexes(self) -> list[str]:
        return self.state.attacked_hexes

    def charging(self, uid: str) -> bool:
        return uid in self.state.charges

    def charge_target(self, uid: str) -> str | None:
        return self.state.charges.get(uid)

    # --- efficiency tests -------------------------------------------------------------------------------
    def test_efficiency(self, uid: str) -> int:
        """The unit's efficiency, plus the Campotenese weather's bonus to a side's units in Defence (§17.2.7: the
        Neapolitans')."""
        value = self.efficiency(uid)
        box = self.weather_box()
        bonus = box.defence_efficiency_bonus.get(self.state.units[uid].side, 0) if box is not None else 0
        if bonus and self.order_of(uid) == "defence":
            value += bonus
        return value
