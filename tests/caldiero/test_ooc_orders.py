"""Out-of-command units and their orders (caldiero §5.3, §5.3.1, §3.1 B-3): when they test to change order (the
reading `ooc_order_test`, issue 19 item 11), one test per reading."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum import orders, resolution
from arbitro.adjudicator.parabellum.world import World
from arbitro.events import caldiero as CE
from arbitro.projections.parabellum import apply
from tests.caldiero.harness import RULESET, Table, activate, ev, position

B3 = {"ooc_order_test": "after_in_command_moves"}


def ooc_table(interpretations: dict[str, str] | None = None) -> Table:
    """Massena's 18e and 32e in command next to him under Attack, the 40e far off (out of command), an enemy east."""
    state = position({"fr-18-ligne": "1417", "fr-32-ligne": "1317", "fr-40-ligne": "2518", "au-colloredo": "1917"},
                     leaders={"massena": "1317"}, orders={"massena": "attack"})
    t = activate(state, "massena", step="orders", interpretations=interpretations)
    assert t.state.activation.out_of_command == ["fr-40-ligne"]
    return t


def refused(t: Table, rule: str, cmd: dict[str, object]) -> str:
    with pytest.raises(IllegalCommand) as e:
        t.send("france", cmd, pad=0)
    assert e.value.rule == rule, e.value
    return str(e.value)


TEST = {"type": "unit_order", "hex": "2518", "order": "manoeuvre"}


def offered(t: Table) -> bool:
    return TEST in t.legal("france")


def test_at_activation_the_out_of_command_units_test_before_any_move() -> None:
    t = ooc_table()
    assert offered(t)
    t.send("france", {"type": "end_step"}, pad=0)
    assert t.state.step == "movement" and not offered(t)
    assert "at_activation" in refused(t, "caldiero §5.3.1", TEST)


def test_after_in_command_moves_the_test_waits_for_the_in_command_units() -> None:
    t = ooc_table(B3)
    assert not offered(t)
    assert "after_in_command_moves" in refused(t, "caldiero §3.1 B-3", TEST)
    t.send("france", {"type": "end_step"}, pad=0)
    assert t.state.step == "movement"
    # the Attack order still binds the in-command units: they move first (§5.1.2)
    assert not offered(t)
    assert "move first" in refused(t, "caldiero §3.1 B-3", TEST)
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1517"}, pad=0)
    t.send("france", {"type": "move", "units": ["fr-32-ligne"], "to": "1417"}, pad=0)
    assert offered(t)
    t.send("france", TEST, dice=[2], pad=0)  # efficiency 3: passes
    assert t.state.activation.unit_orders["fr-40-ligne"] == "manoeuvre"
    assert any(c["type"] == "move" and c["units"] == ["fr-40-ligne"] for c in t.legal("france"))


def test_after_in_command_moves_no_in_command_unit_moves_once_the_test_is_made() -> None:
    state = position({"fr-18-ligne": "1417", "fr-32-ligne": "1317", "fr-40-ligne": "2518", "au-colloredo": "1917"},
                     leaders={"massena": "1317"}, orders={"massena": "defence"})
    t = activate(state, "massena", step="movement", interpretations=B3)
    t.send("france", TEST, dice=[6], pad=0)  # fails: the 40e keeps Defence
    assert "fr-40-ligne" not in t.state.activation.unit_orders
    assert not any(c["type"] == "move" and c["units"][0] != "fr-40-ligne" for c in t.legal("france"))
    refused(t, "caldiero §3.1 B-3", {"type": "move", "units": ["fr-18-ligne"], "to": "1418"})


def test_an_out_of_command_unit_is_told_why_it_holds_a_defence_order() -> None:
    """Issue 19 item 16: the refusal of a move an out-of-command unit's Defence order forbids says why (§4.3, §5.3)."""
    t = ooc_table()
    t.send("france", {"type": "end_step"}, pad=0)
    # the rule its order breaks (one hex under Defence, §5.1.3), then why it holds that order
    message = refused(t, "caldiero §5.1.3", {"type": "move", "units": ["fr-40-ligne"], "to": "2318"})
    assert ("fr-40-ligne is out of command: not within 4 hexes of its general massena nor next to a unit in command "
            "(caldiero §4.3), so under a Defence order (caldiero §5.3)") in message
    message = refused(t, "caldiero §9.1.1", {"type": "move", "units": ["fr-18-ligne"], "to": "2318"})  # too far
    assert "out of command" not in message  # in command: refused for its own reasons only


def test_status_notes_the_out_of_command_units_to_their_side_only() -> None:
    """Issue 19 item 16: the game's status says which units hold Defence for being out of command, and why; to
    their own side and the umpire (where a general stands is his side's to know), to the enemy nothing."""
    t = ooc_table()
    note = ("fr-40-ligne is out of command: not within 4 hexes of its general massena nor next to a unit in command "
            "(caldiero §4.3), so under a Defence order (caldiero §5.3)")
    assert RULESET.notices(t.state, "france") == [note] == RULESET.notices(t.state, "umpire")
    assert RULESET.notices(t.state, "austria") == []
    t.send("france", TEST, dice=[2], pad=0)  # passes: manoeuvre, no longer Defence
    assert RULESET.notices(t.state, "france") == []


def _enemy_activation(hohenzollern: str) -> Table:
    """Massena's 18e légère activated next to Caldiero (1612, a village) held by Hohenzollern's Gyulai, whose
    formation has an Attack order; its general Hohenzollern stands at `hohenzollern`."""
    state = position({"fr-18-legere": "1512", "au-gyulai": "1612"}, leaders={"massena": "1511", "hohenzollern":
                     hohenzollern}, orders={"massena": "attack", "hohenzollern": "attack"})
    return activate(state, "massena", step="combat")


def _village_needing_defence(t: Table, benefits: Callable[[str], bool] = lambda order: order == "defence") -> World:
    """The table's position read with a village whose benefit needs a Defence order (the terrain effects table's
    `requires_defence_order`, with the orders table's `terrain_benefits` for Defence alone, as a user's own tables may
    set them; the shipped caldiero tables set the first nowhere and the second for every order)."""
    w = World(t.state, RULESET.battle, lambda n: RULESET.interpretations()[n].default, variant=CALDIERO_VARIANT)
    table = w.terrain_table
    village = table.terrain["villaggio"].model_copy(update={"requires_defence_order": True})
    w.terrain_table = table.model_copy(update={"terrain": {**table.terrain, "villaggio": village}})
    w.orders = w.orders.model_copy(update={"orders": {
        o: rules.model_copy(update={"terrain_benefits": benefits(o)}) for o, rules in w.orders.orders.items()}})
    return w


def test_a_unit_of_a_formation_not_activated_is_out_of_command_as_the_position_stands() -> None:
    """caldiero §5.3 ("Una unità fuori comando ha automaticamente un Ordine di Difesa") holds for every unit; §5.3.1
    judges command at the activation only for the activated formation's units. In Massena's activation Gyulai,
    far from his general, holds Defence whatever Hohenzollern's order (and so has a Defence-only benefit of his
    terrain); within his general's range he obeys the Attack order."""
    far = _enemy_activation("2520")
    assert "au-gyulai" not in far.state.activation.out_of_command  # judged only for Massena's units
    w = _village_needing_defence(far)
    assert orders.order_of(w, "au-gyulai") == "defence"
    assert resolution.terrain(CALDIERO_VARIANT, w, [], ["1612"], ["au-gyulai"])[0] == 1
    near = _village_needing_defence(_enemy_activation("1613"))
    assert orders.order_of(near, "au-gyulai") == "attack"
    assert resolution.terrain(CALDIERO_VARIANT, near, [], ["1612"], ["au-gyulai"])[0] == 0


def test_a_terrain_needing_an_order_benefits_the_orders_the_orders_table_lets_have_it() -> None:
    """The orders table's `terrain_benefits` is read (arrivano §5.1.3 "Questo Ordine permette di ricevere i bonus ...
    dati da ridotta o villaggio"): with every order's true, as caldiero's shipped table has it (§10.1: villages help
    whatever the order), Gyulai under Attack has the village's column too; with Attack's alone, only Attack has it."""
    near = _enemy_activation("1613")
    assert resolution.terrain(CALDIERO_VARIANT, _village_needing_defence(near, lambda order: True), [], ["1612"],
                              ["au-gyulai"])[0] == 1
    only_attack = _village_needing_defence(near, lambda order: order == "attack")
    assert resolution.terrain(CALDIERO_VARIANT, only_attack, [], ["1612"], ["au-gyulai"])[0] == 1
    far = _village_needing_defence(_enemy_activation("2520"), lambda order: order == "attack")
    assert resolution.terrain(CALDIERO_VARIANT, far, [], ["1612"], ["au-gyulai"])[0] == 0  # out of command: Defence


def _world(t: Table) -> World:
    return World(t.state, RULESET.battle, lambda n: RULESET.interpretations()[n].default, variant=CALDIERO_VARIANT)


def _tested_then_enemy_activation(die: int, options: tuple[str, ...] = (), chief: dict[str, str] | None = None,
                                  interpretations: dict[str, str] | None = None) -> Table:
    """Massena's 40e out of command at 2518 tests for Manoeuvre at his activation (efficiency 3: die 2 passes, 6
    fails; `chief`: Bonaparte's hex, the 40e in his range takes it whatever the die, §4.3.1), Massena's activation is
    ended, and Hohenzollern's is under way in the same turn."""
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": "2518", "au-colloredo": "1917"},
                     leaders={"massena": "1317", "hohenzollern": "1918", **(chief or {})}, orders={"massena": "defence"},
                     options=options)
    t = activate(state, "massena", step="orders", interpretations=interpretations)
    assert t.state.activation.out_of_command == ["fr-40-ligne"]
    t.send("france", TEST, dice=[die], pad=0)
    while t.state.activation is not None and t.state.activation.formation == "massena":
        t.send("france", {"type": "end_step"})
    if t.state.activation is None:  # (Austria's one formation is activated by itself)
        t.send("austria", {"type": "activate", "formation": "hohenzollern"})
    assert t.state.activation.formation == "hohenzollern" and t.state.turn == 2
    return t


def test_the_order_a_passed_test_chose_lasts_the_turn() -> None:
    """caldiero §5.3.1: an out-of-command unit that passes its test "per questo turno può scegliere l'Ordine che
    vuole"; one that fails "mantiene il suo Ordine di Difesa durante questa attivazione". In the enemy's activation
    later in the turn, still out of command as the position stands (§5.3), the 40e obeys the order it chose, and
    holds Defence if it failed; the next turn the choice is gone."""
    passed = _tested_then_enemy_activation(2)
    assert orders.order_of(_world(passed), "fr-40-ligne") == "manoeuvre"
    failed = _tested_then_enemy_activation(6)
    assert orders.order_of(_world(failed), "fr-40-ligne") == "defence"
    w = World(apply(passed.state, ev.TurnBegan(turn=3, rule="caldiero §3.1 C")), RULESET.battle, lambda n: RULESET.interpretations()[n].default, variant=CALDIERO_VARIANT)
    assert orders.order_of(w, "fr-40-ligne") == "defence"


@pytest.mark.parametrize("reading, obeyed", [("turn", "manoeuvre"), ("activation", "defence")])
def test_the_order_taken_in_the_chief_s_range_lasts_as_the_reading_says(reading: str, obeyed: str) -> None:
    """caldiero §4.3.1 ("si considerano avere l'Ordine che desiderano (non si applica 5.3)"), interpretation
    `chief_range_order`: the order an out-of-command unit in its chief's range takes with no test lasts the turn, as
    one a passed test chose (§5.3.1 "per questo turno": `turn`, the default), or this activation only."""
    t = _tested_then_enemy_activation(6, chief={"bonaparte": "2418"}, interpretations={"chief_range_order": reading})
    assert [e.rule for e in t.of(ev.UnitOrderSet)] == ["caldiero §4.3.1"] == [str(R.CINC_RANGE)]
    assert CE.CINC_RANGE_CITATION == str(R.CINC_RANGE), "the fold keys the reading on the citation the rule emits"
    assert orders.order_of(_world(t), "fr-40-ligne") == obeyed


def test_under_the_fog_the_declaring_enemy_judges_by_no_chosen_order() -> None:
    """caldiero §20.4 ("Si può esaminare uno stack nemico solo se si ha una LoS"): the order a unit chose for the turn
    (§5.3.1) is carried by no counter, and its test may have been out of the enemy's sight: Austria, declaring, judges
    the 40e (parabellum/orders.declared_order) the same whether its test passed or failed; the umpire's resolution
    reads the true order."""
    passed, failed = (_tested_then_enemy_activation(die, ("fog_of_war",)) for die in (2, 6))
    judged = []
    for t in (passed, failed):
        w = _world(t)
        judged.append((orders.declared_order(w, "austria", "fr-40-ligne"), orders.declared_order(w, None, "fr-40-ligne")))
    assert judged == [("defence", "manoeuvre"), ("defence", "defence")]
