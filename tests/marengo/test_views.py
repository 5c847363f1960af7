"""Views and redaction (marengo §4): a seat sees its own faces; of the enemy, positions, tokens, what is face
up now, and what the rules make public; shuffling makes blocks indistinguishable; nothing served to a seat
contains the enemy's internal ids."""

from __future__ import annotations

import json

from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.selfplay import SelfPlay
from tests.marengo.harness import from_position, new_game, position, ruleset
from arbitro.adjudicator.seat_numbers import events_of
from tests.conformance.leaks import leaked


def _served(g, seat: str) -> str:
    return json.dumps(events_of(g.app.log(g.id, seat))) + json.dumps(g.app.view(g.id, seat)) + json.dumps(g.app.legal(g.id, seat))


def test_at_start_draw_is_hidden_from_austria_marengo_6() -> None:
    g = new_game()
    v = g.view("austria")
    french = v["enemy_blocks"]
    assert len(french) == 13
    assert all(set(b) == {"token", "side", "zone", "place", "face_up", "moved", "assaulted", "activated"} for b in french)
    assert all(not b["activated"] for b in french)  # activation is public
    assert v["enemy_reinforcements_waiting"] == {"pool:desaix": 3, "pool:guardia": 2, "pool:monnier": 2}
    mine = g.view("france")["blocks"]
    assert {b["block"] for b in mine if b["zone"] not in ("pool:desaix", "pool:guardia", "pool:monnier")} == \
        set(g.state.blocks) - {b for b in g.state.blocks if not b.startswith("FRA_")} - {
            b for b, x in g.state.blocks.items() if x.zone.startswith("pool:")}
    draw = next(e for e in events_of(g.app.log(g.id, "austria")) if e["type"] == "items_drawn")
    assert draw["event"].get("hidden") and "drawn" not in draw["event"]
    assert not [b for b in g.state.blocks if b.startswith("FRA_") and b in _served(g, "austria")]


def test_face_up_blocks_show_their_face_to_the_enemy_then_hide() -> None:
    g = from_position(position({"AUT_PILATI": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("san_giuliano", "reserve")}))
    tok = g.tok("AUT_PILATI")
    seen = next(b for b in g.view("france")["enemy_blocks"] if b["token"] == tok)
    assert "arm" not in seen and "strength" not in seen
    g.send("austria", type="move", blocks=[tok], to="strada_sale")
    g.send("austria", type="continue", blocks=[tok], approach="strada_sale/san_giuliano")
    seen = next(b for b in g.view("france")["enemy_blocks"] if b["token"] == tok)
    assert (seen["arm"], seen["strength"], seen["place"]) == ("cavalry", 2, "strada_sale/san_giuliano")
    g.send("austria", type="end_turn")
    seen = next(b for b in g.view("france")["enemy_blocks"] if b["token"] == tok)
    assert "arm" not in seen


def test_shuffle_issues_fresh_tokens_the_enemy_cannot_link_marengo_4() -> None:
    g = from_position(position({
        "AUT_OTT_A": ("cascina_grossa", "reserve"), "AUT_OTT_C": ("cascina_grossa", "reserve"),
        "AUT_NOBILI": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("torre_garofoli", "reserve"),
    }))
    before = {b: g.tok(b) for b in ("AUT_OTT_A", "AUT_OTT_C", "AUT_NOBILI")}
    out = g.app.submit(g.id, "austria", {"type": "shuffle", "zone": "cascina_grossa"})
    after = {b: g.tok(b) for b in before}
    assert set(after.values()).isdisjoint(before.values())
    fr = [e for e in events_of(g.app.log(g.id, "france")) if e["type"] == "blocks_shuffled"][-1]["event"]
    assert fr["assignments"] == sorted(({"place": "reserve", "token": t} for t in after.values()),
                                       key=lambda d: d["token"])
    assert "old_token" not in json.dumps(fr)
    au = [e for e in events_of(g.app.log(g.id, "austria")) if e["type"] == "blocks_shuffled"][-1]["event"]
    assert {a["block"]: a["token"] for a in au["assignments"]} == after  # the owner knows
    assert out.events
    draw = [e for e in events_of(g.app.log(g.id, "france")) if e["type"] == "items_drawn"][-1]["event"]
    assert draw.get("hidden")
    # the enemy's view lists the new tokens in token order, with no face
    fv = [b for b in g.view("france")["enemy_blocks"] if b["zone"] == "cascina_grossa"]
    assert [b["token"] for b in fv] == sorted(after.values()) and all("arm" not in b for b in fv)


def test_rejections_never_echo_a_guessed_enemy_id() -> None:
    g = from_position(position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("ghilina", "reserve")},
                               phasing="france", round_=3))
    try:
        g.app.submit(g.id, "france", {"type": "move", "blocks": ["AUT_OTT_A"], "to": "strada_sale"})
        raise AssertionError("accepted")
    except Rejected as e:
        assert "AUT_OTT_A" not in str(e.to_dict())


def test_selfplay_serves_no_secret_to_either_seat() -> None:
    g = new_game()
    rs = ruleset()
    play = SelfPlay(g.app, g.id, seed="views")
    for _ in range(12):
        play.play(play.steps + 40)
        state = g.state
        for seat in ("austria", "france"):
            text = _served(g, seat)
            found = leaked(text, rs.secrets(state, seat))
            assert not found, (seat, found[:3])
            # face-down enemy blocks show no face
            for b in g.view(seat)["enemy_blocks"]:
                assert ("arm" in b) == b["face_up"]
        if state.game_over:
            break
