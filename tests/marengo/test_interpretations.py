"""Interpretations: each has a default and alternatives; an umpire ruling switches one in a game."""

from __future__ import annotations

from tests.marengo.harness import from_position, position, ruleset


def test_every_interpretation_is_declared_with_phrase_and_citation() -> None:
    interps = ruleset().interpretations()
    assert len(interps) >= 10
    for i in interps.values():
        assert i.default in i.choices and len(i.choices) >= 2
        assert i.rule.startswith("marengo §") and i.phrase


def _assault_won_by_two(margin: bool) -> int:
    g = from_position(position({
        "AUT_HADDICK_A": ("castel_ceriolo", "castel_ceriolo/strada_sale"),
        "FRA_CHAMBARLHAC_A": ("strada_sale", "strada_sale/castel_ceriolo"),
        "FRA_CHAMBARLHAC_B": ("strada_sale", "strada_sale/castel_ceriolo"),
    }))
    if margin:
        g.app.submit(g.id, "umpire", {"type": "ruling", "reason": "the loser loses the margin too",
                                      "interpretation": {"loser_extra_losses": "margin"}})
    t = g.tok
    g.send("austria", type="assault", approach="castel_ceriolo/strada_sale", blocks=[t("AUT_HADDICK_A")],
           leaders=[t("AUT_HADDICK_A")])
    g.send("france", type="defensive_artillery", fire=False)
    g.send("france", type="defending_leaders", blocks=[])
    # 3 - 1 (strada_sale/castel_ceriolo's infantry penalty) - 0 = 2 > 0: the attacker wins by 2; France's losses fall on its non-leaders (France chooses)
    lost = 0
    while g.app.awaiting(g.id).kind == "assign_loss":
        g.send("france", **g.legal("france")[0])
    st = g.state
    lost = 6 - sum(st.blocks[b].strength for b in ("FRA_CHAMBARLHAC_A", "FRA_CHAMBARLHAC_B"))
    return lost


def test_loser_extra_losses_default_and_ruling() -> None:
    assert _assault_won_by_two(margin=False) == 1  # "per ogni punto negativo": none when the attacker wins
    assert _assault_won_by_two(margin=True) == 3  # 1 + 2


def test_continuation_face_up_end_of_move() -> None:
    g = from_position(position({"AUT_PILATI": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("san_giuliano", "reserve")}))
    g.app.submit(g.id, "umpire", {"type": "ruling", "reason": "continuing cavalry hides once placed",
                                  "interpretation": {"continuation_face_up": "end_of_move"}})
    g.send("austria", type="move", blocks=[g.tok("AUT_PILATI")], to="strada_sale")
    g.send("austria", type="continue", blocks=[g.tok("AUT_PILATI")], approach="strada_sale/san_giuliano")
    assert not g.block("AUT_PILATI").face_up


def test_readings_in_force_reach_legal_as_soon_as_the_umpire_rules() -> None:
    """legal() and pending() see only the state: the fold keeps the umpire's readings in it at the ruling
    itself (note_interpretations), so no command has to pass before they apply."""
    g = from_position(position({"AUT_PILATI": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("san_giuliano", "reserve")}))
    g.app.submit(g.id, "umpire", {"type": "ruling", "reason": "test the mirror",
                                  "interpretation": {"road_attack_arms": "not_infantry"}})
    assert g.state.interpretations == {"road_attack_arms": "not_infantry"}
    g.send("austria", type="move", blocks=[g.tok("AUT_PILATI")], to="strada_sale")
    g.app.submit(g.id, "umpire", {"type": "ruling", "reason": "back to the default",
                                  "interpretation": {"road_attack_arms": "cavalry"}})
    assert g.state.interpretations == {"road_attack_arms": "cavalry"}
