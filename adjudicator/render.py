"""`arbitro render`'s library call: the map picture of a game as one seat sees it at one event (issue 13). The
picture is built from `Arbitro.view` (exactly what the seat is served), never from the state itself. Only the
umpire's picture is drawn on the game's own data files (Arbitro.played_data); every other seat's on the shipped data,
with a notice in its caption, online and offline alike (rev-fidelity2 1)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import NotDrawn
from arbitro.adjudicator.pictures.areas import draw_area_picture
from arbitro.adjudicator.pictures.hexes import draw_hex_picture
from arbitro.adjudicator.pictures.model import AreaPicture, Counter, HexPicture, Picture
from arbitro.adjudicator.pictures.rulesets import PICTURES
from arbitro.adjudicator.seat_numbers import events_of
from arbitro.adjudicator.service import Arbitro
from arbitro.projections.base import UMPIRE


@dataclass(frozen=True, slots=True)
class Rendered:
    svg: str
    drawn: dict[str, Any]  # what the picture shows, as `arbitro render --json` prints it


def render(app: Arbitro, game_id: str, seat: str, at: int | None = None) -> Rendered:
    """The SVG of `game_id` as `seat` sees it after event `at` (default: now), and a summary of what was drawn."""
    record = app.game(game_id)
    picturing = PICTURES.get(record.ruleset)
    if picturing is None:
        raise NotDrawn(f"no map picture for {record.ruleset} games: pictures are drawn for "
                       f"{', '.join(sorted(PICTURES))} games")
    view = app.view(game_id, seat, at)
    seq = view["engine"]["seq"]
    picture = picturing(view, tuple(registry.get(record.ruleset).provisional(record.scenario)),
                        app.played_data(game_id, seq) if seat == UMPIRE else {})
    if seat != UMPIRE and plays_own_data(app, game_id, seat):
        picture = replace(picture, caption=picture.caption + OWN_DATA_NOTICE)
    window = events_of(app.log(game_id, seat, max(1, seq - MOVE_WINDOW), seq))
    if isinstance(picture, HexPicture):
        picture = replace(picture, moves=last_moves(app, game_id, seat, window),
                          assaults=last_assault(app, game_id, seat, window))
    else:
        picture = replace(picture, assaults=last_area_assault(window))
    svg = draw_area_picture(picture) if isinstance(picture, AreaPicture) else draw_hex_picture(picture)
    head = {"game": game_id, "seat": seat, "at": view["engine"]["seq"], "title": picture.title,
            "caption": picture.caption, "provisional": list(picture.provisional)}
    return Rendered(svg=svg.as_svg(), drawn=head | drawn(picture))


OWN_DATA_NOTICE = "; counters as shipped: this game plays on data files of its own, seen by the umpire only"


def plays_own_data(app: Arbitro, game_id: str, seat: str) -> bool:
    """Whether the game's genesis, as `seat` is served it, marks data files of its own (creation.mark_own_data): a
    public fact, unlike what the files hold. A seat's picture is then drawn on the shipped data, as its offline copy
    draws it (seatcopy.played_data), since the printed values of the game's own files are the umpire's
    (views.served_origin; tests/foundation/test_position_carried_data.py FOLDER_VALUE), and its caption says so."""
    first = 1 if seat == UMPIRE else 0  # the genesis: the log's #1, a seat's command #0 (engine-rules §V.6)
    genesis = events_of(app.log(game_id, seat, first, first))[0].get("event") or {}
    return bool(genesis.get("origin", {}).get("own_data"))


MOVE_WINDOW = 200  # how many events back the last move and the last assault are looked for
TARGET_KEYS = ("targets", "target")  # where a declared attack names what it attacks


def _last_command(app: Arbitro, game_id: str, seat: str, window: list[dict[str, Any]],
                  wanted: Callable[[dict[str, Any]], bool]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The events of the last command in `window` (as `seat` was served them) that `wanted` picks, and the seat's
    view of the state just before that command ([] and {} when there is none)."""
    picked = [e for e in window if wanted(e.get("event") or {})]
    if not picked:
        return [], {}
    last = [e for e in picked if e["cmd"] == picked[-1]["cmd"]]
    return [e["event"] for e in last], app.view(game_id, seat, last[0]["seq"] - 1)["state"]


def _where(before: dict[str, Any], piece: Any) -> str | None:
    """Where the seat's view put a piece (a unit or a commander), if it could see it."""
    known = before.get("units", {}).get(piece) or before.get("leaders", {}).get(piece) if isinstance(piece, str) else None
    return known.get("hex") if isinstance(known, dict) else None


def last_moves(app: Arbitro, game_id: str, seat: str, window: list[dict[str, Any]]) -> tuple[tuple[str, ...], ...]:
    """The paths of the last command that moved pieces, as `seat` is served its events (a move it may not see is
    served hidden, so it gets no arrow), each from the hex where the seat's view put the piece before that command."""
    moved, before = _last_command(app, game_id, seat, window, lambda e: bool(e.get("path")))
    paths = []
    for event in moved:
        path = tuple(event["path"])
        pieces = [*event.get("units", ()), *(event[k] for k in ("unit", "leader") if isinstance(event.get(k), str))]
        origin = next((h for h in map(lambda p: _where(before, p), pieces) if h), None)
        paths.append(((origin,) if origin and origin != path[0] else ()) + path)
    return tuple(paths)


def last_assault(app: Arbitro, game_id: str, seat: str, window: list[dict[str, Any]]) -> tuple[tuple[str, str], ...]:
    """The last attack declared that `seat` was served (caldiero §12.2, arrivano §12.2, caricat §7): an arrow from
    each attacker's hex, where the seat's view put it before, to each hex attacked (a unit attacked: its hex)."""
    declared, before = _last_command(app, game_id, seat, window,
                                     lambda e: bool(e.get("attackers")) and any(e.get(k) for k in TARGET_KEYS))
    arrows: list[tuple[str, str]] = []
    for event in declared[:1]:
        named = [event.get(k) for k in TARGET_KEYS]
        targets = [t for v in named if v for t in ([v] if isinstance(v, str) else v)]
        ends = [_where(before, t) or t for t in targets]
        starts = [h for h in (_where(before, a) for a in event["attackers"]) if h]
        arrows += [(a, b) for a in dict.fromkeys(starts) for b in dict.fromkeys(ends) if isinstance(b, str)]
    return tuple(arrows)


def last_area_assault(window: list[dict[str, Any]]) -> tuple[tuple[str, str], ...]:
    """The last assault across an approach that the seat was served (marengo §11: the approach is named from the
    attackers' zone, 'from/to'): one arrow from the attackers' zone to the zone attacked."""
    approaches = [e["event"]["approach"] for e in window
                  if e["type"] == "assault_declared" and "/" in str((e.get("event") or {}).get("approach", ""))]
    if not approaches:
        return ()
    start, _, end = approaches[-1].partition("/")
    return ((start, end),)


def drawn(picture: Picture) -> dict[str, Any]:
    """What a picture shows: on a hex map every counter by id and hex and every unexamined stack by hex and side;
    on an area map every block by zone (an enemy's without its id)."""
    if isinstance(picture, AreaPicture):
        blocks = [{"zone": z, "side": b.side, "id": b.id, "values": b.values}
                  for z, bs in picture.blocks.items() for b in bs]
        return {"kind": "area", "zones": len(picture.zones), "blocks": blocks,
                "blank_blocks": sum(1 for b in blocks if not b["values"]),
                "assaults": [list(a) for a in picture.assaults]}
    counters = [{"id": p.id, "hex": h, "side": p.side, "values": p.values, "marks": list(p.marks), "order": p.order}
                for h, stack in picture.pieces.items() for p in stack if isinstance(p, Counter)]
    stacks = [{"hex": h, "side": p.side} for h, stack in picture.pieces.items() for p in stack
              if not isinstance(p, Counter)]
    return {"kind": "hex", "hexes": len(picture.hexmap.hexes()), "counters": counters, "hidden_stacks": stacks,
            "moves": [list(p) for p in picture.moves], "assaults": [list(a) for a in picture.assaults],
            "objectives": {h: {"name": o.name, "value": o.value, "holder": o.holder}
                           for h, o in sorted(picture.objectives.items())}}
