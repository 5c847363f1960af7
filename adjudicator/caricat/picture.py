"""Caricat!'s map picture (issue 13, pictures/model.Picturing): nothing is hidden in Caricat!, so every unit and
leader on the map is drawn with its printed values."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arbitro.adjudicator.pictures.kit import SIDE_COLOURS, Printed, caption, stacked, tally
from arbitro.adjudicator.pictures.model import Counter, HexPicture, Objective, Piece

DATA = Path(__file__).resolve().parent / "data"


def caricat_picture(view: Mapping[str, Any], provisional: tuple[str, ...],
                    data: Mapping[str, str] | None = None) -> HexPicture:
    """Each unit with its printed melee, fire and morale (the reduced values once it has lost morale levels, caricat
    §7.5) and its hits; each leader with the unit he stands with and his commitment level (caricat §2-§3); each
    objective with its points by side, in the colour of its holder (caricat §13). Drawn on the scenario's map and
    counters of the data the game is played on (`data`: its own files where it carries them, else the shipped)."""
    state = view["state"]
    files, scenario = Printed(DATA, data or {}), f"{state['scenario']}.json"
    printed = files.counters(scenario)
    objectives = {o["hex"]: Objective(name=o.get("name", o["hex"]), holder=state.get("control", {}).get(
        o["hex"], o.get("controller", "")), value=" ".join(f"{side[0]}{n}" for side, n in sorted(o["vp"].items())))
        for o in files.json(scenario).get("objectives", [])}
    placed: list[tuple[str, Piece]] = []
    for uid, unit in state["units"].items():
        if unit.get("where") == "map" and unit.get("hex"):
            p = printed.get(uid, {})
            side = 1 if unit.get("hits", 0) else 0
            values = "-".join(str(p[k][side]) for k in ("melee", "fire") if k in p) + f"/{p.get('morale', '')}"
            marks = (f"hits {unit['hits']}",) if unit.get("hits") else ()
            placed.append((unit["hex"], Counter(id=uid, side=unit["side"], label=uid, values=values, marks=marks)))
    for lid, leader in state["leaders"].items():
        with_unit = state["units"].get(leader.get("unit") or "", {})
        if leader.get("present", True) and not leader.get("gone") and with_unit.get("where") == "map":
            placed.append((with_unit["hex"], Counter(id=lid, side=leader["side"], label=lid, leader=True,
                                                     order=leader.get("level", ""))))
    return HexPicture(hexmap=files.hexmap(f"{state['scenario']}_map.json"), title="Caricat!",
                      caption=caption(view, state) + tally("VP", state.get("vp")), pieces=stacked(placed),
                      colours=SIDE_COLOURS, provisional=provisional, objectives=objectives)
