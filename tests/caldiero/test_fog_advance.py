"""The advance after combat under fog (caldiero §12.7, §20.4), proved by non-interference: two games that differ only
in whether one unit advanced into a hex out of Austria's sight or two with their general (§12.7.3) serve Austria the
same events. Found by review rev-assault2: the hidden `units_advanced` stub cited "§12.7.3" for a stack with its
general and "§12.7" for one unit, so the rule served told Austria that a general and a second unit went."""

from __future__ import annotations

import json

from arbitro.events import caldiero as ev
from arbitro.events.codec import canonical
from tests.caldiero.harness import FOLD, RULESET, activate, position
from tests.caldiero.test_combat import attack
from tests.caldiero.test_fog_served import FOG, served

ATT, DEF = "1417", "1517"


def austria_served_advance(units: list[str]) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's (`served`: the events only, the view aside) when `units` advance into DEF,
    emptied by a De, with Massena in their stack, Austria's one unit left far away (2518)."""
    state = position({"fr-18-ligne": ATT, "fr-40-ligne": ATT, "au-mahoney-jager": DEF, "au-colloredo": "2518"},
                     leaders={"massena": ATT}, orders={"massena": "attack"}, options=FOG)
    t = activate(state, "massena", step="combat")
    attack(t, ["fr-18-ligne", "fr-40-ligne"], [DEF], dice=[3])  # their tied efficiency: 4 picked (§12.3.1)
    assert t.of(ev.AssaultResolved)[-1].result == "De"
    before = FOLD.copy(t.game)
    events = t.send("france", {"type": "advance", "units": units, "to": DEF})
    assert RULESET.unexaminable(t.state, "austria", [ATT, DEF]) == {ATT, DEF}
    austria, umpire = served(before, [e for e in events if not isinstance(e, ev.DistancesTaken)])
    return canonical(json.loads(austria)[:-1]), umpire  # the events, not the view (a stack marker shows where one stands)


def test_whether_a_general_advanced_out_of_sight_changes_no_event_served() -> None:
    alone = austria_served_advance(["fr-18-ligne"])
    stack = austria_served_advance(["fr-18-ligne", "fr-40-ligne"])
    assert b"12.7.3" in stack[1], "the umpire is served the advance with its general as it was (§12.7.3)"
    assert alone[0] == stack[0], "Austria is told by the rule cited that a general and his units advanced unseen"
