"""The assault (marengo §11) is frames on the engine's decision stack (arbitro §S.3): its context is typed
(AssaultUnderway), each step a seat is asked is a frame of its own kind, and the assault waits below the losses
and the retreat its steps cause; Marengo keeps no pending decision of its own. The closures an assault leaves
are decided by the rules and carried in `assault_ended`, which the fold only applies."""

from __future__ import annotations

import json

import pytest

from arbitro.events import marengo as ev
from arbitro.projections.marengo import MarengoState, apply_event
from tests.marengo.harness import Game, from_position, position, ruleset, types
from arbitro.adjudicator.seat_numbers import events_of


def _stack(g: Game) -> list[str]:
    return [f.kind for f in g.app.state_at(g.id).core.decisions]


def _assault_on_spinetta() -> Game:
    """AUT_HADDICK_A (infantry 3) assaults across marengo/spinetta, blocked by FRA_GARDANNE_B; FRA_GARDANNE_A is
    in the reserve of spinetta."""
    g = from_position(position({
        "AUT_HADDICK_A": ("marengo", "marengo/spinetta"),
        "FRA_GARDANNE_B": ("spinetta", "spinetta/marengo"), "FRA_GARDANNE_A": ("spinetta", "reserve"),
    }))
    g.send("austria", type="assault", approach="marengo/spinetta", blocks=[g.tok("AUT_HADDICK_A")],
           leaders=[g.tok("AUT_HADDICK_A")])
    return g


def test_each_asked_step_of_an_assault_is_a_typed_frame_marengo_11() -> None:
    g = _assault_on_spinetta()
    (frame,) = g.app.state_at(g.id).core.decisions
    assert (frame.kind, frame.seats, frame.rule) == ("defensive_artillery", ("france",), "marengo §11")
    assert frame.ctx == ev.AssaultUnderway(side="austria", approach="marengo/spinetta", target="spinetta/marengo",
                                           blocks=("AUT_HADDICK_A",), leaders=("AUT_HADDICK_A",),
                                           defenders=("FRA_GARDANNE_B",), arm="infantry")
    assert (frame.ctx.from_zone, frame.ctx.to_zone) == ("marengo", "spinetta")
    assert not hasattr(g.state, "assault"), "the assault under way is kept once, on the stack"
    assert ruleset().pending(g.state) is None, "Marengo has no pending decision of its own"
    assert g.legal("france") == [{"type": "defensive_artillery", "fire": False}] and g.legal("austria") == []
    g.send("france", type="defensive_artillery", fire=False)
    assert _stack(g) == ["defending_leaders"]
    events = g.send("france", type="defending_leaders", blocks=[])
    # 3 - 1 infantry penalty = 2 against 0: Austria wins; the defender's loss goes to its only defender (forced),
    # the attacker's to its only leader; nobody may pursue; the defenders retreat, the assault waiting below
    assert next(e for e in events if e["type"] == "assault_resolved")["winner"] == "austria"
    assert _stack(g) == ["conquest", "retreat"], _stack(g)
    assert g.app.state_at(g.id).core.decisions[0].ctx.winner == "austria"
    while g.app.awaiting(g.id).seats == ["france"]:
        g.send("france", **g.legal("france")[0])
    assert _stack(g) == ["advance"] and g.app.awaiting(g.id).seats == ["austria"]
    events = g.send("austria", type="advance", advance=True)
    assert _stack(g) == [] and g.block("AUT_HADDICK_A").zone == "spinetta"
    assert "assault_ended" in types(events)


def test_the_result_losses_are_taken_above_the_waiting_assault_marengo_11() -> None:
    """Two defending leaders: the attacker chooses which of them takes the defender's loss, while the assault
    waits below (kind result_losses), its context now naming the defending leaders and the winner."""
    g = from_position(position({
        "AUT_HADDICK_A": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "AUT_HADDICK_B": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "FRA_GARDANNE_A": ("marengo", "marengo/castel_ceriolo"), "FRA_CHAMBARLHAC_A": ("marengo", "marengo/castel_ceriolo"),
    }))
    t = g.tok
    g.send("austria", type="assault", approach="castel_ceriolo/marengo", blocks=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B")],
           leaders=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B")])
    g.send("france", type="defensive_artillery", fire=False)
    g.send("france", type="defending_leaders", blocks=[t("FRA_GARDANNE_A"), t("FRA_CHAMBARLHAC_A")])
    below, top = g.app.state_at(g.id).core.decisions
    assert (below.kind, top.kind) == ("result_losses", "assign_loss")
    assert set(below.ctx.def_leaders) == {"FRA_GARDANNE_A", "FRA_CHAMBARLHAC_A"} and below.ctx.winner == "france"
    with pytest.raises(ValueError, match="nothing is asked"):  # a waiting frame is never answered
        ruleset().steps()["result_losses"].answer(_Refusing(), below, None)


class _Refusing:
    """A stand-in Decision whose reject raises, as the engine's does."""

    state = MarengoState()

    def reject(self, rule: str, message: str) -> None:
        raise ValueError(f"{rule}: {message}")


@pytest.mark.parametrize("seat", ["austria", "france"])
def test_a_served_assault_frame_names_the_enemy_by_token_only_marengo_4(seat: str) -> None:
    g = _assault_on_spinetta()
    enemy = sorted(b for b, x in g.state.blocks.items() if x.side != seat)
    served = [e["event"] for e in events_of(g.app.log(g.id, seat)) if e["event"]["type"] == "decision_opened"]
    assert served and served[0]["frame"]["ctx"]["ctx"] == "marengo_assault"
    text = json.dumps(served)
    assert [b for b in enemy if b in text] == []
    own = "AUT_HADDICK_A" if seat == "austria" else "FRA_GARDANNE_B"
    assert own in text, "one's own blocks are named as the umpire names them"


def test_assault_ended_carries_the_closures_the_rules_decided_marengo_11() -> None:
    """Won: the zone is conquered and only the attackers in it may enter; the event says so, and the fold
    applies it to a state that holds no assault at all."""
    g = _assault_on_spinetta()
    g.send("france", type="defensive_artillery", fire=False)
    g.send("france", type="defending_leaders", blocks=[])
    while g.app.awaiting(g.id).seats == ["france"]:
        g.send("france", **g.legal("france")[0])
    ended = next(e for e in g.send("austria", type="advance", advance=True) if e["type"] == "assault_ended")
    assert (ended["winner"], ended["advanced"], ended["closed_approach"], ended["conquered"]) == \
        ("austria", True, "", "spinetta")
    assert list(ended["may_enter"]) == [{"block": "AUT_HADDICK_A", "token": g.tok("AUT_HADDICK_A")}]
    assert g.state.closed_zones == {"spinetta": ["AUT_HADDICK_A"]}
    s = apply_event(MarengoState(), ev.AssaultEnded(winner="france", advanced=False, closed_approach="marengo/spinetta",
                                                    rule="marengo §11"))
    assert s.closed_approaches == ["marengo/spinetta"] and s.closed_zones == {}
    s = apply_event(MarengoState(), ev.AssaultEnded(winner="austria", advanced=False, conquered="spinetta",
                                                    may_enter=(ev.Ref(block="AUT_OTT_A", token="b9"),), rule="marengo §11"))
    assert s.closed_zones == {"spinetta": ["AUT_OTT_A"]} and s.closed_approaches == []


def test_a_lost_assault_closes_its_approach_in_its_event_marengo_11() -> None:
    g = from_position(position({
        "AUT_HADDICK_A": ("marengo", "marengo/spinetta", 2),
        "FRA_GARDANNE_B": ("spinetta", "spinetta/marengo"),
    }))
    g.send("austria", type="assault", approach="marengo/spinetta", blocks=[g.tok("AUT_HADDICK_A")],
           leaders=[g.tok("AUT_HADDICK_A")])
    g.send("france", type="defensive_artillery", fire=False)
    events = g.send("france", type="defending_leaders", blocks=[g.tok("FRA_GARDANNE_B")])
    while g.app.awaiting(g.id).kind not in ("turn", "game_over"):
        seat = g.app.awaiting(g.id).seats[0]
        events += g.send(seat, **g.legal(seat)[0])
    ended = next(e for e in events if e["type"] == "assault_ended")
    assert (ended["winner"], ended["closed_approach"], ended["conquered"], list(ended["may_enter"])) == \
        ("france", "marengo/spinetta", "", [])
    assert g.state.closed_approaches == ["marengo/spinetta"] and _stack(g) == []
