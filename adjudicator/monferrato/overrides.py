"""Monferrato's overrides of a position (issue 19 item 13; adjudicator/overrides.py is the generic part): a counter's
printed values, a unit added to or removed from the order of battle, a zone's terrain, town, fortress or victory
points, a border's kind, bridge or printed wall level, a chit's line in the chit table. Each is applied to the data
the game carries (the shipped files, or its own data folder, as `state.data_files`), so every rule reads it the way
it reads the shipped data; the data so changed are checked as a data folder is (every problem at once).

Who holds which chit, the cup, the wall levels now standing, the forts, the morale, the markers of a unit and what it
did this activation are the position's own state fields (docs/rulesets/monferrato.md, "Position format"): they need
no override. A name is public (served to both seats): it says what kind of fact is not standard, never whose hand
holds a chit."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec
from pydantic import Field

from arbitro.adjudicator.datafiles import OverrideModel, entry, overridden_files, parse_override, set_fields
from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.monferrato.data import FILES, NAMES, Kind, Seat, build
from arbitro.projections.monferrato import MonferratoState, Unit

Files = dict[str, Any]  # file name -> its parsed JSON


class CounterValues(OverrideModel):
    """A counter's printed values (monferrato §2.1, §14): fire, defence (two-value infantry, §14.2), major (§14.3),
    leadership (commanders), its name."""

    kind: Literal["unit"]
    unit: str
    fire: int | None = Field(default=None, ge=0, le=6)
    defence: int | None = Field(default=None, ge=1, le=6)
    major: bool | None = None
    leadership: int | None = Field(default=None, ge=0, le=6)
    name: str | None = None


class NewUnit(OverrideModel):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    command: str
    kind: Kind
    fire: int = Field(default=0, ge=0, le=6)
    defence: int | None = Field(default=None, ge=1, le=6)
    major: bool = False
    leadership: int = Field(default=0, ge=0, le=6)


class UnitAdded(OverrideModel):
    """A unit the order of battle lacks, of an existing command, set up in a zone of the map (the position's state
    places it there unless it places it itself)."""

    kind: Literal["unit_added"]
    unit: NewUnit
    zone: str


class UnitRemoved(OverrideModel):
    kind: Literal["unit_removed"]
    unit: str


class ZoneTerrain(OverrideModel):
    """A zone's terrain, fortified town, fortress and victory points (monferrato §2.3, §9.4, §17)."""

    kind: Literal["zone"]
    zone: str
    terrain: Literal["open", "difficult"] | None = None
    town: bool | None = None
    fortress: bool | None = None
    vp: int | None = Field(default=None, ge=0)


class BorderTerrain(OverrideModel):
    """A border's kind and bridge (monferrato §2.3, §6), and the printed level of a fortress's wall side on it
    (§2.3, §8.1: `wall_level` null on a border without a wall makes it one, on the next free side number)."""

    kind: Literal["border"]
    zones: list[str] = Field(min_length=2, max_length=2)
    border: Literal["land", "river", "impassable"] | None = None
    bridge: bool | None = None
    wall_level: int | None = Field(default=None, ge=0, le=9)


class ChitLine(OverrideModel):
    """A chit's line in the chit table (monferrato §16): mandatory, date, remove-if-used, name."""

    kind: Literal["chit"]
    chit: str
    mandatory: Literal["no", "yes", "conditional"] | None = None
    date: str | None = None
    remove_if_used: bool | None = None
    name: str | None = None


class SupplySource(OverrideModel):
    """A command's supply sources (monferrato §13, scenario)."""

    kind: Literal["supply_sources"]
    command: str
    zones: list[str] = Field(min_length=1)


class FortCounters(OverrideModel):
    """A player's supply of fort counters (monferrato §10, scenario special rule 6)."""

    kind: Literal["fort_counters"]
    seat: Seat
    count: int = Field(ge=0, le=9)


KINDS: dict[str, str] = {
    "unit": "a counter's printed values (monferrato §2.1, §14): {unit, fire?, defence?, major?, leadership?, name?}",
    "unit_added": "a unit the order of battle lacks, set up in a zone: {unit: {id, name, command, kind, fire?, "
                  "defence?, major?, leadership?}, zone}",
    "unit_removed": "a unit out of the order of battle (and off the position): {unit}",
    "zone": "a zone's terrain, town, fortress or victory points (monferrato §2.3, §9.4): {zone, terrain?, town?, "
            "fortress?, vp?}",
    "border": "a border's kind, bridge or printed wall level (monferrato §2.3, §6, §8.1): {zones: [a, b], border?, "
              "bridge?, wall_level?}",
    "chit": "a chit's line in the chit table (monferrato §16): {chit, mandatory?, date?, remove_if_used?, name?}",
    "supply_sources": "a command's supply sources (monferrato §13): {command, zones: [...]}",
    "fort_counters": "a player's supply of fort counters (monferrato §10): {seat, count}",
}
MODELS: dict[str, type[OverrideModel]] = {"unit": CounterValues, "unit_added": UnitAdded, "unit_removed": UnitRemoved,
                                      "zone": ZoneTerrain, "border": BorderTerrain, "chit": ChitLine,
                                      "supply_sources": SupplySource, "fort_counters": FortCounters}


def shipped_texts() -> dict[str, str]:
    """The shipped data files as a game carries them (name -> text)."""
    return {path.name: path.read_text(encoding="utf-8") for path in FILES}


def apply(state: MonferratoState, override: Mapping[str, Any]) -> tuple[MonferratoState, str]:
    """`state` carrying the override in its data, and the override's public name."""
    parsed: Any = parse_override(MODELS, override)
    texts = dict(state.data_files) or shipped_texts()
    files = {name: json.loads(texts[name]) for name in NAMES}
    state = msgspec.structs.replace(state, units=dict(state.units), walls=dict(state.walls),
                                    fort_counters=dict(state.fort_counters))  # the caller's state is left as it was
    name = _APPLY[parsed.kind](parsed, files, state)
    texts = {n: json.dumps(files[n], ensure_ascii=False, indent=1) for n in NAMES}
    return msgspec.structs.replace(state, data_files=overridden_files(texts, build)), name


def _counter(parsed: Any, files: Files, state: MonferratoState) -> str:
    spec = entry(files["oob.json"]["units"], "id", parsed.unit, "unit in the order of battle")
    changed = set_fields(spec, parsed, ("fire", "defence", "major", "leadership", "name"))
    return f"one {spec['kind']} of {spec['command']}: printed {' and '.join(changed)} not the counter's (monferrato §2.1)"


def _added(parsed: Any, files: Files, state: MonferratoState) -> str:
    new, oob = parsed.unit, files["oob.json"]
    if any(u["id"] == new.id for u in oob["units"]):
        raise BadPosition(f"unit {new.id!r} is in the order of battle already")
    if new.command not in oob["commands"]:
        raise BadPosition(f"unknown command {new.command!r}; the commands are {', '.join(sorted(oob['commands']))}")
    oob["units"].append({**new.model_dump(exclude_none=True), "nation": oob["commands"][new.command]})
    setup = files["scenario.json"]["setup"].setdefault(new.command, {})
    setup.setdefault(parsed.zone, []).append(new.id)
    state.units.setdefault(new.id, Unit(zone=parsed.zone))
    return f"one {new.kind} of {new.command} added to the order of battle (monferrato §2.1)"


def _removed(parsed: Any, files: Files, state: MonferratoState) -> str:
    oob, scenario = files["oob.json"], files["scenario.json"]
    spec = entry(oob["units"], "id", parsed.unit, "unit in the order of battle")
    oob["units"].remove(spec)
    for where in scenario["setup"].values():
        for zone in list(where):
            where[zone] = [u for u in where[zone] if u != parsed.unit]
            if not where[zone]:
                del where[zone]
    for choice in scenario.get("setup_choices", []):
        choice["units"] = [u for u in choice.get("units", []) if u != parsed.unit]
        if choice.get("rest_with") == parsed.unit:
            raise BadPosition(f"{parsed.unit!r} is the unit a set-up choice's others follow; it cannot be removed")
    scenario["setup_choices"] = [c for c in scenario.get("setup_choices", []) if c["units"] or c["how"] == "fort"]
    for group in oob["groups"]:
        group["units"] = [u for u in group["units"] if u != parsed.unit]
    if any(not g["units"] for g in oob["groups"]):
        raise BadPosition(f"removing {parsed.unit!r} empties its reinforcement group; remove the group's chit "
                          "from play instead")
    for unit in oob["units"]:
        if unit.get("replacement") == parsed.unit:
            unit["replacement"] = None
    state.units.pop(parsed.unit, None)
    return f"one {spec['kind']} of {spec['command']} removed from the order of battle (monferrato §2.1)"


def _zone(parsed: Any, files: Files, state: MonferratoState) -> str:
    zone = entry(files["map.json"]["zones"], "id", parsed.zone, "zone")
    changed = set_fields(zone, parsed, ("terrain", "town", "fortress", "vp"))
    return f"zone {parsed.zone}: {' and '.join(changed)} not the map's (monferrato §2.3)"


def _border(parsed: Any, files: Files, state: MonferratoState) -> str:
    a, b = parsed.zones
    borders = files["map.json"]["borders"]
    border = next((x for x in borders if set(x["zones"]) == {a, b}), None)
    if border is None:
        raise BadPosition(f"no border between {a!r} and {b!r}")
    changed = []
    if parsed.bridge is not None:
        border["bridge"] = parsed.bridge
        changed.append("bridge")
    if parsed.border is not None:
        border["kind"] = parsed.border
        changed.append("kind")
    if parsed.wall_level is not None:
        wall = border.get("wall") or {"side": _next_side(borders, a, b, files), "level": parsed.wall_level}
        border["wall"] = {**wall, "level": parsed.wall_level}
        side = _wall_key(files, a, b)
        state.walls.setdefault(side, parsed.wall_level)  # a new wall side stands at its printed level
        changed.append("wall level")
    if not changed:
        raise BadPosition("name what it changes: one or more of border, bridge, wall_level")
    return f"border {a}/{b}: {' and '.join(changed)} not the map's (monferrato §2.3)"


def _wall_key(files: Files, a: str, b: str) -> str:
    """The state's key of a wall side: the fortress first (as sequence.new_state and position.validate have it)."""
    fortress = {z["id"] for z in files["map.json"]["zones"] if z["fortress"]}
    if a not in fortress and b not in fortress:
        raise BadPosition(f"a wall side borders a fortress zone; neither {a!r} nor {b!r} is one (monferrato §2.3)")
    return f"{a}/{b}" if a in fortress else f"{b}/{a}"


def _next_side(borders: list[dict[str, Any]], a: str, b: str, files: Files) -> int:
    fortress = _wall_key(files, a, b).split("/")[0]
    sides = [x["wall"]["side"] for x in borders if x.get("wall") and fortress in x["zones"]]
    return max(sides, default=0) + 1


def _chit(parsed: Any, files: Files, state: MonferratoState) -> str:
    line = entry(files["chits.json"]["chits"], "id", parsed.chit, "chit in the chit table")
    changed = set_fields(line, parsed, ("mandatory", "date", "remove_if_used", "name"))
    return f"chit {parsed.chit}: {' and '.join(changed)} not the chit table's (monferrato §16)"


def _sources(parsed: Any, files: Files, state: MonferratoState) -> str:
    scenario = files["scenario.json"]
    if parsed.command not in files["oob.json"]["commands"]:
        raise BadPosition(f"unknown command {parsed.command!r}")
    scenario["supply_sources"][parsed.command] = list(parsed.zones)
    return f"command {parsed.command}: supply sources not the scenario's (monferrato §13)"


def _fort_counters(parsed: Any, files: Files, state: MonferratoState) -> str:
    scenario = files["scenario.json"]
    before = scenario["fort_counters"][parsed.seat]
    scenario["fort_counters"][parsed.seat] = parsed.count
    on_map = sum(owners.count(parsed.seat) for owners in state.forts.values())
    if on_map > parsed.count:
        raise BadPosition(f"{parsed.seat} has {on_map} forts on the map, more than {parsed.count} (monferrato §10)")
    state.fort_counters[parsed.seat] = parsed.count - on_map  # "Non più di questo numero ... sulla mappa"
    return f"{parsed.seat}: {parsed.count} fort counters, not the scenario's {before} (monferrato §10)"


_APPLY: dict[str, Callable[[Any, Files, MonferratoState], str]] = {
    "unit": _counter, "unit_added": _added, "unit_removed": _removed, "zone": _zone, "border": _border,
    "chit": _chit, "supply_sources": _sources, "fort_counters": _fort_counters,
}
