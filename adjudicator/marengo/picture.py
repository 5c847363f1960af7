"""Marengo's map picture (issue 13, pictures/model.Picturing): the zones and approaches, the seat's own blocks and
the enemy's face-up ones with their values, a face-down enemy block blank."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arbitro.adjudicator.pictures.kit import SIDE_COLOURS, Printed, moment, stacked, tally
from arbitro.adjudicator.pictures.model import Approach, AreaPicture, Block, Zone

DATA = Path(__file__).resolve().parent / "data"


def _map(data: Any) -> tuple[tuple[Zone, ...], tuple[Approach, ...]]:
    zones = tuple(Zone(id=z["id"], name=z["name"], capacity=z["capacity"], star=bool(z.get("star")))
                  for z in data["zones"])
    approaches = tuple(Approach(zone=a["zone"], toward=a["toward"], width=a["width"], symbols=_symbols(a))
                       for a in data["approaches"])
    return zones, approaches


def _symbols(approach: Mapping[str, Any]) -> tuple[str, ...]:
    """An approach's printed symbols (marengo §5): its penalties by arm, the cavalry obstacle, impassable."""
    marks = [f"{arm[0].upper()}+{n}" for arm, n in sorted(approach.get("penalty", {}).items()) if n]
    marks += ["no cav."] if approach.get("cavalry_obstacle") else []
    marks += ["impassable"] if approach.get("impassable") else []
    return tuple(marks)


def marengo_picture(view: Mapping[str, Any], provisional: tuple[str, ...],
                    data: Mapping[str, str] | None = None) -> AreaPicture:
    """Marengo's picture (marengo §4-§5): the seat's own blocks with arm and strength, an enemy block face up with
    its arm and strength, face down as a blank block (its token and identity are not drawn). Drawn on the map of the
    data the game is played on (`data`: its own files where it carries them, else the shipped)."""
    state = view["state"]
    zones, approaches = _map(Printed(DATA, data or {}).json("map.json"))
    known = {z.id for z in zones}
    served = state["blocks"]  # the umpire is served the whole state: blocks by id
    own = [{**b, "block": bid} for bid, b in served.items()] if isinstance(served, dict) else served
    placed = [(b["zone"], Block(side=b["side"], id=b.get("block", ""),
                                values=f"{b['arm'][0].upper()}{b['strength']}" if "arm" in b else ""))
              for b in [*own, *state.get("enemy_blocks", [])] if b["zone"] in known]
    caption = (f"as seen by {view['seat']} {moment(view)}: turn {state['turn']}, "
               f"{state['hour']}, {state['phasing']} {state['step']}" + tally("morale", state.get("morale")))
    return AreaPicture(title="Bonaparte a Marengo", caption=caption, zones=zones, approaches=approaches,
                       blocks=stacked(placed), colours=SIDE_COLOURS, provisional=provisional)
