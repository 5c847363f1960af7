"""An assault's end is recorded by the kernel in both games (§12.1 in both: "Ogni assalto viene risolto in una serie
di fasi che vanno seguite nell'ordine esatto"; parabellum/advance.ended, twenty-second session): `combat_ended`,
citing the game's §12.1, once per assault, after its result and before its frame closes. Caldiero's END recorded it
alone until then, Arrivano's assault had no end event."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.parabellum.assault_frame import ASSAULT
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events import core
from arbitro.events import parabellum as pb
from tests.parabellum.test_efficiency_tie import assault


def played_out(t: Any) -> None:
    """Every decision the assault asks answered with its first listed answer, until none is awaited."""
    for _ in range(12):
        frame = t.awaited()
        if frame is None:
            return
        seat = frame.seats[0]
        t.send(seat, t.legal(seat)[0], dice=[3] * 6)
    raise AssertionError("the assault asks on and on")


def test_the_assault_s_end_is_recorded_in_both_games(variant: Variant) -> None:
    t, _ = assault(variant, attackers_tie=False, defenders_tie=False, dice=[3])
    played_out(t)
    ended = [i for i, e in enumerate(t.events) if isinstance(e, pb.CombatEnded)]
    assert [t.events[i].rule for i in ended] == [f"{variant.book} §12.1"]
    resolved = max(i for i, e in enumerate(t.events) if isinstance(e, pb.AssaultResolved))
    closed = [i for i, e in enumerate(t.events) if isinstance(e, core.DecisionResolved) and e.kind == ASSAULT]
    assert resolved < ended[0] and closed and ended[0] < closed[-1], "after the result, before the frame closes"
