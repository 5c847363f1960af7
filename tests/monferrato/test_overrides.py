"""A position's overrides in Monferrato (issue 19 item 13): a counter's values, a unit added or removed, a zone's
terrain, a border's kind or wall, a chit's line, supply sources, fort counters; each changes what the rules do, is
checked with every problem at once, is named as non-standard by `status` in words that name no hand, and verifies."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.service import POSITION_FORMAT
from arbitro.projections.monferrato import MonferratoState
from tests.monferrato.harness import Game, app, state
from arbitro.adjudicator.seat_numbers import events_of


def create(s: MonferratoState, *overrides: dict[str, Any], transcribed: bool = True) -> Game:
    a = app()
    pos = {"format": POSITION_FORMAT, "ruleset": "monferrato", "scenario": "1628", "state": msgspec.to_builtins(s),
           "overrides": list(overrides)}
    return Game(a, a.create("monferrato", position=pos, transcribed=transcribed))


def moves(g: Game, seat: str = "pro_spain") -> list[Any]:
    return [c["path"] for c in g.legal(seat) if c["type"] == "move"]


def test_a_counters_fire_is_overridden_and_the_battle_fires_at_it() -> None:
    s = state(placed={"spa_inf1": "alessandria", "spa_camp": "alessandria", "gon_inf2": "valenza"}, only=True)
    g = create(s, {"kind": "unit", "unit": "spa_inf1", "fire": 6})
    g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    g.send("pro_spain", type="move", units=["spa_inf1"], path=["valenza"])
    g.send("pro_france", type="respond", chit=None)
    g.enter(6)
    events = g.enter(6)  # the defender's die
    volley = next(e for e in events if e["type"] == "volley" and e["seat"] == "pro_spain")
    assert volley["fire"] in ([6], (6,)) and volley["hits"] == 1  # a 6 hits at fire 6 (monferrato §7.2)
    assert g.app.status(g.id).non_standard == ["one infantry of milano: printed fire not the counter's (monferrato §2.1)"]
    assert g.app.verify(g.id).passed


def test_a_zone_made_difficult_costs_two_movement_points() -> None:
    s = state(placed={"spa_inf1": "alessandria"}, only=True)
    standard = create(s)
    changed = create(s, {"kind": "zone", "zone": "valenza", "terrain": "difficult"})
    for g in (standard, changed):
        g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    far = [p for p in moves(standard) if p[0] == "valenza" and len(p) == 3]
    assert far, "three open zones through Valenza in the standard game (monferrato §6)"
    assert not [p for p in moves(changed) if p[0] == "valenza" and len(p) == 3]  # Valenza costs 2 now
    assert changed.app.status(changed.id).non_standard == ["zone valenza: terrain not the map's (monferrato §2.3)"]


def test_a_border_made_impassable_closes_it() -> None:
    s = state(placed={"spa_inf1": "alessandria"}, only=True)
    g = create(s, {"kind": "border", "zones": ["alessandria", "valenza"], "border": "impassable"})
    g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    assert ["valenza"] not in moves(g)
    g.reject("pro_spain", "monferrato §2.3", "cannot be crossed", type="move", units=["spa_inf1"], path=["valenza"])
    assert g.app.status(g.id).non_standard == ["border alessandria/valenza: kind not the map's (monferrato §2.3)"]


def test_a_wall_s_printed_level_bounds_the_standing_level() -> None:
    s = state()
    s.walls["casale/moncalvo"] = 3
    with pytest.raises(BadPosition, match="casale/moncalvo: level 3 outside 0..2"):
        create(s, {"kind": "border", "zones": ["casale", "moncalvo"], "wall_level": 2})
    s.walls["casale/moncalvo"] = 1
    g = create(s, {"kind": "border", "zones": ["moncalvo", "casale"], "wall_level": 2})
    assert g.state.walls["casale/moncalvo"] == 1


def test_a_unit_added_and_a_unit_removed_change_the_order_of_battle() -> None:
    s = state(placed={"spa_inf1": "alessandria"}, only=True)
    g = create(s, {"kind": "unit_removed", "unit": "spa_inf2"},
               {"kind": "unit_added", "unit": {"id": "spa_inf9", "name": "Tercio nuovo", "command": "milano",
                                               "kind": "infantry", "fire": 4}, "zone": "alessandria"})
    assert "spa_inf2" not in g.state.units and g.state.units["spa_inf9"].zone == "alessandria"
    g.send("pro_spain", type="activate", zones=["alessandria"], commander=None)
    assert any(c["type"] == "move" and "spa_inf9" in c["units"] for c in g.legal("pro_spain"))
    assert g.app.status(g.id).non_standard == [
        "one infantry of milano removed from the order of battle (monferrato §2.1)",
        "one infantry of milano added to the order of battle (monferrato §2.1)"]


def test_a_chit_made_mandatory_must_be_played_first() -> None:
    s = state(placed={"spa_inf1": "alessandria"}, only=True)
    g = create(s, {"kind": "chit", "chit": "chit11", "mandatory": "yes"})
    listed = g.legal("pro_spain")
    assert listed and all(c["type"] == "play_chit" for c in listed)  # monferrato §16.1: the mandatory chit first
    (named,) = g.app.status(g.id).non_standard
    assert named == "chit chit11: mandatory not the chit table's (monferrato §16)"
    served = json.dumps(events_of(g.app.log(g.id, "pro_france", 0, 0)), ensure_ascii=False)
    assert named in served and "pro_spain" not in named  # the name says nothing of whose hand holds it


def test_supply_sources_and_fort_counters_are_overridden() -> None:
    s = state(placed={"spa_inf1": "alessandria"}, only=True)
    s.forts = {}
    g = create(s, {"kind": "supply_sources", "command": "milano", "zones": ["alessandria"]},
               {"kind": "fort_counters", "seat": "pro_spain", "count": 1})
    assert g.state.fort_counters["pro_spain"] == 1
    assert g.app.status(g.id).non_standard == [
        "command milano: supply sources not the scenario's (monferrato §13)",
        "pro_spain: 1 fort counters, not the scenario's 3 (monferrato §10)"]


def test_every_problem_of_every_override_is_reported_at_once() -> None:
    with pytest.raises(BadPosition) as e:
        create(state(), {"kind": "weather"}, {"kind": "zone", "zone": "atlantis", "terrain": "open"},
               {"kind": "unit", "unit": "spa_inf1"}, {"kind": "border", "zones": ["alba", "mantova"], "bridge": True},
               {"kind": "zone", "zone": "alba", "fortress": True})
    text = str(e.value)
    for words in ("overrides[0]: unknown kind 'weather'", "overrides[1] (zone): no zone 'atlantis'",
                  "overrides[2] (unit): name what it changes", "overrides[3] (border): no border between 'alba' and "
                  "'mantova'", "overrides[4] (zone): the data it leaves: map.json: $.zones: fortress 'alba' has no "
                  "wall sides"):
        assert words in text, (words, text)
