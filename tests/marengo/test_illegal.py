"""Illegal commands of every kind are refused citing the rule they break (and nothing is appended)."""

from __future__ import annotations

from arbitro.adjudicator.errors import Rejected
from tests.marengo.harness import from_position, position


def test_movement_rules_marengo_5_8() -> None:
    g = from_position(position({
        "AUT_OTT_A": ("cascina_grossa", "reserve"), "AUT_OTT_B": ("cascina_grossa", "reserve"),
        "AUT_OTT_C": ("cascina_grossa", "reserve"), "AUT_KAIM_A": ("ghilina", "reserve"),
        "AUT_KAIM_B": ("ghilina", "reserve"), "AUT_NOBILI": ("spinetta", "reserve"),
        "FRA_GARDANNE_A": ("marengo", "marengo/cascina_grossa"), "FRA_GARDANNE_B": ("san_giuliano", "reserve"),
        "FRA_WATRIN_A": ("fontanone_sud", "reserve"), "AUT_ELSNITZ_A": ("testa_di_ponte", "reserve"),
    }))
    t = g.tok
    # through an approach the enemy blocks: only an assault crosses it
    g.reject("austria", "marengo §8", "blocked by the enemy", type="move", blocks=[t("AUT_OTT_A")], to="marengo")
    # not adjacent
    g.reject("austria", "marengo §8", "not adjacent", type="move", blocks=[t("AUT_OTT_A")], to="torre_garofoli")
    # blocking an approach whose opposite zone is empty
    g.reject("austria", "marengo §8", "may be blocked only", type="move", blocks=[t("AUT_OTT_A")],
             to="cascina_grossa", place="cascina_grossa/strada_sale")
    # impassable (marengo §5)
    g.reject("austria", "marengo §5", "impassable", type="move", blocks=[t("AUT_NOBILI")], to="fontanone_sud")
    # a group starts in one zone
    g.reject("austria", "marengo §8", "one zone", type="move", blocks=[t("AUT_OTT_A"), t("AUT_KAIM_A")], to="strada_sale")
    # capacity counts own blocks only: strada_sale holds 3
    g.send("austria", type="move", blocks=[t("AUT_OTT_A"), t("AUT_OTT_B"), t("AUT_OTT_C")], to="strada_sale")
    g.reject("austria", "marengo §8", "already moved", type="move", blocks=[t("AUT_OTT_A")], to="castel_ceriolo")
    g.send("austria", type="move", blocks=[t("AUT_KAIM_A")], to="cascina_grossa")
    g.send("austria", type="move", blocks=[t("AUT_KAIM_B")], to="cascina_grossa")
    # command limit: three groups or assaults
    g.reject("austria", "marengo §8", "command limit", type="move", blocks=[t("AUT_NOBILI")], to="ghilina")
    # ...but the main road is free
    g.send("austria", type="road_move", block=t("AUT_ELSNITZ_A"), road="strada_principale", path=["pedrabona"])
    g.reject("austria", "marengo §8", "command limit", type="road_move", block=t("AUT_NOBILI"),
             road="strada_novi", path=["ghilina"])


def test_capacity_marengo_8() -> None:
    g = from_position(position({
        "AUT_OTT_A": ("cascina_grossa", "reserve"), "AUT_OTT_B": ("strada_sale", "reserve"),
        "AUT_OTT_C": ("strada_sale", "reserve"), "AUT_KAIM_A": ("strada_sale", "reserve"),
        "FRA_GARDANNE_B": ("san_giuliano", "reserve"),
    }))
    g.reject("austria", "marengo §8", "holds at most 3", type="move", blocks=[g.tok("AUT_OTT_A")], to="strada_sale")


def test_activation_marengo_6() -> None:
    g = from_position(position({
        "FRA_GARDANNE_A": ("san_giuliano", "reserve"), "FRA_GARDANNE_B": ("san_giuliano", "reserve"),
        "FRA_WATRIN_A": ("torre_garofoli", "reserve"), "AUT_OTT_A": ("testa_di_ponte", "reserve"),
    }, phasing="austria", round_=2))
    st = g.state
    assert st.blocks["FRA_GARDANNE_A"].activated  # the harness activates placed blocks; undo that by a ruling
    g.app.submit(g.id, "umpire", {"type": "ruling", "reason": "test: French blocks start unactivated",
                                  "patch": [{"op": "replace", "path": f"/blocks/{b}/activated", "value": False}
                                            for b in ("FRA_GARDANNE_A", "FRA_GARDANNE_B", "FRA_WATRIN_A")]})
    g.send("austria", type="end_turn")
    # 7:00, no At Start zone entered by the enemy: no French choice this turn
    assert g.state.activation_left == 0
    g.reject("france", "marengo §6", "may be activated", type="activate", blocks=[g.tok("FRA_GARDANNE_A")])
    g.reject("france", "marengo §6", "not activated", type="move", blocks=[g.tok("FRA_GARDANNE_A")], to="san_giuliano_vecchio")


def test_assault_rules_marengo_11_13() -> None:
    g = from_position(position({
        "AUT_HADDICK_A": ("marengo", "marengo/spinetta"), "AUT_KAIM_C": ("marengo", "marengo/spinetta", 1),
        "AUT_PILATI": ("fontanone_nord", "fontanone_nord/castel_ceriolo"),
        "AUT_OTT_A": ("fontanone_nord", "fontanone_nord/castel_ceriolo"),
        "FRA_GARDANNE_B": ("spinetta", "spinetta/marengo"),
        "FRA_WATRIN_A": ("castel_ceriolo", "castel_ceriolo/fontanone_nord"),
    }))
    t = g.tok
    base = dict(type="assault", approach="marengo/spinetta")
    g.reject("austria", "marengo §11", "strength 2 or more", **base, blocks=[t("AUT_KAIM_C")], leaders=[t("AUT_KAIM_C")])
    g.reject("austria", "marengo §11", "1 to 1 leader", **base, blocks=[t("AUT_HADDICK_A"), t("AUT_KAIM_C")],
             leaders=[t("AUT_HADDICK_A"), t("AUT_KAIM_C")])
    g.reject("austria", "marengo §11", "among the assaulting", **base, blocks=[t("AUT_KAIM_C")], leaders=[t("AUT_HADDICK_A")])
    # cavalry does not lead into cavalry-obstacle terrain (castel_ceriolo's approach has the symbol)
    g.reject("austria", "marengo §11", "cavalry cannot lead", type="assault", approach="fontanone_nord/castel_ceriolo",
             blocks=[t("AUT_PILATI"), t("AUT_OTT_A")], leaders=[t("AUT_PILATI")])
    # assaulting blocks must block that approach
    g.reject("austria", "marengo §11", "must all block", **base, blocks=[t("AUT_OTT_A")], leaders=[t("AUT_OTT_A")])
    # a demoralised army does not assault (§13)
    g.app.submit(g.id, "umpire", {"type": "ruling", "reason": "test", "patch": [
        {"op": "replace", "path": "/demoralised/austria", "value": True}]})
    g.reject("austria", "marengo §13", "demoralised", **base, blocks=[t("AUT_HADDICK_A")], leaders=[t("AUT_HADDICK_A")])


def test_one_assault_per_approach_and_no_assault_after_moving_marengo_7_11() -> None:
    g = from_position(position({
        "AUT_HADDICK_A": ("marengo", "marengo/spinetta"), "AUT_HADDICK_B": ("marengo", "marengo/spinetta"),
        "AUT_OTT_A": ("cascina_grossa", "reserve"),
        "FRA_GARDANNE_B": ("spinetta", "spinetta/marengo"), "FRA_GARDANNE_A": ("spinetta", "reserve"),
    }))
    t = g.tok
    g.send("austria", type="assault", approach="marengo/spinetta", blocks=[t("AUT_HADDICK_A")], leaders=[t("AUT_HADDICK_A")])
    # the defender answers; the attacker may not act meanwhile
    g.reject("austria", "marengo §11", "waiting for france", type="end_turn")
    g.send("france", type="defensive_artillery", fire=False)
    g.send("france", type="defending_leaders", blocks=[])
    # 3 - 1 infantry penalty = 2 > 0: attacker wins; France retreats, Austria may advance
    while g.app.awaiting(g.id).seats == ["france"]:
        g.send("france", **g.legal("france")[0])
    g.send("austria", type="advance", advance=False)
    g.reject("austria", "marengo §11", "already assaulted", type="assault", approach="marengo/spinetta",
             blocks=[t("AUT_HADDICK_B")], leaders=[t("AUT_HADDICK_B")])
    g.send("austria", type="move", blocks=[t("AUT_OTT_A")], to="san_giuliano_vecchio")
    g.reject("austria", "marengo §7", "step is over", type="assault", approach="marengo/spinetta",
             blocks=[t("AUT_HADDICK_B")], leaders=[t("AUT_HADDICK_B")])
    # the blocks left on an approach facing an empty zone must leave before the turn ends (§8)
    g.reject("austria", "marengo §8", "must leave", type="end_turn")
    g.send("austria", type="move", blocks=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B")], to="marengo", place="reserve")
    assert g.state.commands_used == 2  # assault + move; the forced leave was free
    g.send("austria", type="end_turn")


def test_manoeuvre_rules_marengo_9() -> None:
    g = from_position(position({
        "AUT_PILATI": ("ghilina", "reserve"), "AUT_OTT_A": ("ghilina", "reserve"),
        "AUT_FRIMONT": ("testa_di_ponte", "reserve"), "AUT_KAIM_A": ("testa_di_ponte", "reserve"),
        "FRA_CHAMPEAUX": ("torre_garofoli", "reserve"), "FRA_GARDANNE_B": ("pedrabona", "reserve"),
    }))
    t = g.tok
    # cavalry-obstacle terrain (torre_garofoli/ghilina): the group needs infantry, which is shown
    g.reject("austria", "marengo §9", "needs an infantry", type="move", blocks=[t("AUT_PILATI")], to="torre_garofoli")
    # infantry does not attack while moving by road
    g.reject("austria", "marengo §9", "only cavalry", type="road_move", block=t("AUT_KAIM_A"),
             road="strada_principale", path=["pedrabona"])
    ev = g.send("austria", type="move", blocks=[t("AUT_PILATI"), t("AUT_OTT_A")], to="torre_garofoli",
                show=t("AUT_OTT_A"))
    shown = [e for e in ev if e["type"] == "blocks_revealed"]
    assert shown and shown[0]["reason"] == "manoeuvre_infantry" and shown[0]["blocks"][0]["block"] == "AUT_OTT_A"
    err = g.reject("france", "marengo §9", "only blocks in the reserve of torre_garofoli block", type="block_manoeuvre",
                   blocks=[t("FRA_GARDANNE_B")])
    assert {"type": "block_manoeuvre", "blocks": []} in err.allowed  # only blocks in that zone's reserve
    g.send("france", type="block_manoeuvre", blocks=[])
    g.send("france", **g.legal("france")[0])  # retreat
    assert g.block("AUT_OTT_A").zone == "torre_garofoli" and not g.block("AUT_OTT_A").face_up
    # road cavalry attacks (shown) and, on success, goes on along the road
    g.send("austria", type="road_move", block=t("AUT_FRIMONT"), road="strada_principale", path=["pedrabona", "marengo"])
    assert g.manoeuvre() is not None and g.block("AUT_FRIMONT").face_up
    g.send("france", type="block_manoeuvre", blocks=[])
    g.send("france", type="retreat", block=t("FRA_GARDANNE_B"), zone="li_poggi")
    assert g.block("FRA_GARDANNE_B").strength == 1  # infantry retreating from the reserve loses 1 (§12)
    assert g.block("AUT_FRIMONT").zone == "marengo"  # the road cavalry went on (§9 (2))
    assert not g.block("AUT_FRIMONT").face_up
    assert g.state.commands_used == 1  # the main road is free; the manoeuvre group counted once


def test_bombardment_rules_marengo_10() -> None:
    g = from_position(position({
        "AUT_ARTIGLIERIA": ("marengo", "reserve"), "FRA_WATRIN_B": ("castel_ceriolo", "castel_ceriolo/marengo"),
    }, step="movement"))
    g.reject("austria", "marengo §10", "must block an approach", type="declare_bombardment", block=g.tok("AUT_ARTIGLIERIA"))
    g.send("austria", type="move", blocks=[g.tok("AUT_ARTIGLIERIA")], to="marengo", place="marengo/castel_ceriolo")
    g.send("austria", type="declare_bombardment", block=g.tok("AUT_ARTIGLIERIA"))
    g.reject("austria", "marengo §8", "already moved", type="move", blocks=[g.tok("AUT_ARTIGLIERIA")],
             to="marengo", place="reserve")
    g.send("austria", type="end_turn")
    g.send("france", type="end_turn")
    g.reject("austria", "marengo §7", "resolve or cancel", type="end_turn")
    g.send("austria", type="cancel_bombardment")
    assert not g.block("AUT_ARTIGLIERIA").face_up
    # cancelled: the artillery may move this turn
    g.send("austria", type="move", blocks=[g.tok("AUT_ARTIGLIERIA")], to="marengo", place="reserve")


def test_pending_decisions_belong_to_their_seat() -> None:
    g = from_position(position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("ghilina", "reserve")}))
    g.send("austria", type="move", blocks=[g.tok("AUT_OTT_A")], to="ghilina")
    g.reject("austria", "marengo §9", "waiting for france", type="block_manoeuvre", blocks=[])
    g.reject("france", "marengo §9", "first block the attack", type="end_turn")


def test_shuffle_only_at_the_start_marengo_4() -> None:
    g = from_position(position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "AUT_OTT_B": ("cascina_grossa", "reserve"),
                                "FRA_CHAMPEAUX": ("torre_garofoli", "reserve")}))
    g.send("austria", type="shuffle", zone="cascina_grossa")
    g.send("austria", type="move", blocks=[g.tok("AUT_OTT_A")], to="strada_sale")
    g.reject("austria", "marengo §4", "start of a turn", type="shuffle", zone="cascina_grossa")


def test_assign_loss_leaders_first_marengo_11() -> None:
    g = from_position(position({
        "AUT_HADDICK_A": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "AUT_HADDICK_B": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "AUT_KAIM_C": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "FRA_GARDANNE_A": ("marengo", "marengo/castel_ceriolo"), "FRA_CHAMBARLHAC_A": ("marengo", "marengo/castel_ceriolo"),
    }))
    t = g.tok
    g.send("austria", type="assault", approach="castel_ceriolo/marengo",
           blocks=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B"), t("AUT_KAIM_C")], leaders=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B")])
    g.send("france", type="defensive_artillery", fire=False)
    g.send("france", type="defending_leaders", blocks=[t("FRA_GARDANNE_A"), t("FRA_CHAMBARLHAC_A")])
    # 6 - 0 vs 6: result 0, the defender wins; France loses 1 (Austria chooses among the French leaders)
    p = g.app.awaiting(g.id)
    assert p.kind == "assign_loss" and p.seats == ["austria"]
    g.send("austria", type="assign_loss", block=t("FRA_GARDANNE_A"))
    # Austria loses 1 + 0: France chooses among the Austrian leaders, not the others
    err = g.reject("france", "marengo §11", "the loss must go to one of the enemy leaders", type="assign_loss",
                   block=t("AUT_KAIM_C"))
    assert sorted(o["block"] for o in err.allowed) == sorted([t("AUT_HADDICK_A"), t("AUT_HADDICK_B")])
    g.send("france", type="assign_loss", block=t("AUT_HADDICK_B"))
    assert g.block("AUT_HADDICK_B").strength == 2 and g.block("FRA_GARDANNE_A").strength == 2


def test_more_refusals_cite_their_rule() -> None:
    g = from_position(position({
        "AUT_ARTIGLIERIA": ("marengo", "marengo/castel_ceriolo"), "AUT_OTT_A": ("cascina_grossa", "reserve"),
        "FRA_WATRIN_B": ("san_giuliano", "reserve"),
    }, round_=5))
    # the French pontoon, a French entry point, an Austrian activation
    g.reject("austria", "marengo §8", "not one of your entry points", type="enter", block="AUT_OTT_B", entry="tortona",
             path=["strada_tortona"])
    g.reject("austria", "marengo §6", "only French blocks", type="activate", blocks=[g.tok("AUT_OTT_A")])
    # nothing to bombard: castel_ceriolo is empty
    g.reject("austria", "marengo §10", "no enemy", type="declare_bombardment", block=g.tok("AUT_ARTIGLIERIA"))
    g.reject("austria", "marengo §10", "no bombardment of yours", type="resolve_bombardment")
    # answers to decisions nobody awaits
    g.reject("austria", "marengo §7", "no decision of that kind", type="advance", advance=True)
    # France cannot act in the Austrian turn
    try:
        g.app.submit(g.id, "france", {"type": "end_turn"})
        raise AssertionError("accepted")
    except Rejected as e:
        assert e.rule.startswith("arbitro") and "not france's turn" in e.message
    # a block of the enemy cannot be moved, and its id is not echoed
    err = g.reject("austria", "marengo §4", "no such block", type="move", blocks=["FRA_WATRIN_B"], to="ghilina")
    assert "FRA_WATRIN_B" not in err.message
