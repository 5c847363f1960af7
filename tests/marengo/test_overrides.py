"""A position's overrides in Marengo (issue 19 item 13): counter values, a zone's or an approach's terrain, a block
added or removed; each changes what the rules do, is checked with every problem at once, and is named as
non-standard by `status`, in words that name no hidden block."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.marengo import rules as R
from tests.marengo.harness import Game, app, from_position, position
from arbitro.adjudicator.seat_numbers import events_of

# An Austrian cavalry block beside a French block across an approach that does not block cavalry.
CAVALRY_BESIDE_THE_FRENCH = {"AUT_FRIMONT": ("bormida_ansa", "reserve"), "FRA_WATRIN_A": ("pedrabona", "reserve")}
OBSTACLE = {"kind": "approach", "approach": "bormida_ansa/pedrabona", "cavalry_obstacle": True}


def with_overrides(pos: dict[str, Any], *overrides: dict[str, Any]) -> dict[str, Any]:
    return {**pos, "overrides": list(overrides)}


def moves_to(g: Game, zone: str) -> list[dict[str, Any]]:
    return [c for c in g.legal("austria") if c["type"] == "move" and c["to"] == zone]


def test_an_approach_made_a_cavalry_obstacle_stops_a_cavalry_attack_and_is_named_non_standard() -> None:
    standard = from_position(position(CAVALRY_BESIDE_THE_FRENCH))
    assert moves_to(standard, "pedrabona"), "cavalry alone attacks across open ground (marengo §9)"
    assert standard.app.status(standard.id).non_standard == []
    g = from_position(with_overrides(position(CAVALRY_BESIDE_THE_FRENCH), OBSTACLE))
    assert moves_to(g, "pedrabona") == []
    g.reject("austria", str(R.MANOEUVRE), "needs an infantry block",
             type="move", blocks=[g.tok("AUT_FRIMONT")], to="pedrabona", place="reserve")
    assert g.app.status(g.id).non_standard == ["approach bormida_ansa/pedrabona: cavalry_obstacle not the map's "
                                               "(marengo §5)"]
    assert g.app.verify(g.id).passed


def test_a_counters_printed_strength_is_overridden_and_named_without_its_block() -> None:
    stronger = position({"AUT_ZACH": ("ghilina", "reserve", 3)})  # Zach's printed strength is 2
    with pytest.raises(BadPosition, match="AUT_ZACH: strength 3 outside 0..2"):
        from_position(stronger)
    g = from_position(with_overrides(stronger, {"kind": "block", "block": "AUT_ZACH", "strength": 3}))
    assert g.block("AUT_ZACH").strength == 3
    (named,) = g.app.status(g.id).non_standard
    assert named == "one austria block: printed strength not the order of battle's (marengo §4)"
    for seat in ("france", "austria"):  # the genesis each seat is served names the override, never the block
        served = json.dumps(events_of(g.app.log(g.id, seat, 0, 0)), ensure_ascii=False)
        assert named in served and ("AUT_ZACH" not in served or seat == "austria")


def test_a_block_removed_and_a_block_added_change_the_order_of_battle() -> None:
    pos = position({"AUT_OTT_A": ("ghilina", "reserve"), "FRA_WATRIN_A": ("torre_garofoli", "reserve")})
    del pos["state"]["blocks"]["AUT_ZACH"]
    with pytest.raises(BadPosition, match="blocks missing from the position: AUT_ZACH"):
        from_position(pos)
    extra = {**pos["state"]["blocks"]["AUT_OTT_A"], "token": "b099", "zone": "castel_ceriolo"}
    pos["state"]["blocks"]["AUT_EXTRA"] = extra
    g = from_position(with_overrides(pos, {"kind": "block_removed", "block": "AUT_ZACH"}, {
        "kind": "block_added", "block": {"id": "AUT_EXTRA", "side": "austria", "arm": "infantry", "strength": 3,
                                         "name": "a brigade the umpire adds"}}))
    assert "AUT_ZACH" not in g.state.blocks and g.block("AUT_EXTRA").zone == "castel_ceriolo"
    assert any(c["type"] == "move" and c["blocks"] == ["b099"] for c in g.legal("austria"))
    assert g.app.status(g.id).non_standard == ["one austria block removed from the order of battle (marengo §4)",
                                               "one austria infantry block added to the order of battle (marengo §4)"]


def test_a_zones_capacity_is_overridden() -> None:
    pos = position({"AUT_OTT_A": ("ghilina", "reserve"), "AUT_OTT_B": ("ghilina", "reserve")})
    with pytest.raises(BadPosition, match="ghilina: 2 austria blocks over capacity 1"):
        from_position(with_overrides(pos, {"kind": "zone", "zone": "ghilina", "capacity": 1}))
    g = from_position(with_overrides(pos, {"kind": "zone", "zone": "ghilina", "capacity": 8, "star": "red"}))
    assert g.app.status(g.id).non_standard == ["zone ghilina: capacity and star not the map's (marengo §5)"]


def test_every_problem_of_every_override_is_reported_at_once() -> None:
    pos = with_overrides(position(CAVALRY_BESIDE_THE_FRENCH), {"kind": "weather"}, {"kind": "zone", "zone": "atlantis"},
                         {"kind": "approach", "approach": "bormida_ansa/pedrabona"},
                         {"kind": "block", "block": "AUT_ZACH", "strength": 9})
    with pytest.raises(BadPosition) as e:
        from_position(pos)
    message = str(e.value)
    for words in ("overrides[0]: unknown kind 'weather'; marengo's kinds are: approach:",
                  "overrides[1] (zone): no zone 'atlantis'",
                  "overrides[2] (approach): name what it changes",
                  "overrides[3] (block): strength: Input should be less than or equal to 3"):
        assert words in message, message


def test_a_fork_keeps_the_overrides_and_names_them() -> None:
    g = from_position(with_overrides(position(CAVALRY_BESIDE_THE_FRENCH), OBSTACLE))
    a = g.app
    child = a.fork(g.id, at=a.game(g.id).head_seq, by="umpire")
    assert a.status(child).non_standard == a.status(g.id).non_standard != []
    assert [c for c in a.legal(child, "austria") if c["type"] == "move" and c["to"] == "pedrabona"] == []


def test_the_cli_status_prints_the_overrides(tmp_path: Any) -> None:
    from tests.foundation.conftest import Cli

    run = Cli(tmp_path / "db")
    path = tmp_path / "position.json"
    path.write_text(json.dumps(with_overrides(position(CAVALRY_BESIDE_THE_FRENCH), OBSTACLE)), encoding="utf-8")
    game = run("new", "marengo", "--position", str(path)).stdout.strip()
    assert "NON-STANDARD (the position's overrides):\n  - approach bormida_ansa/pedrabona" in run("status", game).stdout
    assert app  # the harness's library is the one the CLI drives
