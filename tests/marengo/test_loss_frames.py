"""The loss queue and the retreat are frames on the engine's decision stack (arbitro §S.3; marengo §10-§12): the
queue's tasks are its frame's typed context, each point taken revises it, each task allocated closes it; a
retreat's frame stays below its losses; what a seat is served of either never names the enemy's blocks by
their internal ids."""

from __future__ import annotations

import json

import pytest

from arbitro.adjudicator.errors import IllegalCommand, NotYourDecision
from arbitro.events.marengo import LossesAwaited, LossTask, RetreatUnderway
from tests.marengo.harness import Game, from_position, position
from arbitro.adjudicator.seat_numbers import events_of


def _lost_assault() -> Game:
    """The assault of test_illegal's leaders-first case: result 0, the defender wins; each side loses 1 among
    the other's chosen leaders (marengo §11), two tasks queued by one command."""
    g = from_position(position({
        "AUT_HADDICK_A": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "AUT_HADDICK_B": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "AUT_KAIM_C": ("castel_ceriolo", "castel_ceriolo/marengo"),
        "FRA_GARDANNE_A": ("marengo", "marengo/castel_ceriolo"), "FRA_CHAMBARLHAC_A": ("marengo", "marengo/castel_ceriolo", 2),
    }))  # 3 + 3 - 1 (infantry penalty) against 3 + 2: result 0
    t = g.tok
    g.send("austria", type="assault", approach="castel_ceriolo/marengo",
           blocks=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B"), t("AUT_KAIM_C")], leaders=[t("AUT_HADDICK_A"), t("AUT_HADDICK_B")])
    g.send("france", type="defensive_artillery", fire=False)
    g.send("france", type="defending_leaders", blocks=[t("FRA_GARDANNE_A"), t("FRA_CHAMBARLHAC_A")])
    return g


def test_the_loss_queue_is_one_typed_frame_and_its_tasks_are_allocated_in_order_marengo_11() -> None:
    g = _lost_assault()
    t = g.tok
    below, frame = g.app.state_at(g.id).core.decisions
    assert below.kind == "result_losses", "the assault waits below the losses its result caused"
    assert frame.kind == "assign_loss" and frame.seats == ("austria",) and frame.rule == "marengo §11"
    assert frame.ctx == LossesAwaited(tasks=(
        LossTask(side="france", points=1, leaders=frame.ctx.tasks[0].leaders, reason="assault result", rule="marengo §11"),
        LossTask(side="austria", points=1, leaders=frame.ctx.tasks[1].leaders, others=("AUT_KAIM_C",),
                 reason="assault result", rule="marengo §11")))
    assert set(frame.ctx.tasks[0].leaders) == {"FRA_GARDANNE_A", "FRA_CHAMBARLHAC_A"}
    assert not hasattr(g.state, "losses"), "the queue is kept once, on the stack"
    assert g.legal("austria") == sorted(({"type": "assign_loss", "block": t(b)} for b in ("FRA_GARDANNE_A", "FRA_CHAMBARLHAC_A")),
                                        key=lambda o: o["block"])
    assert g.legal("france") == []
    for seat, command in (("france", {"type": "assign_loss", "block": t("FRA_GARDANNE_A")}),
                          ("austria", {"type": "end_turn"})):
        with pytest.raises(NotYourDecision, match="takes the next loss"):
            g.app.submit(g.id, seat, command)
    with pytest.raises(IllegalCommand, match="the loss must go to one of"):  # the awaited kind: the step's reason
        g.app.submit(g.id, "austria", {"type": "assign_loss", "block": t("AUT_KAIM_C")})
    events = g.send("austria", type="assign_loss", block=t("FRA_GARDANNE_A"))
    kinds = [e["type"] for e in events]
    # the point taken revises the head task, the task ends (a record), its frame closes, the next task's opens
    assert kinds[-4:] == ["decision_revised", "loss_task_ended", "decision_resolved", "decision_opened"], kinds
    assert events[-4]["ctx"]["tasks"][0]["points"] == 0 and events[-4]["ctx"]["tasks"][0]["chosen"] == "FRA_GARDANNE_A"
    below, frame = g.app.state_at(g.id).core.decisions
    assert frame.seats == ("france",) and [x.side for x in frame.ctx.tasks] == ["austria"]
    g.send("france", type="assign_loss", block=t("AUT_HADDICK_B"))
    assert g.app.state_at(g.id).core.decisions == ()
    assert g.block("AUT_HADDICK_B").strength == 2 and g.block("FRA_GARDANNE_A").strength == 2
    assert g.app.verify(g.id).passed


@pytest.mark.parametrize("seat", ["austria", "france"])
def test_a_served_loss_frame_never_names_an_enemy_block_by_its_internal_id_marengo_4(seat: str) -> None:
    """The frame's context holds internal ids (the engine's, and the umpire's); a seat is served the enemy's
    as tokens, in decision_opened and decision_revised alike, while its own blocks keep their ids."""
    g = _lost_assault()
    g.send("austria", type="assign_loss", block=g.tok("FRA_GARDANNE_A"))
    enemy = sorted(b for b, x in g.state.blocks.items() if x.side != seat)
    served = [e["event"] for e in events_of(g.app.log(g.id, seat)) if e["event"]["type"].startswith("decision_")]
    assert sum(e["type"] == "decision_revised" for e in served) >= 1 and len(served) >= 3
    text = json.dumps(served)
    assert [b for b in enemy if b in text] == []
    own = "FRA_GARDANNE_A" if seat == "france" else "AUT_KAIM_C"
    assert own in text, "one's own blocks are named as the umpire names them"
    assert json.dumps([e["event"] for e in g.app.log(g.id, "umpire") if e["event"]["type"].startswith("decision_")]).count("AUT_KAIM_C")


def test_a_retreat_is_a_frame_below_its_losses_and_answers_only_its_destinations_marengo_12() -> None:
    """§12: the retreat's frame is opened first, its reserve-infantry loss above it (the stack runs the loss
    first); then the retreat awaits France's destinations, and closes when no block is left in the zone."""
    g = from_position(position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "FRA_WATRIN_A": ("ghilina", "reserve"),
                                "FRA_WATRIN_B": ("ghilina", "reserve")}))
    t = g.tok
    g.send("austria", type="move", blocks=[t("AUT_OTT_A")], to="ghilina")
    g.send("france", type="block_manoeuvre", blocks=[])
    enter, below, top = g.app.state_at(g.id).core.decisions  # §9 (2): the attackers enter when the retreat ends
    assert enter.kind == "manoeuvre_enter" and enter.ctx.to_zone == "ghilina"
    assert (below.kind, below.seats, top.kind, top.seats) == ("retreat", ("france",), "assign_loss", ("france",))
    assert below.ctx == RetreatUnderway(side="france", zone="ghilina", enemy_from="cascina_grossa",
                                        blocks=below.ctx.blocks)
    assert set(below.ctx.blocks) == {"FRA_WATRIN_A", "FRA_WATRIN_B"}
    assert not hasattr(g.state, "retreat"), "the retreat is kept once, on the stack"
    with pytest.raises(NotYourDecision, match="takes the next loss"):  # the loss first, then the retreat
        g.app.submit(g.id, "france", {"type": "retreat", "block": t("FRA_WATRIN_A"), "zone": "torre_garofoli"})
    g.send("france", type="assign_loss", block=t("FRA_WATRIN_B"))
    frame = g.app.state_at(g.id).core.decisions[-1]
    assert frame.kind == "retreat" and g.app.awaiting(g.id).prompt == "choose where each block retreats from ghilina"
    assert g.legal("austria") == [] and all(o["zone"] != "cascina_grossa" for o in g.legal("france"))
    with pytest.raises(NotYourDecision, match="retreats from ghilina"):
        g.app.submit(g.id, "austria", {"type": "end_turn"})
    with pytest.raises(IllegalCommand, match="cannot retreat to cascina_grossa: not the zone the enemy came from"):
        g.app.submit(g.id, "france", {"type": "retreat", "block": t("FRA_WATRIN_A"), "zone": "cascina_grossa"})
    for b in ("FRA_WATRIN_A", "FRA_WATRIN_B"):
        if g.app.state_at(g.id).core.decisions:
            g.send("france", **next(o for o in g.legal("france") if o["block"] == t(b)))
    assert g.app.state_at(g.id).core.decisions == ()
    assert g.block("FRA_WATRIN_A").zone != "ghilina" and g.block("AUT_OTT_A").zone == "ghilina"
    served = json.dumps([e["event"] for e in events_of(g.app.log(g.id, "austria")) if e["event"]["type"].startswith("decision_")])
    assert "retreat" in served and "FRA_WATRIN" not in served, "the enemy's retreating blocks are served as tokens"
    assert g.app.verify(g.id).passed


def test_an_attack_manoeuvre_is_a_frame_whose_road_plan_the_defender_is_not_served_marengo_9() -> None:
    """§9: block_manoeuvre awaits the defender, after_block the attacker once blocked; the road cavalry's
    further zones (remaining, crossings) are the mover's plan: the frame served to the defender leaves them out,
    as its manoeuvre_started does, while the mover and the umpire see them."""
    g = from_position(position({
        "AUT_FRIMONT": ("testa_di_ponte", "reserve"),
        "FRA_MAINONI": ("pedrabona", "reserve"), "FRA_WATRIN_B": ("cascina_grossa", "reserve"),
    }))
    f = g.tok("AUT_FRIMONT")
    g.send("austria", type="road_move", block=f, road="strada_principale", path=["pedrabona", "marengo", "cascina_grossa"])
    (frame,) = g.app.state_at(g.id).core.decisions
    assert (frame.kind, frame.seats) == ("block_manoeuvre", ("france",)) and not hasattr(g.state, "manoeuvre")
    assert frame.ctx.remaining == ("marengo", "cascina_grossa") and frame.ctx.crossings
    opened = {seat: next(e["event"] for e in reversed(events_of(g.app.log(g.id, seat))) if e["event"]["type"] == "decision_opened")
              for seat in ("austria", "france", "umpire")}
    assert "remaining" not in opened["france"]["frame"]["ctx"] and "crossings" not in opened["france"]["frame"]["ctx"]
    assert "AUT_FRIMONT" not in json.dumps(opened["france"])
    assert opened["austria"]["frame"]["ctx"]["remaining"] == ["marengo", "cascina_grossa"]
    assert list(opened["umpire"]["frame"]["ctx"]["remaining"]) == ["marengo", "cascina_grossa"]
    with pytest.raises(NotYourDecision, match="block the attack manoeuvre"):
        g.app.submit(g.id, "austria", {"type": "after_block", "advance": [f]})
    g.send("france", type="block_manoeuvre", blocks=[g.tok("FRA_MAINONI")])
    (frame,) = g.app.state_at(g.id).core.decisions
    assert (frame.kind, frame.seats, frame.ctx.blockers) == ("after_block", ("austria",), ("FRA_MAINONI",))
    g.send("austria", type="after_block", advance=[])
    assert g.app.state_at(g.id).core.decisions == () and g.app.verify(g.id).passed
