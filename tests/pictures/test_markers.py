"""Markers on the map pictures (issue 13): each commander's order or commitment level on his disc, the victory hexes
with their points and holder, the last assault as arrows; each only where the seat may see it (a commander in a
stack the seat may not examine is not drawn, so neither is his order: non-interference)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from arbitro.adjudicator import registry
from arbitro.adjudicator.cli_common import app_for
from arbitro.adjudicator.pictures.hexes import draw_hex_picture
from arbitro.adjudicator.pictures.rulesets import ADJUDICATOR, PICTURES
from arbitro.adjudicator.render import render
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from arbitro.projections.game import CoreState, GameState
from arbitro.projections.views import seat_view
from tests.caldiero.harness import RULESET as CALDIERO, position
from tests.pictures.test_render import OOC, SVG, drawn_pieces
from tests.reports.test_report import LOGS


def marked(svg: str, attribute: str) -> dict[str, str]:
    """Each element carrying `attribute`: its value -> the value of its `data-holder` (or of the attribute)."""
    return {e.get(attribute) or "": e.get("data-holder") or e.get(attribute) or ""
            for e in ET.fromstring(svg).iter() if e.get(attribute)}


def orders_drawn(svg: str) -> dict[str, str]:
    """Each commander drawn with an order tag: his id -> the order."""
    return {g.get("data-piece") or "": tag.get("data-order") or "" for g in ET.fromstring(svg).iter(f"{SVG}g")
            if g.get("data-piece") for tag in g.iter(f"{SVG}g") if tag.get("data-order")}


def read_at(app: Arbitro, game: str, seat: str, seq: int) -> int:
    """Event `seq` of the log in `seat`'s numbers: the umpire's are the log's, a seat's the command that made it."""
    return seq if seat == UMPIRE else app.numbers(app.game(game)).command_of(seq)


def test_each_general_carries_his_formation_s_order_and_each_victory_hex_its_points() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caldiero", "historical")
    state = app.state_at(game).rules
    svg = render(app, game, UMPIRE).svg
    expected = {f.general: f.order for f in state.formations.values()
                if f.general and state.leaders[f.general].where == "map" and f.order}
    assert expected and orders_drawn(svg) == expected
    victory = json.loads((ADJUDICATOR / "caldiero" / "data" / "caldiero" / "scenario.json").read_text())["victory_hexes"]
    assert set(marked(svg, "data-objective")) == {v["hex"] for v in victory}


def test_caricat_objectives_are_drawn_in_their_holder_s_colour_and_leaders_with_their_level() -> None:
    app, game = app_for(str(next(log for log in LOGS if log.name == "caricat-pastrengo.jsonl")), ":memory:")
    cmd = read_at(app, game, "austrian", 400)  # a seat reads after a command (engine-rules §V.6): #400's
    state = app.state_at(game, app.numbers(app.game(game)).last_event(cmd)).rules
    rendered = render(app, game, "austrian", cmd)
    assert marked(rendered.svg, "data-objective") == dict(state.control)
    assert {h: o["holder"] for h, o in rendered.drawn["objectives"].items()} == dict(state.control)
    on_map = {lid: leader.level for lid, leader in state.leaders.items() if lid in drawn_pieces(rendered.svg)}
    assert on_map and orders_drawn(rendered.svg) == on_map
    assert f"VP austrian {state.vp['austrian']}, italian {state.vp['italian']}" in rendered.drawn["caption"]


def test_the_last_assault_is_an_arrow_from_each_attacker_to_what_it_attacks() -> None:
    app, game = app_for(str(next(log for log in LOGS if log.name == "caldiero-full.jsonl")), ":memory:")
    attack = next(e for e in app.log(game) if e["type"] == "assault_declared")
    at = attack["seq"] + 3
    before = app.state_at(game, attack["seq"] - 1).rules
    starts = {before.units[u].hex for u in attack["event"]["attackers"]}
    expected = sorted((a, d) for a in starts for d in attack["event"]["targets"])
    for seat in (UMPIRE, "france", "austria"):
        rendered = render(app, game, seat, read_at(app, game, seat, at))
        assert sorted(map(tuple, rendered.drawn["assaults"])) == expected
        assert sorted(tuple(v.split()) for v in marked(rendered.svg, "data-assault")) == expected


def caldiero_svg(order: str, seat: str) -> str:
    """Massena's general in a stack Austria may not examine (caldiero §20.4), his formation at `order`."""
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": OOC, "au-colloredo": "1917"}, leaders={"massena": OOC},
                     orders={"massena": order}, options=("fog_of_war",))
    assert CALDIERO.unexaminable(state, "austria", [OOC]) == {OOC}
    view = seat_view(CALDIERO, GameState(core=CoreState(seq=7), rules=state), seat)
    return str(draw_hex_picture(PICTURES["caldiero"](view, ())).as_svg())


def test_a_hidden_general_s_order_changes_no_byte_of_the_other_seat_s_picture() -> None:
    assert orders_drawn(caldiero_svg("attack", UMPIRE)) == {"massena": "attack"}
    assert caldiero_svg("attack", UMPIRE) != caldiero_svg("defence", UMPIRE)
    assert caldiero_svg("attack", "austria").encode() == caldiero_svg("defence", "austria").encode()
    assert orders_drawn(caldiero_svg("attack", "austria")) == {}


def test_marengo_s_last_assault_is_an_arrow_from_the_attackers_zone_for_every_seat() -> None:
    app, game = app_for(str(next(log for log in LOGS if log.name == "marengo-full.jsonl")), ":memory:")
    declared = next(e for e in app.log(game) if e["type"] == "assault_declared")["event"]
    start, end = declared["approach"].split("/")
    assert end == declared["target"].split("/")[0], "the approach is named from the attackers' zone"
    at = next(e["seq"] for e in app.log(game) if e["type"] == "assault_resolved")
    for seat in (UMPIRE, "austria", "france"):
        rendered = render(app, game, seat, read_at(app, game, seat, at))
        assert rendered.drawn["assaults"] == [[start, end]] and marked(rendered.svg, "data-assault") == \
            {f"{start} {end}": f"{start} {end}"}


def test_arrivano_s_open_order_and_fatigue_markers_are_drawn_on_the_unit() -> None:
    """arrivano §16.3.4: a unit that acted in open order carries a V, after a second turn an F."""
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("arrivano", "montebello")
    state = app.state_at(game)
    uid, unit = next((u, x) for u, x in sorted(state.rules.units.items()) if x.where == "map")
    for marker in ("V", "F"):
        unit.open_order = marker
        view = seat_view(registry.get("arrivano"), state, unit.side)
        counter = next(c for stack in PICTURES["arrivano"](view, ()).pieces.values()  # type: ignore[union-attr]
                       for c in stack if getattr(c, "id", "") == uid)
        assert marker in counter.marks  # type: ignore[union-attr]
