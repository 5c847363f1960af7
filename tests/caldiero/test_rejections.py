"""Illegal commands of every kind are refused with the rule they break (the citation is asserted)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caldiero.steps import ROWS
from arbitro.adjudicator.parabellum.escape import ESCAPE
from arbitro.adjudicator.parabellum.retreat_frame import RETREAT
from arbitro.adjudicator.errors import NotYourTurn
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.caldiero.harness import RULESET, Table, activate, fresh, position


def reject(t: Table, seat: str, rule: str, cmd: dict[str, object]) -> str:
    """`cmd` is refused as a submit refuses it (the engine's check of an awaited decision's answer included), citing
    `rule`, and the position is left as it was."""
    return str(t.refuse(seat, cmd, rule))


def combat_table(**kw: object) -> Table:
    s = position({"fr-18-ligne": "1417", "au-mahoney-jager": "1517"}, leaders={"massena": "1317"},
                 orders={"massena": "attack"}, **kw)  # type: ignore[arg-type]
    return activate(s, "massena", step="combat")


def test_not_your_turn_is_the_engines() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caldiero", "historical")
    with pytest.raises(NotYourTurn) as e:
        app.submit(game, "france", {"type": "end_step"})  # the Austrians set up first (§21.1)
    assert e.value.rule == "arbitro §S.2"


def test_command_of_another_step() -> None:
    t = combat_table()
    # what the step under way takes, and the step the command is given in, citing that step's rule (as Arrivano)
    msg = reject(t, "france", "caldiero §9.1", {"type": "move", "units": ["fr-18-ligne"], "to": "1416"})
    assert "at step 'combat', which takes attack, end_step from france; move is given in the movement step" in msg


def test_pending_decision_takes_only_its_answers() -> None:
    t = combat_table()
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=[4, 1])  # Dr
    assert t.awaited().kind == "retreat"
    reject(t, "austria", "caldiero §12.5.4", {"type": "end_step"})
    # an answer of the kind awaited but not among the step's options: refused with the step's own reason
    msg = reject(t, "austria", "caldiero §12.6", {"type": "retreat", "unit": "au-colloredo", "path": ["1617"]})
    assert "au-colloredo: no retreat to make; the units still to retreat are au-mahoney-jager" in msg


def test_the_retreat_and_the_escape_give_their_refusals_in_their_rows() -> None:
    """The retreat (§12.6) and the lone leader's escape (§8.2.3) refuse an unlisted answer by their kernel rows'
    refusal (parabellum/steps.Row), never by their handlers' checks on a scratch copy; the escape's row closes its
    frame first, as every row but the retreat's (which revises it, one unit at a time)."""
    t = combat_table()
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=[4, 1])  # Dr
    frame, options = t.awaited(), t.legal("austria")
    refusal = ROWS[RETREAT].refusal
    assert refusal is not None and frame is not None
    rule, why = refusal(RULESET.world(t.state), frame, {"type": "retreat", "unit": "au-mahoney-jager", "path": ["1416"]},
                        options)
    assert (str(rule), why) == ("caldiero §12.6", "not a legal retreat for au-mahoney-jager: away from the enemy if "
                                "possible, not into enemy ZoC if avoidable (caldiero §12.6.1), where stacking allows "
                                "(caldiero §12.6.2), off the map only when forced (caldiero §12.8.1); permitted: "
                                f"{options}")
    assert ROWS[ESCAPE].refusal is not None and ROWS[ESCAPE].closes and not ROWS[RETREAT].closes


def test_setup_refusals() -> None:
    t = Table(fresh())
    reject(t, "austria", "caldiero §21", {"type": "place", "piece": "fr-18-ligne", "hex": "1117"})
    reject(t, "austria", "caldiero §21", {"type": "place", "piece": "au-mahoney-jager", "hex": "2714"})
    reject(t, "austria", "caldiero §21", {"type": "place", "piece": "au-erdody-hussars-1", "hex": "2015"})
    reject(t, "austria", "caldiero §21.2", {"type": "change_order", "formation": "hohenzollern", "order": "attack"})


def test_command_phase_refusals() -> None:
    s = position({"fr-18-ligne": "1417", "au-colloredo": "1917"}, leaders={"massena": "1317", "hohenzollern": "1916"})
    s.phase, s.step, s.seat = "command", "orders", "france"
    t = Table(s)
    reject(t, "france", "caldiero §5.2", {"type": "change_order", "formation": "hohenzollern", "order": "attack"})
    reject(t, "france", "caldiero §5.2", {"type": "change_order", "formation": "massena", "order": "attack"})  # no chief
    t.state.step = "reorganise"
    reject(t, "france", "caldiero §15.3", {"type": "reorganise", "hex": "1417"})  # nobody in disorder
    reject(t, "france", "caldiero §15.3", {"type": "reorganise", "hex": "1919"})  # none of ours there
    t.state.step = "replacements"
    reject(t, "france", "caldiero §12.8", {"type": "place", "piece": "fr-40-ligne", "hex": "1318"})  # not eliminated


def test_activation_refusals() -> None:
    s = position({"fr-18-ligne": "1417", "au-colloredo": "1917"}, leaders={"massena": "1317"})
    t = Table(s)
    reject(t, "france", "caldiero §6.2", {"type": "activate", "formation": "davidovich"})
    reject(t, "france", "caldiero §6.2", {"type": "activate", "formation": "provera"})  # not on the map yet


def test_activation_order_refusals() -> None:
    s = position({"fr-18-ligne": "1417", "fr-40-ligne": "2518", "au-colloredo": "1917"}, leaders={}, weather=0)
    t = activate(s, "massena", step="orders")
    reject(t, "france", "caldiero §4.4.5", {"type": "try_order_change", "order": "attack"})  # no general
    reject(t, "france", "caldiero §5.3.1", {"type": "unit_order", "hex": "1919", "order": "attack"})
    s = position({"fr-18-ligne": "1417", "fr-40-ligne": "2518", "au-colloredo": "1917"}, leaders={"massena": "1317"}, weather=3)
    t = activate(s, "massena", step="orders")
    reject(t, "france", "caldiero §17.1.3", {"type": "try_order_change", "order": "attack"})
    reject(t, "france", "caldiero §17.1.3", {"type": "unit_order", "hex": "2518", "order": "attack"})


def test_movement_refusals() -> None:
    s = position({"fr-18-ligne": "1417", "fr-40-ligne": "1418", "au-colloredo": "2417"}, leaders={"massena": "1317"},
                 orders={"massena": "manoeuvre"})
    s.units["fr-45-ligne"].where = "offmap"
    t = activate(s, "massena", step="movement")
    reject(t, "france", "caldiero §9.1", {"type": "move", "units": ["fr-18-ligne", "fr-40-ligne"], "to": "1316"})
    reject(t, "france", "caldiero §9.1", {"type": "move", "units": ["au-colloredo"], "to": "2416"})
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1416"})
    reject(t, "france", "caldiero §9.1", {"type": "move", "units": ["fr-18-ligne"], "to": "1415"})  # moved already
    reject(t, "france", "caldiero §3.1 B", {"type": "move", "units": ["fr-45-ligne"], "to": "1014"})  # reserve, not joined
    reject(t, "france", "caldiero §9.1", {"type": "move", "units": ["fr-40-ligne"], "to": "1418", "path": ["1418"]})


def test_reinforcement_not_due() -> None:
    s = position({"fr-18-ligne": "1417", "au-colloredo": "2417"}, leaders={"massena": "1317"}, turn=4)
    s.units["fr-1-cavalry"].where = "offmap"  # due at turn 6
    t = activate(s, "massena", step="movement")
    reject(t, "france", "caldiero §15.4", {"type": "move", "units": ["fr-1-cavalry"], "to": "1014"})


def test_leader_refusals() -> None:
    s = position({"fr-18-ligne": "1417", "fr-5-legere": "1412", "au-colloredo": "2417"},
                 leaders={"massena": "1317", "augereau": "1412", "bonaparte": "1114"})
    s.leaders["bonaparte"].moved_turn = 2
    t = activate(s, "massena", step="leaders")
    reject(t, "france", "caldiero §4.1.4", {"type": "move_leader", "leader": "augereau", "to": "1413"})
    reject(t, "france", "caldiero §4.1.4", {"type": "move_leader", "leader": "bonaparte", "to": "1214"})  # moved this turn


def test_bombardment_refusals() -> None:
    s = position({"fr-massena-iv-8pdr": "1417", "fr-massena-iv-6pdr": "1418", "fr-18-ligne": "1317",
                  "au-colloredo": "1617", "au-callenberg": "2217"}, leaders={"massena": "1318"}, orders={"massena": "defence"})
    t = activate(s, "massena", step="bombardment")
    reject(t, "france", "caldiero §11.4.1", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr", "fr-massena-iv-6pdr"], "target": "1617"})
    reject(t, "france", "caldiero §11.4", {"type": "bombard", "artillery": ["fr-18-ligne"], "target": "1617"})
    reject(t, "france", "caldiero §11.2", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr"], "target": "2217"})
    t.send("france", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr"], "target": "1617"}, dice=[1])
    reject(t, "france", "caldiero §11.4", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr"], "target": "1617"})


def test_no_bombardment_into_a_marsh() -> None:
    s = position({"fr-5-legere": "1702", "fr-augereau-v-8pdr": "1703", "au-callenberg": "1903"},
                 leaders={"augereau": "1704"}, orders={"augereau": "defence"})
    t = activate(s, "augereau", step="bombardment")
    reject(t, "france", "caldiero §10.2", {"type": "bombard", "artillery": ["fr-augereau-v-8pdr"], "target": "1903"})


def test_frame_answer_refusals() -> None:
    t = combat_table()
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=[1])  # Ne
    reject(t, "france", "caldiero §12.5.4", {"type": "efficiency_value", "value": 2})
    t.send("france", {"type": "ne_choice", "test": False})
    t2 = combat_table()
    t2.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=[4, 1])  # Dr
    option = t2.legal("austria")[0]
    t2.send("austria", option)
    assert t2.awaited().kind == "advance"
    reject(t2, "france", "caldiero §12.7", {"type": "advance", "units": ["fr-18-ligne"], "to": "1416"})


def test_defender_efficiency_tie_choice() -> None:
    s = position({"fr-18-ligne": "1418", "au-deutschmeister": "1517", "au-colloredo": "1518"},
                 leaders={"massena": "1317"}, orders={"massena": "attack"})
    t = activate(s, "massena", step="combat")
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517", "1518"]})
    assert t.awaited().kind == "efficiency_value" and t.awaited().ctx.values == (3, 4)
    reject(t, "austria", "caldiero §12.3.1", {"type": "efficiency_value", "value": 5})
    t.send("austria", {"type": "efficiency_value", "value": 4}, dice=[1])
    from arbitro.events import caldiero as ev

    assert t.of(ev.AssaultResolved)[-1].defender_efficiency == 4


def test_defensive_fire_and_cavalry_retreat_refusals() -> None:
    s = position({"fr-18-ligne": "1417", "au-mahoney-jager": "1517", "au-brabeck-3pdr": "1517"},
                 leaders={"massena": "1317"}, orders={"massena": "attack"})
    t = activate(s, "massena", step="combat")
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]})
    reject(t, "austria", "caldiero §11.4.5", {"type": "defensive_fire", "artillery": "au-brabeck-3pdr", "target": "1317"})
    s = position({"fr-18-ligne": "1417", "au-stab-dragoner": "1517"}, leaders={"massena": "1317"}, orders={"massena": "attack"})
    t = activate(s, "massena", step="combat")
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]})
    reject(t, "austria", "caldiero §14.1", {"type": "cavalry_retreat", "units": ["au-stab-dragoner"], "to": "1416"})


def test_charge_cannot_mix_with_infantry() -> None:
    s = position({"au-wurmser-hussars": "1717", "au-gyulai": "1617", "fr-18-ligne": "1618"},
                 leaders={"hohenzollern": "2017"}, orders={"hohenzollern": "attack"}, options=("cavalry_charges",))
    s.seat = "austria"
    t = activate(s, "hohenzollern", step="combat")
    t.state.units["au-wurmser-hussars"].charge = ""
    reject(t, "austria", "caldiero §20.2", {"type": "attack", "attackers": ["au-gyulai", "au-wurmser-hussars"], "defenders": ["1618"]})
