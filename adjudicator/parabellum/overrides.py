"""A Para Bellum position's overrides (issue 19 item 13; adjudicator/overrides.py is the generic part), written once
for both games: a counter's printed values (a unit's strength, reduced side, efficiency, movement, bombardment value
and range; a commander's initiative, command range and movement), a hex's terrain, elevation and features, a unit
added to or removed from the order of battle, and a fixed result of the combat results table for a modified roll
(an umpire's choice in a transcribed game). Each is applied to the data files the game carries (the shipped ones,
or its own data folder: `SystemState.data_files`), so every rule reads it as it reads the shipped data, and the
files so changed are checked as a data folder is (every problem at once). Orders (a formation's, caldiero §5 /
arrivano §5), what a unit did earlier this turn (moved, attacked, its status) and the other facts of a turn are the
position's own state fields (docs/rulesets/parabellum.md, "Overrides"): they need no override.

A game's files are named by `Layout`: its scenario's order of battle and map in the scenario's folder, the combat
results table in `tables/` (parabellum/loader.py's layout)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import msgspec
from pydantic import Field

from arbitro.adjudicator.datafiles import OverrideModel, entry, overridden_files, parse_override, set_fields
from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.parabellum.loader import DataFolder
from arbitro.projections import parabellum as PB

HexId = Field(pattern=r"^[0-9]{4}$")
S = TypeVar("S", bound=PB.SystemState)


@dataclass(frozen=True)
class Layout:
    """Where a game's data folder keeps what overrides change (paths inside the folder) and the book cited."""

    oob: str
    map: str
    crt: str
    book: str


class UnitValues(OverrideModel):
    kind: Literal["unit"]
    unit: str
    strength: int | None = Field(default=None, ge=0, le=20)
    reduced: int | None = Field(default=None, ge=0, le=20)
    efficiency: int | None = Field(default=None, ge=1, le=6)
    movement: int | None = Field(default=None, ge=0, le=30)
    bombard: int | None = Field(default=None, ge=0, le=20)
    range: int | None = Field(default=None, ge=0, le=20)


class LeaderValues(OverrideModel):
    kind: Literal["leader"]
    leader: str
    initiative: int | None = Field(default=None, ge=0, le=6)
    command_range: int | None = Field(default=None, ge=0, le=30)
    movement: int | None = Field(default=None, ge=1, le=30)


class HexTerrain(OverrideModel):
    kind: Literal["hex"]
    hex: str = HexId
    terrain: str | None = None
    other_terrain: list[str] | None = None
    elevation: int | None = Field(default=None, ge=0, le=20)
    features: list[str] | None = None


class NewUnit(OverrideModel):
    id: str = Field(min_length=1, max_length=40)
    name: str
    side: str
    formation: str
    arm: Literal["infantry", "cavalry", "artillery"]
    strength: int = Field(ge=0, le=20)
    reduced: int | None = Field(default=None, ge=0, le=20)
    efficiency: int = Field(ge=1, le=6)
    movement: int = Field(ge=0, le=30)
    bombard: int | None = Field(default=None, ge=0, le=20)
    range: int | None = Field(default=None, ge=0, le=20)


class UnitAdded(OverrideModel):
    kind: Literal["unit_added"]
    unit: NewUnit
    hex: str = HexId  # its set-up hex; where the position's state does not place it, it stands there


class UnitRemoved(OverrideModel):
    kind: Literal["unit_removed"]
    unit: str


class TableResult(OverrideModel):
    kind: Literal["crt"]
    column: str
    roll: int = Field(ge=-20, le=20)
    result: str


KINDS: dict[str, str] = {
    "unit": "a unit's printed values (§2.1): {unit, strength?, reduced?, efficiency?, movement?, bombard?, range?}",
    "leader": "a commander's printed values (§2.2, §4): {leader, initiative?, command_range?, movement?}",
    "hex": "a hex's terrain (terrain effects table, §10): {hex, terrain?, other_terrain?: [...], elevation?, "
           "features?: [...]}",
    "unit_added": "a unit the order of battle lacks: {unit: {id, name, side, formation, arm, strength, reduced?, "
                  "efficiency, movement, bombard?, range?}, hex} (its set-up hex; where the position's state does not "
                  "place it, it stands there)",
    "unit_removed": "a unit out of the order of battle and off the position: {unit}",
    "crt": "a fixed result of the combat results table (§12.5) for a modified roll in a column, an umpire's choice: "
           "{column, roll, result}",
}
MODELS: dict[str, type[OverrideModel]] = {"unit": UnitValues, "leader": LeaderValues, "hex": HexTerrain,
                                          "unit_added": UnitAdded, "unit_removed": UnitRemoved, "crt": TableResult}

Docs = dict[str, Any]  # the decoded files an override edits: "oob", "map", "crt"


def apply(folder: DataFolder, layout: Layout, state: S, override: Mapping[str, Any]) -> tuple[S, str]:
    """`state` carrying the override in its data files (checked whole as a data folder is), and the override's
    public name (no position: under fog of war where a piece stands is not every seat's to know)."""
    parsed: Any = parse_override(MODELS, override)
    files = dict(state.data_files) or folder.shipped_files()
    docs: Docs = {key: json.loads(files[getattr(layout, key)]) for key in ("oob", "map", "crt")}
    units = dict(state.units)  # the caller's state is left as it was
    name = _APPLY[parsed.kind](parsed, docs, units, layout)
    for key in ("oob", "map", "crt"):
        files[getattr(layout, key)] = json.dumps(docs[key], ensure_ascii=False)
    return msgspec.structs.replace(state, units=units, data_files=overridden_files(files, folder.from_files)), name


def _unit(parsed: Any, docs: Docs, units: dict[str, PB.UnitState], layout: Layout) -> str:
    spec = entry(docs["oob"]["units"], "id", parsed.unit, "unit in the order of battle")
    changed = set_fields(spec, parsed, ("strength", "reduced", "efficiency", "movement", "bombard", "range"))
    return f"unit {parsed.unit}: printed {' and '.join(changed)} not the counter's ({layout.book} §2.1)"


def _leader(parsed: Any, docs: Docs, units: dict[str, PB.UnitState], layout: Layout) -> str:
    spec = entry(docs["oob"]["leaders"], "id", parsed.leader, "commander in the order of battle")
    changed = set_fields(spec, parsed, ("initiative", "command_range", "movement"))
    return f"commander {parsed.leader}: printed {' and '.join(changed).replace('_', ' ')} not the counter's ({layout.book} §2.2)"


def _hex(parsed: Any, docs: Docs, units: dict[str, PB.UnitState], layout: Layout) -> str:
    spec = docs["map"]["hexes"].setdefault(parsed.hex, {})
    changed = set_fields(spec, parsed, ("terrain", "other_terrain", "elevation", "features"))
    return f"hex {parsed.hex}: {' and '.join(changed).replace('_', ' ')} not the map's ({layout.book} §10)"


def _added(parsed: Any, docs: Docs, units: dict[str, PB.UnitState], layout: Layout) -> str:
    unit = parsed.unit
    if any(u["id"] == unit.id for u in docs["oob"]["units"] + docs["oob"]["leaders"]):
        raise BadPosition(f"{unit.id!r} is in the order of battle already")
    docs["oob"]["units"].append(unit.model_dump(exclude_none=True) | {"setup": {"hexes": [parsed.hex]}})
    if unit.id not in units:
        units[unit.id] = PB.UnitState(side=unit.side, formation=unit.formation, arm=unit.arm, hex=parsed.hex,
                                      where="map")
    return f"unit {unit.id} ({unit.side} {unit.arm}) added to the order of battle ({layout.book} §2.1)"


def _removed(parsed: Any, docs: Docs, units: dict[str, PB.UnitState], layout: Layout) -> str:
    oob = docs["oob"]
    spec = entry(oob["units"], "id", parsed.unit, "unit in the order of battle")
    oob["units"].remove(spec)
    for group in oob.get("reinforcements", []):  # arrivano §15.4: its group arrives without it
        group["units"] = [u for u in group["units"] if u != parsed.unit]
    units.pop(parsed.unit, None)
    return f"unit {parsed.unit} removed from the order of battle ({layout.book} §2.1)"


def _crt(parsed: Any, docs: Docs, units: dict[str, PB.UnitState], layout: Layout) -> str:
    crt = docs["crt"]
    if parsed.column not in crt["columns"]:
        raise BadPosition(f"no column {parsed.column!r} (columns: {', '.join(crt['columns'])})")
    row = crt["rows"].get(str(parsed.roll))
    if row is None:
        raise BadPosition(f"no row for the modified roll {parsed.roll} (rows: {', '.join(crt['rows'])})")
    row[parsed.column] = parsed.result
    # The cell is rewritten for the whole game (every later combat in that column at that roll), and the name says so.
    return (f"combat results table: {parsed.result} at {parsed.column} for a modified roll of {parsed.roll}, in every "
            f"combat of the game ({layout.book} §12.5)")


_APPLY: dict[str, Callable[[Any, Docs, dict[str, PB.UnitState], Layout], str]] = {
    "unit": _unit, "leader": _leader, "hex": _hex, "unit_added": _added, "unit_removed": _removed, "crt": _crt}
