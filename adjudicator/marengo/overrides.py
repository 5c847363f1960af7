"""Marengo's overrides of a position (issue 19 item 13; adjudicator/overrides.py is the generic part): a
counter's values, a zone's or an approach's terrain, a block added to or removed from the order of battle. Each
is applied to the data the game carries (the shipped files, or its own data folder, as `state.data_files`), so
every rule reads it the way it reads the shipped data; the data so changed are checked as a data folder is
(every problem at once). Orders, what moved or assaulted this turn and the other facts of a turn are the
position's own state fields (docs/rulesets/marengo.md, "Position format"): they need no override. Marengo rolls
no dice, so it has no table result to fix."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec
from pydantic import Field

from arbitro.adjudicator.datafiles import OverrideModel, entry, overridden_files, parse_override, set_fields
from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.marengo.data_loader import DATA_DIR, FILES, Arm, Penalty, Side, load_files
from arbitro.projections.marengo import MarengoState


class CounterValues(OverrideModel):
    """A block's printed values (marengo §4): its full strength, its arm, its name."""

    kind: Literal["block"]
    block: str
    strength: int | None = Field(default=None, ge=1, le=3)
    arm: Arm | None = None
    name: str | None = None


class NewBlock(OverrideModel):
    id: str
    side: Side
    arm: Arm
    strength: int = Field(ge=1, le=3)
    name: str


class BlockAdded(OverrideModel):
    """A block the order of battle lacks (marengo §4), in the At Start table (France's) or a reinforcement table
    (§6); by default France's At Start table or Austria's first reinforcement table."""

    kind: Literal["block_added"]
    block: NewBlock
    table: str | None = None


class BlockRemoved(OverrideModel):
    kind: Literal["block_removed"]
    block: str


class ZoneTerrain(OverrideModel):
    """A zone's capacity and objective star (marengo §5, §14)."""

    kind: Literal["zone"]
    zone: str
    capacity: int | None = Field(default=None, ge=1, le=8)
    star: Literal["red", "green", "blue", "none"] | None = None


class ApproachTerrain(OverrideModel):
    """An approach's width, penalties, cavalry obstacle and passability (marengo §5, §9, §11)."""

    kind: Literal["approach"]
    approach: str
    width: Literal["narrow", "wide"] | None = None
    penalty: Penalty | None = None
    cavalry_obstacle: bool | None = None
    impassable: bool | None = None


KINDS: dict[str, str] = {
    "block": "a block's printed strength, arm or name (marengo §4): {block, strength?, arm?, name?}",
    "block_added": "a block the order of battle lacks: {block: {id, side, arm, strength, name}, table?} "
                   "(table: 'at_start', France's, or a reinforcement table; by default the side's first); place "
                   "it in the position's state",
    "block_removed": "a block out of the order of battle (and off the position): {block}",
    "zone": "a zone's capacity or objective star (marengo §5, §14): {zone, capacity?, star?} (star 'none': no star)",
    "approach": "an approach's terrain (marengo §5, §9, §11): {approach, width?, penalty?, cavalry_obstacle?, "
                "impassable?}",
}
MODELS: dict[str, type[OverrideModel]] = {"block": CounterValues, "block_added": BlockAdded,
                                      "block_removed": BlockRemoved, "zone": ZoneTerrain, "approach": ApproachTerrain}


def shipped_texts() -> dict[str, str]:
    """The shipped data files as a game carries them (name -> text)."""
    return {name: (DATA_DIR / name).read_text(encoding="utf-8") for name in FILES}


def apply(state: MarengoState, override: Mapping[str, Any]) -> tuple[MarengoState, str]:
    """`state` carrying the override in its data, and the override's public name."""
    parsed: Any = parse_override(MODELS, override)
    files = dict(state.data_files) or shipped_texts()
    armies, board = json.loads(files["armies.json"]), json.loads(files["map.json"])
    state = msgspec.structs.replace(state, blocks=dict(state.blocks))  # a block removed leaves the caller's as it was
    name = _APPLY[parsed.kind](parsed, armies, board, state)
    files = {"armies.json": json.dumps(armies, ensure_ascii=False), "map.json": json.dumps(board, ensure_ascii=False)}
    return msgspec.structs.replace(state, data_files=overridden_files(files, load_files)), name


def _counter(parsed: Any, armies: dict[str, Any], board: dict[str, Any], state: MarengoState) -> str:
    spec = entry(armies["blocks"], "id", parsed.block, "block in the order of battle")
    changed = set_fields(spec, parsed, ("strength", "arm", "name"))
    return f"one {spec['side']} block: printed {' and '.join(changed)} not the order of battle's (marengo §4)"


def _added(parsed: Any, armies: dict[str, Any], board: dict[str, Any], state: MarengoState) -> str:
    block = parsed.block
    if any(b["id"] == block.id for b in armies["blocks"]):
        raise BadPosition(f"block {block.id!r} is in the order of battle already")
    armies["blocks"].append(block.model_dump())
    own = [t["id"] for t in armies["reinforcements"] if t["side"] == block.side]
    named = parsed.table or ("at_start" if block.side == "france" or not own else own[0])
    if named == "at_start":
        armies["at_start"]["blocks"].append(block.id)
    else:
        table = entry(armies["reinforcements"], "id", named, "reinforcement table")
        table["arrivals"][-1]["blocks"].append(block.id)
    return f"one {block.side} {block.arm} block added to the order of battle (marengo §4)"


def _removed(parsed: Any, armies: dict[str, Any], board: dict[str, Any], state: MarengoState) -> str:
    spec = entry(armies["blocks"], "id", parsed.block, "block in the order of battle")
    armies["blocks"].remove(spec)
    armies["at_start"]["blocks"] = [b for b in armies["at_start"]["blocks"] if b != parsed.block]
    for table in armies["reinforcements"]:
        for arrival in table["arrivals"]:
            arrival["blocks"] = [b for b in arrival["blocks"] if b != parsed.block]
        table["arrivals"] = [a for a in table["arrivals"] if a["blocks"]]
    state.blocks.pop(parsed.block, None)
    return f"one {spec['side']} block removed from the order of battle (marengo §4)"


def _zone(parsed: Any, armies: dict[str, Any], board: dict[str, Any], state: MarengoState) -> str:
    zone = entry(board["zones"], "id", parsed.zone, "zone")
    changed = set_fields(zone, parsed, ("capacity", "star"))
    if zone["star"] == "none":
        zone["star"] = None
    return f"zone {parsed.zone}: {' and '.join(changed)} not the map's (marengo §5)"


def _approach(parsed: Any, armies: dict[str, Any], board: dict[str, Any], state: MarengoState) -> str:
    approach = entry(board["approaches"], "id", parsed.approach, "approach")
    changed = set_fields(approach, parsed, ("width", "penalty", "cavalry_obstacle", "impassable"))
    return f"approach {parsed.approach}: {' and '.join(changed)} not the map's (marengo §5)"


_APPLY: dict[str, Callable[[Any, dict[str, Any], dict[str, Any], MarengoState], str]] = {
    "block": _counter, "block_added": _added, "block_removed": _removed, "zone": _zone, "approach": _approach,
}
