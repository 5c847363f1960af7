"""The Para Bellum data model, written once: what both rulebooks print as data, as pydantic schemas.

Both games' data files are read through these models (adjudicator/parabellum/loader.py loads and checks them):
the order of battle (units, leaders, formations), the combat results table (both §12.5), the bombardment
table (both §11.4.4 / §11.4.3) and the orders table (both §5.1, D6). What only one game prints extends these
models in its own data model (adjudicator/caldiero/loader.py: set-up areas, weather, Elan;
adjudicator/arrivano/data_model.py: officers, reinforcement groups, march orders, redoubts, flags). Every model is
strict: an unknown key is an error, and `checks()` reports the problems a whole file shows, each with its JSON
path."""

from __future__ import annotations

from functools import cached_property
from typing import Generic, Literal, TypeVar

import pydantic
from arbitro.adjudicator import tables
from arbitro.adjudicator.datafiles import StrictModel
from pydantic import Field

OrderName = Literal["advance", "attack", "defence", "manoeuvre"]  # the four orders, §5.1 in both books
Arm = Literal["infantry", "cavalry", "artillery"]  # §2.1 in both books
CrtResult = Literal["Ae", "De", "Ad", "Dd", "Ne", "Ex", "Dr"]  # §12.5.4 in both books
BombardResult = Literal["-", "D", "R"]  # no effect, disorder, retreat and disorder (§11.4 in both books)

# What every result code of the CRT does, for the records of the shared table kit (adjudicator/tables.py).
CRT_RESULTS: dict[str, str] = {"Ae": "attacker eliminated", "De": "defender eliminated", "Ad": "attacker disordered",
                               "Dd": "defender disordered", "Ne": "no effect", "Ex": "exchange",
                               "Dr": "defender retreats"}


class Meta(StrictModel):
    """A file's title, whether its values are a reconstruction (`provisional`; a file that does not say is
    one), and notes on its sources."""

    title: str
    provisional: bool = True
    notes: str = ""


class Provisional(StrictModel):
    """A record some of whose values are reconstructions, named in `provisional` (each a field of the record)."""

    provisional: list[str] = []

    @pydantic.model_validator(mode="after")
    def _known_fields(self) -> "Provisional":
        unknown = [name for name in self.provisional if name not in type(self).model_fields]
        if unknown:
            raise ValueError(f"`provisional` names unknown fields: {', '.join(unknown)}")
        return self


# --- the order of battle ----------------------------------------------------------------------------------
class UnitData(Provisional):
    """A combat unit's counter (§2.1 in both books): strength points (the reduced side, if it has one),
    efficiency, movement allowance; artillery also its bombardment value and range (§11.4 in both books).
    Where it starts (`setup`) and when it arrives (`arrival`) are each game's own format."""

    id: str
    name: str
    side: str
    formation: str
    arm: Arm
    strength: int = Field(ge=0)
    reduced: int | None = Field(default=None, ge=0)
    efficiency: int = Field(ge=1, le=6)
    movement: int = Field(ge=0)
    bombard: int | None = None
    range: int | None = None

    @pydantic.model_validator(mode="after")
    def _artillery_fires(self) -> "UnitData":
        if self.arm == "artillery" and (self.bombard is None or self.range is None):
            raise ValueError("artillery needs `bombard` and `range`")
        return self


class LeaderData(Provisional):
    """A commander's counter (caldiero §4, arrivano §4): initiative and command range."""

    id: str
    name: str
    side: str
    formation: str | None
    initiative: int = Field(ge=0, le=6)
    command_range: int = Field(ge=0)


class FormationData(StrictModel):
    """A formation under its general, with the order it starts under (None: its owner chooses at set-up)."""

    id: str
    side: str
    general: str | None  # one of the formation's commanders (None: a formation without one, caldiero's reserve)
    initial_order: OrderName | None
    notes: str = ""


U = TypeVar("U", bound=UnitData)
Ld = TypeVar("Ld", bound=LeaderData)
F = TypeVar("F", bound=FormationData)


class OrderOfBattle(StrictModel, Generic[U, Ld, F]):
    """A scenario's order of battle (an oob.json): its formations, commanders and units, each in the variant's
    own extension of the kernel's model, and found by id."""

    meta: Meta
    formations: list[F]
    leaders: list[Ld]
    units: list[U]

    @cached_property
    def _by_id(self) -> tuple[dict[str, U], dict[str, Ld], dict[str, F]]:
        return ({u.id: u for u in self.units}, {leader.id: leader for leader in self.leaders},
                {f.id: f for f in self.formations})

    def unit(self, unit_id: str) -> U:
        return self._by_id[0][unit_id]

    def leader(self, leader_id: str) -> Ld:
        return self._by_id[1][leader_id]

    def formation(self, formation_id: str) -> F:
        return self._by_id[2][formation_id]



class FindsCounters(Generic[U, Ld, F]):
    """A game's loaded data finds its counters by id through its order of battle (its `oob`)."""

    oob: OrderOfBattle[U, Ld, F]

    def unit(self, unit_id: str) -> U:
        return self.oob.unit(unit_id)

    def leader(self, leader_id: str) -> Ld:
        return self.oob.leader(leader_id)

    def formation(self, formation_id: str) -> F:
        return self.oob.formation(formation_id)

# --- die-roll tables ------------------------------------------------------------------------------------------
def grid_problems(rows: dict[str, dict[str, str]], columns: list[str]) -> list[tuple[str, str]]:
    """A die-roll table: every row an integer roll giving exactly the columns in order, rolls contiguous."""
    problems: list[tuple[str, str]] = []
    if len(set(columns)) != len(columns):
        problems.append(("$.columns", "duplicate column"))
    rolls = []
    for roll, row in rows.items():
        try:
            rolls.append(int(roll))
        except ValueError:
            problems.append((f"$.rows.{roll}", "row key is not an integer die roll"))
            continue
        if list(row) != columns:
            missing = [c for c in columns if c not in row]
            extra = [c for c in row if c not in columns]
            detail = f"missing {missing}" if missing else f"unknown {extra}" if extra else "out of order"
            problems.append((f"$.rows.{roll}", f"must give exactly the columns {columns}, in order ({detail})"))
    rolls.sort()
    if rolls and rolls != list(range(rolls[0], rolls[-1] + 1)):
        problems.append(("$.rows", "rows must cover a contiguous range of modified rolls"))
    return problems


def _roll_range(rows: dict[str, dict[str, str]]) -> tuple[int, int]:
    rolls = sorted(int(r) for r in rows)
    return rolls[0], rolls[-1]


class CombatTable(StrictModel):
    """The combat results table (§12.5 in both books): one row per modified die roll, one column per odds."""

    meta: Meta
    columns: list[str]
    rows: dict[str, dict[str, CrtResult]]

    def checks(self) -> list[tuple[str, str]]:
        return grid_problems(self.rows, self.columns)  # type: ignore[arg-type]

    def roll_range(self) -> tuple[int, int]:
        return _roll_range(self.rows)  # type: ignore[arg-type]

    def result(self, modified_roll: int, column: str) -> CrtResult:
        """The result in `column`; a roll beyond the first or last row reads that row (§12.5.2 in both)."""
        low, high = self.roll_range()
        return self.rows[str(min(high, max(low, modified_roll)))][column]

    def odds_table(self, name: str) -> tables.CombatTable:
        """The table in the shape of the shared table kit (adjudicator/tables.py), which picks odds columns."""
        return tables.CombatTable(
            name=name, title=self.meta.title, provisional=self.meta.provisional, columns_are="odds",
            columns=tuple(self.columns), rows={r: tuple(row[c] for c in self.columns) for r, row in self.rows.items()},
            results=CRT_RESULTS)


class SpDrm(StrictModel):
    """A die modifier for at least `min_sp` strength points in the target hex."""

    min_sp: int = Field(ge=0)
    drm: int


class BombardmentTable(StrictModel):
    """The bombardment table (caldiero §11.4.4, arrivano §11.4.3): a column per bombardment value (up to
    `max_column`), die modifiers for range and for the strength points in the target hex."""

    meta: Meta
    columns: list[str]
    max_column: int
    range_drm: dict[str, int]
    concentration_drm: list[SpDrm]
    rows: dict[str, dict[str, BombardResult]]

    def checks(self) -> list[tuple[str, str]]:
        return grid_problems(self.rows, self.columns)  # type: ignore[arg-type]

    def roll_range(self) -> tuple[int, int]:
        return _roll_range(self.rows)  # type: ignore[arg-type]


# --- the orders table ------------------------------------------------------------------------------------
class OrderRules(StrictModel):
    """What one order allows (§5.1 in both books; D6: Arrivano's Advance also allows recovery and open order,
    arrivano §5.1.1): the movement obligation, entering an enemy ZoC, assaults, the march column, recovery."""

    movement_obligation: Literal["half_closer", "all_toward_nearest_enemy"] | None
    enter_ezoc: Literal["yes", "no", "with_friend"]
    ezoc_to_ezoc_test: bool
    assault: Literal["must", "test", "no"]
    march_column: bool
    recovery: Literal["yes", "no", "near_commander"]
    open_order: bool
    terrain_benefits: bool
    max_hexes: int | None
    rule: str


class OrdersTable(StrictModel):
    """The orders table (D6): each order's permissions, and the orders out-of-command units, artillery and
    reinforcements take (arrivano §5.3, §5.1.5, §15.4.1). Arrivano's tables/orders.json is in this form;
    Caldiero's orders are still its code (adjudicator/caldiero/system_orders.py) until its data has this file."""

    meta: Meta
    orders: dict[OrderName, OrderRules]
    obligation_excludes: list[str]
    obligation_excludes_rule: str
    out_of_command_order: OrderName
    out_of_command_rule: str
    artillery_may_choose: list[OrderName]
    artillery_rule: str
    reinforcement_order: OrderName
    reinforcement_rule: str

    @pydantic.model_validator(mode="after")
    def _all_orders(self) -> "OrdersTable":
        missing = {"advance", "attack", "defence", "manoeuvre"} - set(self.orders)
        if missing:
            raise ValueError(f"missing orders: {', '.join(sorted(missing))}")
        return self
