"""The rulebook's worked examples, played through the engine, checking every intermediate result stated."""

from __future__ import annotations

from tests.marengo.harness import from_position, position, types


def test_assault_example_marengo_11() -> None:
    """§11 example: inf 3 leads; defensive artillery 1 hits it (3->2); defending leader inf 2; assault
    strength 2 - 1 = 1; result 1 - 2 = -1: the defender wins; defender loses 1 (2->1), attacker 1+1 = 2
    (the leader, now 2, is eliminated); the defender's cavalry 2 pursues: 2 - 1 = 1; the other attacking
    infantry 2->1, the pursuing cavalry 2->1; the attackers fall back to their reserve; all hidden again."""
    g = from_position(position({
        "AUT_HADDICK_A": ("marengo", "marengo/spinetta"), "AUT_KAIM_C": ("marengo", "marengo/spinetta"),
        "FRA_ARTIGLIERIA": ("spinetta", "spinetta/marengo", 1), "FRA_GARDANNE_B": ("spinetta", "spinetta/marengo"),
        "FRA_CHAMPEAUX": ("spinetta", "spinetta/marengo"),
    }))
    t = g.tok
    ev = g.send("austria", type="assault", approach="marengo/spinetta", blocks=[t("AUT_HADDICK_A"), t("AUT_KAIM_C")],
                leaders=[t("AUT_HADDICK_A")])
    assert "assault_declared" in types(ev)
    assert g.block("AUT_HADDICK_A").face_up and not g.block("AUT_KAIM_C").face_up  # step 1: the leader shown
    assert g.state.commands_used == 1
    # step 2-3: defensive artillery shown, fires 1: the leader 3 -> 2
    ev = g.send("france", type="defensive_artillery", fire=True)
    assert g.block("FRA_ARTIGLIERIA").face_up
    assert g.block("AUT_HADDICK_A").strength == 2
    assert g.state.morale["austria"] == 15
    assert g.assault_stage() == "defending_leaders"
    # step 4-7
    ev = g.send("france", type="defending_leaders", blocks=[t("FRA_GARDANNE_B")])
    res = next(e for e in ev if e["type"] == "assault_resolved")
    assert (res["attack"], res["defence"], res["result"], res["winner"]) == (1, 2, -1, "france")
    assert g.block("FRA_GARDANNE_B").strength == 1  # the winner loses 1
    assert g.block("AUT_HADDICK_A").strength == 0 and g.block("AUT_HADDICK_A").zone == "eliminated"  # 1 + 1
    assert g.block("AUT_KAIM_C").strength == 2  # the excess over the leader was 0 here
    # step 8: the defender's non-leading cavalry may pursue (asked also when it could not, to hide faces)
    assert g.assault_stage() == "pursuit"
    assert {"type": "pursue", "blocks": [t("FRA_CHAMPEAUX")]} in g.legal("france")
    ev = g.send("france", type="pursue", blocks=[t("FRA_CHAMPEAUX")])
    pur = next(e for e in ev if e["type"] == "pursuit_declared")
    assert pur["strength"] == 1  # 2 - 1 cavalry penalty on the attackers' approach
    assert g.block("FRA_CHAMPEAUX").strength == 1  # the pursuer always loses 1
    assert g.block("AUT_KAIM_C").strength == 1  # the pursued lose 1
    # step 11: the attackers fall back to their reserve; the defenders keep the approach; all hidden
    assert g.assault_stage() is None
    assert g.block("AUT_KAIM_C").place == "reserve" and g.block("AUT_KAIM_C").zone == "marengo"
    assert g.block("FRA_GARDANNE_B").place == "spinetta/marengo"
    assert not any(g.block(b).face_up for b in ("AUT_KAIM_C", "FRA_ARTIGLIERIA", "FRA_GARDANNE_B", "FRA_CHAMPEAUX"))
    assert g.state.morale == {"austria": 12, "france": 13}
    # failed assault: nobody crosses that approach this turn (§11)
    assert "marengo/spinetta" in g.state.closed_approaches


def test_bombardment_example_marengo_10() -> None:
    """§10 example: declared (artillery shown), left face up through the enemy turn, resolved next turn:
    target on the opposite approach, strength 1 - 0 = 1, the infantry 2 -> 1 shown then hidden at once; the
    artillery stays face up to the end of its turn and declares again only at the end of its next turn."""
    g = from_position(position({
        "AUT_ARTIGLIERIA": ("marengo", "marengo/castel_ceriolo", 1), "AUT_OTT_A": ("marengo", "reserve"),
        "FRA_WATRIN_B": ("castel_ceriolo", "castel_ceriolo/marengo"),
    }, step="movement"))
    art = g.tok("AUT_ARTIGLIERIA")
    g.send("austria", type="declare_bombardment", block=art)
    assert g.block("AUT_ARTIGLIERIA").face_up
    assert g.view("france")["bombardments"]["austria"]["approach"] == "marengo/castel_ceriolo"
    g.send("austria", type="end_turn")
    fr = next(b for b in g.view("france")["enemy_blocks"] if b["token"] == art)
    assert fr["arm"] == "artillery" and fr["strength"] == 1  # face up during the enemy turn
    g.send("france", type="end_turn")
    assert g.block("AUT_ARTIGLIERIA").face_up
    g.reject("austria", "marengo §7", "resolve or cancel", type="move", blocks=[g.tok("AUT_OTT_A")], to="cascina_grossa")
    ev = g.send("austria", type="resolve_bombardment")
    res = next(e for e in ev if e["type"] == "bombardment_resolved")
    assert res["strength"] == 1 and res["target"] == "castel_ceriolo/marengo"
    assert g.block("FRA_WATRIN_B").strength == 1
    assert "blocks_revealed" in types(ev) and not g.block("FRA_WATRIN_B").face_up  # shown, hidden at once
    assert g.block("AUT_ARTIGLIERIA").face_up
    g.reject("austria", "marengo §10", "cannot move", type="move", blocks=[art], to="marengo", place="reserve")
    g.reject("austria", "marengo §10", "fired this turn", type="declare_bombardment", block=art)
    g.send("austria", type="end_turn")
    assert not g.block("AUT_ARTIGLIERIA").face_up


def test_retreat_example_marengo_12() -> None:
    """§12 example: the defeated infantry and the rest of the zone retreat, all shown; the infantry blocking
    the left approach takes the retreat loss (eliminated); the reserve cavalry none; not back toward the
    attacker, not into the enemy: only the remaining zone; hidden again at the end."""
    g = from_position(position({
        "AUT_HADDICK_A": ("castel_ceriolo", "castel_ceriolo/strada_sale"),
        "AUT_OTT_A": ("cascina_grossa", "reserve"), "AUT_OTT_B": ("barbotta", "reserve"),
        "AUT_OTT_C": ("villanova", "reserve"), "AUT_KAIM_A": ("cascina_bianca", "reserve"),
        "AUT_KAIM_B": ("san_giuliano_vecchio", "reserve"),
        "FRA_GARDANNE_B": ("strada_sale", "strada_sale/castel_ceriolo"),
        "FRA_MAINONI": ("strada_sale", "strada_sale/cascina_grossa", 1),
        "FRA_CHAMPEAUX": ("strada_sale", "reserve"),
    }))
    t = g.tok
    g.send("austria", type="assault", approach="castel_ceriolo/strada_sale", blocks=[t("AUT_HADDICK_A")],
           leaders=[t("AUT_HADDICK_A")])
    g.send("france", type="defensive_artillery", fire=False)
    # no defending leader: on this narrow approach (infantry penalty 1) a 2-strength leader would hold (2 - 2)
    ev = g.send("france", type="defending_leaders", blocks=[])
    res = next(e for e in ev if e["type"] == "assault_resolved")
    assert (res["attack"], res["defence"], res["result"], res["winner"]) == (2, 0, 2, "austria")
    assert g.block("FRA_GARDANNE_B").strength == 1 and g.block("AUT_HADDICK_A").strength == 2
    # retreat: shown; losses; only san_giuliano open
    assert "retreat" in [e["frame"]["kind"] for e in ev if e["type"] == "decision_opened"]
    assert g.block("FRA_MAINONI").zone == "eliminated"  # the approach loss
    assert g.block("FRA_CHAMPEAUX").strength == 2  # reserve cavalry: no loss
    assert g.block("FRA_CHAMPEAUX").face_up and g.block("FRA_GARDANNE_B").face_up
    opts = g.legal("france")
    assert {o["zone"] for o in opts} == {"san_giuliano"}
    g.send("france", type="retreat", block=t("FRA_CHAMPEAUX"), zone="san_giuliano")
    assert g.block("FRA_GARDANNE_B").zone == "san_giuliano"  # the last block had one choice
    assert not g.block("FRA_CHAMPEAUX").face_up and not g.block("FRA_GARDANNE_B").face_up
    # step 11: the attacker may advance; the zone is then closed to other Austrian blocks this turn
    g.send("austria", type="advance", advance=True)
    assert g.block("AUT_HADDICK_A").zone == "strada_sale"
    assert g.state.closed_zones == {"strada_sale": ["AUT_HADDICK_A"]}
    g.reject("austria", "marengo §11", "conquered", type="move", blocks=[t("AUT_OTT_A")], to="strada_sale")
    assert "strada_sale" not in g.state.enemy_entered_at_start  # not an At Start zone


def test_manoeuvre_blocked_example_marengo_9() -> None:
    """§9 first example: infantry attacks a zone held by cavalry; the cavalry blocks; the infantry stays
    in its reserve or advances to block the cavalry in turn."""
    g = from_position(position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("ghilina", "reserve")}))
    g.send("austria", type="move", blocks=[g.tok("AUT_OTT_A")], to="ghilina")
    assert g.app.awaiting(g.id).kind == "block_manoeuvre" and g.state.commands_used == 1
    assert {"type": "block_manoeuvre", "blocks": []} in g.legal("france")
    g.send("france", type="block_manoeuvre", blocks=[g.tok("FRA_CHAMPEAUX")])
    assert g.block("FRA_CHAMPEAUX").place == "ghilina/cascina_grossa"
    assert sorted(o["advance"] for o in g.legal("austria")) == [[], [g.tok("AUT_OTT_A")]]
    g.send("austria", type="after_block", advance=[g.tok("AUT_OTT_A")])
    assert g.block("AUT_OTT_A").place == "cascina_grossa/ghilina" and g.block("AUT_OTT_A").moved
    assert g.state.commands_used == 1  # no split: no extra command


def test_manoeuvre_success_example_marengo_9() -> None:
    """§9 second example: the cavalry does not block, retreats; the infantry enters the zone."""
    g = from_position(position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("ghilina", "reserve")}))
    g.send("austria", type="move", blocks=[g.tok("AUT_OTT_A")], to="ghilina")
    ev = g.send("france", type="block_manoeuvre", blocks=[])
    assert "retreat" in [e["frame"]["kind"] for e in ev if e["type"] == "decision_opened"]
    opts = g.legal("france")
    assert "cascina_grossa" not in {o["zone"] for o in opts}  # not toward the attacker
    g.send("france", type="retreat", block=g.tok("FRA_CHAMPEAUX"), zone="torre_garofoli")
    assert g.block("FRA_CHAMPEAUX").zone == "torre_garofoli" and g.block("FRA_CHAMPEAUX").strength == 2
    assert g.block("AUT_OTT_A").zone == "ghilina" and g.block("AUT_OTT_A").place == "reserve"
    assert g.manoeuvre() is None and g.app.state_at(g.id).core.decisions == ()


def test_road_movement_example_marengo_8() -> None:
    """§8 road example: the cavalry goes first (3 zones), the infantry waits one move (2 zones), the
    artillery two (1 zone); all on the main road, free of the command limit."""
    g = from_position(position({
        "AUT_FRIMONT": ("testa_di_ponte", "reserve"), "AUT_OTT_A": ("testa_di_ponte", "reserve"),
        "AUT_ARTIGLIERIA": ("testa_di_ponte", "reserve"),
    }))
    t = g.tok
    path3 = ["pedrabona", "marengo", "cascina_grossa"]
    g.send("austria", type="road_move", block=t("AUT_FRIMONT"), road="strada_principale", path=path3)
    g.reject("austria", "marengo §8", "road capacity", type="road_move", block=t("AUT_OTT_A"),
             road="strada_principale", path=path3)
    g.send("austria", type="road_move", block=t("AUT_OTT_A"), road="strada_principale", path=path3[:2])
    g.reject("austria", "marengo §8", "road capacity", type="road_move", block=t("AUT_ARTIGLIERIA"),
             road="strada_principale", path=path3[:2])
    g.send("austria", type="road_move", block=t("AUT_ARTIGLIERIA"), road="strada_principale", path=path3[:1])
    assert [g.block(b).zone for b in ("AUT_FRIMONT", "AUT_OTT_A", "AUT_ARTIGLIERIA")] == ["cascina_grossa", "marengo", "pedrabona"]
    assert g.state.commands_used == 0
    use = g.state.road_use["strada_principale|pedrabona|testa_di_ponte"]
    assert (use.direction, use.last) == ("testa_di_ponte", 3)


def test_reinforcements_enter_3_2_1_marengo_8() -> None:
    g = from_position(position({}, round_=2))
    legal_paths = {len(o["path"]) for o in g.legal("austria") if o["type"] == "enter" and o["block"] == "AUT_FRIMONT"}
    assert legal_paths == {1, 2, 3}
    g.send("austria", type="enter", block="AUT_FRIMONT", entry="alessandria", path=["testa_di_ponte", "pedrabona", "marengo"])
    g.reject("austria", "marengo §8", "road capacity", type="enter", block="AUT_PILATI", entry="alessandria",
             path=["testa_di_ponte", "pedrabona", "marengo"])
    g.send("austria", type="enter", block="AUT_PILATI", entry="alessandria", path=["testa_di_ponte", "pedrabona"])
    g.send("austria", type="enter", block="AUT_HADDICK_A", entry="alessandria", path=["testa_di_ponte"])
    g.reject("austria", "marengo §8", "three blocks already entered", type="enter", block="AUT_HADDICK_B",
             entry="alessandria", path=["testa_di_ponte"])
    g.send("austria", type="pontoon", block="AUT_HADDICK_B")
    assert g.state.commands_used == 1  # the pontoon counts as a group; the main road is free
    g.reject("austria", "marengo §8", "one block a turn", type="pontoon", block="AUT_KAIM_A")
    g.reject("austria", "marengo §8", "enters from 8:00", type="enter", block="AUT_OTT_A",
             entry="alessandria", path=["testa_di_ponte"])
    new = g.block("AUT_FRIMONT").token
    assert new and new not in ("", "AUT_FRIMONT")


def test_cavalry_continuation_example_marengo_8() -> None:
    """§8 continuation: cavalry ending in a reserve blocks an approach whose opposite zone holds the enemy,
    not one whose opposite zone is empty; it is shown face up."""
    g = from_position(position({"AUT_PILATI": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("san_giuliano", "reserve")}))
    g.send("austria", type="move", blocks=[g.tok("AUT_PILATI")], to="strada_sale")
    g.reject("austria", "marengo §8", "may be blocked only", type="continue", blocks=[g.tok("AUT_PILATI")],
             approach="strada_sale/castel_ceriolo")
    g.send("austria", type="continue", blocks=[g.tok("AUT_PILATI")], approach="strada_sale/san_giuliano")
    b = g.block("AUT_PILATI")
    assert b.place == "strada_sale/san_giuliano" and b.face_up and g.state.commands_used == 1
    g.reject("austria", "marengo §8", "already moved", type="move", blocks=[g.tok("AUT_PILATI")],
             to="strada_sale", place="reserve")


def _moves(g, seat: str, token: str) -> list[tuple[str, str]]:
    return sorted((c["to"], c.get("place", "reserve")) for c in g.legal(seat)
                  if c["type"] == "move" and c["blocks"] == [token])


def test_movement_from_reserve_example_marengo_8() -> None:
    """§8 first movement figure: the infantry in reserve may block the top approach (the enemy is opposite) but
    not enter the top zone (its approach is blocked by the enemy); may enter the right zone's reserve but not
    block the right approach (nobody opposite); neither block nor cross the impassable left approach."""
    g = from_position(position({"AUT_OTT_A": ("fontanone_sud", "reserve"),
                                "FRA_WATRIN_A": ("fontanone", "fontanone/fontanone_sud")}))
    t = g.tok("AUT_OTT_A")
    assert _moves(g, "austria", t) == [("fontanone_sud", "fontanone_sud/fontanone"), ("frugarolo", "reserve"),
                                       ("stortigliona", "reserve")]
    g.reject("austria", "marengo §8", "blocked by the enemy", type="move", blocks=[t], to="fontanone")
    g.reject("austria", "marengo §8", "may be blocked only", type="move", blocks=[t], to="fontanone_sud",
             place="fontanone_sud/stortigliona")
    g.reject("austria", "marengo §5", "impassable", type="move", blocks=[t], to="spinetta")
    g.reject("austria", "marengo §5", "impassable", type="move", blocks=[t], to="fontanone_sud",
             place="fontanone_sud/spinetta")


def test_movement_from_an_approach_example_marengo_8() -> None:
    """§8 second movement figure: the top infantry (its opposite approach blocked) may only go to its reserve;
    the bottom one (nobody opposite) may go to its reserve, free of the command limit, or into the opposite
    zone; it may not stay."""
    g = from_position(position({"AUT_OTT_A": ("fontanone_sud", "fontanone_sud/fontanone"),
                                "AUT_OTT_B": ("fontanone_sud", "fontanone_sud/stortigliona"),
                                "FRA_WATRIN_A": ("fontanone", "fontanone/fontanone_sud")}))
    top, bottom = g.tok("AUT_OTT_A"), g.tok("AUT_OTT_B")
    assert _moves(g, "austria", top) == [("fontanone_sud", "reserve")]
    assert _moves(g, "austria", bottom) == [("fontanone_sud", "reserve"), ("stortigliona", "reserve")]
    assert {"type": "end_turn"} not in g.legal("austria")
    g.reject("austria", "marengo §8", "must leave", type="end_turn")
    g.send("austria", type="move", blocks=[bottom], to="fontanone_sud", place="reserve")
    assert g.state.commands_used == 0
    g.send("austria", type="end_turn")


def test_attacker_wins_pursues_and_its_cavalry_continues_marengo_11() -> None:
    """An assault won by the attacker: its non-leading cavalry pursues (strength minus the cavalry penalty of
    the defenders' approach), the defenders retreat (participants take no retreat loss), the attackers advance
    and the cavalry continues to block an approach facing the enemy (a split: one more command)."""
    g = from_position(position({
        "AUT_HADDICK_A": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "AUT_ELSNITZ_A": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "FRA_WATRIN_B": ("marengo", "marengo/castel_ceriolo"), "FRA_MAINONI": ("marengo", "reserve"),
        "FRA_GARDANNE_A": ("cascina_grossa", "reserve"),
    }))
    t = g.tok
    g.send("austria", type="assault", approach="castel_ceriolo/marengo", blocks=[t("AUT_HADDICK_A"), t("AUT_ELSNITZ_A")],
           leaders=[t("AUT_HADDICK_A")])
    g.send("france", type="defensive_artillery", fire=False)
    ev = g.send("france", type="defending_leaders", blocks=[])  # a 2-strength leader would hold (3 - 1 - 2 = 0)
    res = next(e for e in ev if e["type"] == "assault_resolved")
    assert (res["attack"], res["defence"], res["winner"]) == (2, 0, "austria")
    # losses: France 1 (its one participant), Austria 1 (France chooses among the Austrian leaders: one)
    assert g.block("FRA_WATRIN_B").strength == 1 and g.block("AUT_HADDICK_A").strength == 2
    ev = g.send("austria", type="pursue", blocks=[t("AUT_ELSNITZ_A")])
    assert next(e for e in ev if e["type"] == "pursuit_declared")["strength"] == 2  # marengo/castel_ceriolo: no cav penalty
    assert g.block("AUT_ELSNITZ_A").strength == 1
    assert g.block("FRA_WATRIN_B").zone == "eliminated"  # 1 point left, 2 inflicted: excess ignored
    # the reserve infantry did not take part (no assault loss); retreating from the reserve costs it 1 (§12)
    assert g.block("FRA_MAINONI").strength == 1
    # the reserve infantry retreats, losing 1 (§12); then the attackers advance
    while g.app.awaiting(g.id).seats == ["france"]:
        opts = g.legal("france")
        g.send("france", **next(o for o in opts if o.get("zone") != "cascina_grossa"))
    assert g.block("FRA_MAINONI").strength == 1 and g.block("FRA_MAINONI").zone != "marengo"
    g.send("austria", type="advance", advance=True)
    assert g.block("AUT_ELSNITZ_A").zone == "marengo" and g.state.closed_zones["marengo"]
    used = g.state.commands_used
    g.send("austria", type="continue", blocks=[t("AUT_ELSNITZ_A")], approach="marengo/cascina_grossa")
    assert g.block("AUT_ELSNITZ_A").place == "marengo/cascina_grossa" and g.block("AUT_ELSNITZ_A").face_up
    assert g.state.commands_used == used + 1


def test_split_after_a_block_costs_a_command_marengo_9() -> None:
    g = from_position(position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "AUT_OTT_B": ("cascina_grossa", "reserve"),
                                "FRA_CHAMPEAUX": ("ghilina", "reserve")}))
    g.send("austria", type="move", blocks=[g.tok("AUT_OTT_A"), g.tok("AUT_OTT_B")], to="ghilina")
    g.send("france", type="block_manoeuvre", blocks=[g.tok("FRA_CHAMPEAUX")])
    g.send("austria", type="after_block", advance=[g.tok("AUT_OTT_A")])
    assert g.state.commands_used == 2
    assert g.block("AUT_OTT_A").place == "cascina_grossa/ghilina" and g.block("AUT_OTT_B").place == "reserve"


def test_artillery_that_fired_last_turn_cannot_fire_in_defence_marengo_11() -> None:
    g = from_position(position({
        "AUT_HADDICK_A": ("marengo", "marengo/spinetta"),
        "FRA_ARTIGLIERIA": ("spinetta", "spinetta/marengo"), "FRA_GARDANNE_A": ("spinetta", "spinetta/marengo"),
    }, round_=3, fired_turn={"france": 3}))  # France fired in its previous turn (round 2)
    g.send("austria", type="assault", approach="marengo/spinetta", blocks=[g.tok("AUT_HADDICK_A")],
           leaders=[g.tok("AUT_HADDICK_A")])
    assert g.legal("france") == [{"type": "defensive_artillery", "fire": False}]


def test_road_capacity_is_per_road_and_one_direction_marengo_8() -> None:
    """Two roads cross marengo/pedrabona: each has its own capacity; a road crossing is one way a turn."""
    g = from_position(position({
        "AUT_FRIMONT": ("marengo", "reserve"), "AUT_OTT_A": ("marengo", "reserve"),
        "AUT_OTT_B": ("marengo", "reserve"), "AUT_OTT_C": ("marengo", "reserve"),
    }))
    t = g.tok
    g.send("austria", type="road_move", block=t("AUT_FRIMONT"), road="strada_principale", path=["pedrabona"])
    g.send("austria", type="road_move", block=t("AUT_OTT_A"), road="strada_principale", path=["pedrabona"])
    g.send("austria", type="road_move", block=t("AUT_OTT_B"), road="strada_principale", path=["pedrabona"])
    g.reject("austria", "marengo §8", "road capacity", type="road_move", block=t("AUT_OTT_C"),
             road="strada_principale", path=["pedrabona"])
    g.reject("austria", "marengo §8", "pedrabona holds at most 3", type="road_move", block=t("AUT_OTT_C"),
             road="strada_novi", path=["pedrabona"])  # the other road is free, but the zone is full
    assert g.state.commands_used == 0
    g = from_position(position({"AUT_FRIMONT": ("marengo", "reserve"), "AUT_NOBILI": ("testa_di_ponte", "reserve")}))
    g.send("austria", type="road_move", block=g.tok("AUT_FRIMONT"), road="strada_principale", path=["pedrabona"])
    g.reject("austria", "marengo §8", "other direction", type="road_move", block=g.tok("AUT_NOBILI"),
             road="strada_principale", path=["pedrabona", "marengo"])
    assert g.state.commands_used == 0


def test_continuation_limits_marengo_8() -> None:
    """Cavalry that leaves an approach for its own reserve cannot block another approach of that zone; after a
    road move it continues only onto an approach its road crosses."""
    g = from_position(position({
        "AUT_PILATI": ("spinetta", "spinetta/ghilina"), "AUT_FRIMONT": ("testa_di_ponte", "reserve"),
        "FRA_GARDANNE_A": ("ghilina", "reserve"), "FRA_GARDANNE_B": ("frugarolo", "reserve"),
        "FRA_WATRIN_A": ("fontanone_nord", "reserve"), "FRA_WATRIN_B": ("marengo", "reserve"),
    }))
    t = g.tok
    g.send("austria", type="move", blocks=[t("AUT_PILATI")], to="spinetta", place="reserve")
    g.reject("austria", "marengo §8", "left an approach", type="continue", blocks=[t("AUT_PILATI")],
             approach="spinetta/frugarolo")
    g.send("austria", type="road_move", block=t("AUT_FRIMONT"), road="strada_principale", path=["pedrabona"])
    g.reject("austria", "marengo §8", "same road", type="continue", blocks=[t("AUT_FRIMONT")],
             approach="pedrabona/fontanone_nord")
    g.send("austria", type="continue", blocks=[t("AUT_FRIMONT")], approach="pedrabona/marengo")
    assert g.state.commands_used == 1  # the move of AUT_PILATI; main road and its continuation are free
