"""Each ruleset's picture of a served view (model.Picturing): the Para Bellum games (Caldiero, Arrivano) and
Caricat! on the hex map kit, Marengo and Monferrato on area maps (zones and approaches or borders; a face-down
enemy block blank). Each reads only the seat's view and the game's public printed data (the map, the
counters' printed values); a piece the view does not name is never drawn, and an unexamined stack is a marker.

They live here, not in the rulesets' packages, while those packages are being reworked; each is a function of
(view, public data), so it moves into its ruleset unchanged."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from arbitro.adjudicator.maps.hexmap import HexMap, load_map
from arbitro.adjudicator.pictures.model import (
    Approach, AreaPicture, Block, Counter, HexPicture, Objective, Picturing, Piece, StackMarker, Zone,
)

ADJUDICATOR = Path(__file__).resolve().parents[1]
SIDE_COLOURS: dict[str, str] = {
    "austria": "#f3efe0", "austrian": "#f3efe0", "france": "#7f9fd8", "french": "#7f9fd8", "italian": "#8cc08c",
    "piedmont": "#8cc08c", "sardinia": "#8cc08c",
}
STATUS_MARKS: dict[str, str] = {"disordered": "disord.", "routed": "routed", "shaken": "shaken"}


@cache
def _hexmap(path: Path) -> HexMap:
    return load_map(path, source=path.name)


@cache
def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _tally(what: str, scores: Mapping[str, Any] | None) -> str:
    """A per-side score for the caption: '; VP austrian 0, italian 11' ('' where the view keeps none)."""
    return f"; {what} " + ", ".join(f"{k} {v}" for k, v in sorted(scores.items())) if scores else ""


@cache
def _counters(path: Path) -> dict[str, dict[str, Any]]:
    """The printed counters of an order of battle file, by id (public: printed on the counters)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {entry["id"]: entry for entry in [*data.get("units", []), *data.get("leaders", [])]}


def _caption(view: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """Who sees it and when: the turn on the turn track, the phase, the weather box where the game keeps one."""
    phase = "/".join(str(state[k]) for k in ("phase", "step") if state.get(k))
    turn = f"turn {state.get('turn')}" + (f" of {state['last_turn']}" if state.get("last_turn") else "")
    weather = f", weather box {state['weather']}" if state.get("weather") else ""
    return f"as seen by {view['seat']} after event #{view['engine']['seq']}: {turn}, {phase}{weather}"


def _stacked(placed: list[tuple[str, Piece]]) -> dict[str, tuple[Piece, ...]]:
    pieces: dict[str, list[Piece]] = {}
    for hex_id, piece in placed:
        pieces.setdefault(hex_id, []).append(piece)
    return {h: tuple(p) for h, p in sorted(pieces.items())}


def parabellum_picture(title: str, folder: Path) -> Picturing:
    """The Para Bellum system's picture (caldiero §20.4, arrivano §11.3.2 fog of war): units and commanders on the
    map as the view serves them, each unit with its printed strength (reduced side when reduced), efficiency and
    movement and its state (disordered, routed, charging, damaged; arrivano §16.3.4's V and F markers of open
    order and fatigue); each formation's order on its
    general (caldiero §5, arrivano §5), so only where the seat may examine him; `hidden_stacks` as markers; the
    victory hexes with their points (caldiero §18, arrivano §17.1.8/§17.2.12). `folder`: the scenario's data folder
    (map.json, oob.json, scenario.json)."""

    def picture(view: Mapping[str, Any], provisional: tuple[str, ...]) -> HexPicture:
        state = view["state"]
        scenario_folder = folder / state["scenario"] if (folder / state["scenario"]).is_dir() else folder
        printed = _counters(scenario_folder / "oob.json")
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
        scenario = _json(scenario_folder / "scenario.json")
        victory = scenario.get("victory_hexes") or scenario.get("victory", {}).get("objectives", [])
        objectives = {v["hex"]: Objective(name=v.get("place", v["hex"]), value=str(v.get("points", v.get("vp", ""))))
                      for v in victory}
        caption = _caption(view, state) + _tally("steps lost", state.get("steps_lost"))
        return HexPicture(hexmap=_hexmap(scenario_folder / "map.json"), title=title, caption=caption,
                          pieces=_stacked(placed), colours=SIDE_COLOURS, provisional=provisional,
                          objectives=objectives)

    return picture


def _unit_counter(uid: str, unit: Mapping[str, Any], printed: Mapping[str, Any]) -> Counter:
    strength = printed.get("reduced") if unit.get("reduced") else printed.get("strength")
    values = "-".join(str(v) for v in (strength, printed.get("efficiency"), printed.get("movement")) if v is not None)
    marks = tuple(m for m in ("reduced" if unit.get("reduced") else "", STATUS_MARKS.get(unit.get("status", ""), ""),
                              "charging" if unit.get("charging") else "", str(unit.get("open_order") or ""),
                              "damaged" if unit.get("damaged") else "") if m)
    return Counter(id=uid, side=unit["side"], label=uid, values=values, marks=marks)


def caricat_picture(view: Mapping[str, Any], provisional: tuple[str, ...]) -> HexPicture:
    """Caricat!'s picture (nothing is hidden in Caricat!): each unit with its printed melee, fire and morale (the
    reduced values once it has lost morale levels, caricat §7.5) and its hits; each leader with the unit he stands
    with and his commitment level (caricat §2-§3); each objective with its points by side, in the colour of its
    holder (caricat §13). Drawn on the shipped scenario's map (a game on a user's own data folder is drawn on the
    shipped map)."""
    state = view["state"]
    data = ADJUDICATOR / "caricat" / "data"
    printed = _counters(data / f"{state['scenario']}.json")
    objectives = {o["hex"]: Objective(name=o.get("name", o["hex"]), holder=state.get("control", {}).get(
        o["hex"], o.get("controller", "")), value=" ".join(f"{side[0]}{n}" for side, n in sorted(o["vp"].items())))
        for o in _json(data / f"{state['scenario']}.json").get("objectives", [])}
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
    return HexPicture(hexmap=_hexmap(data / f"{state['scenario']}_map.json"), title="Caricat!",
                      caption=_caption(view, state) + _tally("VP", state.get("vp")), pieces=_stacked(placed),
                      colours=SIDE_COLOURS, provisional=provisional, objectives=objectives)


@cache
def _marengo_map() -> tuple[tuple[Zone, ...], tuple[Approach, ...]]:
    data = json.loads((ADJUDICATOR / "marengo" / "data" / "map.json").read_text(encoding="utf-8"))
    zones = tuple(Zone(id=z["id"], name=z["name"], capacity=z["capacity"], star=bool(z.get("star")))
                  for z in data["zones"])
    approaches = tuple(Approach(zone=a["zone"], toward=a["toward"], width=a["width"], symbols=_symbols(a))
                       for a in data["approaches"])
    return zones, approaches


def _symbols(approach: Mapping[str, Any]) -> tuple[str, ...]:
    """An approach's printed symbols (marengo §5): its penalties by arm, the cavalry obstacle, impassable."""
    marks = [f"{arm[0].upper()}+{n}" for arm, n in sorted(approach.get("penalty", {}).items()) if n]
    marks += ["no cav." for _ in (1,) if approach.get("cavalry_obstacle")]
    marks += ["impassable" for _ in (1,) if approach.get("impassable")]
    return tuple(marks)


def marengo_picture(view: Mapping[str, Any], provisional: tuple[str, ...]) -> AreaPicture:
    """Marengo's picture (marengo §4-§5): the seat's own blocks with arm and strength, an enemy block face up with
    its arm and strength, face down as a blank block (its token and identity are not drawn). Drawn on the shipped
    map (a game on a user's own data folder is drawn on the shipped map)."""
    state = view["state"]
    zones, approaches = _marengo_map()
    known = {z.id for z in zones}
    blocks: dict[str, list[Block]] = {}
    served = state["blocks"]  # the umpire is served the whole state: blocks by id
    own = [{**b, "block": bid} for bid, b in served.items()] if isinstance(served, dict) else served
    for b in [*own, *state.get("enemy_blocks", [])]:
        if b["zone"] in known:
            values = f"{b['arm'][0].upper()}{b['strength']}" if "arm" in b else ""
            blocks.setdefault(b["zone"], []).append(Block(side=b["side"], id=b.get("block", ""), values=values))
    caption = (f"as seen by {view['seat']} after event #{view['engine']['seq']}: turn {state['turn']}, "
               f"{state['hour']}, {state['phasing']} {state['step']}" + _tally("morale", state.get("morale")))
    return AreaPicture(title="Bonaparte a Marengo", caption=caption, zones=zones, approaches=approaches,
                       blocks={z: tuple(bs) for z, bs in sorted(blocks.items())}, colours=SIDE_COLOURS,
                       provisional=provisional)


MONFERRATO_COLOURS: dict[str, str] = {  # by nation (monferrato §2.1): the French side blues and reds, Spain's yellows
    "francia": "#7f9fd8", "gonzaga": "#e08a8a", "venezia": "#b59ad8", "spagna": "#f2d46b", "savoia": "#9fd8a8",
}
KIND_LETTERS: dict[str, str] = {"infantry": "I", "cavalry": "C", "artillery": "A", "sapper": "S", "garrison": "G",
                                "camp": "K", "commander": "L"}
UNIT_MARKS = ("disorganised", "unsupplied", "raiding")


@cache
def _monferrato_data() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    folder = ADJUDICATOR / "monferrato" / "data"
    oob = json.loads((folder / "oob.json").read_text(encoding="utf-8"))
    return json.loads((folder / "map.json").read_text(encoding="utf-8")), {u["id"]: u for u in oob["units"]}


def monferrato_picture(view: Mapping[str, Any], provisional: tuple[str, ...]) -> AreaPicture:
    """Monferrato's picture (monferrato §2-§3): its zones (open or difficult; fortresses, towns and their victory
    points; the forts standing in them, by owner; a town destroyed, a zone raided), its borders (land, river, a river
    with a bridge, a passage, impassable) with each fortress side's wall level, and every unit on the map in its
    nation's colours with its kind and fire (a commander: his leadership), a red bar when disorganised, out of supply
    or raiding. Nothing on Monferrato's map is hidden (the chits in hand are, and are not drawn). Drawn on the shipped
    map (a game on a user's own data folder is drawn on the shipped map)."""
    state = view["state"]
    data, printed = _monferrato_data()
    forts, walls = state.get("forts", {}), state.get("walls", {})
    zones = tuple(Zone(id=z["id"], name=z["name"], terrain=z["terrain"], star=bool(z["vp"]),
                       marks=_zone_marks(z, forts.get(z["id"], ()), state)) for z in data["zones"])
    approaches = tuple(_border(b, walls) for b in data["borders"])
    known = {z.id for z in zones}
    blocks: dict[str, list[Block]] = {}
    for uid, unit in state["units"].items():
        if unit.get("zone") in known:
            p = printed.get(uid, {})
            value = p.get("leadership") if p.get("kind") == "commander" else p.get("fire", "")
            marks = tuple(m for m in UNIT_MARKS if unit.get(m))
            blocks.setdefault(unit["zone"], []).append(Block(side=p.get("nation", ""), id=uid, values=(
                f"{KIND_LETTERS.get(p.get('kind', ''), '?')}{value}"), marks=marks))
    return AreaPicture(title="La Seconda Guerra del Monferrato", caption=_caption(view, state) + _tally("VP", state.get("vp")),
                       zones=zones, approaches=approaches, colours=MONFERRATO_COLOURS, provisional=provisional,
                       blocks={z: tuple(bs) for z, bs in sorted(blocks.items())})


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


PICTURES: dict[str, Picturing] = {
    "marengo": marengo_picture,
    "monferrato": monferrato_picture,
    "caldiero": parabellum_picture("Caldiero 1796", ADJUDICATOR / "caldiero" / "data"),
    "arrivano": parabellum_picture("Arrivano i Francesi!", ADJUDICATOR / "arrivano" / "data"),
    "caricat": caricat_picture,
}
