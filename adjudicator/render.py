"""`arbitro render`'s library call: the map picture of a game as one seat sees it at one event (issue 13). The
picture is built from `Arbitro.view` (exactly what the seat is served), never from the state itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.pictures.hexes import draw_hex_picture
from arbitro.adjudicator.pictures.model import Counter, HexPicture
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
    return Rendered(svg=draw_hex_picture(picture).as_svg(), drawn=drawn(picture, game_id, seat, view["engine"]["seq"]))


def drawn(picture: HexPicture, game_id: str, seat: str, seq: int) -> dict[str, Any]:
    """What a picture shows: every counter by id and hex, every unexamined stack by hex and side."""
    counters = [{"id": p.id, "hex": h, "side": p.side, "values": p.values, "marks": list(p.marks)}
                for h, stack in picture.pieces.items() for p in stack if isinstance(p, Counter)]
    stacks = [{"hex": h, "side": p.side} for h, stack in picture.pieces.items() for p in stack
              if not isinstance(p, Counter)]
    return {"game": game_id, "seat": seat, "at": seq, "kind": "hex", "title": picture.title,
            "caption": picture.caption, "hexes": len(picture.hexmap.hexes()), "counters": counters,
            "hidden_stacks": stacks, "provisional": list(picture.provisional)}
