"""The assault in progress is a frame on the engine's decision stack (issue 18; caldiero §12): the kernel's `assault`
frame with its typed context (events/parabellum.AssaultUnderway), opened at the declaration, revised as its stages
run, closed when it ends, below the decisions it asks; the state keeps no combat of its own."""

from __future__ import annotations

from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.events.parabellum import AssaultUnderway
from arbitro.projections.caldiero import CaldieroState
from tests.caldiero.test_combat import ATT, DEF, attack, table


def _combat(t: object) -> core.Frame[AssaultUnderway] | None:
    frames = [f for f in t.game.core.decisions if f.kind == "assault"]  # type: ignore[attr-defined]
    assert len(frames) <= 1
    return frames[0] if frames else None


def test_the_state_keeps_no_combat() -> None:
    assert "combat" not in CaldieroState.__struct_fields__
    assert not hasattr(ev, "CombatStageSet") and not hasattr(ev, "CombatUnderway")


def test_an_ex_waits_in_the_combat_frame_below_the_losses_it_asks_caldiero_12_5_4() -> None:
    t = table({"fr-carabiniers": ATT, "fr-18-legere": ATT}, {"au-colloredo": DEF, "au-hungarian": DEF})
    attack(t, ["fr-carabiniers", "fr-18-legere"], [DEF], dice=[4])  # Ex (test_combat: 7:8 = 1-2, +1)
    stack = t.game.core.decisions
    assert [f.kind for f in stack[-2:]] == ["assault", "exchange_loss"] and stack[-1].ctx.role == "attackers"
    c = stack[-2].ctx
    assert isinstance(c, AssaultUnderway) and c.stage == "advance"  # the others' tests follow the losses at once
    assert c.attacker_side == "france" and c.targets == (DEF,) and c.attackers == ("fr-carabiniers", "fr-18-legere")
    assert stack[-2].rule == "caldiero §12.2"
    t.send("france", {"type": "exchange_loss", "units": ["fr-carabiniers"]})
    frame = _combat(t)
    assert frame is not None and (t.awaited().kind, t.awaited().ctx.role) == ("exchange_loss", "defenders")
    # the defender covers what the attacker lost (2 SP), eliminated at once: one unit each way
    assert t.awaited().ctx.sets == (("au-colloredo",), ("au-hungarian",))
    assert t.unit("fr-carabiniers").where == "track"
    t.send("austria", {"type": "exchange_loss", "units": ["au-hungarian"]}, dice=[6, 1])
    assert _combat(t) is None and t.of(ev.CombatEnded)
    revised = [e for e in t.events if isinstance(e, core.DecisionRevised) and e.kind == "assault"]
    assert [e.ctx.stage for e in revised][-1] == "end"


def test_a_retreating_cavalry_unit_leaves_the_combat_frame_caldiero_14_1() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-stab-dragoner": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    frame = _combat(t)
    # asked at the assault's stage `declared` (§12.1 step 2, the kernel's before_combat.asked), its hex kept as asked
    assert frame is not None and frame.ctx.defenders == ("au-stab-dragoner",) and frame.ctx.stage == "declared"
    assert frame.ctx.cavalry_done == (DEF,)
    option = next(o for o in t.legal("austria") if o["type"] == "cavalry_retreat")
    t.send("austria", option)
    frame = _combat(t)
    assert frame is not None and frame.ctx.defenders == () and frame.ctx.stage == "end" and frame.ctx.left == (DEF,)
    assert t.awaited().kind == "advance"
    assert t.legal("france") == [{"type": "advance", "units": ["fr-18-ligne"], "to": DEF}, {"type": "decline"}], \
        "the hex attacked and left is offered once"


def test_defensive_fire_withdraws_the_attackers_it_hits_from_the_frame_caldiero_11_4_5() -> None:
    t = table({"fr-18-ligne": ATT, "fr-18-legere": ATT}, {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF})
    attack(t, ["fr-18-ligne", "fr-18-legere"], [DEF], dice=[])
    assert t.awaited().kind == "defensive_fire"
    t.send("austria", {"type": "defensive_fire", "artillery": "au-brabeck-3pdr", "target": ATT}, dice=[6, 6, 6, 6, 6, 6])
    withdrawn = t.of(ev.AttackersWithdrawn)
    assert withdrawn and withdrawn[0].rule == "caldiero §15.1"
    hit = {u for u in ("fr-18-ligne", "fr-18-legere") if t.unit(u).status != "good"}
    assert hit and set(withdrawn[0].units) == hit
    # the frame was revised without them before anything else ran (then, with no attacker left, no table)
    fired = next(i for i, e in enumerate(t.events) if isinstance(e, ev.ArtilleryFired))
    after = next(e.ctx for e in t.events[fired:] if isinstance(e, core.DecisionRevised) and e.kind == "assault")
    assert set(after.attackers) == {"fr-18-ligne", "fr-18-legere"} - hit and after.stage == "resumed"
    assert not t.of(ev.AssaultResolved)


def test_the_next_stage_is_one_revision_made_before_the_result_is_carried_out() -> None:
    """caldiero §12.5.4, §12.7 (issue 18, the shape Arrivano's frame now shares): once the table's result is recorded
    (assault_resolved: the frame keeps no copy of it), stage_resolve moves the frame to the stage that follows it,
    `advance`, in one revision, before the result's effects; no result sets it again (an Ex, a Dr move it on to
    their own stages)."""
    t = table({"fr-18-ligne": ATT, "fr-40-ligne": ATT}, {"au-mahoney-jager": DEF})
    attack(t, ["fr-18-ligne", "fr-40-ligne"], [DEF], dice=[4])  # De
    recorded = next(i for i, e in enumerate(t.events) if isinstance(e, ev.AssaultResolved))
    lost = next(i for i, e in enumerate(t.events) if isinstance(e, ev.UnitEliminated))
    revised = [(i, e.ctx) for i, e in enumerate(t.events) if isinstance(e, core.DecisionRevised) and e.kind == "assault"]
    after = [(i, c) for i, c in revised if i > recorded]
    assert [c.stage for _, c in after] == ["advance", "end"] and recorded < after[0][0] < lost < after[1][0]
    assert t.unit("au-mahoney-jager").where == "track" and t.awaited().kind == "advance"
