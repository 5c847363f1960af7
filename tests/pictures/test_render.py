"""Map pictures (issue 13): every piece of a scenario's set-up is drawn where the state puts it, and a seat's picture
holds nothing that seat may not know (caldiero §20.4 fog of war), proved by the ruleset's secrets and by
non-interference (two positions differing only in a hidden fact give the other seat the same SVG bytes)."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbitro.adjudicator import cli_render, registry
from arbitro.adjudicator.pictures.areas import draw_area_picture
from arbitro.adjudicator.pictures.hexes import draw_hex_picture
from arbitro.adjudicator.render import render
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.pictures.rulesets import PICTURES
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from arbitro.projections.game import CoreState, GameState
from arbitro.projections.views import seat_view
from tests.caldiero.harness import RULESET as CALDIERO, position
from tests.conformance.leaks import leaked
from tests.marengo.harness import position as marengo_position
from tests.monferrato.harness import Game, set_up
from arbitro.adjudicator.seat_numbers import events_of

SVG = "{http://www.w3.org/2000/svg}"
SET_UPS = [("caldiero", "historical"), ("caldiero", "il_tempo_regge"), ("arrivano", "montebello"),
           ("arrivano", "campotenese"), ("caricat", "pastrengo"), ("caricat", "montebello")]


def drawn_pieces(svg: str) -> dict[str, str]:
    """Each counter drawn: its id -> the hex it is drawn in (read back from the SVG)."""
    pieces = {g.get("data-piece"): g.get("data-hex") for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("data-piece")}
    return {k: v for k, v in pieces.items() if k is not None and v is not None}


def drawn_stacks(svg: str) -> dict[str, str]:
    return {g.get("data-hex") or "": g.get("data-stack") or "" for g in ET.fromstring(svg).iter(f"{SVG}g")
            if g.get("data-stack")}


@pytest.mark.parametrize(("ruleset", "scenario"), SET_UPS)
def test_every_unit_of_the_set_up_is_drawn_where_the_state_puts_it(ruleset: str, scenario: str) -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create(ruleset, scenario)
    rules = app.state_at(game).rules
    on_map = {uid: u.hex for uid, u in rules.units.items() if u.where == "map"}
    assert on_map, "the set-up puts units on the map"
    pieces = drawn_pieces(render(app, game, UMPIRE).svg)
    assert {uid: pieces.get(uid) for uid in on_map} == on_map
    assert set(pieces) - set(on_map) <= set(rules.leaders), "only units and commanders are drawn as counters"
    hexes = {p.get("data-hex") for p in ET.fromstring(render(app, game, UMPIRE).svg).iter() if p.get("data-terrain")}
    assert set(on_map.values()) <= hexes, "every occupied hex is drawn"


def test_a_seat_s_picture_under_fog_of_war_names_no_hidden_unit_and_marks_its_stack() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caldiero", "historical", ("fog_of_war",))
    state = app.state_at(game).rules
    for seat, enemy in (("france", "austria"), ("austria", "france")):
        secrets = CALDIERO.secrets(state, seat)
        assert secrets, f"the set-up hides something from {seat}"
        svg = render(app, game, seat).svg
        assert leaked(svg, secrets) == []
        hidden = {u.hex for u in state.units.values()
                  if u.side == enemy and u.where == "map" and CALDIERO.unexaminable(state, seat, [u.hex])}
        assert hidden and drawn_stacks(svg) == {h: enemy for h in hidden}, "each unexamined stack is one marker"
        served = app.view(game, seat)["state"]
        assert drawn_pieces(svg) == {pid: p["hex"] for pid, p in [*served["units"].items(), *served["leaders"].items()]
                                     if p["where"] == "map"}, "exactly the pieces the seat's view puts on the map"


OOC, OTHER = "2518", "2617"  # out of Austria's sight in this position (tests/caldiero/test_fog_served.py)


def caldiero_svg(stacks: dict[str, str], seat: str) -> str:
    state = position({"fr-18-ligne": "1417", **stacks, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "attack"}, options=("fog_of_war",))
    assert CALDIERO.unexaminable(state, "austria", [OOC, OTHER]) == {OOC, OTHER}
    view = seat_view(CALDIERO, GameState(core=CoreState(seq=7), rules=state), seat)
    return str(draw_hex_picture(PICTURES["caldiero"](view, ())).as_svg())


def test_what_a_hidden_stack_holds_changes_no_byte_of_the_other_seat_s_picture() -> None:
    infantry = {"fr-40-ligne": OOC, "fr-9-dragons": OTHER}
    cavalry = {"fr-9-dragons": OOC, "fr-40-ligne": OTHER}
    assert caldiero_svg(infantry, UMPIRE) != caldiero_svg(cavalry, UMPIRE), "the umpire's picture shows the swap"
    assert caldiero_svg(infantry, "austria").encode() == caldiero_svg(cavalry, "austria").encode()


def test_the_provisional_data_is_named_in_the_margin() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caldiero", "historical")
    rendered = render(app, game, "france")
    notes = " ".join(t.text or "" for t in ET.fromstring(rendered.svg).iter(f"{SVG}text") if t.get("class") == "provisional")
    assert rendered.drawn["provisional"] == registry.get("caldiero").provisional("historical")
    assert "crt.json" in notes and notes.startswith("Provisional")


def test_render_command_writes_the_svg_and_says_what_it_drew(tmp_path: Path) -> None:
    db, out = str(tmp_path / "g.db"), tmp_path / "map.svg"
    runner = CliRunner()
    game = runner.invoke(cli, ["new", "caricat", "pastrengo", "--no-seat-entropy", "--db", db]).output.split()[-1]
    result = runner.invoke(cli, ["render", game, "--as", "italian", "-o", str(out), "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    drawn = __import__("json").loads(result.output)
    assert drawn_pieces(out.read_text()) == {c["id"]: c["hex"] for c in drawn["counters"]}
    assert drawn["seat"] == "italian" and drawn["hidden_stacks"] == []
    refused = runner.invoke(cli, ["render", game, "-o", str(out), "--png", "--db", db], env={"PATH": ""})
    assert refused.exit_code == 2 and "rsvg-convert" in refused.output


def blocks_drawn(svg: str) -> list[tuple[str, str, str]]:
    """Each block drawn on an area map: (zone, side, its id or how it is drawn: blank or face up)."""
    return [(g.get("data-zone") or "", g.get("data-side") or "",
             g.get("data-piece") or ("blank" if g.get("data-blank") else "face up"))
            for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("data-side")]


def test_every_marengo_block_on_the_map_is_drawn_in_its_zone_and_the_enemy_s_face_down_blocks_blank() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("marengo", "marengo")
    blocks = app.state_at(game).rules.blocks
    on_map = sorted((b.zone, b.side, bid) for bid, b in blocks.items()
                    if not b.zone.startswith("pool:") and b.zone not in ("eliminated", "at_start", ""))
    assert on_map and sorted(blocks_drawn(render(app, game, UMPIRE).svg)) == on_map
    austria = render(app, game, "austria")
    assert sorted(blocks_drawn(austria.svg)) == sorted((z, s, "blank") for z, s, _ in on_map), \
        "the French blocks at start stand face down: Austria sees where, not what"
    assert [bid for bid in blocks if bid in austria.svg] == []
    assert austria.drawn["blank_blocks"] == len(on_map)


def marengo_svg(placed: dict[str, tuple[str, str]], seat: str) -> bytes:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("marengo", position=marengo_position(placed))
    return render(app, game, seat).svg.encode()


def test_which_french_block_stands_face_down_where_changes_no_byte_of_austria_s_picture() -> None:
    pilati = {"AUT_PILATI": ("cascina_grossa", "reserve")}
    cavalry = {**pilati, "FRA_CHAMPEAUX": ("san_giuliano", "reserve"), "FRA_CARRA": ("marengo", "reserve")}
    infantry = {**pilati, "FRA_CHAMPEAUX": ("marengo", "reserve"), "FRA_CARRA": ("san_giuliano", "reserve")}
    assert marengo_svg(cavalry, "france") != marengo_svg(infantry, "france"), "France's own picture shows the swap"
    assert marengo_svg(cavalry, "austria") == marengo_svg(infantry, "austria")


@pytest.mark.parametrize("scenario", ["montebello", "campotenese"])
def test_arrivano_pictures_name_no_hidden_unit_and_a_hidden_unit_s_state_changes_no_byte(scenario: str) -> None:
    """arrivano §11.3.2: a seat's picture holds the view's markers for the stacks it may not examine, none of their
    units' ids, and is the same whatever a unit in such a stack is (here: reduced or not)."""
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("arrivano", scenario)
    ruleset, state = registry.get("arrivano"), app.state_at(game)
    hidden_somewhere = False
    for seat in app.game(game).seats:
        svg = render(app, game, seat).svg
        assert leaked(svg, ruleset.secrets(state.rules, seat)) == []
        assert drawn_stacks(svg) == app.view(game, seat)["state"]["hidden_stacks"]
        for uid, unit in sorted(state.rules.units.items()):
            if unit.side != seat and unit.where == "map" and ruleset.unexaminable(state.rules, seat, [unit.hex]):
                hidden_somewhere = True
                pictures = []
                for reduced in (False, True):
                    unit.reduced = reduced
                    pictures.append([draw_hex_picture(PICTURES["arrivano"](seat_view(ruleset, state, s), ())).as_svg()
                                     for s in (seat, UMPIRE)])
                assert pictures[0][1] != pictures[1][1], "the umpire's picture shows the reduced side"
                assert pictures[0][0].encode() == pictures[1][0].encode()
                break
    assert hidden_somewhere, "the set-up hides a stack from some seat"


def drawn_moves(svg: str) -> list[tuple[str, ...]]:
    return [tuple((p.get("data-move") or "").split()) for p in ET.fromstring(svg).iter() if p.get("data-move")]


def test_the_last_move_is_an_arrow_from_where_the_piece_stood_to_where_it_stands() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caricat", "pastrengo")
    SelfPlay(app, game, seed="arrows").play(60)
    events = app.log(game)
    move = [e for e in events if e["type"] == "unit_moved"][-1]
    unit = move["event"]["unit"]
    before = app.state_at(game, move["seq"] - 1).rules.units[unit].hex
    after = app.state_at(game, move["seq"]).rules.units[unit].hex
    assert [e for e in events if e["seq"] > move["seq"] and (e.get("event") or {}).get("path")] == [], \
        "the picked move is the last one"
    arrows = drawn_moves(render(app, game, UMPIRE).svg)
    path = tuple(move["event"]["path"])
    assert arrows == [path if path[0] == before else (before, *path)] and arrows[0][-1] == after


def test_a_seat_s_arrows_are_drawn_only_from_the_moves_it_was_served() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("arrivano", "montebello")
    SelfPlay(app, game, seed="arrows").play(60)
    for seat in app.game(game).seats:
        served = {tuple(e["event"]["path"]) for e in events_of(app.log(game, seat)) if (e.get("event") or {}).get("path")}
        svg = render(app, game, seat).svg
        arrows = drawn_moves(svg)
        assert arrows and all(any(a[-len(p):] == p for p in served) for a in arrows)
        assert leaked(svg, registry.get("arrivano").secrets(app.state_at(game).rules, seat)) == []


def test_png_is_written_beside_the_svg_or_refused_before_anything_is_written(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    db, out = str(tmp_path / "g.db"), tmp_path / "map.svg"
    runner = CliRunner()
    game = runner.invoke(cli, ["new", "caricat", "pastrengo", "--no-seat-entropy", "--db", db]).output.split()[-1]
    if shutil.which("rsvg-convert"):
        done = runner.invoke(cli, ["render", game, "-o", str(out), "--png", "--db", db])
        assert done.exit_code == 0, done.output
        assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        out.unlink()
    monkeypatch.setattr(cli_render.shutil, "which", lambda name: None)
    refused = runner.invoke(cli, ["render", game, "-o", str(out), "--png", "--db", db])
    assert refused.exit_code == 2 and "apt-get install librsvg2-bin" in refused.output and not out.exists()


def test_every_monferrato_unit_of_the_set_up_is_drawn_in_its_zone_with_the_fortress_walls() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("monferrato")
    state = app.state_at(game).rules
    zones = {z.id for z in PICTURES["monferrato"](app.view(game, UMPIRE), ()).zones}  # type: ignore[union-attr]
    on_map = sorted((u.zone, uid) for uid, u in state.units.items() if u.zone in zones)
    assert on_map and len(on_map) < len(state.units), "the set-up puts some units on the map, others in the pool"
    for seat in (UMPIRE, *app.game(game).seats):
        svg = render(app, game, seat).svg
        assert sorted((z, p) for z, _, p in blocks_drawn(svg)) == on_map, "nothing on Monferrato's map is hidden"
    walls = {a.get("data-approach") for a in ET.fromstring(svg).iter() if a.get("data-approach")}
    assert set(state.walls) <= walls, "each fortress side is drawn from its fortress"
    texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert sorted(t for t in texts if t and t.startswith("wall ")) == sorted(f"wall {n}" for n in state.walls.values())


def test_what_pro_france_holds_in_hand_changes_no_byte_of_pro_spain_s_picture() -> None:
    """monferrato §4: the chits in a hand are hidden from the other player; the picture draws none of them."""
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("monferrato")
    set_up(Game(app, game))  # the players' set-up choices (monferrato scenario), then the chits are dealt
    ruleset, state = registry.get("monferrato"), app.state_at(game)
    hidden = sorted(ruleset.secrets(state.rules, "pro_spain"))
    assert hidden, "Pro-France holds chits Pro-Spain may not know"
    pictures = []
    for swap in (False, True):
        if swap:  # one hidden chit of Pro-France's hand swapped for one still in the cup
            hand, cup = state.rules.hands["pro_france"], state.rules.chit_cup
            i = next(i for i, c in enumerate(hand) if c not in state.rules.public_in_hand)
            hand[i], cup[0] = cup[0], hand[i]
        pictures.append([draw_area_picture(PICTURES["monferrato"](seat_view(ruleset, state, s), ())).as_svg()
                         for s in ("pro_spain", "pro_france")])
        assert [c for c in hidden if c in pictures[-1][0]] == []
    assert pictures[0][0].encode() == pictures[1][0].encode()
    assert seat_view(ruleset, state, "pro_france")["state"]["hand"] != [], "the swap happened in Pro-France's hand"
