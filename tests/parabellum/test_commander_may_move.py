"""Who may move a commander now, written once for both games (parabellum/commander_move.commander_may_move):
caldiero §4.1.4, §4.2.1 and arrivano §4.1.4, §4.3.1 (the same words). The activated formation's general and its
officers (arrivano §4.2), or a column's officer alone in its activation (arrivano §16.2, §17.2.9), and the commander
in chief, each unless he moved himself this turn (D42: carried with his stack, fleeing or going to friends is no
move of his); on the map, or off it when his game says he is due (caldiero §15.4); never the enemy's, never outside
his side's activation, never one lost."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from arbitro.adjudicator.parabellum.commander_move import commander_may_move
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import LeaderMoved, UnitsAdvanced
from arbitro.projections.parabellum import Activation, apply
from tests.arrivano import harness as A
from tests.caldiero import harness as C

TURN = 3


def leader(role: str, formation: str | None, side: str = "france", where: str = "map", moved_turn: int = 0) -> Any:
    return SimpleNamespace(side=side, role=role, formation=formation, where=where, moved_turn=moved_turn)


def world(**changed: Any) -> Any:
    """France's formation F activated: its general g, its officer o, the chief c, another formation's general h,
    Austria's general a."""
    leaders = {"g": leader("general", "F"), "o": leader("officer", "F"), "c": leader("commander_in_chief", None),
               "h": leader("general", "H"), "a": leader("general", "A", side="austria")} | changed
    formations = {"F": SimpleNamespace(side="france", general="g"), "H": SimpleNamespace(side="france", general="h"),
                  "A": SimpleNamespace(side="austria", general="a")}
    act = SimpleNamespace(formation="F", column=None)
    return SimpleNamespace(state=SimpleNamespace(activation=act, leaders=leaders, formations=formations, turn=TURN))


def test_the_activated_formations_commanders_and_the_chief() -> None:
    w = world()
    assert [x for x in ("g", "o", "c", "h", "a") if commander_may_move(w, x, "france")] == ["g", "o", "c"]
    assert not any(commander_may_move(w, x, "austria") for x in ("g", "o", "c", "h", "a"))


def test_the_chief_once_a_turn() -> None:
    assert not commander_may_move(world(c=leader("commander_in_chief", None, moved_turn=TURN)), "c", "france")
    assert commander_may_move(world(c=leader("commander_in_chief", None, moved_turn=TURN - 1)), "c", "france")


def test_in_an_independent_column_s_activation_its_officer_alone_and_the_chief() -> None:
    """arrivano §16.2 (Caldiero has no columns): the officer's column is activated ("l'Ufficiale inizi la sua
    attivazione"), not the general's formation ("la formazione principale", §16.2.1), so §4.1.4 ("in cui la propria
    formazione è attivata") lets neither the general nor the formation's other officers move then."""
    w = world(p=leader("officer", "F"))
    w.state.activation.column = "p"
    assert [x for x in ("g", "o", "p", "c", "h") if commander_may_move(w, x, "france")] == ["p", "c"]


def test_a_general_or_officer_once_a_turn() -> None:
    for x, role in (("g", "general"), ("o", "officer")):
        assert not commander_may_move(world(**{x: leader(role, "F", moved_turn=TURN)}), x, "france")
        assert commander_may_move(world(**{x: leader(role, "F", moved_turn=TURN - 1)}), x, "france")


def test_only_his_own_move_is_his_move_of_the_turn(variant: Variant) -> None:
    """D42, §4.1.4 in both ("I Generali possono muovere alla fine della sotto fase di Movimento ... in cui la propria
    formazione è attivata"), §4.2.1/§4.3.1 (the chief "una volta per turno"): a general carried earlier in the turn
    with his retreating stack (§12.6) or advancing one (§12.7.3), fleeing (§8.2.3) or going to friends left alone,
    has not moved himself: he may move in his formation's activation, and the chief in any; his own move counts."""
    if variant.book == "caldiero":
        state, general, chief, formation = C.position({}, leaders={"massena": "1117", "bonaparte": "1017"}), \
            "massena", "bonaparte", "massena"
    else:
        state, general, chief, formation = A.position({}, leaders={"watrin": "1010", "lannes": "1012"}), \
            "watrin", "lannes", "W"
    state.activation, world = Activation(formation=formation), variant_world(variant, state)
    for event in (LeaderMoved(leader=general, path=("1111",), rule="§12.6", own=False), UnitsAdvanced(
            units=(), leaders=(general, chief), to="1112", rule="§12.7.3"), LeaderMoved(leader=chief, path=("1113",),
                                                                                        rule="§8.2.3", own=False)):
        apply(state, event)
    assert commander_may_move(world, general, "france") and commander_may_move(world, chief, "france")
    for leader_ in (general, chief):
        apply(state, LeaderMoved(leader=leader_, path=("1114",), rule="§4.1.4", own=True))
        assert not commander_may_move(world, leader_, "france")


def variant_world(variant: Variant, state: Any) -> Any:
    return (C.RULESET if variant.book == "caldiero" else A.RULESET).world(state)


def test_off_the_map_only_when_due_and_never_lost() -> None:
    off = world(g=leader("general", "F", where="offmap"))
    assert not commander_may_move(off, "g", "france")
    assert commander_may_move(off, "g", "france", due=lambda x: x == "g")
    lost = world(g=leader("general", "F", where="lost"))
    assert not commander_may_move(lost, "g", "france", due=lambda _: True)


def test_no_activation_no_move() -> None:
    w = world()
    w.state.activation = None
    assert not commander_may_move(w, "c", "france")
