"""rev-turn's review of the step table (bc2e792, db80678): failing tests for what it found."""

from __future__ import annotations

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import POSITION_FORMAT, Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.adjudicator.parabellum import sequence
from tests.arrivano import harness as arrivano
from tests.caldiero import harness as caldiero


def test_a_change_order_in_the_activations_orders_step_is_sent_to_the_command_phases_orders_step() -> None:
    """caldiero §5.2: the chief's change_order is given in the command phase's orders step; the refusal sent it to
    the set-up (caldiero §21), the first row of the table that takes the type."""
    state = caldiero.fresh()
    state.phase, state.step, state.seat = "action", sequence.CHOOSE_ACTIVATION, "france"
    t = caldiero.activate(state, "massena", step="orders")
    refused = str(t.refuse("france", {"type": "change_order", "formation": "massena", "order": "attack"}))
    assert "setup step" not in refused and "§21" not in refused, refused


def test_a_caldiero_position_at_a_step_no_table_knows_is_refused() -> None:
    """A position saved before 0.26.0 at the initiative winner's choice says step 'choose_formation': accepted, it
    is a game in which no command is listed or accepted and nothing settles."""
    state = caldiero.fresh()
    state.phase, state.step, state.seat = "action", "choose_formation", "france"
    assert registry.get("caldiero").validate_position(state) != []


# --- fix-turn: the fixes' own promises --------------------------------------------------------------------------

def test_a_command_two_steps_take_names_both_and_cites_the_phase_under_way() -> None:
    """caldiero §5.2, §3.1 B-3 (ooc_order_test after_in_command_moves): unit_order is given in the activation's
    orders step and its movement step; refused in the combat step, both are named, by the state's name `orders`
    (never the table's key), and the action phase's first home is cited."""
    state = caldiero.fresh()
    state.phase, state.step, state.seat = "action", sequence.CHOOSE_ACTIVATION, "france"
    t = caldiero.activate(state, "massena", step="combat")
    refused = t.refuse("france", {"type": "unit_order", "hex": "1416", "order": "attack"}, rule="caldiero §5.2")
    named = "unit_order is given in the orders step (caldiero §5.2) or the movement step (caldiero §9.1)"
    assert named in str(refused)
    assert "activation_orders" not in str(refused)


def test_the_set_up_is_not_named_once_it_is_over() -> None:
    """caldiero §21, §12.8: place is taken by the set-up and the replacements step; in the action phase only the
    replacements step, the one that comes again, is named and cited."""
    state = caldiero.fresh()
    state.phase, state.step, state.seat = "action", sequence.CHOOSE_ACTIVATION, "france"
    t = caldiero.activate(state, "massena", step="movement")
    later = str(t.refuse("france", {"type": "place", "piece": "fr-18-ligne", "hex": "1416"}, rule="caldiero §12.8"))
    assert "place is given in the command phase's replacements step (caldiero §12.8)" in later and "§21" not in later


def test_an_arrivano_position_at_a_step_no_table_knows_is_refused() -> None:
    state = arrivano.fresh()
    state.step = "choose_formation"
    problems = registry.get("arrivano").validate_position(state)
    assert any("step must be one of" in p and "choose_activation" in p for p in problems), problems
    assert registry.get("arrivano").validate_position(arrivano.fresh()) == []


def test_a_caldiero_position_file_at_choose_formation_is_read_as_choose_activation() -> None:
    """Caldiero up to 0.25.0 named the initiative winner's choice `choose_formation`: a position file saved there
    is a game at `choose_activation`, its choice listed."""
    state = caldiero.fresh()
    state.phase, state.step, state.seat = "action", sequence.CHOOSE_ACTIVATION, "france"
    raw = caldiero.encode(state) | {"step": "choose_formation"}
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caldiero", position={"format": POSITION_FORMAT, "ruleset": "caldiero", "scenario": "historical",
                                            "state": raw})
    assert app.state_at(game).rules.step == sequence.CHOOSE_ACTIVATION
    assert {c["type"] for c in app.legal(game, "france")} == {"activate"}


def test_an_arrivano_bombardment_command_without_an_activation_is_refused() -> None:
    """A hand-written position at the bombardment step with no activation: refused (arrivano §3.1 B-3), not an
    assertion."""
    state = arrivano.fresh()
    state.phase, state.step, state.seat = "action", "bombardment", "france"
    t = arrivano.Table(state)
    assert "no activation is under way" in str(t.refuse("france", {"type": "try_order_change", "order": "attack"}))
    assert "no activation is under way" in str(t.refuse("france", {"type": "bombard", "artillery": ["x"],
                                                                    "target": "1416"}))
