"""Caricat!'s overrides of a position (issue 19 item 13; adjudicator/overrides.py is the generic part): a unit's
printed values (morale, melee and fire, caricat §1.3), a leader's (command points, assault modifier, the initial
value his commitment rolls are read on, §1.4, §2), a hex's terrain, a unit added to or removed from the order of
battle. Each is applied to the data the game carries (the shipped files, or its own data folder, as
`state.data_files`), so every rule reads it as it reads the shipped data, and the data so changed are checked as a
data folder is (every problem at once). A leader's commitment level, a unit's morale levels lost and what it did
this activation are the position's own state fields (docs/rulesets/caricat.md, "Position format"): they need no
override. Caricat has no combat table, so no table result to fix. Nothing in Caricat is hidden, so an override's
name may name its unit."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

import msgspec
from pydantic import Field

from arbitro.adjudicator.caricat.loader import DATA, FILES, build
from arbitro.adjudicator.datafiles import OverrideModel, entry, overridden_files, parse_override, set_fields
from arbitro.adjudicator.errors import BadPosition
from arbitro.projections.caricat import CaricatState, UnitState

# full and reduced side (caricat §7.5.1: one hit turns the counter)
Pair = Annotated[list[Annotated[int, Field(ge=0, le=12)]], Field(min_length=2, max_length=2)]


class UnitValues(OverrideModel):
    kind: Literal["unit"]
    unit: str
    morale: int | None = Field(default=None, ge=1, le=12)
    melee: Pair | None = None
    fire: Pair | None = None


class LeaderValues(OverrideModel):
    kind: Literal["leader"]
    leader: str
    command: int | None = Field(default=None, ge=0, le=20)
    assault: int | None = Field(default=None, ge=-6, le=6)
    value: int | None = Field(default=None, ge=2, le=12)


class HexTerrain(OverrideModel):
    kind: Literal["hex"]
    hex: str = Field(pattern=r"^[0-9]{4}$")
    terrain: str | None = None
    other_terrain: list[str] | None = None


class NewUnit(OverrideModel):
    id: str = Field(min_length=1, max_length=40)
    name: str
    side: Literal["italian", "austrian"]
    kind: Literal["infantry", "cavalry"]
    leader: str | None = None
    morale: int = Field(ge=1, le=12)
    melee: Pair
    fire: Pair
    hex: str | None = Field(default=None, pattern=r"^[0-9]{4}$")  # its set-up hex, or
    entry: str | None = Field(default=None, pattern=r"^[0-9]{4}$")  # the hex it arrives by


class UnitAdded(OverrideModel):
    kind: Literal["unit_added"]
    unit: NewUnit


class UnitRemoved(OverrideModel):
    kind: Literal["unit_removed"]
    unit: str


KINDS: dict[str, str] = {
    "unit": "a unit's printed values (caricat §1.3): {unit, morale?, melee?: [full, reduced], fire?: [full, reduced]}",
    "leader": "a leader's printed values (caricat §1.4, §2): {leader, command?, assault?, value?} (value: the initial "
              "value his commitment rolls must not exceed)",
    "hex": "a hex's terrain (terrain effects table): {hex, terrain?, other_terrain?: [...]}",
    "unit_added": "a unit the order of battle lacks (caricat §1.3): {unit: {id, name, side, kind, leader?, morale, "
                  "melee, fire, hex | entry}} (its set-up hex or the hex it arrives by; where the position's state "
                  "does not place it, at its set-up hex or off the map)",
    "unit_removed": "a unit out of the order of battle and off the position: {unit}",
}
MODELS: dict[str, type[OverrideModel]] = {"unit": UnitValues, "leader": LeaderValues, "hex": HexTerrain,
                                      "unit_added": UnitAdded, "unit_removed": UnitRemoved}


def shipped_texts() -> dict[str, str]:
    """The shipped data files as a game carries them (name -> text)."""
    return {name: (DATA / name).read_text(encoding="utf-8") for name in FILES}


def apply(state: CaricatState, override: Mapping[str, Any]) -> tuple[CaricatState, str]:
    """`state` carrying the override in its data, and the override's public name."""
    parsed: Any = parse_override(MODELS, override)
    files = dict(state.data_files) or shipped_texts()
    scenario, board = (json.loads(files[f"{state.scenario}{tail}.json"]) for tail in ("", "_map"))
    state = msgspec.convert(msgspec.to_builtins(state), CaricatState)  # the caller's state is left as it was
    name = _APPLY[parsed.kind](parsed, scenario, board, state)
    files[f"{state.scenario}.json"] = json.dumps(scenario, ensure_ascii=False)
    files[f"{state.scenario}_map.json"] = json.dumps(board, ensure_ascii=False)
    return msgspec.structs.replace(state, data_files=overridden_files(files, build)), name


def _unit(parsed: Any, scenario: dict[str, Any], board: dict[str, Any], state: CaricatState) -> str:
    spec = entry(scenario["units"], "id", parsed.unit, "unit in the scenario")
    changed = set_fields(spec, parsed, ("morale", "melee", "fire"))
    return f"unit {parsed.unit}: printed {' and '.join(changed)} not the counter's (caricat §1.3)"


def _leader(parsed: Any, scenario: dict[str, Any], board: dict[str, Any], state: CaricatState) -> str:
    spec = entry(scenario["leaders"], "id", parsed.leader, "leader in the scenario")
    changed = set_fields(spec, parsed, ("command", "assault", "value"))
    return f"leader {parsed.leader}: printed {' and '.join(changed)} not the counter's (caricat §1.4)"


def _hex(parsed: Any, scenario: dict[str, Any], board: dict[str, Any], state: CaricatState) -> str:
    spec = board["hexes"].setdefault(parsed.hex, {"provisional": True})
    changed = set_fields(spec, parsed, ("terrain", "other_terrain"))
    return f"hex {parsed.hex}: {' and '.join(changed).replace('_', ' ')} not the map's (terrain effects table)"


def _added(parsed: Any, scenario: dict[str, Any], board: dict[str, Any], state: CaricatState) -> str:
    unit = parsed.unit
    if any(u["id"] == unit.id for u in scenario["units"]):
        raise BadPosition(f"unit {unit.id!r} is in the order of battle already")
    scenario["units"].append(unit.model_dump(exclude_none=True) | {"leader": unit.leader})
    if unit.id not in state.units:
        state.units[unit.id] = UnitState(side=unit.side, kind=unit.kind, leader=unit.leader, hex=unit.hex,
                                         where="map" if unit.hex else "off")
    return f"unit {unit.id} ({unit.side} {unit.kind}) added to the order of battle (caricat §1.3)"


def _removed(parsed: Any, scenario: dict[str, Any], board: dict[str, Any], state: CaricatState) -> str:
    spec = entry(scenario["units"], "id", parsed.unit, "unit in the scenario")
    scenario["units"].remove(spec)
    state.units.pop(parsed.unit, None)
    for leader in scenario["leaders"]:  # a leader who stood with it stands with another of his units (caricat §7.3)
        if leader["unit"] == parsed.unit:
            others = [u["id"] for u in scenario["units"] if u.get("leader") == leader["id"]]
            if not others:
                raise BadPosition(f"unit {parsed.unit} is {leader['id']}'s last unit: remove no leader's last unit")
            leader["unit"] = others[0]
    printed = {x["id"]: x["unit"] for x in scenario["leaders"]}
    for k, le in state.leaders.items():
        if le.unit == parsed.unit:
            mine = [x for x, u in sorted(state.units.items()) if u.leader == k and u.where == "map"]
            le.unit = mine[0] if mine else printed.get(k)
    return f"unit {parsed.unit} removed from the order of battle (caricat §1.3)"


_APPLY: dict[str, Callable[[Any, dict[str, Any], dict[str, Any], CaricatState], str]] = {
    "unit": _unit, "leader": _leader, "hex": _hex, "unit_added": _added, "unit_removed": _removed}
