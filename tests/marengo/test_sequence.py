"""marengo §6 activation, §7 sequence, §13 morale bonus, §14 victory."""

from __future__ import annotations

from tests.marengo.harness import from_position, new_game, position
from arbitro.adjudicator.seat_numbers import events_of


def test_first_french_turn_one_activation_then_two_from_11_00_marengo_6() -> None:
    g = new_game()
    assert g.state.phasing == "austria" and g.state.hour == 6 and g.state.step == "start"
    g.send("austria", type="end_turn")
    assert g.state.phasing == "france" and g.state.activation_left == 1
    waiting = [b for b, x in g.state.blocks.items() if x.side == "france" and x.zone != "at_start"
               and not x.zone.startswith("pool:")]
    assert len(waiting) == 13 and not any(g.state.blocks[b].activated for b in waiting)
    g.reject("france", "marengo §6", "may be activated now", type="activate",
             blocks=[g.tok(waiting[0]), g.tok(waiting[1])])
    g.send("france", type="activate", blocks=[g.tok(waiting[0])])
    assert g.block(waiting[0]).activated and g.state.activation_left == 0
    g.send("france", type="end_turn")
    g.send("austria", type="end_turn")
    assert g.state.hour == 7 and g.state.activation_left == 0  # no At Start zone entered, before 11:00


def test_automatic_activation_next_to_the_enemy_and_two_choices_after_an_at_start_zone_is_entered() -> None:
    pos = position({"FRA_GARDANNE_A": ("li_poggi", "reserve"), "FRA_GARDANNE_B": ("marengo", "reserve"),
                    "FRA_WATRIN_A": ("san_giuliano", "reserve"), "FRA_WATRIN_B": ("strada_tortona", "reserve"),
                    "AUT_OTT_A": ("testa_di_ponte", "reserve")}, round_=2)
    for b in ("FRA_GARDANNE_A", "FRA_GARDANNE_B", "FRA_WATRIN_A", "FRA_WATRIN_B"):
        pos["state"]["blocks"][b]["activated"] = False
    pos["state"]["enemy_entered_at_start"] = ["pedrabona"]
    g = from_position(pos)
    g.send("austria", type="end_turn")
    assert g.block("FRA_GARDANNE_A").activated  # testa_di_ponte is adjacent and Austrian
    assert not g.block("FRA_GARDANNE_B").activated
    assert g.state.activation_left == 2
    g.send("france", type="activate", blocks=[g.tok("FRA_GARDANNE_B"), g.tok("FRA_WATRIN_A")])
    g.send("france", type="move", blocks=[g.tok("FRA_GARDANNE_B")], to="castel_ceriolo")
    g.reject("france", "marengo §6", "not activated", type="move", blocks=[g.tok("FRA_WATRIN_B")], to="san_giuliano")


def test_austrian_entry_into_an_at_start_zone_is_recorded() -> None:
    g = from_position(position({"AUT_OTT_A": ("testa_di_ponte", "reserve"), "FRA_WATRIN_A": ("san_giuliano", "reserve")}))
    g.send("austria", type="move", blocks=[g.tok("AUT_OTT_A")], to="pedrabona")
    assert g.state.enemy_entered_at_start == ["pedrabona"]
    assert g.view("france")["enemy_entered_at_start"] == ["pedrabona"]


def test_morale_bonus_once_marengo_13() -> None:
    pos = position({"AUT_OTT_A": ("testa_di_ponte", "reserve"), "FRA_WATRIN_A": ("san_giuliano", "reserve")})
    pos["state"]["demoralised"]["france"] = True
    pos["state"]["morale"]["france"] = 0
    g = from_position(pos)
    g.send("austria", type="end_turn")
    assert g.state.morale["austria"] == 21 and g.state.bonus_given["austria"]
    g.send("france", type="end_turn")
    assert g.state.morale["austria"] == 21  # once (interpretation morale_bonus)


def test_victory_two_stars_of_two_colours_marengo_14() -> None:
    g = from_position(position({"AUT_OTT_A": ("san_giuliano_vecchio", "reserve"), "AUT_OTT_B": ("torre_garofoli", "reserve"),
                                "FRA_WATRIN_A": ("san_giuliano", "reserve")}, phasing="france", round_=16))
    ev = g.send("france", type="end_turn")
    over = next(e for e in ev if e["type"] == "game_over")
    assert over["winner"] == "austria" and over["rule"] == "marengo §14"
    assert g.app.awaiting(g.id).kind == "game_over"


def test_victory_stars_of_one_colour_are_not_enough() -> None:
    g = from_position(position({"AUT_OTT_A": ("san_giuliano_vecchio", "reserve"), "AUT_OTT_B": ("villanova", "reserve"),
                                "FRA_WATRIN_A": ("san_giuliano", "reserve")}, phasing="france", round_=16))
    ev = g.send("france", type="end_turn")
    assert next(e for e in ev if e["type"] == "game_over")["winner"] == "france"


def test_demoralisation_decides_first_marengo_14() -> None:
    pos = position({"AUT_OTT_A": ("marengo", "reserve"), "AUT_OTT_B": ("spinetta", "reserve"),
                    "FRA_WATRIN_A": ("san_giuliano", "reserve")}, phasing="france", round_=16)
    pos["state"]["demoralised"]["austria"] = True
    g = from_position(pos)
    ev = g.send("france", type="end_turn")
    assert next(e for e in ev if e["type"] == "game_over")["winner"] == "france"


def test_demoralised_defence_counts_one_less_marengo_13() -> None:
    pos = position({"AUT_HADDICK_A": ("marengo", "marengo/spinetta"),
                    "FRA_GARDANNE_A": ("spinetta", "spinetta/marengo")})
    pos["state"]["demoralised"]["france"] = True
    pos["state"]["bonus_given"]["austria"] = True
    g = from_position(pos)
    g.send("austria", type="assault", approach="marengo/spinetta", blocks=[g.tok("AUT_HADDICK_A")],
           leaders=[g.tok("AUT_HADDICK_A")])
    g.send("france", type="defensive_artillery", fire=False)
    ev = g.send("france", type="defending_leaders", blocks=[g.tok("FRA_GARDANNE_A")])
    res = next(e for e in ev if e["type"] == "assault_resolved")
    assert (res["attack"], res["defence"]) == (2, 2)  # 3 - 1 penalty; 3 - 1 demoralised


def test_demoralised_by_defensive_fire_the_attack_counts_one_less_each_marengo_13() -> None:
    pos = position({"AUT_HADDICK_A": ("castel_ceriolo", "castel_ceriolo/marengo"),
                    "AUT_HADDICK_B": ("castel_ceriolo", "castel_ceriolo/marengo"),
                    "FRA_ARTIGLIERIA": ("marengo", "marengo/castel_ceriolo", 1),
                    "FRA_GARDANNE_B": ("marengo", "marengo/castel_ceriolo", 1)})
    pos["state"]["morale"]["austria"] = 1
    g = from_position(pos)
    t = g.tok
    g.send("austria", type="assault", approach="castel_ceriolo/marengo",
           blocks=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B")], leaders=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B")])
    g.send("france", type="defensive_artillery", fire=True)
    g.send("france", type="assign_loss", block=t("AUT_HADDICK_A"))  # France chooses among the leaders
    assert g.state.demoralised["austria"] and g.state.morale["austria"] == 0
    ev = g.send("france", type="defending_leaders", blocks=[t("FRA_GARDANNE_B")])
    res = next(e for e in ev if e["type"] == "assault_resolved")
    # leaders 2 + 3, each one less: 1 + 2 = 3, less marengo/castel_ceriolo's infantry penalty 1; defence 1: the
    # assault goes on although Austria is now demoralised, and wins
    assert (res["attack"], res["defence"], res["winner"]) == (2, 1, "austria")


def test_transcribed_game_takes_the_at_start_draw_as_entered_marengo_6() -> None:
    """A game played on a table: the umpire enters the At Start draw; blocks go to the marked zones in order."""
    from tests.marengo.harness import Game, app

    a = app()
    gid = a.create("marengo", "marengo", transcribed=True)
    pop = list(a.state_at(gid).core.decisions[-1].ctx.population)
    served = str(events_of(a.log(gid, "austria")))
    assert not [b for b in pop if b in served]
    a.submit(gid, "umpire", {"type": "enter_random", "values": list(reversed(pop))})
    g = Game(a, gid)
    assert g.block(pop[-1]).zone == "pedrabona" and g.block(pop[0]).zone == "cascina_grossa"
    assert a.awaiting(gid).seats == ["austria"]
