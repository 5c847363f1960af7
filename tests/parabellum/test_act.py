"""One decision context for both games (parabellum/act.Act): both rulesets carry out their commands on the kernel's
class, made from the game's ruleset; one roll, one emit, one reading, one refusal; where the books differ (the dice's
words under Caldiero's fog, §20.4; the sightings it records) the Variant answers."""

from __future__ import annotations

import pytest
from arbitro.adjudicator.decisions import open_frame
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.act import Act, refuse
from arbitro.events import core
from arbitro.events.parabellum import EscapeAwaited, PiecesSighted
from tests.arrivano import harness as arrivano
from tests.caldiero import harness as caldiero


def contexts() -> list[tuple[Act, object]]:
    """A context of each game on its set-up position, with the ruleset it was made from."""
    c = caldiero.Table(caldiero.fresh(options=("fog_of_war",)))
    a = arrivano.Table(arrivano.fresh())
    return [(Act(c.decision(dice=[4]), caldiero.RULESET), caldiero.RULESET),
            (arrivano.RULESET.game(a.decision(dice=[4])), arrivano.RULESET)]


def test_both_games_carry_out_their_procedures_on_the_one_kernel_context() -> None:
    for act, ruleset in contexts():
        assert type(act) is Act and act.variant is ruleset.variant  # type: ignore[attr-defined]
        assert act.data is ruleset.scenario_on(act.state)  # type: ignore[attr-defined]
        assert act.steps is ruleset.play_steps  # type: ignore[attr-defined]
        assert act.world() is act.world() and act.world().state is act.state  # one World until the next event
        assert act.reading("dr_rout_retreat") == "additional_2"  # both books' default (results.dr_rout_hexes)


def test_one_refusal_the_engine_s_with_its_citation() -> None:
    with pytest.raises(IllegalCommand) as refused:
        refuse("caldiero §12.6", "no retreat")
    assert refused.value.rule == "caldiero §12.6" and refused.value.message == "no retreat"
    for act, _ in contexts():
        with pytest.raises(IllegalCommand):
            act.reject("arrivano §3.1", "not now")


def test_a_die_is_worded_as_each_book_records_it_under_the_fog() -> None:
    """caldiero §20.4: under the fog a die's words name a unit by its arm; arrivano §11.3.2 keeps the words (a seat
    that may not examine the hex is served the roll without them)."""
    (cal, _), (arr, _) = contexts()
    unit = next(iter(sorted(cal.state.units)))
    assert cal.roll(f"test of {unit}", {"who": unit}, about=(None, "1517")) == (4,)
    rolled = cal.ctx.events[-1]
    assert unit not in rolled.purpose and rolled.detail == {"who": cal.state.units[unit].arm}
    assert rolled.about == ("1517",)
    unit = next(iter(sorted(arr.state.units)))
    assert arr.roll(f"test of {unit}", {"who": unit}, about=("1517",), visible_to=("france",)) == (4,)
    rolled = arr.ctx.events[-1]
    assert rolled.purpose == f"test of {unit}" and rolled.detail == {"who": unit} and rolled.visible_to == ("france",)


def test_sightings_follow_an_event_only_where_the_variant_records_them() -> None:
    """caldiero §20.4: under the fog an event that changes what a seat sees (here the weather, which shortens the
    sight's reach, §20.4.1) is followed by what each seat now examines; Arrivano records none (the neutral reading)."""
    state = caldiero.position({"fr-18-ligne": "1517", "au-banal-grenz": "1316"}, options=("fog_of_war",), weather=3)
    assert "au-banal-grenz" not in state.seen.get("france", [])  # two hexes off, beyond an ice storm's reach
    cal = Act(caldiero.Table(state).decision(), caldiero.RULESET)
    cal.emit(caldiero.ev.WeatherChanged(box=0, rule="caldiero §17.1"))
    sighted = [e for e in cal.ctx.events if isinstance(e, PiecesSighted) and e.seat == "france"]
    assert [e.pieces for e in sighted] == [("au-banal-grenz",)] and sighted[0].rule == "caldiero §20.4"
    (_, _), (arr, _) = contexts()
    assert arr.variant.sightings(arr.world(), cal.ctx.events[0]) == []


def test_a_decision_of_the_game_waits_wherever_it_is_on_the_stack_in_both_games() -> None:
    """One reading for both games (caldiero §3, arrivano §3.1: the procedure goes on once its decision is answered):
    a frame of the game anywhere on the engine's stack keeps `settle` from running the sequence's steps, and only the
    game's own frame on top is settled. An engine's frame (here the umpire's pause for a dispute, arbitro §D.3) is
    not the game's: nothing settles under it. (Caldiero asked "any frame of the game", Arrivano "the game's frame on
    top": they differ only under an engine's frame, where no procedure ever runs.)"""
    for act, _ in contexts():
        assert not act.decision_waiting()
        leader = sorted(act.state.leaders)[0]
        open_frame(act.ctx, "escape", (act.state.leaders[leader].side,), "§8.2.3", "flee", EscapeAwaited(leader=leader))
        assert act.decision_waiting()
        open_frame(act.ctx, "dispute", ("umpire",), "arbitro §D.3", "paused", core.DisputePause(dispute=1))
        assert act.decision_waiting() and not act.settle_decision()
