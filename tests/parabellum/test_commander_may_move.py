"""Who may move a commander now, written once (parabellum/commander_move.commander_may_move), run for both variants:
caldiero §4.1.4, §4.2.1 and arrivano §4.1.4, §4.3.1 (the same words). The activated formation's general and its
officers (arrivano §4.2), once (D42: Caldiero counts his own moves within the activation, Arrivano any move of his in
the turn); the commander in chief once a turn; on the map, or off it when his game says he is due (caldiero §15.4);
never the enemy's, never outside his side's activation, never one lost."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from arbitro.adjudicator.parabellum.commander_move import commander_may_move
from arbitro.adjudicator.parabellum.variant import Variant

TURN = 3


def leader(role: str, formation: str | None, side: str = "france", where: str = "map", moved_turn: int = 0) -> Any:
    return SimpleNamespace(side=side, role=role, formation=formation, where=where, moved_turn=moved_turn)


def world(moved: tuple[str, ...] = (), **changed: Any) -> Any:
    """France's formation F activated: its general g, its officer o, the chief c, another formation's general h,
    Austria's general a."""
    leaders = {"g": leader("general", "F"), "o": leader("officer", "F"), "c": leader("commander_in_chief", None),
               "h": leader("general", "H"), "a": leader("general", "A", side="austria")} | changed
    formations = {"F": SimpleNamespace(side="france", general="g"), "H": SimpleNamespace(side="france", general="h"),
                  "A": SimpleNamespace(side="austria", general="a")}
    act = SimpleNamespace(formation="F", leaders_moved=list(moved))
    return SimpleNamespace(state=SimpleNamespace(activation=act, leaders=leaders, formations=formations, turn=TURN))


def test_the_activated_formations_commanders_and_the_chief(variant: Variant) -> None:
    w = world()
    assert [x for x in ("g", "o", "c", "h", "a") if commander_may_move(variant, w, x, "france")] == ["g", "o", "c"]
    assert not any(commander_may_move(variant, w, x, "austria") for x in ("g", "o", "c", "h", "a"))


def test_the_chief_once_a_turn(variant: Variant) -> None:
    assert not commander_may_move(variant, world(c=leader("commander_in_chief", None, moved_turn=TURN)), "c", "france")
    assert commander_may_move(variant, world(c=leader("commander_in_chief", None, moved_turn=TURN - 1)), "c", "france")


def test_a_general_once_as_the_variant_counts_it(variant: Variant) -> None:
    """D42: carried earlier in the turn (moved_turn set, not his move in this activation): Caldiero's general may
    still move, Arrivano's may not; having moved in this activation, neither may."""
    carried = world(g=leader("general", "F", moved_turn=TURN))
    assert commander_may_move(variant, carried, "g", "france") is variant.general_once_an_activation
    assert not commander_may_move(variant, world(moved=("g",), g=leader("general", "F", moved_turn=TURN)), "g", "france")


def test_off_the_map_only_when_due_and_never_lost(variant: Variant) -> None:
    off = world(g=leader("general", "F", where="offmap"))
    assert not commander_may_move(variant, off, "g", "france")
    assert commander_may_move(variant, off, "g", "france", due=lambda x: x == "g")
    lost = world(g=leader("general", "F", where="lost"))
    assert not commander_may_move(variant, lost, "g", "france", due=lambda _: True)


def test_no_activation_no_move(variant: Variant) -> None:
    w = world()
    w.state.activation = None
    assert not commander_may_move(variant, w, "c", "france")
