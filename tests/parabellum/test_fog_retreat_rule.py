"""A retreat whose route Austria may examine only in part is served with the rule its type cites (caldiero §12.6,
the stub's), never its own (projections/parabellum.ROUTE_FIELDS): since bbdea77 the own rule ends in "; caldiero
§12.6.2" when the line went on past an overstacked hex (parabellum/retreat_ground.cited), and under Caldiero's fog (§20.4)
that would tell Austria that a hex it may not examine on the way holds a full French stack, and which way the unit
came (rev-b's review, finding 1; rev-a's finding 7).

Two games, differing only in hidden facts (where the routed French unit stood among three French stacks Austria sees
only as markers, and so which way it went), end in the same position; Austria's view before is the same too. In A
the routed fr-12-legere (with fr-18-ligne in 1306) takes the line 1207, 1206, 1205: 1206 holds two French units, so
its two hexes go on one more (caldiero §12.6.2). In B it stood with fr-25-ligne in 1405 and takes 1305, 1205. Both
lines are the kernel's own (retreat_ground.lines), and the events are what retreat.move_along emits for them.
Only 1205 (and the Austrian units' hexes) lie in Austria's sight. Austria must be served the same bytes."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.retreat_ground import cited
from arbitro.adjudicator.parabellum.retreat_ground import lines
from arbitro.events import parabellum as pb
from arbitro.projections.base import UMPIRE
from arbitro.projections.views import seat_view
from bench.served import served
from tests.caldiero import harness as C

R, K1, K2 = "fr-12-legere", "fr-18-legere", "fr-18-ligne"
FULL = ("fr-25-ligne", "fr-32-ligne")  # two units fill 1206 (caldiero §7.1)
AUSTRIA = {"au-2-banater": "1808", "au-2-wallach-grenz": "1101"}
END = "1205"


def game(start: str) -> tuple[Any, pb.UnitRetreated]:
    """The position with the routed R in `start` (1306 beside K1, or 1405 beside K2), and the retreat the kernel gives R of the two hexes a rout makes (§15.2) ending in 1205."""
    units = {**AUSTRIA, R: start, K1: "1306", K2: "1405", **{f: "1206" for f in FULL}}
    state = C.position(units, options=("fog_of_war",))
    state.units[R].status = "routed"
    table = C.Table(state)
    line = next(ln for ln in lines(CALDIERO_VARIANT, C.RULESET.world(table.game.rules), [R], 2) if ln.to == END)
    return table.game, pb.UnitRetreated(unit=R, path=line.path, rule=cited(CALDIERO, line, str(CALDIERO.ROUT)))


def test_a_partly_unseen_retreat_does_not_tell_austria_it_went_on_past_a_full_hex() -> None:
    before_a, retreat_a = game("1306")
    before_b, retreat_b = game("1405")
    assert retreat_a.path == ("1207", "1206", "1205") and "12.6.2" in retreat_a.rule, retreat_a
    assert retreat_b.path == ("1305", "1205") and "12.6.2" not in retreat_b.rule, retreat_b
    for before, retreat in ((before_a, retreat_a), (before_b, retreat_b)):
        route = {C.RULESET.world(before.rules).state.units[R].hex, *retreat.path}
        assert C.RULESET.unexaminable(before.rules, "austria", route) == route - {END}, "only the end in sight"
    view_a, view_b = (seat_view(C.RULESET, g, "austria")["state"] for g in (before_a, before_b))
    assert view_a == view_b, "Austria's view before: the same three French stack markers"
    assert served(C.RULESET, C.FOLD, before_a, [("france", [retreat_a])], UMPIRE) != \
        served(C.RULESET, C.FOLD, before_b, [("france", [retreat_b])], UMPIRE), "control: the umpire is told each"
    austria_a = served(C.RULESET, C.FOLD, before_a, [("france", [retreat_a])], "austria")
    austria_b = served(C.RULESET, C.FOLD, before_b, [("france", [retreat_b])], "austria")
    assert austria_a == austria_b, "Austria is told the routed unit went on past a full hex it may not examine"
