"""Sequence of play (caldiero §3, §6, §21), command phase (§5.2, §15.3, §12.8, §17), activation orders
(§5.2.2, §5.3.1, §4.3.1), bombardment (§11.4) and the end of the game (§18)."""

from __future__ import annotations


from arbitro.events import caldiero as ev
from tests.caldiero.harness import RULESET, Table, activate, fresh, position


def reject(t: Table, seat: str, rule: str, cmd: dict[str, object]) -> None:
    """`cmd` is refused as a submit refuses it (the engine's check of an awaited decision's answer included), citing
    `rule`, and the position is left as it was."""
    t.refuse(seat, cmd, rule)


# --- set-up and first turn -------------------------------------------------------------------------
def test_setup_austria_first_then_france_with_orders() -> None:
    t = Table(fresh())
    assert RULESET.active_seats(t.state) == ("austria",)
    reject(t, "austria", "caldiero §21", {"type": "place", "piece": "au-banal-grenz", "hex": "2123"})
    t.send("austria", {"type": "place", "piece": "au-banal-grenz", "hex": "2121"})
    t.send("austria", {"type": "end_step"})
    assert t.state.seat == "france"
    reject(t, "france", "caldiero §21", {"type": "end_step"})  # orders not chosen (§21.2)
    t.send("france", {"type": "change_order", "formation": "massena", "order": "attack"})
    t.send("france", {"type": "change_order", "formation": "augereau", "order": "advance"})
    t.send("france", {"type": "place", "piece": "fr-9-dragons", "hex": "1119"})  # overstacks 1119
    reject(t, "france", "caldiero §21", {"type": "end_step"})
    t.send("france", {"type": "place", "piece": "fr-9-dragons", "hex": "1120"})
    t.send("france", {"type": "end_step"})
    assert (t.state.phase, t.state.step, t.state.seat) == ("action", "choose_activation", "france")


def test_first_turn_french_must_activate_their_own() -> None:
    state = fresh()
    state.formations["massena"].order = state.formations["augereau"].order = "advance"
    state.phase, state.step, state.seat = "action", "choose_activation", "france"
    t = Table(state)
    reject(t, "france", "caldiero §3.2", {"type": "activate", "formation": "hohenzollern"})
    assert {c["formation"] for c in t.legal("france")} == {"massena", "augereau"}


def test_after_the_first_activation_the_initiative_winner_may_choose_his_own() -> None:
    """caldiero §3.2 binds the French's automatic initiative, the game's first activation; the next are rolled and the
    winner chooses any formation not yet activated, friend or enemy (§6.2), on the first turn too (it was refused
    citing §3.2 for the whole first turn, while the loop activated an Austrian formation left alone)."""
    state = fresh()
    state.formations["massena"].order = state.formations["augereau"].order = "advance"
    state.formations["augereau"].activated = True
    state.phase, state.step, state.seat = "action", "choose_activation", "austria"
    t = Table(state)
    assert "hohenzollern" in {c["formation"] for c in t.legal("austria")}
    t.send("austria", {"type": "activate", "formation": "hohenzollern"})
    assert t.of(ev.FormationActivated)[-1].formation == "hohenzollern"


def test_initiative_french_2_austrian_weather_box_and_tie_reroll() -> None:
    state = position({"fr-18-ligne": "1417", "fr-5-legere": "1412", "au-colloredo": "1917"},
                     leaders={"massena": "1317", "augereau": "1412", "hohenzollern": "1916"}, weather=2)
    state.phase, state.step, state.seat = "action", "initiative", ""
    t = Table(state)
    state.step = "combat"
    # run the automatic initiative from the end of a (fake) activation: 3+2 = 5 ties 3+2 = 5, then 1+2 < 6+2
    t.state.step, t.state.seat = "choose_activation", "france"
    t.send("france", {"type": "activate", "formation": "massena"}, dice=[], pad=0)
    t.state.step = "combat"
    t.send("france", {"type": "end_step"}, dice=[(3, 3), (1, 6)], pad=0)
    won = t.of(ev.InitiativeWon)[-1]
    assert won.seat == "austria" and won.totals == {"france": 3, "austria": 8}
    assert len([r for r in t.rolls if "initiative" in r.purpose]) == 2


def test_activated_formation_cannot_be_chosen_again() -> None:
    state = position({"fr-18-ligne": "1417", "fr-5-legere": "1412", "au-colloredo": "1917"},
                     leaders={"massena": "1317", "augereau": "1412", "hohenzollern": "1916"})
    state.formations["massena"].activated = True
    t = Table(state)
    reject(t, "france", "caldiero §6.2", {"type": "activate", "formation": "massena"})
    t.send("france", {"type": "activate", "formation": "hohenzollern"})  # the winner may pick an enemy formation
    assert t.state.activation.formation == "hohenzollern" and t.state.seat == "austria"


# --- activation orders ------------------------------------------------------------------------------
def test_general_changes_order_by_initiative() -> None:
    state = position({"fr-18-ligne": "1417", "au-colloredo": "1917"}, leaders={"massena": "1317"}, orders={"massena": "defence"})
    t = activate(state, "massena", step="orders")
    t.send("france", {"type": "try_order_change", "order": "attack"}, dice=[3], pad=0)  # 3 <= Massena's 3
    assert t.state.formations["massena"].order == "attack"
    assert t.state.step == "movement"  # nothing left to decide in the orders step: it ends by itself
    t.state.step = "orders"
    reject(t, "france", "caldiero §5.2.2", {"type": "try_order_change", "order": "advance"})


def test_general_fails_to_change_order() -> None:
    state = position({"fr-18-ligne": "1417", "au-colloredo": "1917"}, leaders={"massena": "1317"}, orders={"massena": "defence"})
    t = activate(state, "massena", step="orders")
    t.send("france", {"type": "try_order_change", "order": "attack"}, dice=[4], pad=0)
    assert t.state.formations["massena"].order == "defence"


def test_out_of_command_unit_tests_to_choose_its_order() -> None:
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": "2518", "au-colloredo": "1917"},
                     leaders={"massena": "1317"}, orders={"massena": "attack"})
    t = activate(state, "massena", step="orders")
    assert t.state.activation.out_of_command == ["fr-40-ligne"]
    reject(t, "france", "caldiero §5.3", {"type": "unit_order", "hex": "2518", "order": "defence"})
    t.send("france", {"type": "unit_order", "hex": "2518", "order": "manoeuvre"}, dice=[2], pad=0)  # eff 3: passes
    assert t.state.activation.unit_orders["fr-40-ligne"] == "manoeuvre"
    reject(t, "france", "caldiero §5.3.1", {"type": "unit_order", "hex": "2518", "order": "attack"})


def test_out_of_command_unit_in_chief_range_takes_its_order_freely() -> None:
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": "1814", "au-colloredo": "2417"},
                     leaders={"massena": "1319", "bonaparte": "1214"}, orders={"massena": "attack"})
    t = activate(state, "massena", step="orders")
    assert "fr-40-ligne" in t.state.activation.out_of_command
    # §4.3.1 "non si applica 5.3": the stack's die is rolled, as out of range (rev-l L6), and decides nothing: 6 fails
    t.send("france", {"type": "unit_order", "hex": "1814", "order": "advance"}, dice=[6], pad=0)
    assert t.state.activation.unit_orders["fr-40-ligne"] == "advance" and len(t.rolls) == 1


# --- command phase -------------------------------------------------------------------------------
def command_phase(**kw: object) -> Table:
    state = position({"fr-18-ligne": "1417", "au-colloredo": "1917", "au-hungarian": "1916"},
                     leaders={"massena": "1317", "bonaparte": "1214", "hohenzollern": "1915"}, **kw)  # type: ignore[arg-type]
    state.phase, state.step, state.seat = "command", "orders", "france"
    return Table(state)


def test_chief_changes_orders_in_range_only() -> None:
    t = command_phase()
    t.send("france", {"type": "change_order", "formation": "massena", "order": "attack"})
    assert t.state.formations["massena"].order == "attack"
    t.state.leaders["massena"].hex = "2519"
    reject(t, "france", "caldiero §5.2.1", {"type": "change_order", "formation": "massena", "order": "advance"})


def test_weather_roll_and_ice_storm() -> None:
    t = command_phase(weather=2)
    t.send("france", {"type": "end_step"}, dice=[5])  # Austria has no chief: its step is skipped; roll 5 from box 2 -> 3
    assert t.state.weather == 3
    assert all(f.order == "defence" for f in t.state.formations.values())  # §17.1.3
    assert t.of(ev.WeatherChanged)[-1].rule == "caldiero §17"


def test_il_tempo_regge_has_no_weather_roll() -> None:
    t = command_phase(scenario="il_tempo_regge")
    t.send("france", {"type": "end_step"})
    assert t.state.weather == 0 and not [r for r in t.rolls if "weather" in r.purpose]


def test_reorganisation_needs_defence_and_no_ezoc() -> None:
    t = command_phase()
    t.state.formations["massena"].order = "defence"
    t.state.units["fr-18-ligne"].status = "routed"
    t.state.units["fr-40-ligne"].where, t.state.units["fr-40-ligne"].hex = "map", "1318"
    t.state.units["fr-40-ligne"].status = "disordered"
    t.state.step = "reorganise"
    t.send("france", {"type": "reorganise", "hex": "1417"}, dice=[2], pad=0)
    assert t.unit("fr-18-ligne").status == "disordered"  # §15.3.1: rout -> disorder
    reject(t, "france", "caldiero §15.3", {"type": "reorganise", "hex": "1417"})  # once per phase


def test_reorganisation_refused_in_enemy_zoc() -> None:
    t = command_phase()
    t.state.formations["massena"].order = "defence"
    t.state.units["fr-18-ligne"].status = "disordered"
    t.state.units["fr-18-ligne"].hex = "1817"  # adjacent to 1917
    t.state.step = "reorganise"
    reject(t, "france", "caldiero §15.3", {"type": "reorganise", "hex": "1817"})


def test_eliminated_unit_returns_with_its_general() -> None:
    t = command_phase()
    u = t.state.units["fr-40-ligne"]
    u.where, u.hex, u.reduced, u.return_turn = "track", "", True, 2
    t.state.step = "replacements"
    reject(t, "france", "caldiero §12.8", {"type": "end_step"})
    reject(t, "france", "caldiero §12.8", {"type": "place", "piece": "fr-40-ligne", "hex": "1517"})
    t.send("france", {"type": "place", "piece": "fr-40-ligne", "hex": "1318"})
    assert t.unit("fr-40-ligne").where == "map" and t.unit("fr-40-ligne").reduced


# --- bombardment ------------------------------------------------------------------------------------
def bombarding(weather: int = 0) -> Table:
    state = position({"fr-massena-iv-8pdr": "1417", "fr-18-ligne": "1317", "au-colloredo": "1617"},
                     leaders={"massena": "1318"}, orders={"massena": "defence"}, weather=weather)
    return activate(state, "massena", step="bombardment")


def test_bombardment_in_range_and_sight() -> None:
    t = bombarding()
    t.send("france", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr"], "target": "1617"}, dice=[6])
    fired = t.of(ev.ArtilleryFired)[-1]
    assert fired.column == 3 and fired.result in ("D", "R") and t.unit("au-colloredo").status != "good"
    assert "range 2 (caldiero §11.2): +0" in t.rolls[0].detail["modifiers"]


def test_moved_artillery_does_not_fire() -> None:
    t = bombarding()
    t.state.units["fr-massena-iv-8pdr"].art_moved = True
    reject(t, "france", "caldiero §11.0", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr"], "target": "1617"})


def test_no_fire_in_snow_and_range_one_in_cloudburst() -> None:
    reject(bombarding(weather=2), "france", "caldiero §17.1.2", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr"], "target": "1617"})
    reject(bombarding(weather=1), "france", "caldiero §11.2", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr"], "target": "1617"})


def test_line_of_sight_blocked_by_units() -> None:
    t = bombarding()
    t.state.units["fr-40-ligne"].where, t.state.units["fr-40-ligne"].hex = "map", "1517"
    t.state.units["fr-32-ligne"].where, t.state.units["fr-32-ligne"].hex = "map", "1516"  # the line runs between them
    reject(t, "france", "caldiero §11.2", {"type": "bombard", "artillery": ["fr-massena-iv-8pdr"], "target": "1617"})


# --- end of the game --------------------------------------------------------------------------------
def test_last_turn_ends_the_game_with_victory_points() -> None:
    state = position({"fr-18-ligne": "2020", "fr-40-ligne": "2119", "au-colloredo": "1612"},
                     leaders={"massena": "2019"}, orders={"massena": "defence"}, turn=10)
    state.formations["hohenzollern"].activated = True
    t = activate(state, "massena", step="combat")
    t.send("france", {"type": "end_step"})
    end = t.of(ev.GameEnded)[-1]
    assert end.points == {"france": 6, "austria": 2} and end.winner == "france" and end.level == "tactical"
    outcome = RULESET.outcome(t.state)
    assert outcome is not None and outcome.winner == "france" and outcome.rule == "caldiero §18"


def test_lone_leader_reached_by_the_enemy_escapes() -> None:
    """caldiero §8.2.3: the kernel's flight (parabellum/escape.py), answered as Arrivano's is (`escape {to}`, one
    shape; before: `move_leader` with `path` null, the leaders' step's without), never staying: he must flee."""
    state = position({"fr-18-ligne": "1417", "au-colloredo": "2117"}, leaders={"massena": "1317", "hohenzollern": "1617"},
                     orders={"massena": "manoeuvre"})
    t = activate(state, "massena", step="movement")
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1617"})
    assert t.awaited().kind == "escape" and t.awaited().seats == ("austria",)
    options = t.legal("austria")
    assert options and all(o.keys() == {"type", "to"} and o["type"] == "escape" and o["to"] for o in options)
    reject(t, "austria", "caldiero §8.2.3", {"type": "escape", "to": "2519"})
    reject(t, "austria", "caldiero §8.2.3", {"type": "escape", "to": None})
    t.send("austria", {"type": "escape", "to": "2017"})
    assert t.state.leaders["hohenzollern"].hex == "2017" and t.awaited() is None
    assert t.of(ev.LeaderMoved)[-1].rule == "caldiero §8.2.3" and not t.of(ev.LeaderMoved)[-1].own


def test_surrounded_lone_leader_is_captured() -> None:
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": "1516", "fr-32-ligne": "1517", "fr-18-legere": "1616",
                      "fr-carabiniers": "1618", "fr-9-dragons": "1716", "fr-1-cavalry": "1717"},
                     leaders={"massena": "1317", "hohenzollern": "1617"}, orders={"massena": "manoeuvre"})
    t = activate(state, "massena", step="movement")
    t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1617", "path": ["1517", "1617"]})
    assert t.state.leaders["hohenzollern"].where == "lost"
    assert t.of(ev.LeaderLost)[-1].rule == "caldiero §8.2.3"
