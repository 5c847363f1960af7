"""What a seat is told of its units out of command (arrivano §5.3): the Variant's `ordered_otherwise` (D8) keeps
the units that choose their own order (artillery, arrivano §11) out of "held to Defence" (review rev-world 1: the hook
passed every test when neutral)."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum import command
from tests.arrivano.harness import RULESET, at_step, open_ground, position

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid


def test_out_of_command_artillery_is_not_told_it_holds_defence():
    """arrivano §11: artillery chooses its own order, so being out of command does not hold it to Defence (the
    Variant's `ordered_otherwise`, D8); the infantry beside it is held and named."""
    far = next(h for h in sorted(GRID.hexes()) if GRID.distance(X, h) == 8)
    gun = next(h for h in sorted(GRID.hexes()) if GRID.is_adjacent(X, h))
    state = position({"6e-legere-i": X, "art-watrin": gun, "ir18-i": "3914"}, leaders={"watrin": far},
                     orders={"W": "advance"})
    t = at_step(state, "W", "movement")
    notices = RULESET.notices(t.state, "france")
    assert len(notices) == 1 and notices[0].startswith("6e-legere-i is out of command"), notices
    assert "art-watrin" not in notices[0]


def test_nothing_is_said_where_no_unit_is_held_to_defence():
    """Issue 19 item 16: with every unit of the activation in command (the general beside it) there is no notice,
    and a move's refusal adds no note (`command.held_note` "")."""
    state = position({"6e-legere-i": X, "ir18-i": "3914"}, leaders={"watrin": X}, orders={"W": "advance"})
    t = at_step(state, "W", "movement")
    assert command.out_of_command_notices(ARRIVANO_VARIANT, RULESET.world(t.state), "france") == []
    assert command.held_note(ARRIVANO_VARIANT, RULESET.world(t.state), ["6e-legere-i"]) == ""
