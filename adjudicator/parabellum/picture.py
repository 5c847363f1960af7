"""The Para Bellum system's map picture (issue 13, model.Picturing), drawn alike for Caldiero 1796 and Arrivano i
Francesi! from each game's data folder: the kernel's, like every rule both books share. It reads only the seat's
view and the printed data, no game's rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from arbitro.adjudicator.pictures.kit import SIDE_COLOURS, Printed, caption, stacked, tally
from arbitro.adjudicator.pictures.model import Counter, HexPicture, Objective, Picturing, Piece, StackMarker

STATUS_MARKS: dict[str, str] = {"disordered": "disord.", "routed": "routed", "shaken": "shaken"}


def parabellum_picture(title: str, folder: Path, scenario_folder: Callable[[str], str] = str) -> Picturing:
    """The Para Bellum system's picture (caldiero §20.4, arrivano §11.3.2 fog of war): units and commanders on the
    map as the view serves them, each unit with its printed strength (reduced side when reduced), efficiency and
    movement and its state (disordered, routed, charging, damaged; arrivano §16.3.4's V and F markers of open
    order and fatigue); each formation's order on its general (caldiero §5, arrivano §5), so only where the seat
    may examine him; `hidden_stacks` as markers; the victory hexes with their points (caldiero §18, arrivano
    §17.1.8/§17.2.12). `folder`: the shipped data folder (parabellum/loader.py's layout), `scenario_folder` the
    folder a scenario is played on (Caldiero's versions all on `caldiero/`); `data`: the game's own files, drawn
    instead where it carries them."""

    def picture(view: Mapping[str, Any], provisional: tuple[str, ...],
                data: Mapping[str, str] | None = None) -> HexPicture:
        state = view["state"]
        files = Printed(folder, data or {})
        scenario = scenario_folder(state["scenario"]) + "/"
        printed = files.counters(f"{scenario}oob.json")
        orders = {f["general"]: f.get("order", "") for f in state.get("formations", {}).values() if f.get("general")}
        placed: list[tuple[str, Piece]] = []
        for uid, unit in state["units"].items():
            if unit.get("where") == "map" and unit.get("hex"):
                placed.append((unit["hex"], _unit_counter(uid, unit, printed.get(uid, {}))))
        for lid, leader in state["leaders"].items():
            if leader.get("where") == "map" and leader.get("hex"):
                placed.append((leader["hex"], Counter(id=lid, side=leader["side"], label=lid, leader=True,
                                                      order=orders.get(lid, ""))))
        placed += [(h, StackMarker(side)) for h, side in state.get("hidden_stacks", {}).items()]
        set_up = files.json(f"{scenario}scenario.json")
        victory = set_up.get("victory_hexes") or set_up.get("victory", {}).get("objectives", [])
        objectives = {v["hex"]: Objective(name=v.get("place") or v["hex"], value=str(v.get("vp", ""))) for v in victory}
        return HexPicture(hexmap=files.hexmap(f"{scenario}map.json"), title=title,
                          caption=caption(view, state) + tally("steps lost", state.get("steps_lost")),
                          pieces=stacked(placed), colours=SIDE_COLOURS, provisional=provisional,
                          objectives=objectives)

    return picture


def _unit_counter(uid: str, unit: Mapping[str, Any], printed: Mapping[str, Any]) -> Counter:
    strength = printed.get("reduced") if unit.get("reduced") else printed.get("strength")
    values = "-".join(str(v) for v in (strength, printed.get("efficiency"), printed.get("movement")) if v is not None)
    marks = tuple(m for m in ("reduced" if unit.get("reduced") else "", STATUS_MARKS.get(unit.get("status", ""), ""),
                              "charging" if unit.get("charging") else "", str(unit.get("open_order") or ""),
                              "damaged" if unit.get("damaged") else "") if m)
    return Counter(id=uid, side=unit["side"], label=uid, values=values, marks=marks)
