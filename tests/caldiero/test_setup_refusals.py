"""caldiero §21, §21.2: the set-up's refusals no test reached (coverage of tests/parabellum, caldiero and arrivano,
twenty-first session), each with its words and citation: a piece the game does not have, a hex an enemy holds, a
piece placed where it stands (issue 19 item 9: legal() never lists it), and France's order chosen twice."""

from __future__ import annotations

from tests.caldiero.harness import Table, fresh


def refused(t: Table, seat: str, command: dict[str, object], rule: str) -> str:
    return str(t.refuse(seat, command, rule))


def test_a_piece_the_game_does_not_have_is_refused_by_name() -> None:
    words = refused(Table(fresh()), "austria", {"type": "place", "piece": "nobody", "hex": "1917"}, "caldiero §21")
    assert words.startswith("no unit or leader 'nobody'")


def test_a_hex_an_enemy_holds_is_refused() -> None:
    s = fresh()
    s.units["fr-18-ligne"].hex, s.units["fr-18-ligne"].where = "1816", "map"  # within one hex of Colloredo's PI
    words = refused(Table(s), "austria", {"type": "place", "piece": "au-colloredo", "hex": "1816"}, "caldiero §21")
    assert words.startswith("1816 holds enemy units")


def test_a_piece_placed_where_it_stands_is_refused() -> None:
    t = Table(fresh())
    here = t.state.units["au-colloredo"].hex
    words = refused(t, "austria", {"type": "place", "piece": "au-colloredo", "hex": here}, "caldiero §21")
    assert words.startswith(f"au-colloredo is already at {here}: place it elsewhere or end the set-up")


def test_france_choosing_an_order_it_already_chose_is_refused() -> None:
    s = fresh()
    s.seat = "france"
    t = Table(s)
    t.send("france", {"type": "change_order", "formation": "massena", "order": "attack"})
    words = refused(t, "france", {"type": "change_order", "formation": "massena", "order": "attack"}, "caldiero §21.2")
    assert words.startswith("massena's order is already attack")
