"""Monferrato's map picture (issue 13, pictures/model.Picturing): the zones, borders and fortress walls, and every
unit on the map. Nothing on Monferrato's map is hidden (the chits in hand are, and are not drawn)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arbitro.adjudicator.pictures.kit import Printed, caption, stacked, tally
from arbitro.adjudicator.pictures.model import Approach, AreaPicture, Block, Zone

DATA = Path(__file__).resolve().parent / "data"
COLOURS: dict[str, str] = {  # by nation (monferrato §2.1): the French side blues and reds, Spain's yellows
    "francia": "#7f9fd8", "gonzaga": "#e08a8a", "venezia": "#b59ad8", "spagna": "#f2d46b", "savoia": "#9fd8a8",
}
KIND_LETTERS: dict[str, str] = {"infantry": "I", "cavalry": "C", "artillery": "A", "sapper": "S", "garrison": "G",
                                "camp": "K", "commander": "L"}
UNIT_MARKS = ("disorganised", "unsupplied", "raiding")


def monferrato_picture(view: Mapping[str, Any], provisional: tuple[str, ...],
                       data: Mapping[str, str] | None = None) -> AreaPicture:
    """Monferrato's picture (monferrato §2-§3): its zones (open or difficult; fortresses, towns and their victory
    points; the forts standing in them, by owner; a town destroyed, a zone raided), its borders (land, river, a river
    with a bridge, a passage, impassable) with each fortress side's wall level, and every unit on the map in its
    nation's colours with its kind and fire (a commander: his leadership), a red bar when disorganised, out of supply
    or raiding. Drawn on the map and counters of the data the game is played on (`data`: its own files where it
    carries them, else the shipped)."""
    state = view["state"]
    files = Printed(DATA, data or {})
    board, printed = files.json("map.json"), files.counters("oob.json")
    forts, walls = state.get("forts", {}), state.get("walls", {})
    zones = tuple(Zone(id=z["id"], name=z["name"], terrain=z["terrain"], star=bool(z["vp"]),
                       marks=_zone_marks(z, forts.get(z["id"], ()), state)) for z in board["zones"])
    approaches = tuple(_border(b, walls) for b in board["borders"])
    known = {z.id for z in zones}
    placed: list[tuple[str, Block]] = []
    for uid, unit in state["units"].items():
        if unit.get("zone") in known:
            p = printed.get(uid, {})
            fire = state.get("chosen_fire", {}).get(uid, p.get("fire", ""))  # an "a scelta: 3 o 4" value chosen
            value = p.get("leadership") if p.get("kind") == "commander" else fire
            placed.append((unit["zone"], Block(side=p.get("nation", ""), id=uid, values=(
                f"{KIND_LETTERS.get(p.get('kind', ''), '?')}{value}"), marks=tuple(m for m in UNIT_MARKS if unit.get(m)))))
    return AreaPicture(title="La Seconda Guerra del Monferrato",
                       caption=caption(view, state) + tally("VP", state.get("vp")), zones=zones,
                       approaches=approaches, colours=COLOURS, provisional=provisional, blocks=stacked(placed))


def _zone_marks(zone: Mapping[str, Any], forts: Any, state: Mapping[str, Any]) -> tuple[str, ...]:
    marks = ["fortress" if zone["fortress"] else "", "town" if zone["town"] else "",
             f"VP {zone['vp']}" if zone["vp"] else "", *(f"fort {owner}" for owner in forts),
             "destroyed" if zone["id"] in state.get("towns_destroyed", ()) else "",
             "raided" if zone["id"] in state.get("raided", ()) else ""]
    return tuple(m for m in marks if m)


def _border(border: Mapping[str, Any], walls: Mapping[str, int]) -> Approach:
    """A border as drawn: a river with a bridge is a bridge; a fortress side carries its wall level, written by the
    fortress (monferrato §8.1)."""
    a, b = border["zones"]
    kind = "bridge" if border["kind"] == "river" and border.get("bridge") else border["kind"]
    if f"{b}/{a}" in walls:
        a, b = b, a
    wall = walls.get(f"{a}/{b}")
    return Approach(zone=a, toward=b, width="narrow", kind=kind,
                    symbols=(f"wall {wall}",) if wall is not None else ())
