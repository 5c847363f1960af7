"""rev-m (sixteenth session): caldiero §19.1.1 frees Augereau's formation once one of its units enters a hex of
Caldiero (`scenario_rules.check_direction_release`, event `direction_released`). The event names no unit, so the fog's
redaction (parabellum/ruleset.hides: an event naming a hidden piece) serves it whole to Austria wherever the unit
entered (caldiero §20.4 "Si può esaminare uno stack nemico solo se si ha una LoS"): two games differing only in where
a French unit, out of Austria's sight all along, ended its move (a hex of Caldiero, or the hex beside it) serve
Austria different bytes, telling it that a unit of Augereau's stands in Caldiero."""

from __future__ import annotations

from arbitro.projections.base import UMPIRE
from bench.served import markers_aside, served
from tests.caldiero.test_fog_served import FOG, FOLD, RULESET, activate, position

START, CALDIERO_HEX, ELSEWHERE = "1512", "1613", "1513"  # 1613: caldiero §18's village hex; 1513 beside it, not


def moved_to(to: str) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's (one item per command, as every channel serves a seat, engine-rules §V.6;
    where the stack marker stands aside, `markers_aside`: that a stack is there is public under §20.4, whose it is
    not) when the 5e Légère of Augereau's formation walks from START to `to`, every
    hex out of Austria's sight (its only unit far off at 2520)."""
    state = position({"fr-5-legere": START, "au-colloredo": "2520"}, leaders={"augereau": START},
                     orders={"augereau": "manoeuvre"}, options=FOG)
    assert RULESET.unexaminable(state, "austria", [START, CALDIERO_HEX, ELSEWHERE]) == {START, CALDIERO_HEX, ELSEWHERE}
    t = activate(state, "augereau")
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "move", "units": ["fr-5-legere"], "to": to, "path": [to]}))]
    return markers_aside(served(RULESET, FOLD, before, made, "austria")), served(RULESET, FOLD, before, made, UMPIRE)


def test_where_an_unseen_unit_ended_its_move_is_not_told_by_the_release() -> None:
    village, beside = moved_to(CALDIERO_HEX), moved_to(ELSEWHERE)
    assert village[1] != beside[1], "the umpire's log holds the release"
    assert village[0] == beside[0], "Austria learns an unseen unit of Augereau's entered Caldiero"
