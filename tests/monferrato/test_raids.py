"""Raids (monferrato §11, the scenario's raid areas), with the umpire entering the die."""

from __future__ import annotations

from typing import Any

from tests.monferrato.harness import Game, from_state, state


def raiders(placed: dict[str, str], zone: str, **fields: Any) -> Game:
    g = from_state(state(placed=placed, **fields), transcribed=True)
    g.send("pro_spain", type="activate", zones=[zone], commander=None)
    return g


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_a_raid_succeeds_on_the_die_plus_the_enemies_at_most_the_raiders_and_raises_morale() -> None:
    g = raiders({"spa_inf1": "rosignano", "spa_inf2": "rosignano"}, "rosignano")
    assert {"type": "raid", "units": ["spa_inf1", "spa_inf2"], "path": []} in g.legal("pro_spain")
    g.send("pro_spain", type="raid", units=["spa_inf1", "spa_inf2"], path=[])
    events = g.enter(2)
    assert of(events, "raided")[0]["result"] == "success" and "rosignano" in g.state.raided
    assert of(events, "morale_changed")[0] == {"type": "morale_changed", "nation": "spagna", "value": 8,
                                               "rule": "monferrato §11", "reason": "a raid on rosignano"}
    g2 = raiders({"spa_inf1": "rosignano", "spa_inf2": "rosignano"}, "rosignano", raided=["rosignano"])
    g2.reject("pro_spain", "monferrato §11", "this year", type="raid", units=["spa_inf1"], path=[])


def test_a_natural_one_succeeds_and_a_six_fails_and_disorganises() -> None:
    g = raiders({"spa_inf1": "rosignano"}, "rosignano", forts={"rosignano": ["pro_france", "pro_france"]})
    g.send("pro_spain", type="raid", units=["spa_inf1"], path=[])
    assert of(g.enter(1), "raided")[0]["result"] == "success"  # 1 + 2 forts > 1 raider, but a natural 1
    g = raiders({"spa_inf1": "rosignano"}, "rosignano")
    g.send("pro_spain", type="raid", units=["spa_inf1"], path=[])
    events = g.enter(6)
    assert of(events, "raided")[0]["result"] == "failed" and g.state.units["spa_inf1"].disorganised
    g = raiders({"spa_inf1": "rosignano"}, "rosignano")
    g.send("pro_spain", type="raid", units=["spa_inf1"], path=[])
    assert of(g.enter(2), "raided")[0]["result"] == "no effect"


def test_raid_areas_fortresses_and_a_movement_point() -> None:
    g = raiders({"spa_inf1": "carmagnola"}, "carmagnola")
    g.reject("pro_spain", "monferrato §11 (scenario, Aree di razzia)", "may not raid savoia", type="raid", units=["spa_inf1"], path=[])
    g = raiders({"spa_inf1": "trino", "gon_gar1": "eliminated", "spa_camp": "trino"}, "trino",
                walls={**state().walls, "casale/trino": 0})
    g.reject("pro_spain", "monferrato §11", "fortress", type="raid", units=["spa_inf1"], path=["casale"])
    g = raiders({}, "alessandria")
    g.reject("pro_spain", "monferrato §11", "no movement point", type="raid", units=["spa_inf1"],
             path=["rosignano", "moncalvo"])
    g.send("pro_spain", type="raid", units=["spa_inf1"], path=["rosignano"])  # 2 to enter, 1 to raid
    g.enter(4)
    assert g.state.units["spa_inf1"].zone == "rosignano"


def test_a_raid_where_the_enemy_stands_is_followed_by_a_battle() -> None:
    g = raiders({"spa_inf1": "nizza", "spa_inf2": "nizza", "spa_camp": "nizza"}, "nizza")
    g.send("pro_spain", type="raid", units=["spa_inf1", "spa_inf2"], path=[])
    events = g.enter(3)  # 3 + 1 garrison > 2: no effect
    assert of(events, "raided")[0]["modifier"] == 1 and of(events, "battle_began")
    assert g.awaited == "response"
