"""The Para Bellum data model, written once: what both rulebooks print as data, as pydantic schemas.

Both games' data files are read through these models (adjudicator/parabellum/loader.py loads and checks them):
the order of battle (units, leaders, formations), the combat results table (both §12.5), the bombardment
table (both §11.4.4 / §11.4.3) and the orders table (both §5.1, D6). What only one game prints extends these
models in its own data model (adjudicator/caldiero/loader.py: set-up areas, weather, Elan;
adjudicator/arrivano/data_model.py: officers, reinforcement groups, march orders, redoubts, flags). Every model is
strict: an unknown key is an error, and `checks()` reports the problems a whole file shows, each with its JSON
path."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Literal

import pydantic
from arbitro.adjudicator import tables
from arbitro.adjudicator.datafiles import Names, StrictModel, Where
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
    """A record some of whose values are reconstructions, named in `provisional` (each a field of the record). A
    field validator, not a model one: an unknown name is reported at `$...provisional` with the record's other
    problems (a model validator runs only once every field is valid)."""

    provisional: list[str] = []

    @pydantic.field_validator("provisional")
    @classmethod
    def _known_fields(cls, provisional: list[str]) -> list[str]:
        unknown = [name for name in provisional if name not in cls.model_fields]
        if unknown:
            raise ValueError(f"names unknown fields: {', '.join(unknown)}")
        return provisional


@dataclass(frozen=True)
class Marker:
    """One mark of reconstructed data in a file: `path` (JSON) to a `provisional` true or naming fields (a record's
    `provisional` list), or to a `*_provisional` flag true (`turns_provisional`: the number of turns). A file's whole
    `meta` is one (`$.meta`), as is a `meta` that does not say (data.Meta: a file that does not say is one)."""

    file: str
    path: str
    title: str  # the file's title (its meta's, else its own), what a whole-file mark reports


# --- the order of battle ----------------------------------------------------------------------------------
# What a data file names that another defines, each checked at load whichever file names it (loader.unknown_names):
# a hex of the map, a place the map names, one of the scenario's seats, a unit, commander or formation of the order of
# battle.
HEX, PLACE, SIDE, UNIT, LEADER, FORMATION = (Names(w) for w in ("hex", "place", "side", "unit", "leader", "formation"))
HexStr = Annotated[str, pydantic.StringConstraints(pattern=r"^[0-9]{4}$"), HEX]
Place, Side = Annotated[str, PLACE], Annotated[str, SIDE]
UnitId, LeaderId, FormationId = Annotated[str, UNIT], Annotated[str, LEADER], Annotated[str, FORMATION]
Role = Literal["commander_in_chief", "general", "officer"]  # caldiero §4 (no officers, D3), arrivano §4


class Setup(StrictModel):
    """Where a counter is set up: its printed hex, or the two hexes it may choose between (caldiero §21: Erdödy's
    2014|2114; arrivano §17.2: a printed range such as 2811-2813, read `campotenese_setup_ranges`). Caldiero §21
    also prints the set-up chart's PI area code (`area`) and lets a piece stand within one hex of its PI; `start`
    is the hex the chart puts it on when that is not the first hex."""

    hexes: list[HexStr] = Field(min_length=1, max_length=2)
    area: str | None = None
    start: HexStr | None = None

    def problems(self) -> list[tuple[Where, str]]:
        if self.start is not None and len(self.hexes) > 1 and self.start not in self.hexes:
            return [(("start",), f"`start` must be one of {self.hexes}")]
        return []

    @property
    def start_hex(self) -> str:
        """The hex the counter stands on before its owner arranges the set-up."""
        return self.start or self.hexes[0]


class Arrival(StrictModel):
    """When a reinforcement arrives: on `turn` at the `entry` hex (caldiero §21.3-§21.4), or with its reinforcement
    `group` of the order of battle, which gives both (arrivano §15.4)."""

    turn: int | None = Field(default=None, ge=1)
    entry: HexStr | None = None
    group: str | None = None

    def problems(self) -> list[tuple[Where, str]]:
        by_turn = self.turn is not None and self.entry is not None and self.group is None
        by_group = self.group is not None and self.turn is None and self.entry is None
        return [] if by_turn or by_group else [((), "an arrival gives either `turn` and `entry` or its `group`")]


class Placed(Provisional):
    """A counter set up on the map or arriving later, never both (caldiero §21, arrivano §17)."""

    setup: Setup | None = None
    arrival: Arrival | None = None
    notes: str = ""

    def problems(self) -> list[tuple[Where, str]]:
        if (self.setup is None) == (self.arrival is None):
            return [((), f"a {type(self).__name__.removesuffix('Data').lower()} needs exactly one of `setup` and `arrival`")]
        return []


class UnitData(Placed):
    """A combat unit's counter (§2.1 in both books): strength points (the reduced side, if it has one),
    efficiency, movement allowance; artillery also its bombardment value and range (§11.4 in both books). What
    one book adds: cavalry that may charge (caldiero §20.2), light infantry (arrivano §17.1.7), horse artillery and
    redoubt batteries (arrivano §17.2.6)."""

    id: str
    name: str
    side: Side
    formation: FormationId
    arm: Arm
    strength: int = Field(ge=0)
    reduced: int | None = Field(default=None, ge=0)
    efficiency: int = Field(ge=1, le=6)
    movement: int = Field(ge=0)
    bombard: int | None = None
    range: int | None = None
    charge: bool = False
    light: bool = False
    horse: bool = False
    redoubt_battery: bool = False

    def problems(self) -> list[tuple[Where, str]]:
        found = super().problems()
        artillery_only = {"bombard": self.bombard is not None, "range": self.range is not None, "horse": self.horse,
                          "redoubt_battery": self.redoubt_battery}
        if self.arm == "artillery":
            found += [((f,), f"artillery needs `{f}`") for f in ("bombard", "range") if not artillery_only[f]]
        else:
            found += [((f,), f"only artillery has `{f}`") for f, given in artillery_only.items() if given]
            if self.strength < 1:
                found.append((("strength",), "infantry and cavalry need `strength` >= 1"))
            if self.reduced is not None and self.reduced >= self.strength:
                found.append((("reduced",), f"`reduced` ({self.reduced}) must be below `strength` ({self.strength})"))
        if self.redoubt_battery and self.movement != 0:
            found.append((("movement",), "a redoubt battery never moves (arrivano §17.2.6): `movement` must be 0"))
        return found

    @property
    def steps(self) -> int:
        """Steps the unit can lose (§12.8 in both books: a reduced side is one more step)."""
        return 2 if self.reduced is not None else 1


class LeaderData(Placed):
    """A commander's counter (caldiero §4, arrivano §4): his role, initiative and command range; a cavalry officer
    (arrivano §4.6); his movement allowance when the counter prints one (caldiero §2.2.1), else the scenario's."""

    id: str
    name: str
    side: Side
    formation: FormationId | None
    role: Role
    initiative: int = Field(ge=0, le=6)
    command_range: int = Field(ge=0)
    movement: int | None = Field(default=None, ge=1)
    cavalry: bool = False

    def problems(self) -> list[tuple[Where, str]]:
        found = super().problems()
        if self.role != "commander_in_chief" and self.formation is None:
            found.append((("formation",), "generals and officers belong to a formation"))
        if self.cavalry and self.role != "officer":
            found.append((("cavalry",), "only officers can be cavalry officers (arrivano §4.6)"))
        return found


class FormationData(StrictModel):
    """A formation under its general, with the order it starts under (None: its owner chooses at set-up); the
    turn it arrives (caldiero §21.3) and whether it is the French reserve (caldiero §15.4.3)."""

    id: str
    side: Side
    name: str = ""
    general: LeaderId | None  # one of the formation's commanders (None: a formation without one, caldiero's reserve)
    initial_order: OrderName | None
    arrival_turn: int = Field(default=1, ge=1)
    reserve: bool = False
    notes: str = ""


class ReinforcementGroup(StrictModel):
    """Counters arriving together, on a turn, at an entry flag, under an order (arrivano §15.4, §17)."""

    id: str
    turn: int = Field(ge=1)
    entry: str
    formation: FormationId
    order: OrderName | Literal["any"]
    leaders: list[str]
    units: list[str]
    rule: str


class SideData(StrictModel):
    name: str
    commander_in_chief: str


class OrderOfBattle(StrictModel):
    """A scenario's order of battle (an oob.json): its formations, commanders and units, found by id; each side's
    name and commander in chief and the reinforcement groups where the book prints them (arrivano §15.4)."""

    meta: Meta
    sides: dict[str, SideData] = {}
    formations: list[FormationData]
    leaders: list[LeaderData]
    units: list[UnitData]
    reinforcements: list[ReinforcementGroup] = []

    @cached_property
    def _by_id(self) -> tuple[dict[str, UnitData], dict[str, LeaderData], dict[str, FormationData]]:
        return ({u.id: u for u in self.units}, {leader.id: leader for leader in self.leaders},
                {f.id: f for f in self.formations})

    def unit(self, unit_id: str) -> UnitData:
        return self._by_id[0][unit_id]

    def leader(self, leader_id: str) -> LeaderData:
        return self._by_id[1][leader_id]

    def formation(self, formation_id: str) -> FormationData:
        return self._by_id[2][formation_id]

    @cached_property
    def _officers(self) -> dict[str, tuple[str, ...]]:
        officers = sorted((leader.formation, leader.id) for leader in self.leaders
                          if leader.role == "officer" and leader.formation is not None)
        return {f: tuple(i for g, i in officers if g == f) for f, _ in officers}

    def officers(self, formation_id: str) -> tuple[str, ...]:
        """The formation's officers in id order, printed once (World.officers_of and relay_officers asked every leader
        his role and formation per call, 950 times a montebello verify: issue 15)."""
        return self._officers.get(formation_id, ())


# --- die-roll tables ------------------------------------------------------------------------------------------
class DieTable(StrictModel):
    """A table read by a modified die roll, one row each, and a column (the CRT's odds, the bombardment value,
    Arrivano's infantry fire strength): every row gives exactly the columns, the rolls contiguous (`checks`)."""

    meta: Meta
    columns: list[str]
    rows: Mapping[str, Mapping[str, str]]  # each table's own result codes

    def checks(self) -> list[tuple[str, str]]:
        """Every row an integer roll giving exactly the columns in order, the rolls contiguous."""
        problems: list[tuple[str, str]] = []
        if len(set(self.columns)) != len(self.columns):
            problems.append(("$.columns", "duplicate column"))
        rolls = []
        for roll, row in self.rows.items():
            try:
                rolls.append(int(roll))
            except ValueError:
                problems.append((f"$.rows.{roll}", "row key is not an integer die roll"))
                continue
            if list(row) != self.columns:
                missing = [c for c in self.columns if c not in row]
                extra = [c for c in row if c not in self.columns]
                detail = f"missing {missing}" if missing else f"unknown {extra}" if extra else "out of order"
                problems.append((f"$.rows.{roll}", f"must give exactly the columns {self.columns}, in order ({detail})"))
        rolls.sort()
        if rolls and rolls != list(range(rolls[0], rolls[-1] + 1)):
            problems.append(("$.rows", "rows must cover a contiguous range of modified rolls"))
        return problems

    def row(self, modified_roll: int) -> int:
        """The row a modified roll reads: beyond the first or last row, that row (§12.5.2 in both; every table)."""
        rolls = sorted(int(r) for r in self.rows)
        return min(rolls[-1], max(rolls[0], modified_roll))


class CombatTable(DieTable):
    """The combat results table (§12.5 in both books): one row per modified die roll, one column per odds."""

    rows: dict[str, dict[str, CrtResult]]
    drm_cap: int = Field(ge=0)  # D23, §12.5.2 in both: the total die modifier never beyond +/- this (4)
    excess_odds_drm_per_level: int = Field(ge=0)  # D23, §12.4.3 in both: per level above the last column (caldiero 1)
    below_minimum: Literal["forbidden_to_declare"]  # D24, §12.4.2 in both (its procedure: the variant's hooks)
    # D27-D28: what cavalry's combat strength is multiplied by when a rule doubles it, never twice (caldiero §14.0,
    # §20.2 "raddoppiata (non cumulativo con 14.0)"; arrivano §14.0.1, §14.2 "al massimo raddoppia", §14.2.4): 2
    cavalry_multiplier: int = Field(ge=1)

    def result(self, modified_roll: int, column: str) -> CrtResult:
        """The result in `column` of the row the roll reads (§12.5.2 in both)."""
        return self.rows[str(self.row(modified_roll))][column]

    def odds_table(self, name: str) -> tables.CombatTable:
        """The table in the shape of the shared table kit (adjudicator/tables.py), which picks odds columns."""
        return tables.CombatTable(
            name=name, title=self.meta.title, provisional=self.meta.provisional, columns_are="odds",
            columns=tuple(self.columns), rows={r: tuple(row[c] for c in self.columns) for r, row in self.rows.items()},
            results=CRT_RESULTS, modifier_cap=self.drm_cap, beyond_high_drm=self.excess_odds_drm_per_level)


class SpDrm(StrictModel):
    """A die modifier for at least `min_sp` strength points in the target hex."""

    min_sp: int = Field(ge=0)
    drm: int


class BombardmentTable(DieTable):
    """The bombardment table (caldiero §11.4.4, arrivano §11.4.3): a column per bombardment value (up to
    `max_column`), die modifiers for range and for the strength points in the target hex."""

    max_column: int
    range_drm: dict[str, int]
    concentration_drm: list[SpDrm]
    rows: dict[str, dict[str, BombardResult]]


# --- the scenario file ------------------------------------------------------------------------------------
class StackPattern(StrictModel):
    """One allowed make-up of a hex (§7.1 in both books): at most so many of each arm, `infantry_or_cavalry` more of
    either, all of one formation or not."""

    infantry: int = Field(default=0, ge=0)
    cavalry: int = Field(default=0, ge=0)
    artillery: int = Field(default=0, ge=0)
    infantry_or_cavalry: int = Field(default=0, ge=0)
    same_formation: bool = False


def fits_stacking(arms: Sequence[str], formations: Sequence[str], patterns: Sequence[StackPattern]) -> bool:
    """Whether combat units (arm and formation each) may share a hex under one of the allowed patterns."""
    count = Counter(arms)
    for p in patterns:
        if p.same_formation and len(set(formations)) > 1:
            continue
        spare_inf = count["infantry"] - p.infantry
        spare_cav = count["cavalry"] - p.cavalry
        if count["artillery"] > p.artillery:
            continue
        if max(spare_inf, 0) + max(spare_cav, 0) <= p.infantry_or_cavalry:
            return True
    return False


class Stacking(StrictModel):
    """The stacking limits in force (caldiero §7.1, arrivano §7.1; a scenario's own, arrivano §17.2.3)."""

    rule: str
    allowed: list[StackPattern] = Field(min_length=1)
    notes: str = ""


# The longest scenario a data folder may give: the shipped ones (reconstructed, `turns_provisional`) last 10 (Caldiero)
# to 16 turns (Montebello); a far longer one is a slip, and would let one command run turn after turn with nobody
# deciding anything (act.SETTLE_ROUNDS).
MAX_TURNS = 40


class ScenarioFile(StrictModel):
    """What every Para Bellum scenario file (a scenario.json) gives: its two seats, its length, the longest line of
    sight (caldiero §11.3: 4 hexes; arrivano §11.3: the scenario's, §17.1.3, §17.2.4), the stacking limits and the
    movement of a commander whose counter prints none (D31, `ScenarioData.commander_movement`). Each game's scenario
    file extends it with its book's own (caldiero/loader.CaldieroScenario, arrivano/data_model.ArrivanoScenario)."""

    meta: Meta
    seats: list[str] = Field(min_length=2, max_length=2)
    turns: int = Field(ge=1, le=MAX_TURNS)
    turns_provisional: bool
    los_range: int = Field(ge=1)
    los_rule: str  # the rule giving it, cited where a bombardment is refused a hex (caldiero §11.3, arrivano §17.1.3)
    stacking: Stacking
    weather: bool  # the scenario has a weather track: its folder's weather.json (caldiero §17, arrivano §17.2.7)
    commander_movement: int | None = Field(default=None, ge=1)  # arrivano §9.1.4 with §17.1.2, §17.2.2
    commander_movement_rule: str = ""  # the scenario's rule giving it, cited in a commander's refusals

    def problems(self) -> list[tuple[Where, str]]:
        if self.commander_movement is not None and not self.commander_movement_rule:
            return [(("commander_movement_rule",), "required with `commander_movement`: the scenario's rule giving "
                     "every commander's movement (arrivano §9.1.4 \"se non specificato altrimenti nelle regole dello "
                     "scenario\"), cited where his allowance refuses his move")]
        return []


# --- the terrain effects table -----------------------------------------------------------------------------
DrOption = Literal["exchange_on_test", "hold_on_test"]  # arrivano §10.1.1, §12.5.4: a Dr the defender may turn


class TerrainEffect(Provisional):
    """One terrain of the terrain effects table (caldiero's table at the end of its book; arrivano §10, which names
    a table it does not print: a reconstruction). Every effect defaults to the plain's (none), so an entry states
    only what its book gives that terrain; `cited` names the rule of a field, `printed` paraphrases the cell.
    Movement costs are the movement tables' (map kit movement tables, docs/hexmap-format.md: each game's
    movement*.json), in both games."""

    printed: str
    cited: dict[str, str] = {}
    bombard_drm: int = 0
    assault_drm: int = 0
    assault_shift_left: int = Field(default=0, ge=0)
    dr_becomes: CrtResult | None = None  # a Dr result becomes this (caldiero table: village Ex, fortification Dd)
    dr_options: list[DrOption] = []  # the Dr choices of a defender here (arrivano §10.1.1, §12.5.4)
    # benefits only defenders whose order has the orders table's `terrain_benefits` (arrivano §10.1 "devono avere un
    # ordine di Difesa", §5.1.3, §17.2.6: Defence alone)
    requires_defence_order: bool = False
    halves_strength: tables.Halving | None = None  # every unit fighting here is halved (caldiero §10.2: marsh)
    cavalry_halved: tables.Halving | None = None  # cavalry fighting here is halved (arrivano §10.4: woods)
    no_bombard_into: bool = False  # no bombardment of a target here (caldiero §10.2)
    blocks_los: bool = False  # caldiero §11.3, arrivano §11.3.1
    no_zoc_into: bool = False  # no zone of control extends into it (arrivano §8: redoubt)
    may_stay: bool = False  # units here may stay put whatever their order (caldiero §10.1, arrivano §10.1)
    fortress: bool = False  # caldiero §14
    cavalry_defence_drm: int = 0  # defenders all cavalry here give the attacker this DRM (caldiero §14.0: -1; 0 none)
    charge_allowed: bool = True  # cavalry may charge into it (arrivano §10.2.1, §10.3)
    plain: bool = False  # the plain of caldiero §14.0 and §20.2.1 (at the lowest level: a level up is the hill)
    not_counted_for_orders: bool = False  # its units count for no order's obligations (arrivano §5.1.5)
    rout_stop: str | None = None  # a rout may end here, so named in the events (arrivano §15.2.2)
    impassable: bool = False

    @pydantic.field_validator("cited")
    @classmethod
    def _cited_fields(cls, cited: dict[str, str]) -> dict[str, str]:
        unknown = [name for name in cited if name not in cls.model_fields]
        if unknown:
            raise ValueError(f"names unknown fields: {', '.join(unknown)}")
        return cited


class ClimbEffect(StrictModel):
    """Firing or attacking up a level (caldiero's table: bombardment -1, assault -1; arrivano §10.2: levels matter for
    line of sight only, every value 0); its movement cost is the movement tables' `climb`."""

    printed: str
    rule: str = ""
    bombard_drm: int = 0
    assault_drm: int = 0


class FeatureEffect(StrictModel):
    """A symbol within a hex (caldiero's table: trees, summit) whose combat effect is the hex's other terrain's."""

    # caldiero's terrain effects table "Conta l'altro terreno nell'esagono": a symbol's combat effect is the hex's other
    # terrain's; the build gives hex symbols no combat effect of their own, so a folder saying otherwise is refused
    counts_other_terrain: Literal[True]
    printed: str


class HexsideEffect(StrictModel):
    """A hexside feature (caldiero's table: canal, bridge, river): its modifiers, whether it forbids movement or
    assaults, cancels a canal (a bridge), or fights as another feature; its movement cost is the movement tables'."""

    printed: str
    bombard_drm: int = 0
    assault_drm: int = 0
    prohibited: bool = False
    assault_prohibited: bool = False  # held to `prohibited`: the build bars moves and assaults across it alike
    cancels_canal_cost: bool = False  # a bridge (caldiero §10.4.1); it also lets artillery cross (§10.3)
    artillery_needs_bridge: bool = False  # artillery crosses it only at a bridge or road (caldiero §10.3, §10.4)
    combat_as: str | None = None

    def problems(self) -> list[tuple[Where, str]]:
        """caldiero's terrain effects table, "Fiume: movimento non consentito ... assalto non consentito": the build
        refuses an assault across a hexside exactly where it refuses a move (`World.crossing_prohibited`), so a
        hexside barring one and not the other is refused rather than played as barring both or neither."""
        if self.assault_prohibited == self.prohibited:
            return []
        return [(("assault_prohibited",), f"must equal `prohibited` ({str(self.prohibited).lower()}): this build "
                 "bars moves and assaults across a hexside alike (World.crossing_prohibited)")]


class TerrainTable(StrictModel):
    """The terrain effects table, one shape for both books: each terrain's effects, climbing a level, and (where
    the book prints them in this table) hex symbols and hexside features. What terrain and roads cost a move is the
    movement tables' (each game's movement*.json)."""

    meta: Meta
    terrain: dict[str, TerrainEffect] = Field(min_length=1)
    climb: ClimbEffect
    hex_features: dict[str, FeatureEffect] = {}
    hexsides: dict[str, HexsideEffect] = {}

    def checks(self) -> list[tuple[str, str]]:
        return [(f"$.hexsides.{name}.combat_as", f"unknown hexside feature {e.combat_as!r}")
                for name, e in self.hexsides.items() if e.combat_as is not None and e.combat_as not in self.hexsides]

    def unknown_terrains(self, used: Iterable[str]) -> list[str]:
        """The terrains of a map (`used`) this table has no entry for."""
        return sorted(set(used) - set(self.terrain))


# --- victory ----------------------------------------------------------------------------------------------
class ObjectiveHex(StrictModel):
    """An objective hex of a scenario, one record for both games (caldiero §18's victory hexes, scenario.json
    `victory_hexes`; arrivano §17.1.8, §17.2.12's objectives, `victory.objectives`): the hex, the place it belongs to
    (None: a hex no place names), the points it is worth to its holder at the end (`vp`) and whether they are
    provisional. Scored by the kernel's victory.scored."""

    hex: HexStr
    place: Place | None
    vp: int = pydantic.Field(ge=0)
    provisional: bool


class VictoryLevel(StrictModel):
    """A victory level of a scenario (caldiero §18, by the difference between the sides' points; arrivano §17.2.12,
    by the French points): reached by a score from `min` to `max` (None: unbounded), `level` its result as the game
    records it, `name` as the book prints it."""

    min: int | None = None
    max: int | None = None
    level: str
    name: str


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
    terrain_benefits: bool  # the order gets a `requires_defence_order` terrain's benefit (arrivano §5.1.3: Defence)
    max_hexes: int | None
    rule: str


# The movement obligations as parabellum/orders.obligation_problem and each game's moves play them, by order (§5.1.1
# Advance: half end nearer the enemy; §5.1.2 Attack: every unit toward the nearest enemy; in both books).
PLAYED_OBLIGATIONS: dict[str, str | None] = {"advance": "half_closer", "attack": "all_toward_nearest_enemy",
                                             "defence": None, "manoeuvre": None}


class OrdersTable(StrictModel):
    """The orders table (D6): each order's permissions, and the orders artillery may always choose and
    reinforcements take (arrivano §11, §15.4.1; caldiero §11.0, §15.4.2): Arrivano's tables/orders.json in both
    games' data folders. §5.3's Defence out of command is the system's (both books, and every refusal explaining it)."""

    meta: Meta
    orders: dict[OrderName, OrderRules]
    artillery_may_choose: list[OrderName]  # caldiero §11.0, arrivano §11
    reinforcement_order: OrderName  # caldiero §15.4.2, arrivano §15.4.1

    def problems(self) -> list[tuple[Where, str]]:
        missing = {"advance", "attack", "defence", "manoeuvre"} - set(self.orders)
        if missing:
            return [(("orders",), f"missing orders: {', '.join(sorted(missing))}")]
        return [(("orders", o, "movement_obligation"), f"{o}'s is {self.orders[o].movement_obligation!r}: this build "
                 f"plays {obligation!r} (§5.1.1-§5.1.2 in both, by the order's name: parabellum/orders.py)")
                for o, obligation in PLAYED_OBLIGATIONS.items() if self.orders[o].movement_obligation != obligation]
