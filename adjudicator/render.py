"""`arbitro render`'s library call: the map picture of a game as one seat sees it at one event (issue 13). The
picture is built from `Arbitro.view` (exactly what the seat is served), never from the state itself."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.pictures.areas import draw_area_picture
from arbitro.adjudicator.pictures.hexes import draw_hex_picture
from arbitro.adjudicator.pictures.model import AreaPicture, Counter, HexPicture, Picture
from arbitro.adjudicator.pictures.rulesets import PICTURES
from arbitro.adjudicator.service import Arbitro


@dataclass(frozen=True, slots=True)
class Rendered:
    svg: str
    drawn: dict[str, Any]  # what the picture shows, as `arbitro render --json` prints it


def render(app: Arbitro, game_id: str, seat: str, at: int | None = None) -> Rendered:
    """The SVG of `game_id` as `seat` sees it after event `at` (default: now), and a summary of what was drawn."""
    record = app.game(game_id)
    picturing = PICTURES.get(record.ruleset)
    if picturing is None:
        raise BadInput(f"no map picture for {record.ruleset} games yet (pictures exist for "
                       f"{', '.join(sorted(PICTURES))}); see issue 13")
    view = app.view(game_id, seat, at)
    picture = picturing(view, tuple(registry.get(record.ruleset).provisional(record.scenario)))
    if isinstance(picture, HexPicture):
        picture = replace(picture, moves=last_moves(app, game_id, seat, view["engine"]["seq"]))
    svg = draw_area_picture(picture) if isinstance(picture, AreaPicture) else draw_hex_picture(picture)
    head = {"game": game_id, "seat": seat, "at": view["engine"]["seq"], "title": picture.title,
            "caption": picture.caption, "provisional": list(picture.provisional)}
    return Rendered(svg=svg.as_svg(), drawn=head | drawn(picture))


MOVE_WINDOW = 200  # how many events back the last move is looked for


def last_moves(app: Arbitro, game_id: str, seat: str, seq: int) -> tuple[tuple[str, ...], ...]:
    """The paths of the last command that moved pieces, as `seat` is served its events (a move it may not see is
    served hidden, so it gets no arrow), each from the hex where the seat's view put the piece before that command."""
    served = [e for e in app.log(game_id, seat, max(1, seq - MOVE_WINDOW), seq) if (e.get("event") or {}).get("path")]
    if not served:
        return ()
    last = [e for e in served if e["cmd"] == served[-1]["cmd"]]
    moved = [e["event"] for e in last]
    before = app.view(game_id, seat, last[0]["seq"] - 1)["state"]
    paths = []
    for event in moved:
        path = tuple(event["path"])
        pieces = [*event.get("units", ()), *(event[k] for k in ("unit", "leader") if isinstance(event.get(k), str))]
        known = [p for p in (before.get("units", {}).get(x) or before.get("leaders", {}).get(x) for x in pieces) if p]
        origin = next((p["hex"] for p in known if isinstance(p, dict) and p.get("hex")), None)
        paths.append(((origin,) if origin and origin != path[0] else ()) + path)
    return tuple(paths)


def drawn(picture: Picture) -> dict[str, Any]:
    """What a picture shows: on a hex map every counter by id and hex and every unexamined stack by hex and side;
    on an area map every block by zone (an enemy's without its id)."""
    if isinstance(picture, AreaPicture):
        blocks = [{"zone": z, "side": b.side, "id": b.id, "values": b.values}
                  for z, bs in picture.blocks.items() for b in bs]
        return {"kind": "area", "zones": len(picture.zones), "blocks": blocks,
                "blank_blocks": sum(1 for b in blocks if not b["values"])}
    counters = [{"id": p.id, "hex": h, "side": p.side, "values": p.values, "marks": list(p.marks)}
                for h, stack in picture.pieces.items() for p in stack if isinstance(p, Counter)]
    stacks = [{"hex": h, "side": p.side} for h, stack in picture.pieces.items() for p in stack
              if not isinstance(p, Counter)]
    return {"kind": "hex", "hexes": len(picture.hexmap.hexes()), "counters": counters, "hidden_stacks": stacks,
            "moves": [list(p) for p in picture.moves]}
